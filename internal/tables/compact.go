// Package tables holds the two layouts of the transposition table that
// package ttable describes and makes (ttable.New): Compact, whose slots
// are one atomic word, for keys of at most KeyBits (49) bits, and Wide,
// for keys of up to 128 bits. The engine names them concretely, so that
// its lookups are direct calls its compiler inlines; every other package
// holds a table as a ttable.Table. Replacement, generations, epochs and
// the memory's users are the same in both (base); each layout's doc says
// why a hit is always the key asked for.
package tables

import (
	"math/bits"
	"sync/atomic"
)

// The score bounds a Compact's slot holds (see Put).
const (
	minBound = -31
	maxBound = 31
)

// A Compact's keys are below 2^KeyBits, and the moves its entries hold are
// the columns below MaxMoves.
const (
	KeyBits  = keyBits
	MaxMoves = 7
)

const (
	keyBits   = 49
	keyMask   = 1<<keyBits - 1
	slotBytes = 8
	bucketLen = 4 // slots per bucket

	scoreOffset = 32
	boundBits   = 6
	boundMask   = 1<<boundBits - 1
	moveShift   = 2 * boundBits
	workShift   = moveShift + 3
	workMax     = 31
	genShift    = workShift + 5
	genBits     = 10
	genMask     = 1<<genBits - 1
	agePeriod   = 1 << (genBits - 1)
	checkShift  = genShift + genBits
	dataMask    = 1<<checkShift - 1

	// minBucketBits keeps the check within the 34 bits left for it; a
	// table of MinMiB has that many (else the conversion fails to compile).
	minBucketBits = keyBits - (64 - checkShift)
	_             = uint(MinMiB<<20/(bucketLen*slotBytes) - 1<<minBucketBits)

	// epochMaxBits bounds the epoch field: a part zeroed by Clear is a
	// 2^epochMaxBits'th of the table, 1 MiB up to tables of 64 GiB.
	epochMaxBits = 16
)

// MinMiB and MaxMiB bound the sizes NewCompact and NewWide accept. MaxMiB (1 TiB) is beyond
// any machine this runs on; it keeps the size arithmetic far from overflow.
const (
	MinMiB = 1
	MaxMiB = 1 << 20
)

// Compact is a transposition table for keys below 2^KeyBits. Its methods
// are safe for concurrent use by any number of goroutines. The zero value
// is not usable; call NewCompact.
//
// Each of its slots is one atomic 64-bit word holding both a key check
// and the data, so a reader sees either a whole entry or none, and
// nothing locks.
//
// # Why a false hit cannot happen
//
// The table first maps the key through a bijection of the 49-bit numbers
// (multiplications by odd constants and right xorshifts, each invertible
// modulo 2^49). The low bits of the result choose the bucket; all the
// remaining high bits are stored in the slot as the check. Bucket and
// check together are the whole mixed value, so a matching check in the
// chosen bucket means the same mixed value, hence the same key. (A growing
// table keeps as the check the bits above those of the
// buckets it starts with, which every size it grows to keeps in its
// bucket: see Grow.) The epoch is matched with the check, so a hit is
// also an entry stored since the last Clear.
//
// # Slot layout
//
//	bits  0- 5  lower bound + 32 (never 0 in a used slot, so 0 is empty)
//	bits  6-11  upper bound + 32
//	bits 12-14  best move + 1 (0: none)
//	bits 15-19  work: bit length of the node count of the search that stored it
//	bits 20-29  generation (see NewSearch)
//	bits 30-    check: the mixed key without its bucket bits (49 - b bits for
//	            a table of 2^b buckets, or of a growing table's 2^b at the
//	            start: at most 34)
//	the rest    epoch: the Clear the entry belongs to (b - 15 bits, at most
//	            16; none in a table of 1 MiB)
//
// Buckets hold four slots (32 bytes, half a cache line). A growing
// table's check is that of the part it starts on, so its epoch has 5 bits
// and a Clear zeroes a 32nd of it.
type Compact struct {
	base              // its slots, one word each, are the base's words
	startBits  uint   // the bucket bits of the part a solve starts with (see Grow), below 64
	epochBits  uint   // the width of the epoch field, 0 for none
	epochShift uint   // its place in a slot
	epochMask  uint64 // the epoch field's bits and those above, 0 for none
}

