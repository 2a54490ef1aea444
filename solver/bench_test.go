package solver_test

import (
	"context"
	"flag"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/tables"
	"c4solve/solver"
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
	tt := testTable(b, *benchMiB)
	ctx := context.Background()
	for _, bp := range benchPositions {
		b.Run(bp.name, func(b *testing.B) {
			p := mustParse(b, bp.moves)
			s := solver.NewStandard(tt, 1)
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
// on the 7x6 board: engine (its dimensions constants), engine64 and
// engine128 (a geometry worked out at run time, tables.Wide): what the
// engines of other boards cost against the one of 7x6, the same search.
func BenchmarkEngines(b *testing.B) {
	ctx := context.Background()
	g64, _ := position.NewGeometry64(position.Width, position.Height)
	g128, _ := position.NewGeometry128(position.Width, position.Height)
	s := solver.NewStandard(testTable(b, *benchMiB), 1)
	s64 := solver.New64(g64, testWide(b, *benchMiB, g64.Width()*(g64.Height()+1)), 1)
	s128 := solver.New128(g128, testWide(b, *benchMiB, g128.Width()*(g128.Height()+1)), 1)
	engines := []benchEngine{
		{"7x6", func(m string) (solver.Result, error) { return s.Solve(ctx, mustParse(b, m)) }, s.Clear},
		{"64", func(m string) (solver.Result, error) { return s64.Solve(ctx, mustParse(b, m)) }, s64.Clear},
		{"128", func(m string) (solver.Result, error) { return s128.Solve(ctx, mustParse(b, m)) }, s128.Clear},
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

// wideBenchPositions pair positions of boards of one word (8x7, engine64)
// with positions of boards of two (8x8, engine80: bitboards of one
// word without sentinels, keys of two) at the same depth, 40 free cells,
// so that their nodes/s compare the engines' node
// costs (issue 49: the 128-bit engine's nodes/s at least two thirds of the
// 64-bit engine's). Made with c4solve random (8x7 -seed 5 16, 8x8 -seed
// 112822 22 and -seed 5 24); each takes 0.3-1.2 s at one thread.
var wideBenchPositions = []struct{ size, moves string }{
	{"8x7", "4753664854471868"},
	{"8x7", "7522548821886528"},
	{"8x8", "4478322833548236768346"},
	{"8x8", "621611456135672632211422"},
}

// BenchmarkBoards solves wideBenchPositions, each from a cleared table of
// -tt MiB at one thread, and reports the solve's nodes/s: compare the
// 8x7 rows (engine64) with the 8x8 rows (engine80).
func BenchmarkBoards(b *testing.B) {
	ctx := context.Background()
	for _, bp := range wideBenchPositions {
		b.Run(bp.size+"/"+bp.moves, func(b *testing.B) {
			g := mustGrid(b, bp.size)
			pos, err := g.Parse(bp.moves, false)
			if err != nil {
				b.Fatal(err)
			}
			s := testSolver(b, g, *benchMiB, 1)
			defer s.Table().Free()
			var nodes uint64
			var solving time.Duration
			for b.Loop() {
				s.Clear()
				start := time.Now()
				r, err := s.Solve(ctx, pos)
				solving += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				nodes += r.Nodes
			}
			b.ReportMetric(float64(solving.Nanoseconds())/float64(b.N), "solve-ns/op")
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/solving.Seconds(), "nodes/s")
		})
	}
}

// smallBoardPositions are positions of boards of at most 49 bits, on
// which engine49 (a ttable.Table, entries of one word) and engine64 (a
// tables.Wide, entries of two) can both search: made with c4solve random
// (6x6 -seed 1 6, 8x5 -seed 1 10) and the first of random8.txt (7x6, whose
// own engine is neither). Each takes 10-500 ms at one thread.
var smallBoardPositions = map[string][]string{
	"6x6": {"454125", "631252", "651152", "134116", "232233", "566336"},
	"8x5": {"1134644375", "5144158243", "4868466821", "5316514578", "5132887486", "5711866118"},
	"7x6": {"46413573", "12627521", "62145117", "24224357", "72552673", "16245156"},
}

// BenchmarkEngine49 solves smallBoardPositions with engine49 and with
// engine64, each position from cleared tables of -tt MiB at one thread,
// and reports the nodes and nodes/s of the solves: whether engine49's
// compact table earns its variant (benchstat -col /engine).
func BenchmarkEngine49(b *testing.B) {
	ctx := context.Background()
	for _, size := range []string{"6x6", "8x5", "7x6"} {
		gr := mustGrid(b, size)
		g, err := position.NewGeometry64(gr.Width, gr.Height)
		if err != nil {
			b.Fatal(err)
		}
		var boards []board.Board
		for _, moves := range smallBoardPositions[size] {
			p, err := gr.Parse(moves, false)
			if err != nil {
				b.Fatal(err)
			}
			boards = append(boards, p)
		}
		type engine interface {
			Solve(context.Context, board.Board) (solver.Result, error)
			Clear()
		}
		for _, name := range []string{"49", "64"} {
			b.Run(size+"/engine="+name, func(b *testing.B) {
				var e engine
				if name == "49" {
					tt, err := tables.NewCompact(*benchMiB, true)
					if err != nil {
						b.Fatal(err)
					}
					defer tt.Free()
					e = solver.New49(g, tt, 1)
				} else {
					tt := testWide(b, *benchMiB, gr.Bits())
					defer tt.Free()
					e = solver.New64(g, tt, 1)
				}
				var nodes uint64
				var solving time.Duration
				for b.Loop() {
					for _, p := range boards {
						e.Clear()
						start := time.Now()
						r, err := e.Solve(ctx, p)
						solving += time.Since(start)
						if err != nil {
							b.Fatal(err)
						}
						nodes += r.Nodes
					}
				}
				b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
				b.ReportMetric(float64(nodes)/solving.Seconds(), "nodes/s")
			})
		}
	}
}
