package tables

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sync"
	"testing"
)

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
	tt := must(NewCompact(1, false))
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
			tt := must(NewCompact(1, false))
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

func usedSlots(t *Compact) int {
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
	tt := must(NewCompact(1, false))
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
	tt := must(NewCompact(1, false))
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
		tt := must(NewCompact(tc.mib, false))
		got := tt.Bytes()
		if got != tc.wantBytes {
			t.Errorf("NewCompact(%d, false).Bytes() = %d; want %d", tc.mib, got, tc.wantBytes)
		}
		const bucketBytes = bucketLen * slotBytes
		if bucketBytes != 32 {
			t.Errorf("bucket size %d bytes; want 32", bucketBytes)
		}
		buckets := got / bucketBytes
		if got%bucketBytes != 0 || buckets&(buckets-1) != 0 {
			t.Errorf("NewCompact(%d, false).Bytes() = %d; want a power of two number of %d-byte buckets", tc.mib, got, bucketBytes)
		}
		if limit := max(tc.mib, MinMiB) << 20; got > limit {
			t.Errorf("NewCompact(%d, false).Bytes() = %d; want at most %d", tc.mib, got, limit)
		}
		if 1<<tt.startBits != buckets {
			t.Errorf("NewCompact(%d, false): startBits %d for %d buckets", tc.mib, tt.startBits, buckets)
		}
		if tt.startBits < minBucketBits {
			t.Errorf("NewCompact(%d, false): startBits %d; want at least %d so the check fits", tc.mib, tt.startBits, minBucketBits)
		}
	}
}

// TestConcurrent hammers one table from several goroutines. Every key k has
// a true score f(k), and every Put gives bounds around it, so any hit, torn
// or merged by racing writers or not, must contain f(k). Run it with -race.
func TestConcurrent(t *testing.T) {
	tt := must(NewCompact(1, false))
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
	tt := must(NewCompact(1, false))
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
	tt := must(NewCompact(64, false))
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
	tt := must(NewCompact(64, false))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tt.Put((keys[i&(len(keys)-1)]^uint64(i>>16)<<32)&keyMask, -1, 1, i&7-1, uint64(i))
		i++
	}
}

// growStartBits is the bucket bits of settings.GrowStartMiB of a Compact.
const growStartBits = 20

// TestGrowingTable grows a table from the part a solve starts with to all
// of it, and checks that an entry is found only under its own key: a key
// that would match an entry stored before the table grew, were the check
// the mixed key less the bucket bits in use, misses; the keys stored are
// found with their bounds, or lost, never others' bounds. Clear starts
// the next solve on the first part again.
func TestGrowingTable(t *testing.T) {
	tt, err := NewCompact(128, true) // 2^22 buckets: two doublings from the start
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
