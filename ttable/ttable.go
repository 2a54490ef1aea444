// Package ttable is the transposition table: a lock-free map from position
// keys to bounds on their scores, shared by all search goroutines, which
// New makes to the size a process can afford (Limit.Fit). A Table's keys
// are those of one board, of up to 128 bits; it lays out the keys of at
// most 49 bits (those of 7x6 and of the other boards of at most 49 bits)
// one slot an atomic word, and longer ones in entries of two or three
// words, guarded by a sequence word in each bucket (the two layouts are
// internal/tables' Compact and Wide, whose docs say how their entries
// are laid out and why a hit is always the position asked for, never
// another one with a colliding hash). No reader sees a torn entry, and
// nothing waits on a lock: a one-word slot is read and written whole, and
// a reader of a longer entry trusts it only if no write to its bucket
// came between its reads. Hyatt and Mann ("A lockless transposition table
// implementation for parallel search", ICGA Journal 25(1), 2002) make a
// torn entry harmless by xoring key and data into two words; these
// layouts make tearing impossible in the first place.
//
// A table has a size chosen when it is made; a growing one
// (Config.Grow) uses a part at first and more as a search's stores call
// for. Racing writers can only overwrite whole entries, so an entry
// always holds bounds that some search proved for its key; a lost update
// costs work, never correctness.
//
// # Replacement
//
// A store replaces the entry of the same key, merging the bounds, or else
// an empty one, or else the least valuable: entries of older generations
// first, then the entry whose subtree took the least work (Breuker,
// Uiterwijk and van den Herik, "Replacement schemes for transposition
// tables", ICCA Journal 17(4), 1994: the "big-all"/"TwoBig" family).
//
// # Epochs: a Clear that costs what is used
//
// A large table is not zeroed when a cold solve clears it: the entries
// stored before are of an older epoch, which the key check of a lookup or
// a store never matches, so they are invisible at once and a store takes
// their slots as empty. A clear zeroes one part in 2^e of the table (e the
// epoch bits), in turn, so that every part is zeroed once in 2^e clears,
// before the epoch counter wraps and an old epoch's number comes round
// again: an entry of a given epoch never outlives it. With one-word slots
// the part is 1 MiB whatever the table's size (the epoch bits grow as the
// check shrinks), so a stream of small cold solves costs the same with a
// table of 512 MiB as with one of 64; longer entries' epoch has 8 bits.
//
// # Generations
//
// The generation field counts NewSearch calls modulo 1024, skipping 0,
// which marks entries of long ago, so an entry's age is the current
// generation minus its own, modulo 1024: right only while it is below
// 1024. NewSearch keeps it so. Each call also looks at one part in 512 of
// the table, in turn, so that every entry is looked at once in 512
// generations, and marks an entry 512 generations old or more as of long
// ago, once: no entry is ever 1024 generations old, and an entry of a
// search long gone never looks current, however many searches a table
// serves (book generation runs millions, the server seven a request).
//
// # Sizing
//
// Every program that allocates tables sizes them the same way (Limit.Fit):
// the process may use half of the machine's memory, half of its cgroup's
// memory limit, or what its address-space limit leaves (MemoryLimit); a
// default size that does not fit beside the other tables is halved until
// it does, and a size the user asked for that does not fit is refused.
package ttable

import (
	"fmt"

	"c4solve/internal/tables"
)

// Table is a transposition table of New's. Its methods are safe for
// concurrent use, but ClearAll, which no other call may overlap. The
// engine reaches its entries through the layout's own type.
type Table interface {
	// Bytes returns the memory the table takes: 0 once given back (Free).
	Bytes() int
	// Prefault touches every page of the table, so that no solve pays
	// for its first touch.
	Prefault()
	// ClearAll empties the whole table, zeroing every word.
	ClearAll()
	// NewSearch starts a new generation: entries stored before it stay
	// valid but are the first to be replaced.
	NewSearch()
	// Free gives the table's memory back now, or when the last solve
	// using it ends; solves that start after it fail with ErrFreed.
	Free()
}

// Config is what New makes a table of.
type Config struct {
	// MiB is the table's size, clamped to [MinMiB, MaxMiB] and rounded
	// down to a power-of-two number of buckets.
	MiB int
	// KeyBits is the bits of the keys it holds, 1 to 128.
	KeyBits int
	// Grow: each solve starts on 32 MiB of the table and uses more as its
	// stores call for, so that a small search touches only the memory it
	// needs; else it uses all of it from the start.
	Grow bool
}

// New returns an empty table of c, or an error where c.KeyBits is out of
// range or the memory cannot be had (a process limit on its address
// space, say). The memory is mapped from the operating system where it
// can be (Linux), outside the Go heap, and given back once the table is
// unreachable or freed.
func New(c Config) (Table, error) {
	var t Table
	var err error
	if c.KeyBits < 1 || c.KeyBits > 128 {
		return nil, fmt.Errorf("ttable: keys of %d bits: 1 to 128", c.KeyBits)
	}
	if c.KeyBits <= tables.KeyBits {
		t, err = tables.NewCompact(c.MiB, c.Grow)
	} else {
		t, err = tables.NewWide(c.MiB, c.KeyBits, c.Grow)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// MinMiB and MaxMiB bound a table's size. MaxMiB (1 TiB) is beyond any
// machine this runs on; it keeps the size arithmetic far from overflow.
const (
	MinMiB = 1
	MaxMiB = 1 << 20
)

// The layouts clamp their sizes to the same bounds (else this fails to
// compile).
var _ = [1]int{}[MinMiB-tables.MinMiB] + [1]int{}[MaxMiB-tables.MaxMiB]

// ErrFreed is the error of a solve on a table that was freed (Free): its
// memory is gone, and a solve that asks for it gets this error instead of
// a crash.
var ErrFreed = tables.ErrFreed
