//go:build !wasm

package main

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The serve tests run this test binary as the txnlab command: with
// TXNLAB_BE_MAIN set, TestMain hands over to main.
func TestMain(m *testing.M) {
	if os.Getenv("TXNLAB_BE_MAIN") == "1" {
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func txnlab(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "TXNLAB_BE_MAIN=1")
	return cmd
}

// webDir is a minimal web directory: the server refuses to start without
// app.wasm.
func webDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "app.wasm"), []byte("\x00asm\x01\x00\x00\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestServePrintsItsURLAndStopsCleanlyOnSIGTERM(t *testing.T) {
	cmd := txnlab("serve", "--addr", "127.0.0.1:0", "--web", webDir(t))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		t.Fatal("serve printed nothing")
	}
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(lines.Text())
	if url == "" {
		t.Fatalf("no URL in %q", lines.Text())
	}
	res, err := (&http.Client{Timeout: 5 * time.Second}).Get(url + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %d", res.StatusCode)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stdout)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop after SIGTERM")
	}
	if !strings.Contains(string(rest), "stopped") {
		t.Errorf("serve did not report stopping: %q", rest)
	}
}

func TestServeStaticWritesTheSite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	if b, err := txnlab("serve", "--web", webDir(t), "--static", out).CombinedOutput(); err != nil {
		t.Fatalf("serve --static: %v\n%s", err, b)
	}
	for _, name := range []string{"index.html", "playground/index.html", "scenarios/index.html", "lessons/index.html", "web/app.wasm", "web/app.wasm.br", "web/app.wasm.gz"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("serve --static did not write %s", name)
		}
	}
}

func TestServeUsageMistakesExitTwo(t *testing.T) {
	for _, args := range [][]string{{"serve", "--nope"}, {"serve", "stray"}, {"precompress"}} {
		err := txnlab(args...).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
			t.Errorf("txnlab %v: %v, want exit status 2", args, err)
		}
	}
	if err := txnlab("serve", "--web", t.TempDir()).Run(); err == nil {
		t.Errorf("serve without app.wasm succeeded")
	}
	// Started outside the repository, serve says which folder it
	// looked for and how to give another.
	cmd := txnlab("serve", "--addr", "127.0.0.1:0")
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), `"web"`) || !strings.Contains(string(out), "--web DIR") {
		t.Errorf("serve outside the repository: %v, %q; want the web directory named and --web suggested", err, out)
	}
}

// startServe runs `txnlab serve` with args on a free port and returns
// its address; the test's cleanup stops it.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	cmd := txnlab(append([]string{"serve", "--addr", "127.0.0.1:0", "--web", webDir(t)}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() {
		cmd.Wait()
		t.Fatalf("serve printed nothing; stderr: %s", stderr.String())
	}
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(lines.Text())
	if url == "" {
		t.Fatalf("no URL in %q", lines.Text())
	}
	return url
}

// get answers a page's status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := (&http.Client{Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// TestServeAnInstructorsLessons: `serve --lessons DIR` lists the
// folder's lessons in the catalogue beside the built-in course, in both
// languages; --lessons-only serves them instead of it.
func TestServeAnInstructorsLessons(t *testing.T) {
	dir := exampleDir(t, func(s string) string { return s })
	url := startServe(t, "--lessons", dir)
	for path, want := range map[string]string{
		"lessons":                          "A first commit",
		"zh/lessons":                       "第一次提交",
		"lessons/01-first-commit":          "One commit",
		"zh/lessons/01-first-commit":       "一次提交",
		"lessons/03-transaction-protocols": "",
	} {
		code, body := get(t, url+path)
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/%s: %d, want 200 with %q", path, code, want)
		}
	}
	only := startServe(t, "--lessons", dir, "--lessons-only")
	if code, _ := get(t, only+"lessons/03-transaction-protocols"); code != http.StatusNotFound {
		t.Errorf("--lessons-only still serves the built-in lesson 03: %d", code)
	}
	if code, body := get(t, only+"lessons/01-first-commit"); code != http.StatusOK || !strings.Contains(body, "One commit") {
		t.Errorf("--lessons-only: the folder's lesson answers %d", code)
	}
}

// TestServeRefusesABrokenLesson: a lesson that does not load stops the
// start (exit status 1), naming the file and line; nothing is served.
func TestServeRefusesABrokenLesson(t *testing.T) {
	dir := exampleDir(t, func(s string) string { return strings.Replace(s, "p commit\nrun", "p comit\nrun", 1) })
	for _, extra := range [][]string{nil, {"--lessons-only"}} {
		cmd := txnlab(append([]string{"serve", "--addr", "127.0.0.1:0", "--web", webDir(t), "--lessons", dir}, extra...)...)
		out, err := cmd.CombinedOutput()
		if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 1 {
			t.Fatalf("serve with a broken lesson: %v\n%s", err, out)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "01-first-commit.md"))
		line := 0
		for i, l := range strings.Split(string(data), "\n") {
			if l == "p comit" {
				line = i + 1
			}
		}
		where := filepath.Join(dir, "01-first-commit.md") + ":" + strconv.Itoa(line) + ":"
		if !strings.Contains(string(out), where) || strings.Contains(string(out), "serving http") || strings.Contains(string(out), "panic") {
			t.Errorf("serve %v: want an error at %s and no server\n%s", extra, where, out)
		}
	}
}

// A --nats that answers nothing stops serve with a reason and the way
// out, rather than a server whose classes all fail.
func TestServeSaysWhenItsNATSIsUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a port nothing listens on
	out, err := txnlab("serve", "--addr", "127.0.0.1:0", "--web", webDir(t), "--nats", "nats://"+addr).CombinedOutput()
	if code := exitStatus(err); code != 1 || !strings.Contains(string(out), "classes: NATS at") || !strings.Contains(string(out), "--no-classes") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestTheNATSURLIsLoggedWithoutCredentials(t *testing.T) {
	for in, want := range map[string]string{
		"nats://u:p@a:4222,nats://b:4222": "nats://a:4222,nats://b:4222",
		"nats://a:4222":                   "nats://a:4222",
		"tls://tok@a:4222":                "tls://a:4222",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
