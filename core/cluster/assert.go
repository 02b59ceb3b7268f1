package cluster

import (
	"fmt"
	"slices"
)

// Assert checks what must hold whatever a script breaks: the event
// queue's order (sim.World.Fault) and, on every replica of every
// partition, 0 ≤ LSO ≤ high watermark ≤ log end offset
// (partition.Log.CheckOffsets). No mechanism switches these off, so a
// breach is a bug of the simulator, not a lesson; hosts run Assert after
// each statement and report its error. The first breach is returned, in
// broker then partition order so the message is deterministic.
func (c *Cluster) Assert() error {
	if err := c.World.Fault(); err != nil {
		return err
	}
	for i, d := range c.Disks {
		var bad []string
		for _, log := range d.Replicas() {
			if !log.OffsetsOrdered() {
				bad = append(bad, log.CheckOffsets().Error())
			}
		}
		if len(bad) > 0 {
			slices.Sort(bad)
			return fmt.Errorf("broker-%d's replica %s", i, bad[0])
		}
	}
	return nil
}
