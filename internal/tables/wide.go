package tables

import (
	"fmt"
	"math/bits"
	"sync/atomic"
	"unsafe"
)

// Wide is a transposition table for keys of one or two words: those of
// the boards over 49 bits, up to 128 (Compact's keys are of 49 bits at
// most). Its methods are safe for concurrent use by any number of
// goroutines, as Compact's are. The zero value is not usable; call NewWide.
//
// # Why a false hit cannot happen
//
// An entry keeps its whole key beside a word of data (bounds, move, work,
// generation, epoch), so a hit is found only under the key it was stored
// with: the key's low word, and its high word unless the bucket's index
// says it (see Folded keys). An entry spans words that no single atomic
// store writes together, so each bucket has a sequence word, a seqlock:
// a writer takes the bucket by moving the sequence from even to odd with
// a compare-and-swap (or, if another writer has it, drops its store: a
// lost update costs work, never correctness), writes the entry, and makes
// the sequence even again, one more than before. A reader reads the
// sequence, the entry, and the sequence again, and trusts the entry only
// if the sequence was even and did not change: no write to the bucket
// came between, so the key and the data it read were written together.
// The sequence is 64 bits, so it never comes back to a value a reader
// saw (that would take 2^63 writes to the bucket).
//
// # Bucket layout
//
// A bucket is 8 words, 64 bytes, one cache line: the sequence, then three
// entries of a key word and a data word (keys of one word, and folded
// keys), or two of two key words and a data word, and a spare word.
//
//	data bits  0- 6  lower bound + 64 (never 0 in a used entry: 0 is empty)
//	           7-13  upper bound + 64
//	          14-18  best move + 1 (0: none; columns up to 30)
//	          19-23  work: bit length of the node count of the search
//	          24-33  generation (see Compact.NewSearch)
//	          34-41  epoch: the Clear the entry belongs to (see Compact)
//
// Replacement, generations and epochs are Compact's: a store replaces the
// entry of the same key, merging the bounds, or an empty one, or the one
// of the least work, older generations first; Clear makes every entry of
// an earlier epoch empty, zeroing one part of the table in turn.
//
// # Folded keys
//
// The keys of 8x8, 9x7 and 10x6 are of 70-72 bits: a high word of 6-8
// bits. Where the high word has no more bits than the index of the
// smallest part of the table a search uses (32 MiB's buckets, or the
// whole table's if fewer), the table keeps only the low word: the bucket
// of key (lo, hi) is hash(lo) xor hi, so the low bits of a bucket's index
// and the hash of an entry's low word give the entry's high word back,
// and two keys of one low word never share a bucket, however the table
// grows. Their entries take two words, not three: three entries a bucket,
// not two, and one word compared, not two (docs/performance.md, "Folded
// keys").
type Wide struct {
	base
	keyBits int // the bits of the keys, 1 to 128
	stride  int // the words of an entry: 2 (keys of one word, folded keys), or 3
	// The high word's parts in bucket: hiMix, its factor in the hash (0
	// where keys are folded), and hiFold, the mask of it xored into the
	// hash's low bits (all ones where keys are folded, else 0). Constants
	// of the table rather than branches: Ref stays within Go's inlining
	// budget.
	hiMix, hiFold uint64
}

// The score bounds a Wide's entry holds (see Put): the scores of every
// board of at most 128 bits (4x31 has 124 cells, a best score of 59).
const (
	minWideBound = -63
	maxWideBound = 63
)

const (
	bucketWords    = 8
	wideOffset     = 64
	wideBoundBits  = 7
	wideBoundMask  = 1<<wideBoundBits - 1
	wideMoveShift  = 2 * wideBoundBits
	wideWorkShift  = wideMoveShift + 5
	wideGenShift   = wideWorkShift + 5
	wideEpochShift = wideGenShift + genBits
	wideEpochBits  = 8
	wideEpochs     = 1 << wideEpochBits
	wideEpochMask  = (wideEpochs - 1) << wideEpochShift
)

