package sim

// Rand is a small seeded PRNG (SplitMix64). The simulation owns it instead
// of using math/rand so that golden traces stay byte-identical across Go
// releases and between native and WebAssembly builds; test vectors pin it.
type Rand struct{ state uint64 }

// NewRand returns a stream seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{state: seed} }

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Intn returns a uniform integer in [0, n). n must be positive.
func (r *Rand) Intn(n int) int {
	if n <= 0 {
		panic("sim: Intn with n <= 0")
	}
	// Rejection sampling keeps the draw unbiased for any n.
	limit := ^uint64(0) - (^uint64(0) % uint64(n))
	for {
		v := r.Uint64()
		if v < limit {
			return int(v % uint64(n))
		}
	}
}

// Range returns a uniform integer in [lo, hi]; lo when hi <= lo.
func (r *Rand) Range(lo, hi int64) int64 {
	if hi <= lo {
		return lo
	}
	return lo + int64(r.Intn(int(hi-lo+1)))
}

// Chance reports true with probability num/den, using integers only.
func (r *Rand) Chance(num, den int) bool { return r.Intn(den) < num }

// DeriveSeed gives each concern (the network, each client, the explorer)
// its own stream from the scenario's seed, so one more draw in one place
// does not shift the others.
func DeriveSeed(seed uint64, concern string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(concern); i++ {
		h ^= uint64(concern[i])
		h *= 1099511628211
	}
	r := Rand{state: seed ^ h}
	return r.Uint64()
}
