//go:build js

package tables

import (
	"sync/atomic"
	"unsafe"
)

// Under GOOS=js a program has one thread, and a goroutine switches only
// where it blocks or yields: no other reads or writes a table between two
// instructions of one, so a plain load or store of a word does all an
// atomic one would. Go's WebAssembly port calls a function for each
// operation of sync/atomic (14% of a 7x6 solve's time went there in
// node); these are single instructions. (atomic.Uint64 is its word: its
// other fields take no space.)

// load reads *p.
func load(p *atomic.Uint64) uint64 { return *(*uint64)(unsafe.Pointer(p)) }

// store writes v to *p.
func store(p *atomic.Uint64, v uint64) { *(*uint64)(unsafe.Pointer(p)) = v }

// prefetch does nothing: WebAssembly has no prefetch, and a load here
// would wait for the memory it asks for.
func prefetch(*atomic.Uint64) {}
