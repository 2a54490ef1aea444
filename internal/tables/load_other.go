//go:build !js

package tables

import "sync/atomic"

// load reads *p atomically (see words_js.go for GOOS=js).
func load(p *atomic.Uint64) uint64 { return p.Load() }
