package ttable

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"testing"
)

// Constants of mix, repeated here so that unmix is written independently of
// it: if someone changes one constant in mix, TestMixBijection fails.
const (
	mixMul1   = 0x9e3779b97f4a7c15
	mixShift1 = 23
	mixMul2   = 0xc4ceb9fe1a85ec53
	mixShift2 = 25
)

// inverseOdd returns the inverse of the odd number c modulo 2^49 by Newton's
// iteration x <- x(2 - cx). For odd c, c*c = 1 mod 8, so c is its own inverse
// to 3 bits, and each step doubles the correct bits: 3, 6, 12, 24, 48, 96.
func inverseOdd(c uint64) uint64 {
	x := c
	for range 5 {
		x *= 2 - c*x
	}
	return x & keyMask
}

// unxorshift inverts y = x ^ x>>s on 49-bit numbers: each pass fixes s more
// of the high bits of x.
func unxorshift(y uint64, s uint) uint64 {
	x := y
	for range (keyBits + s - 1) / s {
		x = y ^ x>>s
	}
	return x & keyMask
}

var (
	invMul1 = inverseOdd(mixMul1)
	invMul2 = inverseOdd(mixMul2)
)

// unmix is the inverse of mix, undoing its four steps in reverse order.
func unmix(h uint64) uint64 {
	h = unxorshift(h, mixShift2)
	h = h * invMul2 & keyMask
	h = unxorshift(h, mixShift1)
	return h * invMul1 & keyMask
}

// keyIn returns the j-th key whose mixed value falls in bucket b of t: the
// key whose mixed value has bucket bits b and check j.
func keyIn(t *Table, b, j uint64) uint64 {
	return unmix(j<<t.startBits | b)
}

func TestInverseOdd(t *testing.T) {
	for _, c := range []uint64{1, 3, 5, 0xffff_ffff_ffff_ffff, mixMul1, mixMul2} {
		inv := inverseOdd(c)
		if got := c * inv & keyMask; got != 1 {
			t.Errorf("%#x * inverseOdd(%#x) mod 2^49 = %#x; want 1", c, c, got)
		}
	}
}

func TestMixBijection(t *testing.T) {
	keys := []uint64{0, 1, 2, 3, keyMask, keyMask - 1, keyMask >> 1, 0x1234,
		0x5555_5555_5555 & keyMask, 0xaaaa_aaaa_aaaa & keyMask}
	for i := range keyBits {
		keys = append(keys, 1<<i, 1<<i-1, keyMask^1<<i)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		keys = append(keys, r.Uint64()&keyMask)
	}
	for _, k := range keys {
		h := mix(k)
		if h > keyMask {
			t.Fatalf("mix(%#x) = %#x; want below 2^49", k, h)
		}
		if got := unmix(h); got != k {
			t.Fatalf("unmix(mix(%#x)) = unmix(%#x) = %#x; want %#x", k, h, got, k)
		}
	}
	// And the other way round, so mix is onto as well as one-to-one.
	for range 100000 {
		h := r.Uint64() & keyMask
		if got := mix(unmix(h)); got != h {
			t.Fatalf("mix(unmix(%#x)) = %#x; want %#x", h, got, h)
		}
	}
}

// TestMixDistinct checks one-to-one directly, without the inverse: the
// first 2^20 keys (which differ only in their low bits, as board keys of
// nearby positions do) have 2^20 distinct mixed values.
func TestMixDistinct(t *testing.T) {
	const n = 1 << 20
	seen := make(map[uint64]uint64, n)
	for k := uint64(0); k < n; k++ {
		h := mix(k)
		if k0, ok := seen[h]; ok {
			t.Fatalf("mix(%#x) = mix(%#x) = %#x", k0, k, h)
		}
		seen[h] = k
	}
}

// TestLayout checks that the slot fields do not overlap and that the check
// of the largest mixed value fits in the word for the smallest table.
func TestLayout(t *testing.T) {
	fields := []struct {
		name         string
		shift, width uint
	}{
		{"lower", 0, boundBits},
		{"upper", boundBits, boundBits},
		{"move", moveShift, 3},
		{"work", workShift, uint(bits.Len(workMax))},
		{"gen", genShift, uint(bits.Len(genMask))},
		{"check", checkShift, keyBits - minBucketBits},
	}
	var used uint64
	for _, f := range fields {
		if f.shift+f.width > 64 {
			t.Errorf("field %s: bits %d-%d; want within 64", f.name, f.shift, f.shift+f.width-1)
			continue
		}
		m := (uint64(1)<<f.width - 1) << f.shift
		if used&m != 0 {
			t.Errorf("field %s (mask %#x) overlaps earlier fields (mask %#x)", f.name, m, used)
		}
		used |= m
	}
	if -minBound+scoreOffset > boundMask || maxBound+scoreOffset > boundMask {
		t.Errorf("scores [%d, %d] + %d do not fit in %d bits", minBound, maxBound, scoreOffset, boundBits)
	}
	if minBound+scoreOffset <= 0 {
		t.Errorf("minBound + scoreOffset = %d; want > 0, so a used slot is never 0", minBound+scoreOffset)
	}
}

