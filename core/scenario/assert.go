package scenario

// assertAfter runs the cluster's assertions (cluster.Assert: the event
// queue's order, 0 ≤ LSO ≤ HW ≤ log end on every replica) once statement
// st has finished, and turns a breach into the session's error at st's
// line. Every run goes through it: `txnlab run`, the playground, the
// lessons' blocks, the explorer's runs. Between statements only the
// replicas changed since the previous check are checked
// (cluster.AssertChanged: every replica after each of the heavy
// benchmark's 2,575 statements was a fifth of its time); after the last
// statement, all of them, so a field set by hand (a test) is caught by
// the end of the run at the latest.
func (s *Session) assertAfter(st Stmt) {
	if s.Err != nil || s.active != nil || s.Cluster == nil {
		return
	}
	check := s.Cluster.AssertChanged
	if s.pc >= len(s.Script.Statements) {
		check = s.Cluster.Assert
	}
	if err := check(); err != nil {
		s.Err = s.errorf(st, "internal assertion failed (a txnlab bug, not Kafka behaviour): %v", err)
	}
}
