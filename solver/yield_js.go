//go:build js

package solver

import "runtime"

// yieldCPU lets the other goroutines run. Under GOOS=js every goroutine
// shares one thread that switches only where one blocks or yields: a
// search that never did would hold it to the end, and a deadline's timer,
// the goroutine waiting for the answer and the page's other work with it.
// Called once a poll (settings.PollInterval nodes).
func yieldCPU() { runtime.Gosched() }
