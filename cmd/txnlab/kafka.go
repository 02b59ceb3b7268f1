//go:build !wasm

package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"

	"txnlab/core/scenario"
	"txnlab/kafkalistener"
)

func init() {
	extraCommands["kafka"] = exitCode(kafkaCmd)
}

// defaultKafkaScript is the cluster a listener serves when no script
// sets one up.
const defaultKafkaScript = "cluster brokers=3\n"

// kafkaCmd is `txnlab kafka`: a Kafka listener over a simulated cluster
// in the terminal. The script sets the cluster up; statements typed on
// standard input (crash broker-0, isolate broker-1, heal, …) are
// applied live; the session is saved as a scenario as it goes.
func kafkaCmd(args []string) error {
	fs := flag.NewFlagSet("kafka", flag.ContinueOnError)
	listen := fs.String("listen", "127.0.0.1:9092", "broker-0's `address`; broker-i listens on the port after broker-(i-1)'s")
	save := fs.String("save", "kafka-session.scenario", "`file` the session is recorded to, as a scenario `txnlab run` replays")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: txnlab kafka [--listen 127.0.0.1:9092] [--save FILE] [SCRIPT]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 1 {
		fmt.Fprintf(fs.Output(), "txnlab kafka: one SCRIPT at most, got %q\n", fs.Args())
		return errUsage
	}
	src, file := defaultKafkaScript, "default cluster"
	if fs.NArg() == 1 {
		file = fs.Arg(0)
		var err error
		if src, err = readScript(file); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	l, out, err := startKafka(*listen, src, file, *save, os.Stderr)
	if err != nil {
		return err
	}
	defer out.Close()
	fmt.Printf("txnlab: Kafka listener on %s (bootstrap.servers=%s)\n", strings.Join(l.Addrs(), ", "), strings.Join(l.Addrs(), ","))
	fmt.Printf("txnlab: recording to %s; type statements (crash broker-0, restart broker-0, isolate broker-1, heal), Ctrl-C to stop\n", *save)
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	go console(os.Stdin, l)
	err = <-done
	fmt.Printf("txnlab: stopped at digest %s; replay the session with: txnlab run %s\n", l.Digest(), *save)
	return err
}

// console applies each line of r to the live session.
func console(r io.Reader, l *kafkalistener.Listener) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLineBytes)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := l.Statement(line); err != nil {
			fmt.Fprintln(os.Stderr, "txnlab:", err)
		}
	}
}

// startKafka runs a setup script and opens a listener over its cluster,
// recording to save.
func startKafka(listen, src, file, save string, log io.Writer) (*kafkalistener.Listener, io.WriteCloser, error) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, nil, fmt.Errorf("--listen %q: %v", listen, err)
	}
	base, err := strconv.Atoi(port)
	if err != nil || base < 0 || base > 65535-9 {
		return nil, nil, fmt.Errorf("--listen %q: the port must be a number from 0 to %d", listen, 65535-9)
	}
	if _, err := scenario.Parse(file, src); err != nil {
		return nil, nil, err // before the recording's file is created
	}
	out, err := os.Create(save)
	if err != nil {
		return nil, nil, err
	}
	l, err := kafkalistener.FromScript(kafkalistener.Config{Host: host, BasePort: base, Log: log, Record: out}, file, src)
	if err != nil {
		out.Close()
		return nil, nil, err
	}
	return l, out, nil
}

// serveKafka starts `txnlab serve --kafka`'s listener beside the
// playground; the returned function waits for it to stop (ctx ends it).
func serveKafka(ctx context.Context, listen, scriptFile, save string) (*kafkalistener.Listener, func(), error) {
	src, file := defaultKafkaScript, "default cluster"
	if scriptFile != "" {
		var err error
		if src, err = readScript(scriptFile); err != nil {
			return nil, nil, err
		}
		file = scriptFile
	}
	l, out, err := startKafka(listen, src, file, save, os.Stderr)
	if err != nil {
		return nil, nil, err
	}
	fmt.Printf("txnlab: Kafka listener on %s, recording to %s\n", strings.Join(l.Addrs(), ", "), save)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := l.Run(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "txnlab: kafka listener:", err)
		}
		out.Close()
	}()
	return l, func() { <-done }, nil
}
