package main

import (
	"os"
	"runtime/debug"

	"golang.org/x/sys/unix"
)

// reexecUnderAddressLimit runs the command again, in place of this
// process, with a smaller stack for new threads and one malloc arena, when
// its address space is limited (ulimit -v) and it was built with cgo. C's
// threads each reserve a stack of ulimit -s (8 MiB) and glibc a malloc
// arena of 64 MiB, both counted against the limit, and both read only when
// a program starts: under ulimit -v 1500000 such a build ended in
// "pthread_create failed" and a dump, where one without cgo answers. It
// returns only when it does not run the command again.
func reexecUnderAddressLimit() {
	var as unix.Rlimit
	if os.Getenv(reexecEnv) != "" || unix.Getrlimit(unix.RLIMIT_AS, &as) != nil || as.Cur == unix.RLIM_INFINITY || !builtWithCgo() {
		return
	}
	var stack unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_STACK, &stack) != nil {
		return
	}
	if stack.Cur == unix.RLIM_INFINITY || stack.Cur > threadStack {
		stack.Cur = threadStack
		if unix.Setrlimit(unix.RLIMIT_STACK, &stack) != nil {
			return
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := append(os.Environ(), reexecEnv+"=1")
	if os.Getenv("MALLOC_ARENA_MAX") == "" {
		env = append(env, "MALLOC_ARENA_MAX=1")
	}
	unix.Exec(exe, os.Args, env) // returns only on failure: go on as we are
}

// reexecEnv marks a process that reexecUnderAddressLimit started.
const reexecEnv = "C4SOLVE_REEXEC"

// threadStack is the stack of a thread that reexecUnderAddressLimit
// gives: ample for Go's runtime, whose goroutines have stacks of their own.
const threadStack = 1 << 20

// builtWithCgo reports whether the binary was built with cgo.
func builtWithCgo() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return true // unknown: the default build uses cgo where a C compiler is
	}
	for _, s := range bi.Settings {
		if s.Key == "CGO_ENABLED" {
			return s.Value == "1"
		}
	}
	return false
}
