package partition

import "fmt"

// CheckOffsets asserts the order of a replica's offsets that Kafka's
// Partition and UnifiedLog maintain (0 ≤ LSO ≤ high watermark ≤ log end
// offset): the high watermark never passes what the replica holds, and
// the last stable offset never passes the high watermark. These are
// assertions, not mechanisms: no `break` switches them off, so any breach
// is a bug of the simulator. It returns nil when they hold.
func (l *Log) CheckOffsets() error {
	return offsetsInOrder(l.TP.String(), l.HighWatermark, l.LogEndOffset(), l.LSO())
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