// NewCompact returns an empty table of at most mib MiB, clamped to
// [MinMiB, MaxMiB]: the largest power-of-two number of buckets that fits,
// or an error where the memory cannot be had (a process limit on its
// address space, say). The memory is mapped from the operating system
// where it can be (Linux), outside the Go heap, and given back once the
// Compact is unreachable. A growing table (grow) starts each solve on 32
// MiB of it and uses more as its stores call for (see Grow), so that a
// small search touches only the memory it needs; another uses all of it
// from the start.
func NewCompact(mib int, grow bool) (*Compact, error) {
	t := new(Compact)
	if err := t.allocate(mib, bucketLen, startMiB(grow)); err != nil {
		return nil, err
	}
	t.startBits = uint(bits.Len64(t.start))
	t.epochShift = checkShift + keyBits - t.startBits
	t.epochBits = min(64-t.epochShift, epochMaxBits)
	if t.epochBits > 0 {
		t.epochMask = ^uint64(0) << t.epochShift
	}
	return t, nil
}

// Grow makes a growing table use enough of its memory for
// a search that has stored so many entries so far, up to the whole table,
// as Wide.Grow does; another uses all of it from the start.
// It is safe for concurrent use, and cheap where the table is large
// enough already.
//
// The check of a slot is the mixed key less its low bits that index the
// buckets of the part a solve starts with, whatever part is in use: every
// bucket mask in use keeps those bits, so the bucket of a slot holds the
// mixed key's low bits, and with the check all of it. An entry stored before the table grew is found again only where
// its bucket is still the key's (else it is lost, which costs work), and
// never as another key's.
func (t *Compact) Grow(stores uint64) { t.grow(stores, bucketLen) }

// Clear empties the table: no entry stored before it is found after it.
// Rather than zero the whole table, it starts a new epoch and zeroes one
// part (see "Epochs" in package ttable's doc), so that it costs about the
// same for any table size. It must not run concurrently with other methods.
func (t *Compact) Clear() { t.clear(1<<t.epochBits, t.epochShift) }

// NewSearch starts a new generation: entries stored before it stay valid
// but are the first to be replaced. Call it before each new root position.
// It may run concurrently with the other methods but Clear and ClearPart.
func (t *Compact) NewSearch() { t.newSearch(t.age) }

// age marks, in part g%agePeriod of the table, the entries agePeriod
// generations old or more as of long ago (see "Generations" in package
// ttable's doc).
func (t *Compact) age(g uint64) {
	part := t.agePart(g)
	for i := range part {
		if w := load(&part[i]); stale(w>>genShift, g) {
			// Racing stores win: a slot rewritten meanwhile is current.
			part[i].CompareAndSwap(w, w&^(genMask<<genShift))
		}
	}
}

// mix is a bijection of [0, 2^49): multiplication by an odd number and
// xorshift to the right are both invertible there. The constants are the
// 64-bit golden ratio and a MurmurHash3 finalizer constant.
func mix(k uint64) uint64 {
	k = k * 0x9e3779b97f4a7c15 & keyMask
	k ^= k >> 23
	k = k * 0xc4ceb9fe1a85ec53 & keyMask
	k ^= k >> 25
	return k
}

// Entry is what the table knows about one position: bounds on its score
// and the best move found, if any (-1 when none). It is a plain value,
// copied out of the table.
type Entry struct {
	Lower, Upper int
	Move         int
}

