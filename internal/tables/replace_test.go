package tables

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// putRecord is one Put as the test made it.
type putRecord struct{ lower, upper, move int }

// mergedSuffix reports whether e is what the table may hold for a key after
// the given Puts: the merge of the last n Puts for some n >= 1 (the key may
// have been evicted and stored afresh before any of them).
func mergedSuffix(e Entry, puts []putRecord) bool {
	m := Entry{Lower: minBound, Upper: maxBound, Move: -1}
	for i := len(puts) - 1; i >= 0; i-- {
		p := puts[i]
		m.Lower, m.Upper = max(m.Lower, p.lower), min(m.Upper, p.upper)
		if m.Move < 0 {
			m.Move = p.move
		}
		if e == m {
			return true
		}
	}
	return false
}

// TestOverfill fills a small table with many more keys than slots, with
// random work and now and then a new generation, and checks that every hit
// returns exactly what was stored for its key: the intersection of all
// Puts for it since it was last (re)stored. The keys crowd into the first
// 4096 buckets only (random checks, so otherwise arbitrary keys), which
// keeps the pressure per bucket while the test stays quick under -race.
func TestOverfill(t *testing.T) {
	tt := must(NewCompact(1, false))
	const buckets = 4096
	slots := buckets * bucketLen
	nKeys, nPuts := 4*slots, 8*slots
	r := rand.New(rand.NewPCG(5, 6))
	keys := make([]uint64, nKeys)
	for i := range keys {
		keys[i] = keyIn(tt, uint64(r.IntN(buckets)), r.Uint64()&keyMask>>tt.startBits)
	}
	distinct := make(map[uint64]bool, nKeys)
	for _, k := range keys {
		distinct[k] = true
	}
	if len(distinct) != nKeys {
		t.Fatalf("%d distinct random keys of %d; the test wants all distinct", len(distinct), nKeys)
	}
	puts := make([][]putRecord, nKeys) // puts[i]: the Puts of keys[i]
	// check returns what is wrong with Get(keys[i]), or "". (It is not a
	// t.Helper: that costs a stack walk per call, most of this test's time.)
	check := func(i int) string {
		k := keys[i]
		e, ok := tt.Get(k)
		switch {
		case !ok:
			return ""
		case len(puts[i]) == 0:
			return fmt.Sprintf("Get(%#x) = %+v, true for a key never put; want false", k, e)
		case !mergedSuffix(e, puts[i]):
			return fmt.Sprintf("Get(%#x) = %+v, true; want the merge of its last Puts %+v", k, e, puts[i])
		}
		return ""
	}
	for n := range nPuts {
		i := r.IntN(nKeys)
		k := keys[i]
		lower := r.IntN(43) - 21
		p := putRecord{lower, lower + r.IntN(22-lower), r.IntN(8) - 1}
		tt.Put(k, p.lower, p.upper, p.move, 1<<r.IntN(40))
		puts[i] = append(puts[i], p)
		// Just after a Put the key must hit, with the latest Put merged in.
		if e, ok := tt.Get(k); !ok {
			t.Fatalf("Get(%#x) just after Put(%#x, %d, %d, %d) = %+v, false; want a hit",
				k, k, p.lower, p.upper, p.move, e)
		}
		for _, j := range []int{i, r.IntN(nKeys)} {
			if msg := check(j); msg != "" {
				t.Fatal(msg)
			}
		}
		if n%(nPuts/16) == 0 {
			tt.NewSearch()
		}
	}
	hits := 0
	for i := range keys {
		if msg := check(i); msg != "" {
			t.Fatal(msg)
		}
		if _, ok := tt.Get(keys[i]); ok {
			hits++
		}
	}
	// The buckets cannot hold more keys than they have slots.
	if hits > slots {
		t.Errorf("%d of %d keys hit in %d buckets of %d slots; want at most %d", hits, nKeys, buckets, bucketLen, slots)
	}
	// And they should be close to full: some 14 random keys were put into
	// each on average. No slot outside them was touched.
	if n := usedSlots(tt); n < slots*99/100 || n > slots {
		t.Errorf("%d slots used after %d Puts of %d keys into %d slots; want nearly all of them", n, nPuts, nKeys, slots)
	}
}

func TestReplaceLeastWork(t *testing.T) {
	tt := must(NewCompact(1, false))
	const b = 77
	nodes := []uint64{1 << 10, 1 << 3, 1 << 20, 1 << 15}
	for i, n := range nodes {
		tt.Put(keyIn(tt, b, uint64(i)), i, i, i, n)
	}
	fifth := keyIn(tt, b, 4)
	tt.Put(fifth, 4, 4, 4, 1<<3)
	wantHit := []bool{true, false, true, true, true} // the 1<<3 one goes
	for i, want := range wantHit {
		k := keyIn(tt, b, uint64(i))
		if e, ok := tt.Get(k); ok != want || ok && e != (Entry{i, i, i}) {
			t.Errorf("Get(%#x) (key %d of one bucket) = %+v, %t; want %t", k, i, e, ok, want)
		}
	}
}

