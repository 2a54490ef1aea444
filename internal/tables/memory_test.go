package tables

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// user is what TestFreeWhileUsed asks of Compact and Wide alike.
type user interface {
	Acquire() error
	Release()
	Free()
	Bytes() int
}

// tables returns a Compact and a Wide of 1 MiB, each with a put and a get
// of one key.
func tables() []struct {
	name     string
	t        user
	put      func(key uint64, score int)
	get      func(key uint64) (int, bool)
	memory   *memory
	released func() bool // the memory given back
} {
	tt, _ := NewCompact(1, false)
	w, _ := NewWide(1, 128, true)
	return []struct {
		name     string
		t        user
		put      func(key uint64, score int)
		get      func(key uint64) (int, bool)
		memory   *memory
		released func() bool
	}{
		{"Compact", tt,
			func(key uint64, score int) { tt.Put(key, score, score, -1, 1) },
			func(key uint64) (int, bool) { e, ok := tt.Get(key); return e.Lower, ok },
			&tt.mem, func() bool { return tt.words == nil }},
		{"Wide", w,
			func(key uint64, score int) { w.Put(key, ^key, score, score, -1, 1) },
			func(key uint64) (int, bool) { e, ok := w.Ref(key, ^key).Get(); return e.Lower, ok },
			&w.mem, func() bool { return w.words == nil }},
	}
}

// TestFreeWhileUsed: a table freed while a user holds it keeps its memory,
// readable and writable, until the last user releases it; then it is given
// back, Acquire fails with ErrFreed, and Free may be called again.
func TestFreeWhileUsed(t *testing.T) {
	for _, tc := range tables() {
		t.Run(tc.name, func(t *testing.T) {
			bytes := tc.t.Bytes()
			if err := tc.t.Acquire(); err != nil {
				t.Fatal(err)
			}
			if err := tc.t.Acquire(); err != nil {
				t.Fatal(err)
			}
			tc.put(12345, 3)
			tc.t.Free()
			if tc.released() {
				t.Fatal("given back while two users hold it")
			}
			tc.put(777, -2)
			if s, ok := tc.get(12345); !ok || s != 3 {
				t.Errorf("after Free, held: get = %d, %v; want 3, true", s, ok)
			}
			tc.t.Release()
			if s, ok := tc.get(777); !ok || s != -2 || tc.released() {
				t.Errorf("after Free, held by one: get = %d, %v, given back %v; want -2, true, false", s, ok, tc.released())
			}
			if got := tc.t.Bytes(); got != bytes {
				t.Errorf("Bytes after Free, held = %d; want %d", got, bytes)
			}
			tc.t.Release()
			if !tc.released() || tc.t.Bytes() != 0 {
				t.Errorf("after the last Release: given back %v, Bytes %d; want true, 0", tc.released(), tc.t.Bytes())
			}
			if err := tc.t.Acquire(); !errors.Is(err, ErrFreed) {
				t.Errorf("Acquire after Free = %v; want ErrFreed", err)
			}
			tc.t.Free()
		})
	}
}

// TestFreeUnderLoad: goroutines that acquire, use and release a table
// over and over, while another frees it: every use inside an Acquire
// that succeeded finds the memory there (a use of memory given back
// would fault, or panic on the dropped slice), the memory is given back
// exactly once, after the last user, and every Acquire after Free fails.
// Run with -race, it also checks that the words are dropped after every
// user's last access.
func TestFreeUnderLoad(t *testing.T) {
	for _, tc := range tables() {
		t.Run(tc.name, func(t *testing.T) {
			var gives atomic.Int32
			drop := tc.memory.drop
			tc.memory.drop = func() { gives.Add(1); drop() }
			var wg sync.WaitGroup
			var freeing, freed atomic.Bool // Free called, Free returned
			var uses, refused atomic.Int64
			for g := range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := uint64(0); ; i++ {
						wasFreed := freed.Load()
						if err := tc.t.Acquire(); err != nil {
							if !errors.Is(err, ErrFreed) || !freeing.Load() {
								t.Errorf("Acquire = %v before Free", err)
							}
							refused.Add(1)
							return
						}
						if wasFreed {
							t.Error("Acquire succeeded after Free returned")
						}
						key := uint64(g)<<32 | i
						tc.put(key, int(i%7))
						if s, ok := tc.get(key); ok && s != int(i%7) {
							t.Errorf("get(%d) = %d; want %d", key, s, i%7)
						}
						uses.Add(1)
						tc.t.Release()
					}
				}()
			}
			for uses.Load() < 20000 {
				// Let the users run a while first.
			}
			freeing.Store(true)
			tc.t.Free()
			freed.Store(true)
			wg.Wait()
			if n := gives.Load(); n != 1 || !tc.released() {
				t.Errorf("memory given back %d times (dropped: %v); want once", n, tc.released())
			}
			if refused.Load() != 8 {
				t.Errorf("%d users refused after Free; want all 8", refused.Load())
			}
		})
	}
}
