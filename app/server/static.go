//go:build !wasm

package server

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	txnapp "txnlab/app"
)

// WriteStatic writes the whole site into dir as plain files, for any
// static host or CDN: every route pre-rendered (go-app names them
// index.html, playground.html, …), go-app's scripts and manifest, and the
// web directory with the wasm in all three codings. The page bakes in the
// wasm's decompressed size, so the loading bar stays right behind a host
// that compresses on its own.
//
// A static host cannot send this server's headers; WriteStatic writes
// them in the _headers format several hosts read, as a starting point.
func (s *Server) WriteStatic(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := app.GenerateStaticWebsite(dir, s.pages, append(txnapp.Paths(), s.lessons.pages...)...); err != nil {
		return fmt.Errorf("rendering pages: %w", err)
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
