package tables

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
)

// folded reports whether the table keeps only the low word of its keys
// (see Folded keys): keys of 64 bits, or of a few more.
func (t *Wide) folded() bool { return t.stride == 2 }

// TestWidePutGet stores and finds entries of keys of one word, of 72
// bits (folded) and of 128, the bounds of one key merged, and keys that
// differ only in their high word kept apart.
func TestWidePutGet(t *testing.T) {
	for _, c := range []struct {
		keyBits int
		folded  bool
	}{{64, true}, {72, true}, {128, false}} {
		tt := must(NewWide(1, c.keyBits, true))
		if tt.folded() != c.folded {
			t.Fatalf("%d bits: folded = %t", c.keyBits, tt.folded())
		}
		hi := uint64(0)
		if c.keyBits > 64 {
			hi = 7
		}
		tt.Put(12345, hi, -3, 63, 4, 100)
		if e, ok := tt.Ref(12345, hi).Get(); !ok || e != (Entry{Lower: -3, Upper: 63, Move: 4}) {
			t.Fatalf("%d bits: Get = %+v, %t; want [-3, 63] move 4", c.keyBits, e, ok)
		}
		tt.Put(12345, hi, -63, 5, -1, 10)
		if e, ok := tt.Ref(12345, hi).Get(); !ok || e != (Entry{Lower: -3, Upper: 5, Move: 4}) {
			t.Fatalf("%d bits: merged Get = %+v, %t; want [-3, 5] move 4", c.keyBits, e, ok)
		}
		if c.keyBits > 64 {
			if e, ok := tt.Ref(12345, hi+1).Get(); ok {
				t.Fatalf("%d bits: a key of another high word found: %+v", c.keyBits, e)
			}
			tt.Put(12345, hi+1, 1, 1, 24, 1)
			if e, ok := tt.Ref(12345, hi+1).Get(); !ok || e != (Entry{Lower: 1, Upper: 1, Move: 24}) {
				t.Fatalf("%d bits: high word %d: Get = %+v, %t", c.keyBits, hi+1, e, ok)
			}
			if e, _ := tt.Ref(12345, hi).Get(); e != (Entry{Lower: -3, Upper: 5, Move: 4}) {
				t.Fatalf("%d bits: high word %d changed by another's store: %+v", c.keyBits, hi, e)
			}
		}
		if _, ok := tt.Ref(54321, hi).Get(); ok {
			t.Fatalf("%d bits: a key never stored found", c.keyBits)
		}
	}
}

// TestWideFolded: in a table that keeps only the low word of its keys,
// every key of one low word and a high word of the table's bits is its
// own entry, before and after the table grows, and the bucket of a key
// gives its high word back.
func TestWideFolded(t *testing.T) {
	const keyBits = 72
	tt := must(NewWide(64, keyBits, true))
	if !tt.folded() {
		t.Fatal("a table of 64 MiB does not fold keys of 72 bits")
	}
	bound := func(lo, hi uint64) int { return int((lo*31+hi)%127) - 63 }
	r := rand.New(rand.NewPCG(3, 4))
	los := make([]uint64, 64)
	for i := range los {
		los[i] = r.Uint64()
	}
	for _, lo := range los {
		for hi := range uint64(1 << (keyBits - 64)) {
			b := bound(lo, hi)
			tt.Put(lo, hi, b, b, -1, 1)
			if got := (tt.bucket(lo, hi) ^ tt.bucket(lo, 0)) & (1<<(keyBits-64) - 1); got != hi {
				t.Fatalf("key %#x %#x: its bucket says high word %#x", lo, hi, got)
			}
		}
	}
	for grown := range 2 {
		for _, lo := range los {
			for hi := range uint64(1 << (keyBits - 64)) {
				e, ok := tt.Ref(lo, hi).Get()
				if ok && (e.Lower != bound(lo, hi) || e.Upper != e.Lower) {
					t.Fatalf("grown %d: key %#x %#x found another key's entry %+v", grown, lo, hi, e)
				}
				if !ok && grown == 0 {
					t.Fatalf("key %#x %#x lost", lo, hi)
				}
			}
		}
		tt.Grow(1 << 40)
	}
	if small := must(NewWide(1, 64+20, true)); small.folded() {
		t.Errorf("a table of 1 MiB (2^14 buckets) folds keys of 84 bits")
	}
}

// TestWideClear: no entry survives a Clear, however many Clears come
// after it (the epoch wraps after 256).
func TestWideClear(t *testing.T) {
	tt := must(NewWide(1, 128, true))
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([][2]uint64, 2000)
	for i := range keys {
		keys[i] = [2]uint64{r.Uint64() | 1, r.Uint64()}
	}
	for round := range 600 {
		for _, k := range keys[:200] {
			if _, ok := tt.Ref(k[0], k[1]).Get(); ok {
				t.Fatalf("round %d: an entry of before the Clear found", round)
			}
		}
		for _, k := range keys {
			tt.Put(k[0], k[1], 0, 0, -1, 1)
		}
		tt.Clear()
	}
}

