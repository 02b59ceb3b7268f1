// Command prog exercises what a stripped binary must still do: grow and
// unwind stacks, collect garbage with pointers on the stack (in a
// reflect.MakeFunc call too), recover panics (one the runtime words from
// a wrapper's name), count only the program's goroutines, and say where
// it is (line 0 and no function name once stripped).
package main

import (
	"fmt"
	"reflect"
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
	fmt.Println("nil receiver", nilReceiver())
	fmt.Println("makefunc", viaMakeFunc())
	runtime.GC() // the collector's workers exist now: they are the runtime's
	fmt.Println("goroutines", runtime.NumGoroutine())
}

type value struct{ n int }

func (v value) N() int { return v.n }

type hasN interface{ N() int }

// nilReceiver calls a value method through a nil pointer: the wrapper
// panics with a message made from its own name.
func nilReceiver() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var p *value
	return fmt.Sprint(callN(p))
}

// callN calls through the interface, never devirtualized: the call goes
// to the wrapper (*value).N.
//
//go:noinline
func callN(i hasN) int { return i.N() }

// viaMakeFunc collects garbage inside a function made by reflect, whose
// frame the collector finds by the stub's name.
func viaMakeFunc() int {
	var sum func(*node, *node) int
	fn := reflect.MakeFunc(reflect.TypeOf(sum), func(args []reflect.Value) []reflect.Value {
		runtime.GC()
		a, b := args[0].Interface().(*node), args[1].Interface().(*node)
		return []reflect.Value{reflect.ValueOf(int(a.val[0]) + int(b.val[0]))}
	})
	reflect.ValueOf(&sum).Elem().Set(fn)
	a, b := &node{}, &node{}
	a.val[0], b.val[0] = 3, 4
	return sum(a, b)
}
