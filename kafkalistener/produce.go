//go:build !wasm

package kafkalistener

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// decodedProduce is a Produce request's batches, decoded by the
// connection's reader (off the driver): each partition's batch, or the
// error that partition is answered with.
type decodedProduce struct {
	parts []decodedPartition
	// failed: some partition's batch is invalid, so the whole request
	// is answered without entering the simulation, as Kafka fails a
	// request whose batch is corrupt.
	failed bool
}

type decodedPartition struct {
	tp    protocol.TopicPartition
	batch protocol.RecordBatch
	code  int16
	why   string
}

func decodeProduce(p *kmsg.ProduceRequest) *decodedProduce {
	d := &decodedProduce{}
	for _, t := range p.Topics {
		for _, pt := range t.Partitions {
			dp := decodedPartition{tp: protocol.TopicPartition{Topic: t.Topic, Partition: pt.Partition}}
			b, err := DecodeBatch(pt.Records)
			if err != nil {
				dp.code, dp.why = errCorruptMessage, err.Error()
				if e, ok := err.(*errBatch); ok {
					dp.code = e.code
				}
				d.failed = true
			}
			dp.batch = b
			d.parts = append(d.parts, dp)
		}
	}
	return d
}
