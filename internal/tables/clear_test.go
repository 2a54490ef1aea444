package tables

import (
	"c4solve/internal/settings"
	"math/rand/v2"
	"sync"
	"testing"
)

func TestClear(t *testing.T) {
	testClear(t, (*Compact).Clear)
}

// TestClearAll clears a table with epochs by zeroing it all.
func TestClearAll(t *testing.T) {
	tt := must(NewCompact(4, false))
	tt.Clear() // an epoch other than the first
	keys := make([]uint64, 5000)
	r := rand.New(rand.NewPCG(5, 6))
	for i := range keys {
		keys[i] = r.Uint64() & keyMask
		tt.Put(keys[i], 0, 2, 1, 3)
	}
	tt.ClearAll()
	if n := usedSlots(tt); n != 0 {
		t.Errorf("%d slots used after ClearAll; want 0", n)
	}
	for _, k := range keys {
		if e, ok := tt.Get(k); ok {
			t.Fatalf("Get(%#x) after ClearAll = %+v, true; want false", k, e)
		}
	}
	tt.Put(keys[0], 1, 1, 2, 1)
	if e, ok := tt.Get(keys[0]); !ok || e != (Entry{1, 1, 2}) {
		t.Errorf("Get(%#x) = %+v, %t; want {1 1 2}, true", keys[0], e, ok)
	}
}

// TestPrefault: Prefault keeps every entry and changes no slot, also
// while other goroutines put and get.
func TestPrefault(t *testing.T) {
	tt := must(NewCompact(4, false))
	keys := make([]uint64, 5000)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range keys {
		keys[i] = r.Uint64() & keyMask
		tt.Put(keys[i], -1, 3, 2, 5)
	}
	before := make([]uint64, len(tt.words))
	for i := range tt.words {
		before[i] = tt.words[i].Load()
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for _, k := range keys {
			tt.Get(k)
		}
	})
	tt.Prefault()
	wg.Wait()
	for i := range tt.words {
		if got := tt.words[i].Load(); got != before[i] {
			t.Fatalf("slot %d = %#x after Prefault; want %#x", i, got, before[i])
		}
	}
	for _, k := range keys {
		if e, ok := tt.Get(k); !ok || e != (Entry{-1, 3, 2}) {
			t.Fatalf("Get(%#x) = %+v, %t after Prefault; want {-1 3 2}, true", k, e, ok)
		}
	}
}

// TestClearPart clears the table part by part, checking that the entries
// left are exactly those of the parts not yet cleared.
func TestClearPart(t *testing.T) {
	testClear(t, func(tt *Compact) {
		for k := range settings.ClearParts {
			before := usedSlots(tt)
			part := len(tt.words) / settings.ClearParts
			inPart := 0
			for i := k * part; i < (k+1)*part; i++ {
				if tt.words[i].Load() != 0 {
					inPart++
				}
			}
			tt.ClearPart(k)
			if after := usedSlots(tt); after != before-inPart || inPart == 0 {
				t.Fatalf("ClearPart(%d): %d slots used, %d in the part, %d after; want some in the part, all of them gone", k, before, inPart, after)
			}
		}
	})
}

func testClear(t *testing.T, clearTable func(*Compact)) {
	tt := must(NewCompact(1, false))
	r := rand.New(rand.NewPCG(7, 8))
	keys := make([]uint64, 10000)
	for i := range keys {
		keys[i] = r.Uint64() & keyMask
		tt.Put(keys[i], -1, 1, 3, 10)
	}
	tt.NewSearch()
	clearTable(tt)
	if n := usedSlots(tt); n != 0 {
		t.Errorf("%d slots used after Clear; want 0", n)
	}
	if g := tt.gen.Load(); g != 0 {
		t.Errorf("generation after Clear = %d; want 0", g)
	}
	for _, k := range keys {
		if e, ok := tt.Get(k); ok {
			t.Fatalf("Get(%#x) after Clear = %+v, true; want false", k, e)
		}
	}
	// The table is usable again.
	tt.Put(keys[0], 2, 4, 1, 1)
	if e, ok := tt.Get(keys[0]); !ok || e != (Entry{2, 4, 1}) {
		t.Errorf("Get(%#x) = %+v, %t; want {2 4 1}, true", keys[0], e, ok)
	}
}

// TestClearEpochs clears a table with epochs (4 MiB: two epoch bits, four
// epochs) many times, past the wrap of the epoch counter, storing keys in
// between, and checks after each Clear that no key stored before it is
// found, that the keys stored since are, and that a Put takes the slots of
// an earlier epoch: the bucket of a key stored before the last Clear and
// filled since holds only current entries.
func TestClearEpochs(t *testing.T) {
	tt := must(NewCompact(4, false))
	if tt.epochBits != 2 {
		t.Fatalf("a table of 4 MiB has %d epoch bits; want 2", tt.epochBits)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var before []uint64 // the keys stored before the last Clear
	for round := range 11 {
		keys := make([]uint64, 20000)
		for i := range keys {
			keys[i] = r.Uint64() & keyMask
			tt.Put(keys[i], -1, round, 2, 10)
		}
		for _, k := range keys {
			if _, ok := tt.Get(k); !ok {
				t.Fatalf("round %d: Get(%#x) of a key just stored = false", round, k)
			}
		}
		tt.Clear()
		if g := tt.gen.Load(); g != 0 {
			t.Errorf("generation after Clear = %d; want 0", g)
		}
		for _, k := range append(before, keys...) {
			if e, ok := tt.Get(k); ok {
				t.Fatalf("round %d: Get(%#x) after Clear = %+v, true; want false", round, k, e)
			}
		}
		before = keys
	}
	// Four keys in the bucket of one stored before the Clear take it whole:
	// an entry of an earlier epoch is worth nothing, however much work it
	// took.
	old := before[0]
	tt.Put(old, 0, 0, 1, 1<<40)
	tt.Clear()
	b := mix(old) & tt.bucketMask
	for i := range uint64(bucketLen) {
		tt.Put(keyIn(tt, b, 1000+i), 1, 1, 1, 1)
	}
	for i := range uint64(bucketLen) {
		if _, ok := tt.Get(keyIn(tt, b, 1000+i)); !ok {
			t.Errorf("entry %d of the new epoch was not stored over the old epoch's", i)
		}
	}
}

// BenchmarkClear measures Clear at the default table size: the part it
// zeroes, not the table.
func BenchmarkClear(b *testing.B) {
	tt := must(NewCompact(512, false))
	for b.Loop() {
		tt.Clear()
	}
}
