//go:build !wasm

package classroom

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// codeAlphabet is Crockford's base32: no I, L, O or U, so a code read
// off a projector is not mistyped; NormalizeCode maps the look-alikes.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// codeLen is a join code's length: 10 characters of 5 bits, 50 bits,
// over the 40 a guesser must face (at the rate bound, a guesser needs
// ~10^13 tries per class).
const codeLen = 10

// newCode draws a join code.
func newCode() string {
	var b [codeLen]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = codeAlphabet[b[i]&31]
	}
	return string(b[:])
}

// FormatCode splits a code for reading aloud: "ABCDE-FGHJK".
func FormatCode(c string) string {
	if len(c) != codeLen {
		return c
	}
	return c[:5] + "-" + c[5:]
}

// NormalizeCode reads a code as typed: case, spaces and dashes ignored,
// O read as 0 and I, L as 1. Anything else outside the alphabet leaves
// it invalid (the wrong length or a character no code has).
func NormalizeCode(s string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(s) {
		switch {
		case r == ' ' || r == '-':
			continue
		case r == 'O':
			r = '0'
		case r == 'I' || r == 'L':
			r = '1'
		case !strings.ContainsRune(codeAlphabet, r):
			return ""
		}
		if b.Len() > codeLen {
			return ""
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newToken draws a secret: 256 bits, URL-safe.
func newToken() string {
	var b [32]byte
	rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// newID draws a class's or a student's id: 64 bits in hex, safe in a NATS
// subject or key.
func newID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// hashToken is what the bucket holds of a secret: whoever reads NATS
// cannot drive a class with it.
func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}

// sameToken compares a presented secret with a stored hash in constant time.
func sameToken(presented, hash string) bool {
	return presented != "" && subtle.ConstantTimeCompare([]byte(hashToken(presented)), []byte(hash)) == 1
}

// idOK accepts what newID makes, and nothing a key could be made of.
func idOK(s string) bool {
	if len(s) != 16 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}
