package bench_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"c4solve/bench"
	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

func TestStats(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name       string
		times      []time.Duration
		nodes      []uint64
		mismatches []bool
		mean       time.Duration
		median     time.Duration
		max        time.Duration
		meanNodes  float64
		total      time.Duration
		nps        float64
	}{
		{"none", nil, nil, nil, 0, 0, 0, 0, 0, 0},
		{"one", []time.Duration{5 * ms}, []uint64{100}, []bool{false}, 5 * ms, 5 * ms, 5 * ms, 100, 5 * ms, 20000},
		{"odd", []time.Duration{5 * ms, 1 * ms, 3 * ms}, []uint64{10, 20, 31}, []bool{true, false, true},
			3 * ms, 3 * ms, 5 * ms, 61.0 / 3, 9 * ms, 61 / 0.009},
		{"even", []time.Duration{6 * ms, 1 * ms, 3 * ms, 2 * ms}, []uint64{100, 200, 300, 400}, []bool{false, false, false, true},
			3 * ms, 2500 * time.Microsecond, 6 * ms, 250, 12 * ms, 1000 / 0.012},
		{"even rounds down", []time.Duration{1, 2}, []uint64{0, 0}, []bool{false, false}, 1, 1, 2, 0, 3, 0},
		{"zero times", []time.Duration{0, 0}, []uint64{5, 6}, []bool{false, false}, 0, 0, 0, 5.5, 0, 0},
	}
	for _, tt := range tests {
		var s bench.Stats
		wantMismatches := 0
		var nodes uint64
		for i, d := range tt.times {
			s.Add(d, tt.nodes[i], tt.mismatches[i])
			nodes += tt.nodes[i]
			if tt.mismatches[i] {
				wantMismatches++
			}
		}
		if s.Positions != len(tt.times) || s.Mismatches != wantMismatches || s.Nodes != nodes {
			t.Errorf("%s: Positions, Mismatches, Nodes = %d, %d, %d; want %d, %d, %d",
				tt.name, s.Positions, s.Mismatches, s.Nodes, len(tt.times), wantMismatches, nodes)
		}
		if got := s.Mean(); got != tt.mean {
			t.Errorf("%s: Mean() = %v; want %v", tt.name, got, tt.mean)
		}
		if got := s.Median(); got != tt.median {
			t.Errorf("%s: Median() = %v; want %v", tt.name, got, tt.median)
		}
		if got := s.Max(); got != tt.max {
			t.Errorf("%s: Max() = %v; want %v", tt.name, got, tt.max)
		}
		if got := s.MeanNodes(); got != tt.meanNodes {
			t.Errorf("%s: MeanNodes() = %v; want %v", tt.name, got, tt.meanNodes)
		}
		if got := s.Total(); got != tt.total {
			t.Errorf("%s: Total() = %v; want %v", tt.name, got, tt.total)
		}
		if got := s.NodesPerSecond(); !closeTo(got, tt.nps) {
			t.Errorf("%s: NodesPerSecond() = %v; want %v", tt.name, got, tt.nps)
		}
		if !slices.Equal(s.Times, tt.times) {
			t.Errorf("%s: Times = %v after Median; want %v, the order of Add", tt.name, s.Times, tt.times)
		}
	}
}

func closeTo(a, b float64) bool { return a == b || (a-b)/b < 1e-12 && (b-a)/b < 1e-12 }

func TestStatsString(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		times []time.Duration
		nodes uint64
		want  string
	}{
		{nil, 0, "positions=0 mismatches=0 mean=0s median=0s max=0s mean_nodes=0 mean_expanded=0 nodes_per_s=0"},
		{[]time.Duration{6 * ms, 1 * ms, 3 * ms, 2 * ms}, 1000,
			"positions=4 mismatches=1 mean=3ms median=2.5ms max=6ms mean_nodes=250 mean_expanded=0 nodes_per_s=83333"},
		{[]time.Duration{1234567 * time.Nanosecond, 2 * time.Second, 12345}, 3,
			"positions=3 mismatches=1 mean=667.082ms median=1.235ms max=2s mean_nodes=1 mean_expanded=0 nodes_per_s=1"},
		{[]time.Duration{999}, 7, "positions=1 mismatches=1 mean=999ns median=999ns max=999ns mean_nodes=7 mean_expanded=0 nodes_per_s=7007007"},
	}
	for _, tt := range tests {
		var s bench.Stats
		for i, d := range tt.times {
			var n uint64
			if i == 0 {
				n = tt.nodes
			}
			s.Add(d, n, i == 0)
		}
		if got := s.String(); got != tt.want {
			t.Errorf("Stats%v.String() = %q; want %q", tt.times, got, tt.want)
		}
	}
}

// TestSolve solves late positions from Pons' Test_L3_R1 set, whose scores
// are published, and checks the comparison with the expected score.
func TestSolve(t *testing.T) {
	tests := []struct {
		moves    string
		expected int
		hasScore bool
		weak     bool
		cold     bool
		score    int
		mismatch bool
	}{
		{"2252576253462244111563365343671351441", -1, true, false, false, -1, false},
		{"2252576253462244111563365343671351441", 3, true, false, false, -1, true},
		{"2252576253462244111563365343671351441", 0, false, false, true, -1, false},
		{"67152117737262713366376314254", 6, true, false, true, 6, false},
		{"67152117737262713366376314254", 6, true, true, false, 1, false}, // weak: 6 counts as 1
		{"67152117737262713366376314254", 1, true, true, false, 1, false}, // weak: 1 is 1
		{"67152117737262713366376314254", 0, true, true, false, 1, true},  // weak: a draw is not a win
		{"67152117737262713366376314254", -4, true, true, true, 1, true},  // weak: a loss is not a win
		{"23163416124767223154467471272416755633", 0, true, true, false, 0, false},
		{"71255763773133525731261364622167124446454", 0, true, false, false, 0, false}, // 41 stones
	}
	g, _ := board.NewGrid(board.Standard)
	s := testSolver(t, g, 16, 1)
	ctx := context.Background()
	for _, tt := range tests {
		p, err := g.Parse(tt.moves, false)
		if err != nil {
			t.Fatalf("Parse(%q) error %v", tt.moves, err)
		}
		l := posfile.Line{Num: 1, Moves: tt.moves, Board: p, Expected: tt.expected, HasScore: tt.hasScore}
		opt := bench.Options{Weak: tt.weak, Cold: tt.cold}
		o, err := bench.Solve(ctx, s, l, opt)
		if err != nil {
			t.Errorf("Solve(%q, expected %d, %+v) error %v", tt.moves, tt.expected, opt, err)
			continue
		}
		if o.Score != tt.score || o.Mismatch != tt.mismatch {
			t.Errorf("Solve(%q, expected %d, %+v) = score %d, mismatch %t; want %d, %t",
				tt.moves, tt.expected, opt, o.Score, o.Mismatch, tt.score, tt.mismatch)
		}
		if o.Line != l || o.Nodes == 0 {
			t.Errorf("Solve(%q) = Line %+v, Nodes %d; want the line given and some nodes", tt.moves, o.Line, o.Nodes)
		}
	}

	won, _ := g.Parse("1212121", false)
	if _, err := bench.Solve(ctx, s, posfile.Line{Moves: "1212121", Board: won}, bench.Options{}); !errors.Is(err, solver.ErrGameOver) {
		t.Errorf("Solve(\"1212121\") error %v; want %v", err, solver.ErrGameOver)
	}
}
