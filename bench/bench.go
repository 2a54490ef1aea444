// Package bench measures: it solves the positions of position files
// (package posfile) and summarizes the time and nodes it took, as a table,
// CSV or JSON.
package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"c4solve/posfile"
	"c4solve/solver"
)

// Stats summarizes the solves of a set of positions. The zero value is an
// empty summary, ready for Add; a Stats is not safe for concurrent use.
type Stats struct {
	Positions  int
	Mismatches int
	Nodes      uint64
	Expanded   uint64          // of Nodes, those that searched a child (solver.Result.Expanded)
	Times      []time.Duration // one per position, in order
}

// Add records one solve.
func (s *Stats) Add(d time.Duration, nodes uint64, mismatch bool) {
	s.Positions++
	s.Nodes += nodes
	s.Times = append(s.Times, d)
	if mismatch {
		s.Mismatches++
	}
}

// Total returns the summed solve time.
func (s *Stats) Total() time.Duration {
	var t time.Duration
	for _, d := range s.Times {
		t += d
	}
	return t
}

// Mean returns the mean solve time, 0 for no positions.
func (s *Stats) Mean() time.Duration {
	if len(s.Times) == 0 {
		return 0
	}
	return s.Total() / time.Duration(len(s.Times))
}

// Median returns the median solve time (the mean of the middle two for an
// even count), 0 for no positions.
func (s *Stats) Median() time.Duration {
	n := len(s.Times)
	if n == 0 {
		return 0
	}
	t := slices.Clone(s.Times)
	slices.Sort(t)
	if n%2 == 1 {
		return t[n/2]
	}
	return (t[n/2-1] + t[n/2]) / 2
}

// Max returns the longest solve time.
func (s *Stats) Max() time.Duration {
	if len(s.Times) == 0 {
		return 0
	}
	return slices.Max(s.Times)
}

// MeanNodes returns the mean node count per position.
func (s *Stats) MeanNodes() float64 { return s.perPosition(s.Nodes) }

// MeanExpanded returns the mean count of expanded nodes per position.
func (s *Stats) MeanExpanded() float64 { return s.perPosition(s.Expanded) }

// perPosition returns n over the positions, 0 for none.
func (s *Stats) perPosition(n uint64) float64 {
	if s.Positions == 0 {
		return 0
	}
	return float64(n) / float64(s.Positions)
}

// NodesPerSecond returns the node rate over all solves.
func (s *Stats) NodesPerSecond() float64 {
	t := s.Total().Seconds()
	if t == 0 {
		return 0
	}
	return float64(s.Nodes) / t
}

// String formats the summary as space-separated key=value fields.
func (s *Stats) String() string {
	return fmt.Sprintf("positions=%d mismatches=%d mean=%v median=%v max=%v mean_nodes=%.0f mean_expanded=%.0f nodes_per_s=%.0f",
		s.Positions, s.Mismatches, round(s.Mean()), round(s.Median()), round(s.Max()),
		s.MeanNodes(), s.MeanExpanded(), s.NodesPerSecond())
}

// round keeps durations readable: four significant digits or so.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Microsecond)
	case d >= time.Microsecond:
		return d.Round(10 * time.Nanosecond)
	}
	return d
}

// Options says how Solve solves a position; the zero value asks for an
// exact solve with the table as it is.
type Options struct {
	Weak bool // only the sign of the score; expected scores compare by sign
	// Cold clears the table before each position (not timed), as the
	// published reference figures do; otherwise what one solve stored
	// serves the next.
	Cold bool
}

// Outcome is the result of Solve for one line.
type Outcome struct {
	Line     posfile.Line
	Score    int
	Lower    int // bounds on the score; only they are known when interrupted
	Upper    int
	Nodes    uint64
	Expanded uint64 // of Nodes, those that searched a child
	Time     time.Duration
	Mismatch bool
}

// Solve solves one line, a position of s's board (its Board), with s and
// compares the score with the line's expected one.
func Solve(ctx context.Context, s *solver.Solver, l posfile.Line, opt Options) (Outcome, error) {
	if opt.Cold {
		s.Clear()
	}
	solve := s.Solve
	if opt.Weak {
		solve = s.SolveWeak
	}
	start := time.Now()
	r, err := solve(ctx, l.Board)
	o := Outcome{Line: l, Score: r.Score, Lower: r.Lower, Upper: r.Upper, Nodes: r.Nodes, Expanded: r.Expanded, Time: time.Since(start)}
	if err != nil {
		return o, err
	}
	o.Mismatch = l.Contradicts(o.Score, opt.Weak)
	return o, nil
}