// NewWide returns an empty table of at most mib MiB (clamped to [MinMiB,
// MaxMiB]) for keys of keyBits bits (1 to 128): the low word of a key
// holds its first 64 bits, the high word the others. It returns an error
// where the memory cannot be had, which is mapped, and grows (grow), as
// NewCompact's is.
func NewWide(mib, keyBits int, grow bool) (*Wide, error) {
	if keyBits < 1 || keyBits > 128 {
		return nil, fmt.Errorf("ttable: keys of %d bits: 1 to 128", keyBits)
	}
	t := &Wide{keyBits: keyBits, stride: 2, hiFold: ^uint64(0)}
	if err := t.allocate(mib, bucketWords, startMiB(grow)); err != nil {
		return nil, err
	}
	if keyBits-64 > bits.Len64(t.start) {
		t.stride, t.hiMix, t.hiFold = 3, 0xc4ceb9fe1a85ec53, 0
	}
	return t, nil
}

// KeyBits returns the bits of the table's keys.
func (t *Wide) KeyBits() int { return t.keyBits }

// Grow makes the table use enough of its memory for a search that has
// stored so many entries so far (an entry for each store), up to the whole
// table: a solve starts on 32 MiB of it, so that a small search
// touches only the memory it needs (the first touch of a page, the kernel
// zeroing it, costs more than most searches). An entry stored before the
// table grew may now lie in another bucket than its key's, and is lost:
// that costs work, never a result. It is safe for concurrent use, and
// cheap where the table is large enough already.
func (t *Wide) Grow(stores uint64) { t.grow(stores, uint64(bucketWords-2)/uint64(t.stride)) }

// Clear empties the table, as Compact.Clear does: a new epoch, and one part
// in 256 zeroed; the next solve starts on a part of the table
// again (see Grow). It must not run concurrently with other methods.
func (t *Wide) Clear() { t.clear(wideEpochs, wideEpochShift) }

// NewSearch starts a new generation (Compact.NewSearch).
func (t *Wide) NewSearch() { t.newSearch(t.age) }

// age marks, in part g%agePeriod of the table, the entries agePeriod
// generations old or more as of long ago (ttable's "Generations"), each
// bucket under its lock; a bucket being written is left for next time.
func (t *Wide) age(g uint64) {
	part := t.agePart(g)
	stride := t.stride
	for b := 0; b+bucketWords <= len(part); b += bucketWords {
		seq := &part[b]
		s := load(seq)
		if s&1 != 0 || !seq.CompareAndSwap(s, s+1) {
			continue
		}
		for i := b + stride; i < b+bucketWords; i += stride {
			if d := load(&part[i]); stale(d>>wideGenShift, g) {
				part[i].Store(d &^ (genMask << wideGenShift))
			}
		}
		seq.Store(s + 2)
	}
}

// WideRef is where the entry of one key is or would be in a Wide table,
// as CompactRef is for a Compact. The zero value is not usable; Wide.Ref returns
// one. Its methods are safe for concurrent use.
type WideRef struct {
	b      *[bucketWords]atomic.Uint64
	lo, hi uint64
	epoch  uint64
	two    bool // entries of two key words
}

// Ref returns the place of the key of words lo and hi (hi 0 for keys of
// one word) in t.
func (t *Wide) Ref(lo, hi uint64) WideRef {
	i := t.bucket(lo, hi) * bucketWords
	return WideRef{(*[bucketWords]atomic.Uint64)(t.words[i : i+bucketWords]), lo, hi, t.epoch.Load(), t.stride == 3}
}

// bucket returns the index of the bucket of key (lo, hi): a hash of both
// words, or, where keys are folded, of lo with hi in its low bits (see
// Folded keys).
func (t *Wide) bucket(lo, hi uint64) uint64 {
	h := lo*0x9e3779b97f4a7c15 ^ hi*t.hiMix
	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 32
	return (h ^ hi&t.hiFold) & t.active.Load()
}

