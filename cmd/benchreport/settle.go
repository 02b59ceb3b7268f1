package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// A quiet machine, as make bench waits for one before each step: the
// one-minute load average under 1 and, over the last sample window, the
// other processes using under busyMax of a core. The load average alone
// trails what ran a minute ago and misses what starts now (each step of
// an earlier run printed 0.95: the value it had just fallen under).
const (
	loadMax      = 1.0
	busyMax      = 0.25
	settleSample = 5 * time.Second
)

// cpuTimes is the first line of /proc/stat: the jiffies all cores spent,
// and those they spent idle (idle and iowait).
type cpuTimes struct{ total, idle uint64 }

// parseCPUTimes reads the "cpu" line of /proc/stat's text.
func parseCPUTimes(stat string) (cpuTimes, error) {
	line, _, _ := strings.Cut(stat, "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return cpuTimes{}, fmt.Errorf("no cpu line in /proc/stat: %q", line)
	}
	var t cpuTimes
	for i, s := range f[1:] {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return cpuTimes{}, fmt.Errorf("/proc/stat: field %d of the cpu line: %v", i+1, err)
		}
		// guest and guest_nice (fields 9 and 10) are already in user
		// and nice.
		if i < 8 {
			t.total += v
		}
		if i == 3 || i == 4 {
			t.idle += v
		}
	}
	return t, nil
}

// busyCores is how many cores, on average, were busy between a and b.
func busyCores(a, b cpuTimes, cores int) float64 {
	total := b.total - a.total
	if total == 0 || b.total < a.total {
		return 0
	}
	busy := total - (b.idle - a.idle)
	return float64(busy) / float64(total) * float64(cores)
}

// quiet says whether a step may begin at this load and busy.
func quiet(load, busy float64) bool { return load < loadMax && busy < busyMax }

// settle waits, at most maxWait, for a quiet machine, then appends
// "NAME LOAD WAITED BUSY" to loads (the seconds waited beyond the first
// window, the cores busy in the last) and says it on stdout.
func settle(name, loads string, maxWait time.Duration) error {
	start := time.Now()
	var load, busy float64
	for {
		a, err := readCPUTimes()
		if err != nil {
			return err
		}
		time.Sleep(settleSample)
		b, err := readCPUTimes()
		if err != nil {
			return err
		}
		busy = busyCores(a, b, runtime.NumCPU())
		if load, err = readLoad(); err != nil {
			return err
		}
		if quiet(load, busy) || time.Since(start) >= maxWait {
			break
		}
	}
	waited := int((time.Since(start) - settleSample).Seconds())
	line := fmt.Sprintf("%s %.2f %d %.2f\n", name, load, waited, busy)
	f, err := os.OpenFile(loads, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return err
	}
	fmt.Print(line)
	return f.Close()
}

func readCPUTimes() (cpuTimes, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return cpuTimes{}, err
	}
	return parseCPUTimes(string(b))
}

func readLoad() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, fmt.Errorf("/proc/loadavg is empty")
	}
	return strconv.ParseFloat(f[0], 64)
}
