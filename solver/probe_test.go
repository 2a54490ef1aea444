package solver

import "testing"

// Every probe lies in the open range, so that its answer narrows the range
// whatever it is.
func TestNextProbeInRange(t *testing.T) {
	for lo := MinScore; lo <= MaxScore; lo++ {
		for hi := lo + 1; hi <= MaxScore; hi++ {
			if v := nextProbe(lo, hi); v < lo || v >= hi {
				t.Fatalf("nextProbe(%d, %d) = %d, outside [%d, %d)", lo, hi, v, lo, hi)
			}
		}
	}
}

func TestNextProbe(t *testing.T) {
	tests := []struct{ lo, hi, want int }{
		{-18, 18, -9},  // the middle, 0, moved halfway out (toward the loss)
		{-18, 9, -9},   // the middle, -5, moved halfway out
		{-8, 9, -4},    // 17 wide: still bisecting
		{-8, 4, 0},     // 12 wide: the value nearest zero
		{-2, 0, -1},    // below zero: the top of the range
		{3, 9, 3},      // above zero: the bottom of the range
		{0, 1, 0},      // one question left
		{12, 18, 12},   // a narrow range far from zero walks up from its end
		{-18, -4, -11}, // 14 wide: the middle, already further out than -9
	}
	for _, tt := range tests {
		if got := nextProbe(tt.lo, tt.hi); got != tt.want {
			t.Errorf("nextProbe(%d, %d) = %d, want %d", tt.lo, tt.hi, got, tt.want)
		}
	}
}
