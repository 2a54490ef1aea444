package solver_test

import (
	"context"
	"flag"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// benchPositions are fixed positions, the first line of each published
// set (the third of Test_L1_R3, whose first lines take seconds), so that
// benchstat can compare the speed of two commits.
var benchPositions = []struct{ name, moves string }{
	{"L3_R1", "2252576253462244111563365343671351441"},
	{"L2_R1", "5554224333234511764415115"},
	{"L2_R2", "274552224131661"},
	{"L1_R1", "32164625"},
	{"L1_R2", "32751571231557"},
	{"L1_R3", "573154743"},
}

var benchMiB = flag.Int("tt", 64, "table size in MiB for benchmarks")

// BenchmarkSolve solves each position from cleared tables. ns/op counts
// the clearing (tens of microseconds: Clear zeroes a part of 1 MiB), so
// that b.Loop, which runs until a second of ns/op has passed, does not run
// a solve of microseconds millions of times; solve-ns/op is the solve
// alone, the figure to compare.
func BenchmarkSolve(b *testing.B) {
	tt := ttable.New(*benchMiB)
	ctx := context.Background()
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p := mustParse(b, bp.moves)
			s := solver.New(tt, 1)
			b.ReportAllocs()
			var nodes uint64
			var solving time.Duration
			for b.Loop() {
				s.Clear()
				start := time.Now()
				r, err := s.Solve(ctx, p)
				solving += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(solving.Nanoseconds())/float64(b.N), "solve-ns/op")
			b.ReportMetric(float64(nodes)/solving.Seconds(), "nodes/s")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
		})
	}
}

// benchEngine is one engine of BenchmarkEngines.
type benchEngine struct {
	name  string
	solve func(moves string) (solver.Result, error)
	clear func()
}

// BenchmarkEngines solves the positions of BenchmarkSolve with each engine
// on the 7x6 board: Solver (its dimensions constants), Solver64 and
// Solver128 (a geometry worked out at run time, ttable.Wide): what the
// engines of other boards cost against the one of 7x6, the same search.
func BenchmarkEngines(b *testing.B) {
	ctx := context.Background()
	g64, _ := board.NewGeometry64(board.Standard)
	g128, _ := board.NewGeometry128(board.Standard)
	s := solver.New(ttable.New(*benchMiB), 1)
	s64 := solver.New64(g64, ttable.NewWide(*benchMiB, 1), 1)
	s128 := solver.New128(g128, ttable.NewWide(*benchMiB, 2), 1)
	engines := []benchEngine{
		{"7x6", func(m string) (solver.Result, error) { return s.Solve(ctx, mustParse(b, m)) }, s.Clear},
		{"64", func(m string) (solver.Result, error) {
			p, _ := g64.Parse(m, false)
			return s64.Solve(ctx, p)
		}, s64.Clear},
		{"128", func(m string) (solver.Result, error) {
			p, _ := g128.Parse(m, false)
			return s128.Solve(ctx, p)
		}, s128.Clear},
	}
	for _, bp := range benchPositions[2:] {
		for _, e := range engines {
			b.Run(bp.name+"/"+e.name, func(b *testing.B) {
				var nodes uint64
				var solving time.Duration
				for b.Loop() {
					e.clear()
					start := time.Now()
					r, err := e.solve(bp.moves)
					solving += time.Since(start)
					if err != nil {
						b.Fatal(err)
					}
					nodes += r.Nodes
				}
				b.ReportMetric(float64(solving.Nanoseconds())/float64(b.N), "solve-ns/op")
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			})
		}
	}
}