func TestPutGet(t *testing.T) {
	tt := must(New(1))
	structured := []uint64{
		0, // mix(0) = 0: bucket 0, check 0, so the word is only data
		1, 2, keyMask, 0x1234, 1 << 48,
		unmix(1),                                // check 0 again, in bucket 1
		unmix(keyMask),                          // the largest check in the last bucket
		unmix(keyMask &^ (1<<tt.startBits - 1)), // the largest check in bucket 0
	}
	seen := map[uint64]bool{}
	for _, k := range structured {
		if seen[k] {
			t.Fatalf("key %#x twice in the test's list", k)
		}
		seen[k] = true
	}
	r := rand.New(rand.NewPCG(3, 4))
	key := func(i int) uint64 {
		if i < len(structured) {
			return structured[i]
		}
		return r.Uint64() & keyMask
	}
	type put struct {
		key                uint64
		lower, upper, move int
	}
	var puts []put
	i := 0
	for lower := -21; lower <= 21; lower += 3 {
		for upper := lower; upper <= 21; upper += 4 {
			for move := -1; move <= 6; move++ {
				puts = append(puts, put{key(i), lower, upper, move})
				i++
			}
		}
	}
	// The extremes the layout allows.
	puts = append(puts, put{key(i), minBound, maxBound, 6}, put{key(i + 1), minBound, minBound, -1},
		put{key(i + 2), maxBound, maxBound, 0})

	for _, p := range puts {
		if e, ok := tt.Get(p.key); ok {
			t.Fatalf("Get(%#x) before Put = %+v, true; want false", p.key, e)
		}
		tt.Put(p.key, p.lower, p.upper, p.move, 1000)
		want := Entry{Lower: p.lower, Upper: p.upper, Move: p.move}
		if e, ok := tt.Get(p.key); !ok || e != want {
			t.Errorf("after Put(%#x, %d, %d, %d), Get = %+v, %t; want %+v, true",
				p.key, p.lower, p.upper, p.move, e, ok, want)
		}
	}
	// Nothing was evicted (the keys are few and spread out), so all still
	// hit; a Prefetch (here of the first and last buckets too) changes
	// nothing.
	for _, p := range puts {
		tt.Ref(p.key).Prefetch()
	}
	for _, p := range puts {
		want := Entry{Lower: p.lower, Upper: p.upper, Move: p.move}
		if e, ok := tt.Get(p.key); !ok || e != want {
			t.Errorf("Get(%#x) = %+v, %t; want %+v, true", p.key, e, ok, want)
		}
	}
	for range 1000 {
		k := r.Uint64() & keyMask
		if e, ok := tt.Get(k); ok {
			t.Errorf("Get(%#x) of a key never put = %+v, true; want false", k, e)
		}
	}
}

func TestMerge(t *testing.T) {
	type put struct{ lower, upper, move int }
	tests := []struct {
		name string
		puts []put
		want Entry
	}{
		{"intersect", []put{{-3, 5, 2}, {0, 8, 2}}, Entry{0, 5, 2}},
		{"keep move", []put{{-3, 5, 4}, {0, 8, -1}}, Entry{0, 5, 4}},
		{"new move", []put{{-3, 5, 4}, {0, 8, 1}}, Entry{0, 5, 1}},
		{"move 0 replaces", []put{{-3, 5, 4}, {-3, 5, 0}}, Entry{-3, 5, 0}},
		{"no move yet", []put{{-3, 5, -1}, {-1, 1, -1}}, Entry{-1, 1, -1}},
		{"move after none", []put{{-3, 5, -1}, {-9, 9, 6}}, Entry{-3, 5, 6}},
		{"narrower first", []put{{0, 0, 3}, {-21, 21, -1}}, Entry{0, 0, 3}},
		{"lower then upper", []put{{2, maxBound, -1}, {minBound, 2, 5}}, Entry{2, 2, 5}},
		{"three", []put{{-10, 10, 1}, {-5, 20, -1}, {-20, 3, 2}}, Entry{-5, 3, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tt := must(New(1))
			const key = 0x1234
			for _, p := range tc.puts {
				tt.Put(key, p.lower, p.upper, p.move, 100)
			}
			if e, ok := tt.Get(key); !ok || e != tc.want {
				t.Errorf("Get(%#x) = %+v, %t; want %+v, true", key, e, ok, tc.want)
			}
			// Merging reuses the key's slot rather than taking a second.
			if n := usedSlots(tt); n != 1 {
				t.Errorf("%d slots used after %d Puts of one key; want 1", n, len(tc.puts))
			}
		})
	}
}

