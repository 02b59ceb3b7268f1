//go:build !wasm

package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"txnlab/classroom"
)

// TestClassLoad is the class's load test (make class-load; not in make
// test, it takes ~30 s): 300 students' event streams over two txnlab
// servers sharing one NATS, an instructor stepping on one of them. It
// reports how long a step takes from the instructor's POST to each
// student's stream, and what a class and a student's connection cost in
// memory. Bounded: 300 students, 30 steps, 10 s a step at most.
func TestClassLoad(t *testing.T) {
	if os.Getenv("TXNLAB_CLASS_LOAD") == "" {
		t.Skip("set TXNLAB_CLASS_LOAD=1 (make class-load)")
	}
	const students, steps = 300, 30
	nats := sharedNATS(t)
	servers := []string{classServer(t, nats), classServer(t, nats)}
	_, body := call(t, "POST", servers[0]+"/api/class/create", nil, "")
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)

	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	// got[s][i] is when student s's stream carried step i.
	got := make([][]time.Time, students)
	var mu sync.Mutex
	arrived := make([]int, steps+1)
	cond := sync.NewCond(&mu)
	var ready sync.WaitGroup
	for s := range students {
		got[s] = make([]time.Time, steps+1)
		base := servers[s%2]
		st, body := call(t, "POST", base+"/api/class/join", nil, `{"code":"`+c.Code+`"}`)
		if st != 200 {
			t.Fatalf("join %d: %d %s", s, st, body)
		}
		var j classroom.Joined
		json.Unmarshal([]byte(body), &j)
		res, err := http.Get(base + "/api/class/events?id=" + j.ID + "&t=" + j.Student)
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("events %d: %v", s, err)
		}
		t.Cleanup(func() { res.Body.Close() })
		ready.Add(1)
		go func() {
			sc := bufio.NewScanner(res.Body)
			first := true
			for sc.Scan() {
				if first {
					first = false
					ready.Done()
				}
				data, ok := strings.CutPrefix(sc.Text(), "data: ")
				if !ok || !strings.Contains(data, `"script"`) {
					continue
				}
				now := time.Now()
				var st classroom.State
				if json.Unmarshal([]byte(data), &st) != nil || st.Step < 1 || st.Step > steps {
					continue
				}
				mu.Lock()
				if got[s][st.Step].IsZero() {
					got[s][st.Step] = now
					arrived[st.Step]++
					cond.Broadcast()
				}
				mu.Unlock()
			}
		}()
	}
	ready.Wait()
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	secret := map[string]string{"X-Class-Secret": c.Secret}
	sent := make([]time.Time, steps+1)
	for i := 1; i <= steps; i++ {
		sent[i] = time.Now()
		if st, body := call(t, "POST", servers[0]+"/api/class/state?id="+c.ID, secret, fmt.Sprintf(`{"script":"cluster brokers=3","step":%d}`, i)); st != 200 {
			t.Fatalf("step %d: %d %s", i, st, body)
		}
		deadline := time.AfterFunc(10*time.Second, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
		mu.Lock()
		for arrived[i] < students && time.Since(sent[i]) < 10*time.Second {
			cond.Wait()
		}
		n := arrived[i]
		mu.Unlock()
		deadline.Stop()
		if n < students {
			t.Fatalf("step %d reached %d of %d students in 10 s", i, n, students)
		}
	}
	var each, last []time.Duration
	for i := 1; i <= steps; i++ {
		var worst time.Duration
		for s := range students {
			d := got[s][i].Sub(sent[i])
			each = append(each, d)
			worst = max(worst, d)
		}
		last = append(last, worst)
	}
	pct := func(ds []time.Duration, p float64) time.Duration {
		slices.Sort(ds)
		return ds[int(float64(len(ds)-1)*p)].Round(10 * time.Microsecond)
	}
	t.Logf("%d students over 2 servers, one NATS, %d steps", students, steps)
	t.Logf("step to a student: p50 %v, p99 %v, max %v", pct(each, 0.5), pct(each, 0.99), pct(each, 1))
	t.Logf("step to every student (the last of 300): p50 %v, p99 %v", pct(last, 0.5), pct(last, 0.99))
	t.Logf("heap per student connection (server and test client together): %.1f kB", float64(after.HeapAlloc-before.HeapAlloc)/students/1e3)

	// Memory per class: 100 more classes, each with its instructor
	// following (a watcher each on this server), on the embedded NATS.
	hub, err := classroom.Open(classroom.Config{MaxClasses: 1000, MaxClassesPerOwner: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	runtime.GC()
	runtime.ReadMemStats(&before)
	const classes = 100
	for range classes {
		c, err := hub.Create("test")
		if err != nil {
			t.Fatal(err)
		}
		hub.SetState(c.ID, c.Secret, classroom.StateIn{Script: strings.Repeat("app send orders/0 k=v\n", 100), Step: 1})
		f, err := hub.Follow(c.ID, c.View)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		for e := range f.Events {
			if e.Name == "nats" {
				break
			}
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	t.Logf("heap per class (a 2.2 kB script, its instructor following; NATS embedded): %.1f kB", float64(after.HeapAlloc-before.HeapAlloc)/classes/1e3)
}
