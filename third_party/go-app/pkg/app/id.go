package app

import (
	"math/rand/v2"
)

// newID returns a random version-4 UUID string.
//
// txnlab: upstream calls github.com/google/uuid, which reads crypto/rand
// and, through it, links the FIPS 140 DRBG and AES into the wasm. The ids
// go-app makes (a device id, a broadcast channel's store id) only need to
// be unique, not secret, so the runtime-seeded math/rand/v2 generator
// does.
func newID() string {
	var b [16]byte
	hi, lo := rand.Uint64(), rand.Uint64()
	for i := range 8 {
		b[i], b[8+i] = byte(hi>>(8*i)), byte(lo>>(8*i))
	}
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&0x0f])
	}
	return string(out)
}