func TestReplaceOlderGeneration(t *testing.T) {
	tt := must(NewCompact(1, false))
	const b = 1234
	k := func(i uint64) uint64 { return keyIn(tt, b, i) }
	// Generation 0: two entries of much work.
	tt.Put(k(0), 0, 0, 0, 1<<20)
	tt.Put(k(1), 1, 1, 1, 1<<30)
	tt.NewSearch()
	// Generation 1: two entries of little work fill the bucket.
	tt.Put(k(2), 2, 2, 2, 1<<2)
	tt.Put(k(3), 3, 3, 3, 1<<4)

	steps := []struct {
		key   uint64
		nodes uint64
		gone  uint64 // the key the Put must evict
	}{
		{k(4), 1, k(0)},       // old goes before current; of the old, less work first
		{k(5), 2, k(1)},       // old, though it has the most work of all
		{k(6), 1 << 10, k(4)}, // all current now: least work goes (k(4): 1 node)
		{k(7), 1 << 10, k(5)}, // then k(5) (2 nodes)
		{k(8), 1 << 10, k(2)}, // then k(2) (4 nodes)
	}
	present := map[uint64]bool{k(0): true, k(1): true, k(2): true, k(3): true}
	for _, s := range steps {
		tt.Put(s.key, 5, 5, 5, s.nodes)
		present[s.key] = true
		delete(present, s.gone)
		for i := range uint64(9) {
			if _, ok := tt.Get(k(i)); ok != present[k(i)] {
				t.Fatalf("after Put(%#x, nodes %d): Get(%#x) hit = %t; want %t (the Put should evict %#x)",
					s.key, s.nodes, k(i), ok, present[k(i)], s.gone)
			}
		}
	}
}

// TestMergeRefreshesGeneration checks that storing into an old entry makes
// it current, so it is then kept over an old one.
func TestMergeRefreshesGeneration(t *testing.T) {
	tt := must(NewCompact(1, false))
	const b = 4321
	k := func(i uint64) uint64 { return keyIn(tt, b, i) }
	for i := range uint64(4) {
		tt.Put(k(i), -1, 1, 0, 1<<10)
	}
	tt.NewSearch()
	tt.Put(k(0), 0, 1, -1, 1) // k(0) is current again, keeping its work
	tt.Put(k(1), 0, 1, -1, 1)
	tt.Put(k(2), 0, 1, -1, 1)
	tt.Put(k(4), 0, 0, 0, 1) // must evict k(3), the only old entry
	for i, want := range []bool{true, true, true, false, true} {
		if _, ok := tt.Get(k(uint64(i))); ok != want {
			t.Errorf("Get(%#x) hit = %t; want %t", k(uint64(i)), ok, want)
		}
	}
	if e, ok := tt.Get(k(0)); !ok || e != (Entry{0, 1, 0}) {
		t.Errorf("Get(%#x) = %+v, %t; want {0 1 0}, true", k(0), e, ok)
	}
}

// TestMergeKeepsWork checks that a cheap store into an entry does not make
// it look cheap: the entry keeps the larger work of the two.
func TestMergeKeepsWork(t *testing.T) {
	tt := must(NewCompact(1, false))
	const b = 999
	k := func(i uint64) uint64 { return keyIn(tt, b, i) }
	for i, n := range []uint64{1 << 20, 1 << 10, 1 << 12, 1 << 14} {
		tt.Put(k(uint64(i)), -1, 1, -1, n)
	}
	tt.Put(k(0), 0, 1, -1, 1) // a cheap re-search of k(0)
	tt.Put(k(4), 0, 0, 0, 1)  // must evict k(1) (1<<10 nodes), not k(0)
	for i, want := range []bool{true, false, true, true, true} {
		if _, ok := tt.Get(k(uint64(i))); ok != want {
			t.Errorf("Get(%#x) hit = %t; want %t", k(uint64(i)), ok, want)
		}
	}
}

// TestAgingPastWrap runs NewSearch far past the wrap of the generation
// field (1024) and checks, after each of several counts, that an entry of
// the current search is kept over entries stored at the start, however
// much work those took: they are old, and must not look current again.
func TestAgingPastWrap(t *testing.T) {
	tt := must(NewCompact(1, false))
	const b = 2024
	k := func(i uint64) uint64 { return keyIn(tt, b, i) }
	searches := 0
	for _, n := range []int{63, 64, 1023, 1024, 1025, 4096, 65536, 1 << 21} {
		tt.Clear()
		searches = 0
		for i := range uint64(4) {
			tt.Put(k(i), 0, 0, 0, 1<<30) // much work, now
		}
		for ; searches < n; searches++ {
			tt.NewSearch()
		}
		if n >= 2*agePeriod {
			// Visited at least once when 512 or more generations old:
			// marked as of long ago, and never written again.
			for i := range uint64(4) {
				slots, check := tt.bucket(k(i))
				for j := range slots {
					if w := slots[j].Load(); w&^dataMask == check && w>>genShift&genMask != 0 {
						t.Errorf("after %d NewSearch calls, entry %d has generation %d; want 0, of long ago", n, i, w>>genShift&genMask)
					}
				}
			}
		}
		tt.Put(k(4), 1, 1, 1, 1) // little work, current: evicts an old one
		tt.Put(k(5), 1, 1, 1, 1) // must evict another old one, not k(4)
		if _, ok := tt.Get(k(4)); !ok {
			t.Errorf("after %d NewSearch calls, a current entry was evicted for another while entries of the first search stayed", n)
		}
		if _, ok := tt.Get(k(5)); !ok {
			t.Errorf("after %d NewSearch calls, the last entry stored is not there", n)
		}
	}
}
