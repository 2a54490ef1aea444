package solver

import "testing"

// Every probe a worker picks lies in the open range, so that its answer
// narrows the range whatever it is.
func TestSpeculativeProbeInRange(t *testing.T) {
	for lo := MinScore; lo <= MaxScore; lo++ {
		for hi := lo + 1; hi <= MaxScore; hi++ {
			for k := range 8 {
				if v := speculativeProbe(lo, hi, k); v < lo || v >= hi {
					t.Fatalf("speculativeProbe(%d, %d, %d) = %d, outside [%d, %d)", lo, hi, k, v, lo, hi)
				}
			}
		}
	}
}

func TestSpeculativeProbe(t *testing.T) {
	tests := []struct{ lo, hi, k, want int }{
		{-18, 18, 0, -9}, // nextProbe's first probe
		{-18, 18, 1, 9},  // after -9 fails high: [-8, 18) halved, moved out
		{-18, 18, 2, -4}, // after 9 fails low as well: [-8, 9)
		{0, 1, 3, 0},     // one question left: every worker asks it
	}
	for _, tt := range tests {
		if got := speculativeProbe(tt.lo, tt.hi, tt.k); got != tt.want {
			t.Errorf("speculativeProbe(%d, %d, %d) = %d, want %d", tt.lo, tt.hi, tt.k, got, tt.want)
		}
	}
}
