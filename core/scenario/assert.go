package scenario

// assertAfter runs the cluster's assertions (cluster.Assert's: the event
// queue's order, 0 ≤ LSO ≤ HW ≤ log end on every replica) once statement
// st has finished, and turns a breach into the session's error at st's
// line. Every run goes through it: `txnlab run`, the playground, the
// lessons' blocks, the explorer's runs. Only the replicas changed since
// the previous check are checked (cluster.AssertChanged: every replica
// after each of the heavy benchmark's 2,575 statements was a seventh of
// its instructions, and the explorer, which adds its statements one at a
// time, paid it at each); Run ends with a check of all of them
// (assertAll), so a field set by hand (a test) is caught by the end of
// the run at the latest.
func (s *Session) assertAfter(st Stmt) {
	if s.Err != nil || s.active != nil || s.Cluster == nil {
		return
	}
	s.report(st, s.Cluster.AssertChanged())
}

// assertAll runs cluster.Assert on every replica once the script has
// run, reporting a breach at its last statement.
func (s *Session) assertAll() {
	if s.Err != nil || s.active != nil || s.Cluster == nil || len(s.Script.Statements) == 0 {
		return
	}
	s.report(s.Script.Statements[len(s.Script.Statements)-1], s.Cluster.Assert())
}

func (s *Session) report(st Stmt, err error) {
	if err != nil {
		s.Err = s.errorf(st, "internal assertion failed (a txnlab bug, not Kafka behaviour): %v", err)
	}
}