// TestWideKeepsWork: in a full bucket, the entry of the least work is the
// one replaced.
func TestWideKeepsWork(t *testing.T) {
	tt := must(NewWide(1, 64, true))
	// Keys in one bucket: found by trying.
	var same []uint64
	want := tt.Ref(1, 0).b
	for k := uint64(1); len(same) < 4; k++ {
		if tt.Ref(k, 0).b == want {
			same = append(same, k)
		}
	}
	tt.Put(same[0], 0, 0, 0, -1, 1<<20)
	tt.Put(same[1], 0, 0, 0, -1, 1)
	tt.Put(same[2], 0, 0, 0, -1, 1<<10)
	tt.Put(same[3], 0, 0, 0, -1, 1<<5) // replaces same[1]
	for i, k := range same {
		_, ok := tt.Ref(k, 0).Get()
		if ok != (i != 1) {
			t.Errorf("key %d of the bucket: found %t", i, ok)
		}
	}
}

// TestWideConcurrent has goroutines store and read keys whose bounds are
// a function of the key, in a table of keys of two words and one of
// folded keys: a read that found the words of two stores together, or
// another key's entry, would show other bounds. With -race it also checks
// that every access is atomic.
func TestWideConcurrent(t *testing.T) {
	for _, keyBits := range []int{72, 128} {
		t.Run(fmt.Sprint(keyBits), func(t *testing.T) { wideConcurrent(t, must(NewWide(1, keyBits, true))) })
	}
}

func wideConcurrent(t *testing.T, tt *Wide) {
	bound := func(lo, hi uint64) int { return int((lo^hi)%127) - 63 }
	n := 200000
	if testing.Short() {
		n = 20000
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 9))
			for range n {
				// Few keys, so that goroutines meet in the same buckets,
				// and keys of one low word with different high words.
				lo, hi := r.Uint64N(4096)+1, r.Uint64N(3)
				if r.IntN(2) == 0 {
					b := bound(lo, hi)
					tt.Put(lo, hi, b, b, int(lo%25), 1)
					continue
				}
				if e, ok := tt.Ref(lo, hi).Get(); ok {
					if b := bound(lo, hi); e.Lower != b || e.Upper != b || e.Move != int(lo%25) {
						select {
						case errs <- "torn read":
						default:
						}
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestWideAging: entries of long ago are the first replaced, as Compact's.
func TestWideAging(t *testing.T) {
	tt := must(NewWide(1, 64, true))
	tt.Put(99, 0, 1, 1, -1, 1<<30)
	for range 3 * agePeriod {
		tt.NewSearch()
	}
	if e, ok := tt.Ref(99, 0).Get(); !ok || e.Lower != 1 {
		t.Fatalf("an old entry is lost before it is replaced: %+v %t", e, ok)
	}
	if tt.Searches() < 3*agePeriod {
		t.Fatalf("Searches = %d; want at least %d", tt.Searches(), 3*agePeriod)
	}
}

// TestAgingMarks: NewSearch marks an entry of either kind of table as of
// long ago (generation 0) in the first generation that looks at its part
// when it is agePeriod generations old or more, and not before.
func TestAgingMarks(t *testing.T) {
	tt, wt := must(NewCompact(1, false)), must(NewWide(1, 64, true))
	tt.NewSearch()
	wt.NewSearch()
	for k := range uint64(5000) {
		tt.Put(k*0x9e3779b97f4a7c15&keyMask, 0, 1, 2, 100)
		wt.Put(k*0x9e3779b97f4a7c15, 0, 0, 1, 2, 100)
	}
	// check checks the generation of every entry, data word i of words,
	// in generation g: 1, where it was stored, until its part is looked
	// at 512 generations or more after that.
	check := func(g uint64, words []atomic.Uint64, i int, gen uint64) {
		part := uint64(i / (len(words) / agePeriod))
		marked := part + agePeriod
		if part == 0 {
			marked = 2 * agePeriod
		}
		if g >= marked && gen != 0 || g < marked && gen != 1 {
			t.Fatalf("generation %d: an entry of generation 1 in part %d has generation %d", g, part, gen)
		}
	}
	for g := uint64(2); g <= 2*agePeriod+1; g++ {
		tt.NewSearch()
		wt.NewSearch()
		for i := range tt.words {
			if w := tt.words[i].Load(); w != 0 {
				check(g, tt.words, i, w>>genShift&genMask)
			}
		}
		for i := range wt.words {
			if d := wt.words[i].Load(); i%bucketWords%2 == 0 && i%bucketWords != 0 && d != 0 {
				check(g, wt.words, i, d>>wideGenShift&genMask)
			}
		}
	}
}

// TestWideBounds: the scores of every board of at most 128 bits fit an
// entry's bound fields, and a used entry's lower bound field is never 0.
func TestWideBounds(t *testing.T) {
	if minWideBound+wideOffset <= 0 || maxWideBound+wideOffset > wideBoundMask {
		t.Errorf("scores [%d, %d] + %d do not fit in 1 to %d", minWideBound, maxWideBound, wideOffset, wideBoundMask)
	}
}
