package tables

import (
	"errors"
	"sync/atomic"
)

// ErrFreed is the error of Acquire on a table that was freed (Compact.Free,
// Wide.Free): its memory is gone, and a solve that asks for it gets this
// error instead of a crash.
var ErrFreed = errors.New("ttable: the table was freed")

// memory is the memory of a table's words and the count of those using
// it, so that Free gives it back only once nobody does.
//
// # Why memory is never unmapped under a user
//
// state holds the number of users (Acquire minus Release) and, once Free
// is called, freedBit. Every change is one atomic add or or, so the
// changes have one order, and each sees the state the one before left:
//
//   - Free sets freedBit. If it saw no users, none is using the memory,
//     and any Acquire after it sees freedBit and fails: it unmaps.
//   - An Acquire that adds itself before Free's or is counted there, so
//     Free does not unmap; the last Release after Free, the one that
//     takes the count to zero with freedBit set, unmaps.
//   - An Acquire that adds itself after Free's or sees freedBit, touches
//     nothing, and takes itself off again. Its Release may see the count
//     zero with freedBit and give the memory back again: given makes
//     that a no-op.
//
// So the memory is unmapped only when the count is zero with freedBit
// set, after which no Acquire succeeds: no user's reads or writes can
// reach it unmapped.
type memory struct {
	state atomic.Int64
	given atomic.Bool
	unmap func() // at most once, however often called; nil for memory of the Go heap
	drop  func() // forgets the words, so that a use after Free panics rather than faults
}

// freedBit is far above any count of users.
const freedBit = 1 << 62

func (m *memory) acquire() error {
	if m.state.Add(1)&freedBit != 0 {
		m.release()
		return ErrFreed
	}
	return nil
}

func (m *memory) release() {
	if m.state.Add(-1) == freedBit {
		m.give()
	}
}

func (m *memory) free() {
	if m.state.Or(freedBit) == 0 {
		m.give()
	}
}

// give gives the memory back, once: called only where the count is zero
// with freedBit set.
func (m *memory) give() {
	if !m.given.CompareAndSwap(false, true) {
		return
	}
	m.drop()
	if m.unmap != nil {
		m.unmap()
	}
}