// Prefetch starts loading r's bucket into the cache (CompactRef.Prefetch). The
// address is taken through unsafe.Pointer, not as &r.b[0]: that
// expression's nil check is a load of the bucket (TESTB AL, (AX)), which
// waits for the very miss the prefetch is meant to overlap (a third of
// the time of a 6x6 solve went there).
func (r WideRef) Prefetch() { prefetch((*atomic.Uint64)(unsafe.Pointer(r.b))) }

// Get returns the entry of r's key and whether there is one.
func (r WideRef) Get() (Entry, bool) {
	b := r.b
	s := load(&b[0])
	if s&1 != 0 {
		return Entry{}, false // being written
	}
	if !r.two {
		// Entries of one key word (keys of one word, and folded ones),
		// on a loop of their own: its constant stride spares the
		// instructions of the general one (7x5's empty board: 0.9% of
		// them).
		for i := 1; i+2 <= bucketWords; i += 2 {
			if load(&b[i]) != r.lo {
				continue
			}
			if d := load(&b[i+1]); d != 0 && d&wideEpochMask == r.epoch {
				return wideEntry(b, s, d)
			}
		}
		return Entry{}, false
	}
	for i := 1; i+3 <= bucketWords; i += 3 {
		if load(&b[i]) != r.lo || load(&b[i+1]) != r.hi {
			continue
		}
		if d := load(&b[i+2]); d != 0 && d&wideEpochMask == r.epoch {
			return wideEntry(b, s, d)
		}
	}
	return Entry{}, false
}

// wideEntry returns the entry of the data word d, found in bucket b whose
// sequence was s before the entry's words were read, if the sequence is
// still s: else the bucket was written meanwhile, and the words may not
// belong together.
func wideEntry(b *[bucketWords]atomic.Uint64, s, d uint64) (Entry, bool) {
	if load(&b[0]) != s {
		return Entry{}, false
	}
	return Entry{
		Lower: int(d&wideBoundMask) - wideOffset,
		Upper: int(d>>wideBoundBits&wideBoundMask) - wideOffset,
		Move:  int(d>>wideMoveShift&31) - 1,
	}, true
}

// Put records that the score of the key of words lo and hi lies in
// [lower, upper] (both in [-63, 63]) and that move (-1 if none) was
// best, found by a search of the given number of nodes, as Compact.Put
// does. A store that finds another writer in the bucket is dropped.
func (t *Wide) Put(lo, hi uint64, lower, upper, move int, nodes uint64) {
	r := t.Ref(lo, hi)
	b := r.b
	s := load(&b[0])
	if s&1 != 0 || !b[0].CompareAndSwap(s, s+1) {
		return
	}
	stride := t.stride
	gen := load(&t.gen) & genMask
	work := uint64(min(bits.Len64(nodes), workMax))
	victim, victimValue := 1, uint64(1<<63)
	for i := 1; i+stride <= bucketWords; i += stride {
		d := load(&b[i+stride-1])
		if d == 0 || d&wideEpochMask != r.epoch {
			victim, victimValue = i, 0 // empty, or of an epoch before the last Clear
			break
		}
		if load(&b[i]) == lo && (stride == 2 || load(&b[i+1]) == hi) {
			lower = max(lower, int(d&wideBoundMask)-wideOffset)
			upper = min(upper, int(d>>wideBoundBits&wideBoundMask)-wideOffset)
			if move < 0 {
				move = int(d>>wideMoveShift&31) - 1
			}
			work = max(work, d>>wideWorkShift&workMax)
			victim = i
			break
		}
		value := d >> wideWorkShift & workMax
		if d>>wideGenShift&genMask == gen {
			value += workMax + 1
		}
		if value < victimValue {
			victim, victimValue = i, value
		}
	}
	store(&b[victim], lo)
	if stride == 3 {
		store(&b[victim+1], hi)
	}
	store(&b[victim+stride-1], r.epoch|gen<<wideGenShift|work<<wideWorkShift|
		uint64(move+1)<<wideMoveShift|uint64(upper+wideOffset)<<wideBoundBits|uint64(lower+wideOffset))
	store(&b[0], s+2)
}
