package scenario

// assertAfter runs the cluster's assertions (cluster.Assert: the event
// queue's order, 0 ≤ LSO ≤ HW ≤ log end on every replica) once statement
// st has finished, and turns a breach into the session's error at st's
// line. Every run goes through it: `txnlab run`, the playground, the
// lessons' blocks, the explorer's runs.
func (s *Session) assertAfter(st Stmt) {
	if s.Err != nil || s.active != nil || s.Cluster == nil {
		return
	}
	if err := s.Cluster.Assert(); err != nil {
		s.Err = s.errorf(st, "internal assertion failed (a txnlab bug, not Kafka behaviour): %v", err)
	}
}
