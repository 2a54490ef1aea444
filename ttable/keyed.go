package ttable

import (
	"math/bits"
	"runtime"
	"unsafe"
)

// Keyed is a transposition table that keeps each entry's whole 64-bit key,
// for positions whose keys do not fit Table's 49 bits: those of boards of
// other sizes than 7x6, up to 64 bits. An entry is only ever found under
// the key it was stored with, so no false hit can change a result. Its
// buckets hold two entries; a new one replaces the entry of the same key,
// or else the one whose subtree took fewer nodes.
//
// It is not safe for concurrent use: one goroutine searches with it. The
// zero value is not usable; call NewKeyed.
type Keyed struct {
	entries []keyedEntry
	shift   uint  // 64 minus the bits of a bucket index
	gen     uint8 // the entries of other generations are empty (see Clear)
}

// keyedEntry is one entry: the key, the bounds on the score, the best
// move (-1 for none) and the work of its subtree as log2 of its nodes.
type keyedEntry struct {
	key          uint64
	lower, upper int8
	move         int8
	work         uint8 // 1 + log2(nodes)
	gen          uint8 // the table's generation when it was stored
}

// NewKeyed returns an empty table of at most mib MiB (at least MinMiB): a
// power of two of 16-byte entries. Its memory is mapped as Table's is
// (with 2 MiB pages where Linux gives them: a fresh table of 2 GiB in 4
// KiB pages costs seconds of page faults), or taken from the Go heap
// where that fails.
func NewKeyed(mib int) *Keyed {
	mib = min(max(mib, MinMiB), MaxMiB)
	n := uint64(mib) << 20 / 16
	b := uint(bits.Len64(n) - 1) // entries, a power of two, in buckets of 2
	t := &Keyed{shift: 64 - (b - 1), gen: 1}
	slots, free, err := allocSlots(2 << b)
	if err != nil {
		t.entries = make([]keyedEntry, 1<<b)
		return t
	}
	adviseHugePages(slots)
	t.entries = unsafe.Slice((*keyedEntry)(unsafe.Pointer(&slots[0])), 1<<b)
	if free != nil {
		runtime.AddCleanup(t, func(struct{}) { free() }, struct{}{})
	}
	return t
}

// Bytes returns the memory the entries take.
func (t *Keyed) Bytes() int { return len(t.entries) * 16 }

// Clear empties the table. Rather than zero it, which would cost a
// verify of a thousand quick positions seconds on a table of 512 MiB, it
// starts a new generation: entries of the others count as empty. Once in
// 255 times it zeroes the entries, before the generations wrap.
func (t *Keyed) Clear() {
	t.gen++
	if t.gen == 0 {
		clear(t.entries)
		t.gen = 1
	}
}

// ClearAll empties the table by zeroing every entry, which touches all of
// its memory: a benchmark calls it once, so that no timed solve pays for
// the first touch of a page (as Table.ClearAll).
func (t *Keyed) ClearAll() {
	clear(t.entries)
	t.gen = 1
}

// live reports whether e is an entry of the current generation.
func (t *Keyed) live(e *keyedEntry) bool { return e.gen == t.gen }

// bucket returns the index of the first entry of key's bucket: the top
// bits of the key times an odd constant (Fibonacci hashing), so that keys
// that differ only in their low bits spread.
func (t *Keyed) bucket(key uint64) uint64 {
	return (key * 0x9e3779b97f4a7c15 >> t.shift) << 1
}

// Get returns the entry stored under key, if any.
func (t *Keyed) Get(key uint64) (Entry, bool) {
	i := t.bucket(key)
	for j := range t.entries[i : i+2] {
		if e := &t.entries[i+uint64(j)]; t.live(e) && e.key == key {
			return Entry{Lower: int(e.lower), Upper: int(e.upper), Move: int(e.move)}, true
		}
	}
	return Entry{}, false
}

// Put records that the score of key's position lies in [lower, upper],
// both within an int8, that move (-1 for none) was best, and that the
// search took nodes. An entry already there for key is replaced, its
// bounds narrowed by the new ones where they overlap.
func (t *Keyed) Put(key uint64, lower, upper, move int, nodes uint64) {
	i := t.bucket(key)
	b := t.entries[i : i+2]
	work := uint8(bits.Len64(nodes)) + 1
	slot := 0
	switch {
	case t.live(&b[0]) && b[0].key == key:
	case t.live(&b[1]) && b[1].key == key:
		slot = 1
	case !t.live(&b[0]):
	case !t.live(&b[1]) || b[1].work < b[0].work:
		slot = 1
	}
	e := &b[slot]
	if t.live(e) && e.key == key && int(e.lower) <= upper && lower <= int(e.upper) {
		lower, upper = max(lower, int(e.lower)), min(upper, int(e.upper))
		if move < 0 {
			move = int(e.move)
		}
		work = max(work, e.work)
	}
	*e = keyedEntry{key: key, lower: int8(lower), upper: int8(upper), move: int8(move), work: work, gen: t.gen}
}
