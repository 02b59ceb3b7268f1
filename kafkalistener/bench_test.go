//go:build !wasm

package kafkalistener

import (
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// BenchmarkRequest measures the listener's cost of one request, on a
// cluster whose network has no latency, so that what is timed is the
// listener's own overhead beyond the simulated latency: framing,
// decoding, the driver's turn, the recorded statement (parsed and
// applied), the simulation's handling and the response's encoding.
// ApiVersions never enters the simulation; the others do. A
// session holds at most 5,000 recorded lines, so every 1,000 requests a
// fresh one starts, untimed. Virtual time has millisecond resolution, so
// a simulated request's answer waits for the wall clock's next
// millisecond: its ns/op is about 1 ms; cpu-µs/op is the process's CPU
// time per request (listener and client), the overhead itself.
func BenchmarkRequest(b *testing.B) {
	for _, tc := range []struct {
		name string
		req  func() kmsg.Request
	}{
		{"ApiVersions", func() kmsg.Request {
			r := kmsg.NewPtrApiVersionsRequest()
			r.Version = 3
			return r
		}},
		{"FindCoordinator", func() kmsg.Request {
			r := kmsg.NewPtrFindCoordinatorRequest()
			r.Version = 3
			r.CoordinatorKey, r.CoordinatorType = "t1", 1
			return r
		}},
		// Metadata and ListTransactions enter the simulation too (they
		// are drawn and recorded): kgo sends Metadata often, kadm
		// ListTransactions to every broker.
		{"Metadata", func() kmsg.Request {
			r := kmsg.NewPtrMetadataRequest()
			r.Version = 9
			return r
		}},
		{"ListTransactions", func() kmsg.Request { return kmsg.NewPtrListTransactionsRequest() }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var s *session
			var c *kclient
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				if i%1000 == 0 {
					b.StopTimer()
					if s != nil {
						s.cancel()
					}
					s = startSession(b, "cluster brokers=3 latency=0\n")
					c = newClient(b, s, "bench")
					b.StartTimer()
				}
				c.request(0, tc.req())
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// cpuTime is the process's user and system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
