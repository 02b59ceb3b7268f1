package kafkalistener

// Following a session as it is recorded: the playground's Live mode
// (app/server's Live) reads the recording so far and every run of lines
// written after it. The followers belong to the driver goroutine, like
// the recording they read, so a follower never misses or repeats a line.

import "txnlab/core/scenario"

// followBuffer is how many runs of lines a follower may fall behind
// before it is let go (its channel closes: the page sees the stream end
// and can reload the whole recording).
const followBuffer = 4096

// Follow returns the recording so far and a channel of each run of lines
// recorded after it; the channel closes when the session ends, when the
// follower falls followBuffer writes behind, or when cancel is called.
func (l *Listener) Follow() (string, <-chan string, func()) {
	ch := make(chan string, followBuffer)
	got := make(chan string, 1)
	l.run(func() {
		if l.followers == nil {
			l.followers = map[chan string]bool{}
		}
		got <- l.recorded.String()
		select {
		case <-l.stopped:
			close(ch) // the session is over: nothing will follow
		default:
			l.followers[ch] = true
		}
	})
	script := <-got
	cancel := func() {
		l.run(func() {
			if l.followers[ch] {
				delete(l.followers, ch)
				close(ch)
			}
		})
	}
	return script, ch, cancel
}

// Apply applies a statement a page sent (a fault card) as one typed at
// the console: at the current moment, recorded.
func (l *Listener) Apply(stmt string) error { return l.Statement(stmt) }

// tellFollowers hands what was just recorded to every follower.
func (l *Listener) tellFollowers(s string) {
	for ch := range l.followers {
		select {
		case ch <- s:
		default:
			delete(l.followers, ch)
			close(ch)
		}
	}
}

// endFollowers closes every follower's channel: the session is over.
func (l *Listener) endFollowers() {
	for ch := range l.followers {
		delete(l.followers, ch)
		close(ch)
	}
}

// FromScript runs a setup script (file names it in errors) and opens a
// listener over the cluster it makes: what `txnlab kafka`, `serve
// --kafka` and the tests start from.
func FromScript(cfg Config, file, src string) (*Listener, error) {
	script, err := scenario.Parse(file, src)
	if err != nil {
		return nil, err
	}
	sess := scenario.NewSession(file, script)
	for !sess.Done() {
		sess.Step()
	}
	if sess.Err != nil {
		return nil, sess.Err
	}
	return New(cfg, sess, src)
}
