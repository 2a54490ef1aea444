package tables

import (
	"c4solve/internal/settings"
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// base is what both kinds of table (Compact, Wide) keep and do alike:
// the words of their buckets, the part of them in use (Grow), the
// generations by which entries age (NewSearch), the epochs by which a
// Clear drops them, and the users of the memory (Acquire, Free). Each
// kind embeds one and adds its buckets' layout.
type base struct {
	words      []atomic.Uint64
	bucketMask uint64        // of the whole table
	start      uint64        // the bucket mask a solve starts with (see Grow)
	active     atomic.Uint64 // the bucket mask in use
	gen        atomic.Uint64
	epoch      atomic.Uint64 // the current epoch, in place: every entry's epoch field should match
	clears     uint64        // Clear calls so far, modulo the table's epochs
	size       int           // the bytes of words
	mem        memory        // words' users, and how to give words back
}

// allocate maps the words of a table of at most mib MiB, clamped to
// [MinMiB, MaxMiB]: the largest power-of-two number of buckets of
// bucketWords words that fits. A solve starts on startMiB of them, or on
// all where fewer (see Grow).
func (t *base) allocate(mib, bucketWords, startMiB int) error {
	mib = min(max(mib, MinMiB), MaxMiB)
	bucketBytes := uint64(bucketWords) * slotBytes
	buckets := uint64(1) << (bits.Len64(uint64(mib)<<20/bucketBytes) - 1)
	words, free, err := allocSlots(int(buckets) * bucketWords)
	if err != nil {
		return fmt.Errorf("cannot allocate a table of %d MiB: %w", buckets*bucketBytes>>20, err)
	}
	t.words, t.size = words, len(words)*8
	t.bucketMask = buckets - 1
	t.start = min(uint64(startMiB)<<20/bucketBytes, buckets) - 1
	t.active.Store(t.start)
	t.mem.unmap, t.mem.drop = free, func() { t.words = nil }
	if free != nil {
		// t lies in its table's allocation: the words are unmapped once
		// the table is unreachable.
		runtime.AddCleanup(t, func(free func()) { free() }, free)
	}
	adviseHugePages(words)
	return nil
}

// Bytes returns the memory the table takes: 0 once given back (Free).
func (t *base) Bytes() int {
	if t.mem.given.Load() {
		return 0
	}
	return t.size
}

// Acquire counts a user of the table's memory, such as a solve, until
// its Release: Free gives the memory back only once every user has
// released it (see memory for why this holds). It returns ErrFreed, and
// counts nobody, where Free was called already. Solvers acquire their
// table around every solve, so that a table may be freed while solves
// that share it run, by any goroutine. It is safe for concurrent use.
func (t *base) Acquire() error { return t.mem.acquire() }

// Release ends a use that Acquire began.
func (t *base) Release() { t.mem.release() }

// Free gives the table's memory back rather than once the table is
// unreachable, so that a program making tables one after another (bench's
// rows, the server's solvers of other boards) holds few at a time: now,
// or when the last user that acquired it releases it. It is safe to call
// at any time, more than once, and concurrently with users that acquired
// the table; Acquire fails after it. A caller that did not acquire the
// table must not use it after: its methods then panic.
func (t *base) Free() { t.mem.free() }

// startMiB is the part of a table a solve starts with: settings.GrowStartMiB where
// it grows, else all of it.
func startMiB(grow bool) int {
	if grow {
		return settings.GrowStartMiB
	}
	return MaxMiB
}

// grow is Grow for a table of entries entries a bucket: it doubles the
// part in use until that part holds settings.GrowStores entries a store so far.
func (t *base) grow(stores, entries uint64) {
	for {
		m := t.active.Load()
		if m == t.bucketMask || (m+1)*entries*settings.GrowStores >= stores {
			return
		}
		if t.active.CompareAndSwap(m, m<<1|1) {
			return
		}
	}
}

// clear is Clear for a table of epochs epochs (1 for none), the epoch's
// field at bit shift of an entry: a new epoch, one part in epochs zeroed,
// and the part a solve starts with in use again.
func (t *base) clear(epochs uint64, shift uint) {
	t.gen.Store(0)
	t.active.Store(t.start)
	if epochs <= 1 {
		clear(t.words)
		return
	}
	t.clears = (t.clears + 1) % epochs
	n := uint64(len(t.words)) / epochs
	clear(t.words[t.clears*n : (t.clears+1)*n])
	t.epoch.Store(t.clears << shift)
}

// ClearAll empties the table by zeroing every word, which touches all of
// its memory: it costs the table's size, not a part. A benchmark calls
// it once before it times solves, so that none of them pays for the
// operating system's first touch of a page of the table. It must not run
// concurrently with other methods.
func (t *base) ClearAll() {
	clear(t.words)
	t.gen.Store(0)
	t.active.Store(t.start)
}

// ClearPart zeroes part k (0 <= k < settings.ClearParts) of the table, so that a
// caller can clear a table a part at a time and stop in between: after
// ClearPart of every part, the table is as after Clear, and every word is
// zero. It must not run concurrently with other methods.
func (t *base) ClearPart(k int) {
	n := len(t.words) / settings.ClearParts // a power of two
	clear(t.words[k*n : (k+1)*n])
	if k == settings.ClearParts-1 {
		t.gen.Store(0)
	}
}

// Prefault makes all of the table's memory resident, so that no probe
// pays for the operating system's first touch of one of its pages. That
// touch is dear on a virtual machine: on this project's 2-core VM a fresh
// table of 512 MiB takes 0.8 to 1.8 s to fault in, which a search of a
// million nodes spread over the whole table pays nearly all of, and which
// a server would otherwise charge to its first requests. It adds zero to
// one word a page, a write that changes nothing, from one goroutine per
// CPU; it is safe to run concurrently with the other methods.
func (t *base) Prefault() {
	words := t.words
	page := max(os.Getpagesize()/slotBytes, 1)
	parts := min(runtime.GOMAXPROCS(0), max(len(words)/(page*256), 1))
	n := (len(words) + parts - 1) / parts
	var wg sync.WaitGroup
	for k := range parts {
		wg.Go(func() {
			for i := k * n; i < min((k+1)*n, len(words)); i += page {
				words[i].Add(0)
			}
		})
	}
	wg.Wait()
}

// Searches returns the number of NewSearch calls since the table was
// made or last cleared (Clear, ClearAll, or ClearPart of the last part).
func (t *base) Searches() uint64 { return t.gen.Load() }

// newSearch is NewSearch, age the table's (see "Generations" in package
// ttable's doc): a new generation, whose part of the table is aged.
func (t *base) newSearch(age func(g uint64)) {
	g := t.gen.Add(1)
	age(g)
	if g&genMask == 0 {
		// 0 marks entries of long ago: no search has it. Its part of the
		// table is aged all the same, so that every part is every
		// agePeriod generations.
		age(t.gen.Add(1))
	}
}

// agePart returns part g%agePeriod of the table, which generation g ages
// (see newSearch), or none where g < agePeriod: no entry can be that old
// since the table was cleared.
func (t *base) agePart(g uint64) []atomic.Uint64 {
	if g < agePeriod {
		return nil
	}
	n := uint64(len(t.words)) / agePeriod // whole buckets: 256 words at least
	return t.words[g%agePeriod*n : (g%agePeriod+1)*n]
}

// stale reports whether an entry whose generation field lies at the
// bottom of w is agePeriod generations old or more in generation g, to
// be marked as of long ago; an entry of long ago (generation 0) is not.
func stale(w, g uint64) bool { return w&genMask != 0 && (g-w)&genMask >= agePeriod }
