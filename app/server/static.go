//go:build !wasm

package server

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	pathpkg "path"
	"path/filepath"
	"strings"
	"txnlab/app/pages"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// WriteStatic writes the whole site into dir as plain files, for any
// static host or CDN (python3 -m http.server included): no rewrite rule
// is needed. Every page is a directory's index.html (/playground is
// playground/index.html), which every static server answers at
// /playground/ and redirects /playground to, query and fragment kept, so
// share links (#s=…) and ?scenario= links work; the wasm takes the
// slash off the address before go-app routes it (cmd/wasm). Then go-app's
// scripts and manifest, the lesson data, and the web directory with the
// wasm in all three codings. The page bakes in the wasm's decompressed
// size, so the loading bar stays right behind a host that compresses on
// its own.
//
// The service worker caches each page at its directory address, and
// answers an address without the slash from there: a static host
// answers it with a redirect, which a service worker may not hand to a
// navigation, and offline there is no host to ask.
//
// A static host cannot send this server's headers; WriteStatic writes
// them in the _headers format several hosts read, as a starting point.
func (s *Server) WriteStatic(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	h := newPagesHandler(s.version, len(s.wasm.raw), s.lessons.cacheable())
	h.CacheableResources = staticAddresses(h.CacheableResources)
	worker, ok := staticWorker(app.DefaultAppWorkerJS)
	if !ok {
		return errors.New("go-app's service worker changed: the static export's fallback for addresses without a slash no longer applies")
	}
	h.ServiceWorkerTemplate = worker
	srv := httptest.NewServer(h)
	defer srv.Close()
	files := map[string]string{} // address → file
	for _, f := range []string{"/wasm_exec.js", "/app.js", "/app-worker.js", "/manifest.webmanifest", "/app.css"} {
		files[f] = f
	}
	for _, p := range append(pages.Paths(), s.lessons.pages...) {
		files[p] = staticPageFile(p)
	}
	for addr, file := range files {
		res, err := http.Get(srv.URL + addr)
		if err != nil {
			return fmt.Errorf("rendering %s: %w", addr, err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			return fmt.Errorf("rendering %s: status %d, %v", addr, res.StatusCode, err)
		}
		out := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(file, "/")))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, body, 0o644); err != nil {
			return err
		}
	}
	if err := s.lessons.writeStatic(dir); err != nil {
		return fmt.Errorf("writing the lesson data: %w", err)
	}
	web := filepath.Join(dir, "web")
	err := fs.WalkDir(s.root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if isWasmFile(name) {
			return nil // written from memory below
		}
		out := filepath.Join(web, filepath.FromSlash(name))
		switch {
		case d.IsDir():
			return os.MkdirAll(out, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := fs.ReadFile(s.root.FS(), name)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		return fmt.Errorf("copying %s: %w", s.cfg.WebDir, err)
	}
	if err := s.wasm.ensure(); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(web, wasmName), s.wasm.raw, 0o644); err != nil {
		return err
	}
	for _, sc := range sidecars {
		if err := os.WriteFile(filepath.Join(web, wasmName+sc.suffix), s.wasm.byEnc[sc.enc], 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "_headers"), []byte(staticHeaders()), 0o644)
}

// staticHeaders renders this server's response headers for static hosts
// that read a _headers file.
func staticHeaders() string {
	return "/*\n" +
		"  Content-Security-Policy: " + contentSecurityPolicy + "\n" +
		"  X-Content-Type-Options: nosniff\n" +
		"  X-Frame-Options: DENY\n" +
		"  Referrer-Policy: no-referrer\n" +
		"  Cross-Origin-Opener-Policy: same-origin\n" +
		"/web/app.wasm\n" +
		"  Content-Type: application/wasm\n" +
		"  Cache-Control: no-cache\n"
}

// staticPageFile is the file that holds the page at path: its
// directory's index.html.
func staticPageFile(path string) string {
	return strings.TrimSuffix(path, "/") + "/index.html"
}

// staticAddresses rewrites the service worker's list for the export: a
// page is cached at its directory address (/playground/,
// /playground/?scenario=…), the address a static host answers without a
// redirect; files (the wasm, the lesson data) stay as they are.
func staticAddresses(list []string) []string {
	out := make([]string, 0, len(list))
	for _, a := range list {
		path, query, _ := strings.Cut(a, "?")
		if !strings.HasSuffix(path, "/") && !strings.Contains(pathpkg.Base(path), ".") {
			path += "/"
		}
		if query != "" {
			path += "?" + query
		}
		out = append(out, path)
	}
	return out
}

// staticWorker is go-app's service worker with one change: a navigation
// the cache does not hold, at an address without a final slash, is
// answered with the page cached at the address with it. It reports false
// if go-app's worker no longer has the function it replaces.
func staticWorker(worker string) (string, bool) {
	const upstream = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  return await fetch(request);
}`
	const static = `async function fetchWithCache(request) {
  const cachedResponse = await caches.match(request);
  if (cachedResponse) {
    return cachedResponse;
  }
  // txnlab's static export: a page is a directory's index.html, cached
  // at /page/; /page would be a redirect, which a navigation may not be
  // answered with, and offline there is nobody to redirect.
  if (request.mode === "navigate") {
    const url = new URL(request.url);
    if (!url.pathname.endsWith("/")) {
      url.pathname += "/";
      url.hash = "";
      const page = await caches.match(url.href);
      if (page) {
        return page;
      }
    }
  }
  return await fetch(request);
}`
	if !strings.Contains(worker, upstream) {
		return "", false
	}
	return strings.Replace(worker, upstream, static, 1), true
}
