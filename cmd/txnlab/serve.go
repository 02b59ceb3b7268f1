//go:build !wasm

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"txnlab/app/server"
	"txnlab/classroom"
	"txnlab/lessons"
)

func init() {
	extraCommands["serve"] = exitCode(serveCmd)
	// For `make wasm`; not in the usage text.
	extraCommands["precompress"] = exitCode(precompressCmd)
}

// errUsage is returned after a subcommand has printed what was wrong with
// its arguments, so only the exit status is left to set.
var errUsage = errors.New("usage")

// exitCode adapts a command returning an error to main's exit statuses:
// 2 for a usage mistake, 1 for a failure.
func exitCode(cmd func([]string) error) func([]string) int {
	return func(args []string) int {
		switch err := cmd(args); {
		case err == nil, errors.Is(err, flag.ErrHelp):
			return 0
		case errors.Is(err, errUsage):
			return 2
		default:
			fmt.Fprintln(os.Stderr, "txnlab:", err)
			return 1
		}
	}
}

// serveCmd is `txnlab serve`: the playground on a local address until
// SIGINT or SIGTERM, or with --static, the whole site written as files.
func serveCmd(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "`address` to listen on (port 0 picks a free one)")
	web := fs.String("web", "web", "`directory` holding app.wasm and the static assets")
	static := fs.String("static", "", "write the site as static files into `DIR` and exit, instead of serving")
	lessonsDir := fs.String("lessons", "", "also serve the lesson files of `DIR` (docs/lessons.md), checked at start-up")
	lessonsOnly := fs.Bool("lessons-only", false, "serve the lessons of --lessons DIR instead of the built-in course")
	kafka := fs.String("kafka", "", "also serve Kafka's wire protocol from a simulated cluster, broker-0 at `ADDR` (e.g. 127.0.0.1:9092)")
	kafkaScript := fs.String("kafka-script", "", "the scenario `FILE` that sets the --kafka cluster up (default: cluster brokers=3)")
	kafkaSave := fs.String("kafka-save", "kafka-session.scenario", "`file` the --kafka session is recorded to")
	natsURL := fs.String("nats", "", "run classes on the NATS at `URL` (nats://host:4222, shared by several servers); default: a NATS embedded in this process")
	noClasses := fs.Bool("no-classes", false, "serve no live classes (no NATS at all)")
	natsStore := fs.String("nats-store", "", "keep the embedded NATS's classes in `DIR`, so they outlive a restart (default: memory only)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: txnlab serve [--addr 127.0.0.1:8080] [--web DIR] [--static DIR] [--lessons DIR [--lessons-only]] [--kafka 127.0.0.1:9092] [--nats URL | --nats-store DIR | --no-classes]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "txnlab serve: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}

	if *lessonsOnly && *lessonsDir == "" {
		fmt.Fprintln(fs.Output(), "txnlab serve: --lessons-only needs --lessons DIR")
		return errUsage
	}
	if fi, err := os.Stat(*web); err != nil || !fi.IsDir() {
		// Checked before the listener and the classes start: run from
		// another folder, "open web: no such file or directory" said
		// neither which folder it meant nor how to give one.
		return fmt.Errorf("no web directory %q here: run txnlab serve from the repository's root, where `make wasm` builds web/app.wasm (`make run` does both), or pass --web DIR", *web)
	}
	course, err := serveCourse(*lessonsDir, *lessonsOnly)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := server.Config{WebDir: *web, Lessons: course}
	if *kafka != "" && *static == "" {
		// The listener starts first: the playground's Live mode follows
		// its session (/playground?live=1).
		l, wait, err := serveKafka(ctx, *kafka, *kafkaScript, *kafkaSave)
		if err != nil {
			return err
		}
		defer wait()
		defer stop() // deferred last, run first: the listener ends, then wait returns
		cfg.Live = l
	}
	if *natsStore != "" && *natsURL != "" {
		fmt.Fprintln(fs.Output(), "txnlab serve: --nats-store is the embedded NATS's; --nats URL stores where that NATS does")
		return errUsage
	}
	if *static == "" && !*noClasses {
		hub, err := classroom.Open(classroom.Config{NATSURL: *natsURL, Store: *natsStore, Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, "txnlab: "+f+"\n", a...) }})
		if err != nil {
			return fmt.Errorf("classes: %w (--no-classes serves without them)", err)
		}
		defer hub.Close()
		cfg.Classes = hub
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	sizes := srv.WasmSizes()

	if *static != "" {
		if err := srv.WriteStatic(*static); err != nil {
			return err
		}
		fmt.Printf("txnlab: wrote the site to %s (version %s)\n", *static, srv.Version())
		return nil
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Printf("txnlab: serving http://%s/ (version %s; wasm %s raw, %s brotli, %s gzip)\n",
		ln.Addr(), srv.Version(), mb(sizes["identity"]), mb(sizes["br"]), mb(sizes["gzip"]))
	if *kafka != "" {
		fmt.Printf("txnlab: watch the Kafka session live at http://%s/playground?live=1\n", ln.Addr())
	}
	switch {
	case cfg.Classes == nil:
		fmt.Println("txnlab: no live classes (--no-classes)")
	case cfg.Classes.Embedded():
		fmt.Println("txnlab: live classes on a NATS embedded in this process")
	default:
		fmt.Printf("txnlab: live classes on the NATS at %s\n", redactURL(*natsURL))
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Println("txnlab: stopped")
	return nil
}

// precompressCmd writes FILE.br and FILE.gz for each FILE, so the server
// can send the wasm compressed without compressing it per request.
func precompressCmd(args []string) error {
	fs := flag.NewFlagSet("precompress", flag.ContinueOnError)
	quality := fs.Int("brotli-quality", server.BestBrotli, "brotli `quality`, 0-11 (9 is ~15x faster, 12% larger)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() == 0 || *quality < 0 || *quality > 11 {
		fmt.Fprintln(os.Stderr, "usage: txnlab precompress [--brotli-quality 0-11] FILE...")
		return errUsage
	}
	for _, name := range fs.Args() {
		written, err := server.Precompress(name, *quality)
		if err != nil {
			return err
		}
		for _, w := range written {
			fmt.Println("wrote", w)
		}
	}
	return nil
}

// mb renders a size for people; 0 means the coding is not available.
func mb(n int) string {
	if n == 0 {
		return "no"
	}
	return fmt.Sprintf("%.2f MB", float64(n)/1e6)
}

// serveCourse is the course serve serves: the built-in one, with dir's
// lessons beside it or (only) instead of it. A lesson that does not load
// stops the start with every error at its file and line: a half-served
// course would fail the learners, not the instructor.
func serveCourse(dir string, only bool) (*lessons.Course, error) {
	if dir == "" {
		course, err := lessons.Embedded()
		if err != nil {
			return nil, fmt.Errorf("the lessons: %w", err)
		}
		return course, nil
	}
	course, err := loadCourseDir(dir, !only)
	if err != nil {
		return nil, fmt.Errorf("the lessons of %s do not load:\n%w", dir, err)
	}
	return course, nil
}

// redactURL drops the user and password of each comma-separated NATS URL,
// so a startup line in a log holds no credential.
func redactURL(urls string) string {
	var out []string
	for _, u := range strings.Split(urls, ",") {
		if p, err := url.Parse(strings.TrimSpace(u)); err == nil && p.User != nil {
			p.User = nil
			u = p.String()
		}
		out = append(out, u)
	}
	return strings.Join(out, ",")
}
