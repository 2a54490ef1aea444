package solver_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"c4solve/board"
)

// TestTimedAnalysisTable measures what an analysis stopped by a time
// limit establishes about each move (Engine.spread): with C4_TIMED=FILE
// (positions of 8x8, one a line), for the limits 5s and 10s (5s alone
// with C4_TIMED_QUICK set), at one thread and a table of 256 MiB cleared
// before each analysis, the moves whose bounds are narrower than those of
// the move's stone count, those whose sign (win, draw or loss) is proved,
// and the best found, with each move's bounds:
//
//	c4solve random -size 8x8 -seed 59 -n 4 16 > pos.txt
//	C4_TIMED=$PWD/pos.txt go test -run TestTimedAnalysisTable -v ./solver
func TestTimedAnalysisTable(t *testing.T) {
	file := os.Getenv("C4_TIMED")
	if file == "" {
		t.Skip("C4_TIMED=FILE measures time-limited analyses of 8x8 positions")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	g := mustGrid(t, "8x8")
	s := testSolver(t, g, 256, 1)
	limits := []time.Duration{5 * time.Second, 10 * time.Second}
	if os.Getenv("C4_TIMED_QUICK") != "" {
		limits = limits[:1]
	}
	var tot [2][3]int
	for _, moves := range strings.Fields(string(data)) {
		b, err := g.Parse(moves, false)
		if err != nil {
			t.Fatal(err)
		}
		n := b.Stones()
		least, most := -((g.Cells() - 1 - n - 1) >> 1), ((g.Cells() - 2 - n - 1) >> 1)
		line := fmt.Sprintf("%-22s", moves)
		for i, d := range limits {
			s.Clear()
			ctx, cancel := context.WithTimeout(context.Background(), d)
			an, err := s.Analyze(ctx, b, false)
			cancel()
			legal, narrowed, signed := 0, 0, 0
			var cols strings.Builder
			for col, ok := range an.Legal {
				if !ok {
					continue
				}
				legal++
				lo, hi := an.Lows[col], an.Highs[col]
				if lo != least || hi != most {
					narrowed++
				}
				if lo > 0 || hi < 0 || lo == 0 && hi == 0 {
					signed++
				}
				fmt.Fprintf(&cols, " %c[%d,%d]", board.ColumnName(col), lo, hi)
			}
			best, proved := an.BestFound()
			tot[i][0] += legal
			tot[i][1] += narrowed
			tot[i][2] += signed
			line += fmt.Sprintf(" | %v: %d/%d narrowed, %d signed, best %c %t, err %v;%s", d, narrowed, legal, signed, board.ColumnName(best), proved, err != nil, cols.String())
		}
		t.Log(line)
	}
	for i, d := range limits {
		t.Logf("%v: %d of %d moves narrowed, %d signed", d, tot[i][1], tot[i][0], tot[i][2])
	}
}
