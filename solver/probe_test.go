package solver

import (
	"fmt"
	"testing"

	"c4solve/internal/position"
	"c4solve/internal/settings"
)

// Every probe lies in the open range, so that its answer narrows the range
// whatever it is.
func TestNextProbe(t *testing.T) {
	tests := []struct{ lo, hi, none, up, both int }{ // the probe as each settings.Gallop
		{-18, 18, -9, -9, -9}, // the middle, 0, moved halfway out (toward the loss)
		{-18, 9, -9, -9, -9},  // the middle, -5, moved halfway out
		{-9, 13, 6, 6, 6},     // 22 wide: still bisecting, the middle, 2, moved halfway out
		{-8, 9, 0, 0, 0},      // 17 wide: the value nearest settings.MtdCenter, 0
		{-8, 0, -1, -1, -1},   // 0 is out: the top of the range
		{-2, 0, -1, -1, -1},   // below the center: the top of the range
		{3, 9, 3, 5, 5},       // above it: the bottom of the range; galloping, twice 3 less 1
		{0, 1, 0, 0, 0},       // one question left
		{12, 18, 12, 17, 17},  // a narrow range far from zero walks up from its end; galloping, its top
		{-18, 4, -9, -9, -9},  // 22 wide: the middle, -7, moved halfway out
		{-18, -4, -5, -5, -9}, // 14 wide: walks down from its top; galloping down, twice -4 less 1
		{4, 8, 4, 4, 4},       // settings.GallopWidth wide: a step of one
		{-8, -4, -5, -5, -5},  // the same below
	}
	for _, tt := range tests {
		for _, c := range []struct {
			g    settings.Gallop
			want int
		}{{settings.GallopNone, tt.none}, {settings.GallopUp, tt.up}, {settings.GallopBoth, tt.both}} {
			if got := nextProbe(tt.lo, tt.hi, c.g); got != c.want {
				t.Errorf("nextProbe(%d, %d, %d) = %d, want %d", tt.lo, tt.hi, c.g, got, c.want)
			}
		}
	}
}

// TestGallop follows the probes of galloping walks to scores of 10, 2
// and 5 from the range [-9, 11), and to -9 from [-12, 8): each answer as
// the score gives it.
func TestGallop(t *testing.T) {
	for _, tt := range []struct {
		g             settings.Gallop
		lo, hi, score int
		want          []int
	}{
		{settings.GallopUp, -9, 11, 10, []int{0, 1, 3, 7, 8, 9, 10}},
		{settings.GallopUp, -9, 11, 2, []int{0, 1, 3, 2}}, // 3 is a step past the score: the range [2, 3) left
		{settings.GallopBoth, -9, 11, 5, []int{0, 1, 3, 7, 4, 5}},
		{settings.GallopUp, -12, 8, -9, []int{0, -1, -2, -3, -4, -5, -6, -7, -8, -9, -10}}, // down by one
		{settings.GallopBoth, -12, 8, -9, []int{0, -1, -3, -7, -12, -8, -9, -10}},          // past it at -12, then down from -8
		{settings.GallopNone, -9, 11, 5, []int{0, 1, 2, 3, 4, 5}},
	} {
		var got []int
		for lo, hi := tt.lo, tt.hi; lo < hi; {
			v := nextProbe(lo, hi, tt.g)
			got = append(got, v)
			if tt.score > v {
				lo = v + 1
			} else {
				hi = v
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("settings.Gallop %d, range [%d, %d), score %d: probes %v, want %v", tt.g, tt.lo, tt.hi, tt.score, got, tt.want)
		}
	}
}

// Helpers ask the question next to the first worker's, the one it would
// ask next.
func TestHelperProbe(t *testing.T) {
	tests := []struct{ lo, hi, id, want int }{
		{-8, 4, 1, 1},    // v = 0 inside the range: odd helpers above
		{-8, 4, 2, -1},   // even ones below
		{3, 9, 1, 4},     // walking up from 3
		{3, 9, 2, 4},     // whatever the helper
		{-8, 0, 1, -2},   // walking down from -1
		{-2, 0, 1, -2},   // from -1
		{0, 1, 1, 0},     // one question left: the same
		{-18, 18, 1, -8}, // bisecting: the probe beside -9, toward the center
	}
	for _, tt := range tests {
		v := nextProbe(tt.lo, tt.hi, settings.GallopNone)
		if got := helperProbe(tt.lo, tt.hi, v, tt.id); got != tt.want {
			t.Errorf("helperProbe(%d, %d, %d, %d) = %d, want %d", tt.lo, tt.hi, v, tt.id, got, tt.want)
		}
	}
	for lo := position.MinScore; lo <= position.MaxScore; lo++ {
		for hi := lo + 1; hi <= position.MaxScore; hi++ {
			for id := 1; id <= 3; id++ {
				if v := helperProbe(lo, hi, nextProbe(lo, hi, settings.GallopBoth), id); v < lo || v >= hi {
					t.Fatalf("helperProbe(%d, %d, ..., %d) = %d, outside [%d, %d)", lo, hi, id, v, lo, hi)
				}
			}
		}
	}
}

// TestCellLines checks the lines of four through each cell against the
// well-known table of the 7x6 board (rows from the bottom), and that they
// add up to the board's 69 lines, four cells each.
func TestCellLines(t *testing.T) {
	want := [position.Height][position.Width]int32{
		{3, 4, 5, 7, 5, 4, 3},
		{4, 6, 8, 10, 8, 6, 4},
		{5, 8, 11, 13, 11, 8, 5},
		{5, 8, 11, 13, 11, 8, 5},
		{4, 6, 8, 10, 8, 6, 4},
		{3, 4, 5, 7, 5, 4, 3},
	}
	var sum int32
	for col := range position.Width {
		for row := range position.Height {
			cell := position.Bitboard(1) << (col*(position.Height+1) + row)
			if got := (position.Geometry{}).CellLines(cell); got != want[row][col] {
				t.Errorf("column %d row %d: %d lines, want %d", col, row, got, want[row][col])
			}
			sum += position.Geometry{}.CellLines(cell)
		}
	}
	if sum != 69*4 {
		t.Errorf("%d cells of lines in all, want %d", sum, 69*4)
	}
}
