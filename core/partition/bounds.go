package partition

import "fmt"

// CheckOffsets asserts the order of a replica's offsets that Kafka's
// Partition and UnifiedLog maintain (0 ≤ LSO ≤ high watermark ≤ log end
// offset): the high watermark never passes what the replica holds, and
// the last stable offset never passes the high watermark. These are
// assertions, not mechanisms: no `break` switches them off, so any breach
// is a bug of the simulator. It returns nil when they hold.
//
// Hosts call it on every replica after every statement, so the replica's
// name is only rendered once a breach is found.
func (l *Log) CheckOffsets() error {
	hw, leo, lso := l.HighWatermark, l.LogEndOffset(), l.LSO()
	if offsetsOrdered(hw, leo, lso) {
		return nil
	}
	return offsetsInOrder(l.TP.String(), hw, leo, lso)
}

// offsetsOrdered reports whether 0 ≤ lso ≤ hw ≤ leo.
func offsetsOrdered(hw, leo, lso int64) bool {
	return hw >= 0 && hw <= leo && lso >= 0 && lso <= hw
}

func offsetsInOrder(name string, hw, leo, lso int64) error {
	if hw < 0 || hw > leo {
		return fmt.Errorf("%s: high watermark %d is outside [0, log end offset %d]", name, hw, leo)
	}
	if lso < 0 || lso > hw {
		return fmt.Errorf("%s: last stable offset %d is outside [0, high watermark %d]", name, lso, hw)
	}
	return nil
}
