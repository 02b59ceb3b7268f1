// Command prog exercises what a stripped binary must still do: grow and
// unwind stacks, collect garbage with pointers on the stack, recover a
// panic, and say where it is (line 0 once stripped).
package main

import (
	"fmt"
	"runtime"
	"strings"
)

type node struct {
	next *node
	val  [64]byte
}

// deep recurses far enough to grow the goroutine's stack many times and
// collects garbage at the bottom, with a live list on every frame.
func deep(n int, l *node) int {
	if n == 0 {
		runtime.GC()
		c := 0
		for ; l != nil; l = l.next {
			c += int(l.val[0])
		}
		return c
	}
	x := &node{next: l}
	x.val[0] = 1
	return deep(n-1, x)
}

func recovered() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	m["x"]++ // a nil map: a runtime panic
	return ""
}

func main() {
	_, file, line, _ := runtime.Caller(0)
	fmt.Printf("caller %s:%d\n", file[strings.LastIndex(file, "/")+1:], line)
	done := make(chan int)
	go func() { done <- deep(20000, nil) }()
	fmt.Println("deep", <-done)
	fmt.Println("recovered", recovered())
	pc := make([]uintptr, 8)
	n := runtime.Callers(1, pc)
	f, _ := runtime.CallersFrames(pc[:n]).Next()
	fmt.Println("frame", f.Function)
}
