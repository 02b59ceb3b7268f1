//go:build !wasm

package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
)

// wasmName is the wasm's path inside the web directory, where go-app's
// loader fetches it from (/web/app.wasm).
const wasmName = "app.wasm"

// wasmAsset is the built wasm and its encodings, held in memory so that
// the bytes served always match the version announced to the service
// worker, even if `make wasm` rewrites the file while the server runs.
type wasmAsset struct {
	raw   []byte
	byEnc map[string][]byte // content coding -> body; "identity" is raw
	hash  string
}

// loadWasm reads dir/app.wasm and whichever sidecars hold exactly it. A
// stale sidecar is reported and skipped rather than served: a browser that
// got an old wasm under a new version would keep it until the next build.
func loadWasm(root *os.Root, logf func(string, ...any)) (*wasmAsset, error) {
	raw, err := fs.ReadFile(root.FS(), wasmName)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (build it with `make wasm`)", path.Join(root.Name(), wasmName), err)
	}
	sum := sha256.Sum256(raw)
	a := &wasmAsset{
		raw:   raw,
		byEnc: map[string][]byte{encIdentity: raw},
		hash:  hex.EncodeToString(sum[:]),
	}
	for _, sc := range sidecars {
		data, err := fs.ReadFile(root.FS(), wasmName+sc.suffix)
		switch {
		case err != nil:
			logf("%s%s missing: serving it without %s (run `make wasm`)", wasmName, sc.suffix, sc.enc)
		case !matches(sc.enc, data, raw):
			logf("%s%s does not hold the current %s: serving it without %s (run `make wasm`)", wasmName, sc.suffix, wasmName, sc.enc)
		default:
			a.byEnc[sc.enc] = data
		}
	}
	return a, nil
}

// ensure compresses the encodings no sidecar provided, for the static
// export, which must ship every encoding whatever the web directory had.
func (a *wasmAsset) ensure() error {
	for _, sc := range sidecars {
		if _, ok := a.byEnc[sc.enc]; ok {
			continue
		}
		data, err := compress(sc.enc, a.raw, BestBrotli)
		if err != nil {
			return err
		}
		a.byEnc[sc.enc] = data
	}
	return nil
}

// ServeHTTP sends the wasm in the best coding the client accepts.
func (a *wasmAsset) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	enc := negotiate(r.Header.Get("Accept-Encoding"), a.byEnc)
	body := a.byEnc[enc]
	// One strong ETag per coding: the bytes differ, and a cache that
	// revalidates a gzip body with a brotli tag must not get a 304.
	etag := strconv.Quote(a.hash[:20] + "-" + enc)
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", etag)
	if etagListed(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	// Written by hand rather than with http.ServeContent, which drops
	// Content-Length whenever Content-Encoding is set. The loader fetches
	// the whole file, so ranges are not offered.
	h.Set("Content-Type", "application/wasm")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Accept-Ranges", "none")
	if enc != encIdentity {
		h.Set("Content-Encoding", enc)
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// etagListed reports whether an If-None-Match header names etag, with the
// weak comparison RFC 9110 §13.1.2 prescribes for it.
func etagListed(header, etag string) bool {
	for tag := range strings.SplitSeq(header, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == "*" || tag == etag {
			return true
		}
	}
	return false
}

// negotiate picks the content coding for an Accept-Encoding header
// (RFC 9110 §12.5.3): the available coding with the highest q-value,
// brotli before gzip on a tie, identity when nothing else is acceptable.
func negotiate(header string, available map[string][]byte) string {
	q := map[string]float64{}
	star, hasStar := 0.0, false
	for part := range strings.SplitSeq(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		weight := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					weight = f
				} else {
					weight = 0
				}
			}
		}
		if name == "x-gzip" {
			name = encGzip
		}
		if name == "*" {
			star, hasStar = weight, true
			continue
		}
		q[name] = weight
	}
	best, bestQ := encIdentity, 0.0
	for _, enc := range []string{encBrotli, encGzip} {
		if _, ok := available[enc]; !ok {
			continue
		}
		w, listed := q[enc]
		if !listed && hasStar {
			w = star
		}
		if w > bestQ {
			best, bestQ = enc, w
		}
	}
	return best
}

// siteVersion hashes every file of the web directory except the derived
// sidecars. go-app's service worker caches the whole site under this
// version, so it must change when the wasm or any stylesheet or icon does,
// and stay put across restarts when nothing did (an unset version changes
// at every start and makes every visitor download everything again).
func siteVersion(root *os.Root, wasm *wasmAsset) (string, error) {
	h := sha256.New()
	var names []string
	err := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && !isWasmFile(name) {
			names = append(names, name)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	slices.Sort(names)
	fmt.Fprintf(h, "%s %s\n", wasmName, wasm.hash)
	for _, name := range names {
		f, err := root.Open(name)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s ", name)
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// isWasmFile reports whether name (relative to the web directory) is the
// wasm or one of its sidecars, which the server holds in memory.
func isWasmFile(name string) bool {
	if name == wasmName {
		return true
	}
	for _, sc := range sidecars {
		if name == wasmName+sc.suffix {
			return true
		}
	}
	return false
}
