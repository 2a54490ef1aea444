package position

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestBits128Shifts: Shl and Shr by every count from 0 to 130 agree with
// math/big's shifts modulo 2^128, on random values and on all ones.
func TestBits128Shifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 128))
	mod := new(big.Int).Lsh(big.NewInt(1), 128)
	toBig := func(b Bits128) *big.Int {
		return new(big.Int).Or(new(big.Int).Lsh(new(big.Int).SetUint64(b.Hi), 64), new(big.Int).SetUint64(b.Lo))
	}
	values := []Bits128{{^uint64(0), ^uint64(0)}, {1, 0}, {0, 1 << 63}}
	for range 200 {
		values = append(values, Bits128{rng.Uint64(), rng.Uint64()})
	}
	for _, b := range values {
		for n := uint(0); n <= 130; n++ {
			want := new(big.Int).Mod(new(big.Int).Lsh(toBig(b), n), mod)
			if got := toBig(b.Shl(n)); got.Cmp(want) != 0 {
				t.Fatalf("%#x.Shl(%d) = %#x; want %#x", toBig(b), n, got, want)
			}
			want = new(big.Int).Rsh(toBig(b), n)
			if got := toBig(b.Shr(n)); got.Cmp(want) != 0 {
				t.Fatalf("%#x.Shr(%d) = %#x; want %#x", toBig(b), n, got, want)
			}
		}
	}
}

// TestBits128Format: a Bits128 prints as one number, the high word's
// digits first, the low word's padded to 16 behind them.
func TestBits128Format(t *testing.T) {
	for _, tt := range []struct {
		format string
		b      Bits128
		want   string
	}{
		{"%#x", Bits128{Lo: 0x1f}, "0x1f"},
		{"%x", Bits128{Lo: 0xab}, "ab"},
		{"%v", Bits128{}, "0x0"},
		{"%X", Bits128{Hi: 1, Lo: 0xab}, "100000000000000AB"},
		{"%v", Bits128{Hi: 3, Lo: 0x1f}, "0x3000000000000001f"},
		{"key %#x: x", Bits128{Hi: 0x10, Lo: 1}, "key 0x100000000000000001: x"},
	} {
		if got := fmt.Sprintf(tt.format, tt.b); got != tt.want {
			t.Errorf("Sprintf(%q, %#v) = %q; want %q", tt.format, [2]uint64{tt.b.Hi, tt.b.Lo}, got, tt.want)
		}
	}
}
