//go:build (!amd64 && !js) || race

package tables

import "sync/atomic"

// store writes v to *p atomically (see store_tso.go for amd64).
func store(p *atomic.Uint64, v uint64) { p.Store(v) }
