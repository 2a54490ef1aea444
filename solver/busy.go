package solver

import (
	"sync/atomic"
)

// busyTable is a set of the keys of positions some worker is searching,
// approximate: keys that share a slot overwrite each other, which only
// changes the order in which moves are searched. It is safe for
// concurrent use.
type busyTable struct {
	slots [1 << 12]atomic.Uint64
}

func (b *busyTable) slot(key uint64) *atomic.Uint64 {
	return &b.slots[(key*0x9e3779b97f4a7c15)>>52]
}

func (b *busyTable) has(key uint64) bool { return b.slot(key).Load() == key }
func (b *busyTable) add(key uint64)      { b.slot(key).Store(key) }
func (b *busyTable) remove(key uint64)   { b.slot(key).CompareAndSwap(key, 0) }
