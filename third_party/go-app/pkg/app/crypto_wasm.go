//go:build wasm

package app

import "github.com/maxence-charriere/go-app/v10/pkg/errors"

// txnlab: the browser build has no AES (crypto/aes, crypto/cipher and
// crypto/rand with its FIPS 140 DRBG weigh about 60 kB of wasm code);
// txnlab never encrypts a stored value. Context.Encrypt, Context.Decrypt
// and an encrypted persisted state therefore fail with this error in the
// wasm, as they would with a broken key.
var errNoCrypto = errors.New("encryption is not built into txnlab's wasm")

func encrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }

func decrypt(key string, v []byte) ([]byte, error) { return nil, errNoCrypto }
