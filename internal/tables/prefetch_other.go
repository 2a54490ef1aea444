//go:build !amd64 && !js

package tables

import "sync/atomic"

// prefetch loads the word at addr, so that the cache line is loaded: an
// atomic load, which the compiler keeps.
func prefetch(addr *atomic.Uint64) { addr.Load() }