// bucket returns the slots of key's bucket and the check its entry holds.
// Its loads, as Wide.Ref's and Wide.bucket's, are atomic.Uint64.Load, not
// load, which the inliner costs more: through load, 7x6's search took
// 18.79 G instructions against 18.73 G (callgrind, 8 positions of
// testdata/random8.txt). Under GOOS=js they are calls, out of the loops
// over a bucket's slots.
func (t *Compact) bucket(key uint64) (slots []atomic.Uint64, check uint64) {
	h := mix(key)
	i := (h & t.active.Load()) * bucketLen
	// The shift count masked to 6 bits spares the check for counts of 64
	// or more. The epoch makes the entries of earlier ones never match.
	return t.words[i : i+bucketLen : i+bucketLen], h>>(t.startBits&63)<<checkShift | t.epoch.Load()
}

// Get returns the entry for key (below 2^49) and whether there is one.
func (t *Compact) Get(key uint64) (Entry, bool) { return t.Ref(key).Get() }

// CompactRef is where the entry of one key is or would be in a table: found once,
// for a caller that prefetches the key's bucket and gets its entry later.
// The zero value is not usable; Compact.Ref returns one. Its methods are
// safe for concurrent use, as the Compact's are.
type CompactRef struct {
	slots []atomic.Uint64
	check uint64
}

// Ref returns the place of key (below 2^49) in t.
func (t *Compact) Ref(key uint64) CompactRef {
	slots, check := t.bucket(key)
	return CompactRef{slots, check}
}

// Get is Compact.Get of r's key.
func (r CompactRef) Get() (Entry, bool) {
	for i := range r.slots {
		if w := load(&r.slots[i]); w&^dataMask == r.check && w != 0 {
			return decode(w), true
		}
	}
	return Entry{}, false
}

// Prefetch starts loading r's bucket into the cache, so that a Get soon
// after need not wait for memory. Prefetching the buckets of several keys
// in a row overlaps their memory latencies; a probe that branches on each
// answer would wait for them one at a time. On amd64 it is the processor's
// prefetch instruction, which returns at once, so the caller's work until
// the Get overlaps the latency too; elsewhere it is a load, which the
// processor runs ahead of as far as it can.
func (r CompactRef) Prefetch() { prefetch(&r.slots[0]) }

func decode(w uint64) Entry {
	return Entry{
		Lower: int(w&boundMask) - scoreOffset,
		Upper: int(w>>boundBits&boundMask) - scoreOffset,
		Move:  int(w>>moveShift&7) - 1,
	}
}

// Put records that the score of key lies in [lower, upper] (both in
// [-31, 31]) and that move (-1 if none) was best, found by a search of
// the given number of nodes. If the table already holds the key, the
// bounds are intersected.
func (t *Compact) Put(key uint64, lower, upper, move int, nodes uint64) {
	slots, check := t.bucket(key)
	gen := load(&t.gen) & genMask
	work := uint64(min(bits.Len64(nodes), workMax))
	victim, victimValue := 0, uint64(1<<63)
	for i := range slots {
		w := load(&slots[i])
		if w == 0 || w&t.epochMask != check&t.epochMask {
			// Empty, or of an epoch before the last Clear: as good.
			victim, victimValue = i, 0
			break
		}
		if w&^dataMask == check {
			old := decode(w)
			lower, upper = max(lower, old.Lower), min(upper, old.Upper)
			if move < 0 {
				move = old.Move
			}
			work = max(work, w>>workShift&workMax)
			victim = i
			break
		}
		// Older generations count as less than any current entry.
		value := w >> workShift & workMax
		if w>>genShift&genMask == gen {
			value += workMax + 1
		}
		if value < victimValue {
			victim, victimValue = i, value
		}
	}
	store(&slots[victim], check|gen<<genShift|work<<workShift|
		uint64(move+1)<<moveShift|uint64(upper+scoreOffset)<<boundBits|
		uint64(lower+scoreOffset))
}
