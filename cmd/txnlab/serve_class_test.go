package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// serveUntilStopped starts serve with args, gives its base URL to use,
// then stops it with SIGTERM and waits.
func serveUntilStopped(t *testing.T, use func(base string), args ...string) {
	t.Helper()
	cmd := txnlab(append([]string{"serve", "--addr", "127.0.0.1:0", "--web", webDir(t)}, args...)...)
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
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(lines.Text())
	if url == "" {
		t.Fatalf("no URL in %q", lines.Text())
	}
	use(url)
	cmd.Process.Signal(syscall.SIGTERM)
	io.Copy(io.Discard, stdout)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v", err)
	}
}

// serve --nats-store DIR keeps its classes across a restart: a class
// created before it is joined after it, with the same code.
func TestServeNATSStoreKeepsClassesAcrossARestart(t *testing.T) {
	store := t.TempDir()
	client := &http.Client{Timeout: 10 * time.Second}
	var code string
	serveUntilStopped(t, func(base string) {
		res, err := client.Post(base+"/api/class/create", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var c struct{ Code string }
		json.NewDecoder(res.Body).Decode(&c)
		if res.StatusCode != 200 || c.Code == "" {
			t.Fatalf("create: %d %+v", res.StatusCode, c)
		}
		code = c.Code
	}, "--nats-store", store)
	serveUntilStopped(t, func(base string) {
		res, err := client.Post(base+"/api/class/join", "application/json", strings.NewReader(`{"code":"`+code+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("join after the restart: %d %s", res.StatusCode, b)
		}
	}, "--nats-store", store)

	out, err := txnlab("serve", "--web", webDir(t), "--nats-store", store, "--nats", "nats://127.0.0.1:1").CombinedOutput()
	if exitStatus(err) == 0 || !strings.Contains(string(out), "--nats-store is the embedded NATS's") {
		t.Fatalf("--nats-store with --nats: %v\n%s", err, out)
	}
}
