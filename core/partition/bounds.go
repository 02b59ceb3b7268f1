package partition

import "fmt"

// CheckOffsets asserts the order of a replica's offsets that Kafka's
// Partition and UnifiedLog maintain (0 ≤ LSO ≤ high watermark ≤ log end
// offset): the high watermark never passes what the replica holds, and
// the last stable offset never passes the high watermark. These are
// assertions, not mechanisms: no `break` switches them off, so any breach
// is a bug of the simulator. It returns nil when they hold.
func (l *Log) CheckOffsets() error {
	if l.OffsetsOrdered() {
		return nil
	}
	return offsetsInOrder(l.Name(), l.HighWatermark, l.LogEndOffset(), l.LSO())
}

// OffsetsOrdered reports whether CheckOffsets would find nothing wrong.
// Hosts ask it of every replica after every statement (cluster.Assert:
// a million times in the heavy benchmark), so it builds nothing and
// returns no interface; only a breach pays for CheckOffsets' message.
func (l *Log) OffsetsOrdered() bool {
	hw := l.HighWatermark
	if hw < 0 || hw > l.LogEndOffset() {
		return false
	}
	lso := l.LSO()
	return lso >= 0 && lso <= hw
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
