// Command txnlab runs Kafka transaction scenarios headless, explores
// random fault schedules, exports diagrams and serves the playground.
package main

import (
	"fmt"
	"os"
)

const usage = `txnlab — learn Kafka transactions by running them

usage:
  txnlab run FILE... [--format text|json|mermaid] [--seed N] [--all]
  txnlab serve [--addr 127.0.0.1:8080] [--web DIR] [--static DIR] [--lessons DIR [--lessons-only]] [--kafka 127.0.0.1:9092] [--nats URL | --nats-store DIR | --no-classes]
  txnlab course check DIR
  txnlab kafka [--listen 127.0.0.1:9092] [--save FILE] [SCRIPT]
  txnlab explore [--runs N] [--seed S] [--break MECHANISM] [--config KEY=VALUE...] [--out DIR]
  txnlab diff FILE --a SETTINGS --b SETTINGS [--seed N] [--break MECHANISM]
  txnlab metrics FILE [--seed N] | txnlab metrics --list

exit status of run: 0 when every expectation holds, 1 when one fails,
2 on a script error. course check: 0 when every lesson of DIR holds, 1
on any problem (each printed as DIR/FILE:LINE).
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var code int
	switch os.Args[1] {
	case "run":
		code = runCmd(os.Args[2:], os.Stdout, os.Stderr)
	case "help", "-h", "--help":
		fmt.Print(usage)
	default:
		if cmd, ok := extraCommands[os.Args[1]]; ok {
			code = cmd(os.Args[2:])
			break
		}
		fmt.Fprintf(os.Stderr, "txnlab: unknown command %q\n\n%s", os.Args[1], usage)
		code = 2
	}
	os.Exit(code)
}

// extraCommands holds the subcommands registered by other files (serve,
// explore), so each lives in its own file.
var extraCommands = map[string]func(args []string) int{}
