//go:build !js

package solver

// yieldCPU does nothing where goroutines run on threads of their own (see
// yield_js.go).
func yieldCPU() {}
