//go:build amd64 && !race

package tables

import (
	"sync/atomic"
	"unsafe"
)

// store writes v to *p with a plain store, not atomic.Uint64.Store's
// XCHG, a locked instruction that waits for the store buffer to drain
// (about 20 cycles): a table store made two to four of them. It is as
// good here because of what the callers need of it:
//
//   - An aligned word is written whole by any x86 store, so a reader
//     sees the old word or the new one, never a mix: what a single-word
//     slot needs (Compact.Put).
//   - x86 (total store order) makes stores visible in program order, and
//     the compiler orders a plain store with the atomic operations around
//     it, so a seqlock writer's entry words are visible before the even
//     sequence that follows them (Wide.Put): what a reader's second look
//     at the sequence relies on.
//
// Go's memory model allows such a race on a word (a read sees a value
// some write wrote); the race detector does not, so race builds, and other
// architectures, whose stores may be reordered (or, on 386, split in two
// words), use atomic stores (store_other.go).
func store(p *atomic.Uint64, v uint64) { *(*uint64)(unsafe.Pointer(p)) = v }
