package cluster

import (
	"fmt"
	"slices"
)

// Assert checks what must hold whatever a script breaks: the event
// queue's order (sim.World.Fault) and, on every replica of every
// partition, 0 ≤ LSO ≤ high watermark ≤ log end offset
// (partition.Log.CheckOffsets). No mechanism switches these off, so a
// breach is a bug of the simulator, not a lesson; hosts run Assert or
// AssertChanged after each statement and report its error. The first breach is returned, in
// broker then partition order so the message is deterministic.
func (c *Cluster) Assert() error {
	return c.assert(false)
}

// AssertChanged is Assert for the replicas changed since the previous
// Assert or AssertChanged (broker.Disk.Changed): what a host runs after
// each statement, where checking the hundreds of untouched replicas again
// cost a seventh of the simulation's instructions. It finds exactly what
// Assert would when every change went through partition.Log's methods
// (partition's TestOffsetsChangeOnlyThroughMethods keeps it so), since a
// replica untouched since a check that passed still passes; a field set
// by hand is caught by the next Assert. A breach it reported is not
// reported again by the next AssertChanged: the run stops at the first.
func (c *Cluster) AssertChanged() error {
	return c.assert(true)
}

func (c *Cluster) assert(changedOnly bool) error {
	if err := c.World.Fault(); err != nil {
		return err
	}
	for i, d := range c.Disks {
		logs := d.Changed()
		if !changedOnly {
			logs = d.Replicas()
		}
		var bad []string
		for _, log := range logs {
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
