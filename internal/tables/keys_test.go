package tables

import (
	"math/rand/v2"
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
func keyIn(t *Compact, b, j uint64) uint64 {
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