func usedSlots(t *Table) int {
	n := 0
	for i := range t.words {
		if t.words[i].Load() != 0 {
			n++
		}
	}
	return n
}

// TestSameBucketNoFalseHit puts keys that share a bucket, found by brute
// force, and checks that none is ever returned for another.
func TestSameBucketNoFalseHit(t *testing.T) {
	tt := must(New(1))
	mask := uint64(1)<<tt.startBits - 1
	target := mix(0) & mask
	var keys []uint64
	for k := uint64(0); len(keys) < 24; k++ {
		if mix(k)&mask == target {
			keys = append(keys, k)
		}
	}
	// The construction through unmix agrees with brute force.
	for _, k := range keys {
		if got := keyIn(tt, target, mix(k)>>tt.startBits); got != k {
			t.Fatalf("keyIn(bucket %#x, check %#x) = %#x; want %#x", target, mix(k)>>tt.startBits, got, k)
		}
	}
	entry := func(i int) Entry { return Entry{Lower: i - 12, Upper: i - 12 + i%3, Move: i%8 - 1} }
	// Put them one at a time. After each, the bucket holds four of the keys
	// put so far (which four is the replacement policy's business), and
	// every key either misses or returns its own entry.
	for i, k := range keys {
		e := entry(i)
		tt.Put(k, e.Lower, e.Upper, e.Move, 1)
		if got, ok := tt.Get(k); !ok || got != e {
			t.Fatalf("Get(%#x) just after its Put = %+v, %t; want %+v, true", k, got, ok, e)
		}
		hits := 0
		for j, k2 := range keys {
			got, ok := tt.Get(k2)
			if !ok {
				continue
			}
			hits++
			if j > i {
				t.Errorf("Get(%#x) of a key not yet put = %+v, true; want false (bucket-mate of %#x)", k2, got, k)
			} else if want := entry(j); got != want {
				t.Errorf("Get(%#x) = %+v, true; want %+v (or a miss)", k2, got, want)
			}
		}
		if want := min(i+1, bucketLen); hits != want {
			t.Errorf("after %d Puts into one bucket, %d keys hit; want %d", i+1, hits, want)
		}
	}
}

// TestSameCheckNoFalseHit uses keys whose stored checks are equal but whose
// buckets differ: a hit must need both to match.
func TestSameCheckNoFalseHit(t *testing.T) {
	tt := must(New(1))
	const check = 0x2a5a5
	var keys []uint64
	for b := uint64(0); b < 64; b++ {
		keys = append(keys, keyIn(tt, b*97, check))
	}
	tt.Put(keys[0], -7, 7, 3, 1)
	for _, k := range keys[1:] {
		if e, ok := tt.Get(k); ok {
			t.Errorf("Get(%#x) = %+v, true; want false (same check as %#x, other bucket)", k, e, keys[0])
		}
	}
	// And with check 0, where the stored word is the data alone: a check-0
	// key in bucket 1 is not found for the check-0 key of bucket 0.
	tt.Clear()
	tt.Put(keyIn(tt, 1, 0), 1, 1, -1, 1)
	if e, ok := tt.Get(keyIn(tt, 0, 0)); ok {
		t.Errorf("Get(%#x) = %+v, true; want false", keyIn(tt, 0, 0), e)
	}
}

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
	tt := must(New(1))
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
	tt := must(New(1))
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
	tt := must(New(1))
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
	tt := must(New(1))
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
	tt := must(New(1))
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

func TestClear(t *testing.T) {
	testClear(t, (*Table).Clear)
}

