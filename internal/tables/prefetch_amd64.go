package tables

import "sync/atomic"

// prefetch asks the processor to load the cache line at addr, without
// waiting for it.
//
//go:noescape
func prefetch(addr *atomic.Uint64)
