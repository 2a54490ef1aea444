package board

import (
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