// TestClearAll clears a table with epochs by zeroing it all.
func TestClearAll(t *testing.T) {
	tt := must(New(4))
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
	tt := must(New(4))
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
	testClear(t, func(tt *Table) {
		for k := range ClearParts {
			before := usedSlots(tt)
			part := len(tt.words) / ClearParts
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

func testClear(t *testing.T, clearTable func(*Table)) {
	tt := must(New(1))
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

func TestNewSize(t *testing.T) {
	tests := []struct {
		mib       int
		wantBytes int
	}{
		{-5, 1 << 20},
		{0, 1 << 20},
		{1, 1 << 20},
		{2, 2 << 20},
		{3, 2 << 20},
		{16, 16 << 20},
		{100, 64 << 20},
	}
	for _, tc := range tests {
		tt := must(New(tc.mib))
		got := tt.Bytes()
		if got != tc.wantBytes {
			t.Errorf("must(New(%d)).Bytes() = %d; want %d", tc.mib, got, tc.wantBytes)
		}
		const bucketBytes = bucketLen * slotBytes
		if bucketBytes != 32 {
			t.Errorf("bucket size %d bytes; want 32", bucketBytes)
		}
		buckets := got / bucketBytes
		if got%bucketBytes != 0 || buckets&(buckets-1) != 0 {
			t.Errorf("must(New(%d)).Bytes() = %d; want a power of two number of %d-byte buckets", tc.mib, got, bucketBytes)
		}
		if limit := max(tc.mib, MinMiB) << 20; got > limit {
			t.Errorf("must(New(%d)).Bytes() = %d; want at most %d", tc.mib, got, limit)
		}
		if 1<<tt.startBits != buckets {
			t.Errorf("must(New(%d)): startBits %d for %d buckets", tc.mib, tt.startBits, buckets)
		}
		if tt.startBits < minBucketBits {
			t.Errorf("must(New(%d)): startBits %d; want at least %d so the check fits", tc.mib, tt.startBits, minBucketBits)
		}
	}
}

// TestConcurrent hammers one table from several goroutines. Every key k has
// a true score f(k), and every Put gives bounds around it, so any hit, torn
// or merged by racing writers or not, must contain f(k). Run it with -race.
func TestConcurrent(t *testing.T) {
	tt := must(New(1))
	f := func(k uint64) int { return int(k%43) - 21 }
	// Half the keys crowd into 16 buckets so that writers fight over slots;
	// the rest spread out.
	var keys []uint64
	for b := range uint64(16) {
		for j := range uint64(32) {
			keys = append(keys, keyIn(tt, b*1000, j))
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	for range 512 {
		keys = append(keys, r.Uint64()&keyMask)
	}
	const workers = 8
	ops := 200000
	if testing.Short() {
		ops = 20000
	}
	var wg sync.WaitGroup
	errs := make(chan string, workers)
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 11))
			for i := range ops {
				k := keys[r.IntN(len(keys))]
				s := f(k)
				if r.IntN(2) == 0 {
					lower := s - r.IntN(s+22)
					upper := s + r.IntN(22-s)
					tt.Put(k, lower, upper, r.IntN(8)-1, 1<<r.IntN(30))
					if w == 0 && i%5000 == 0 {
						tt.NewSearch()
					}
					continue
				}
				e, ok := tt.Get(k)
				if ok && (e.Lower > s || e.Upper < s || e.Lower > e.Upper || e.Move < -1 || e.Move > 6) {
					errs <- fmt.Sprintf("Get(%#x) = %+v, true; want an interval containing %d and a move in [-1, 6]", k, e, s)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestNoAllocs(t *testing.T) {
	tt := must(New(1))
	var k uint64
	if n := testing.AllocsPerRun(1000, func() {
		k = (k + 0x9e3779b97f4a7c15) & keyMask
		tt.Put(k, -1, 1, 2, 100)
		tt.Ref(k).Prefetch()
		tt.Get(k)
		tt.Get(k ^ 1)
	}); n != 0 {
		t.Errorf("Put, Prefetch and Get: %v allocations per run; want 0", n)
	}
}

func benchKeys() []uint64 {
	r := rand.New(rand.NewPCG(12, 13))
	keys := make([]uint64, 1<<20) // 8 MiB of keys, 32 MiB of buckets probed: mostly cache misses
	for i := range keys {
		keys[i] = r.Uint64() & keyMask
	}
	return keys
}

func BenchmarkGet(b *testing.B) {
	keys := benchKeys()
	tt := must(New(64))
	// Fill about half the table so that probes meet real entries.
	r := rand.New(rand.NewPCG(14, 15))
	for range len(tt.words) / 2 {
		tt.Put(r.Uint64()&keyMask, -1, 1, 0, 1)
	}
	// The probed keys did more work than the filler, so it does not evict
	// them; the few that evict one another are dropped from the hit probes.
	var present []uint64
	for _, k := range keys {
		tt.Put(k, -1, 1, 0, 1<<20)
	}
	for _, k := range keys {
		if _, ok := tt.Get(k); ok {
			present = append(present, k)
		}
	}
	b.Run("hit", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, ok := tt.Get(present[i]); !ok {
				b.Fatal("miss")
			}
			if i++; i == len(present) {
				i = 0
			}
		}
	})
	b.Run("miss", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			// keys[i] ^ 1<<48 were never put (with overwhelming odds).
			tt.Get(keys[i&(len(keys)-1)] ^ 1<<48)
			i++
		}
	})
}

func BenchmarkPut(b *testing.B) {
	keys := benchKeys()
	tt := must(New(64))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tt.Put((keys[i&(len(keys)-1)]^uint64(i>>16)<<32)&keyMask, -1, 1, i&7-1, uint64(i))
		i++
	}
}

// TestAgingPastWrap runs NewSearch far past the wrap of the generation
// field (1024) and checks, after each of several counts, that an entry of
// the current search is kept over entries stored at the start, however
// much work those took: they are old, and must not look current again.
func TestAgingPastWrap(t *testing.T) {
	tt := must(New(1))
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

// TestClearEpochs clears a table with epochs (4 MiB: two epoch bits, four
// epochs) many times, past the wrap of the epoch counter, storing keys in
// between, and checks after each Clear that no key stored before it is
// found, that the keys stored since are, and that a Put takes the slots of
// an earlier epoch: the bucket of a key stored before the last Clear and
// filled since holds only current entries.
func TestClearEpochs(t *testing.T) {
	tt := must(New(4))
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
	tt := must(New(DefaultMiB))
	for b.Loop() {
		tt.Clear()
	}
}

// growStartBits is the bucket bits of growStartMiB of a Table.
const growStartBits = 20

// TestGrowingTable grows a table from the part a solve starts with to all
// of it, and checks that an entry is found only under its own key: a key
// that would match an entry stored before the table grew, were the check
// the mixed key less the bucket bits in use, misses; the keys stored are
// found with their bounds, or lost, never others' bounds. Clear starts
// the next solve on the first part again.
func TestGrowingTable(t *testing.T) {
	tt, err := NewGrowing(128) // 2^22 buckets: two doublings from the start
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Free()
	start := uint64(1)<<growStartBits - 1
	if got := tt.active.Load(); got != start || tt.startBits != growStartBits {
		t.Fatalf("a fresh table uses mask %#x, start bits %d; want %#x, %d", got, tt.startBits, start, growStartBits)
	}
	// bounds gives each key bounds of its own.
	bounds := func(k uint64) (int, int) { lo := int(k%21) - 10; return lo, lo + int(k>>8%5) }
	r := rand.New(rand.NewPCG(4, 5))
	var stored []uint64
	var traps []uint64 // keys that match a stored entry under the wrong check
	for round := range 3 {
		for range 100000 {
			k := r.Uint64() & keyMask
			lo, hi := bounds(k)
			tt.Put(k, lo, hi, -1, 1)
			stored = append(stored, k)
			m := tt.active.Load()
			// A key in k's bucket under the next mask whose mixed key,
			// less the bucket bits of that mask, is k's less those of m.
			b := uint(bits.Len64(m))
			if c := mix(k) >> b; m != tt.bucketMask && c < 1<<(keyBits-b-1) {
				traps = append(traps, unmix(c<<(b+1)|mix(k)&m))
			}
		}
		m := tt.active.Load()
		tt.Grow((m+1)*bucketLen + 1)
		want := min(m<<1|1, tt.bucketMask)
		if got := tt.active.Load(); got != want {
			t.Fatalf("round %d: Grow past the entries of mask %#x gave %#x; want %#x", round, m, got, want)
		}
	}
	for _, k := range traps {
		if e, ok := tt.Get(k); ok {
			t.Fatalf("key %#x, never stored, found with %+v", k, e)
		}
	}
	found := 0
	for _, k := range stored {
		if e, ok := tt.Get(k); ok {
			found++
			if lo, hi := bounds(k); e.Lower != lo || e.Upper != hi {
				t.Fatalf("key %#x: got bounds [%d, %d]; want [%d, %d]", k, e.Lower, e.Upper, lo, hi)
			}
		}
	}
	// The last round's keys are stored at the whole size; half of the
	// round before's buckets stayed, a quarter of the first's.
	if found < 150000 || found == len(stored) {
		t.Errorf("found %d of %d stored keys; want at least 150000 and not all (growing loses some)", found, len(stored))
	}
	if len(traps) < 90000 {
		t.Errorf("only %d trap keys", len(traps))
	}
	tt.Clear()
	if got := tt.active.Load(); got != start {
		t.Errorf("after Clear the table uses mask %#x; want %#x", got, start)
	}
}

// must returns t, or panics with err: the tables of New and NewWide the
// tests make, which are small.
func must[T any](t T, err error) T {
	if err != nil {
		panic(err)
	}
	return t
}
