package explore

import "testing"

func BenchmarkGenerate(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Generate(Options{Seed: uint64(i%10 + 1)})
	}
}
