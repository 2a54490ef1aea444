package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"c4solve/bench"
	"c4solve/posfile"
)

// result is what c4solve prints for one position: as a line of fields, or
// with -json as one JSON object. Fields that do not apply are left out.
type result struct {
	Pos        string  `json:"pos"`
	Score      *int    `json:"score,omitempty"`  // absent when the solve was stopped
	Scores     []*int  `json:"scores,omitempty"` // -analyze: one a column, left to right, null for a full one
	Best       []int   `json:"best,omitempty"`   // -analyze: the columns of the best score
	PV         string  `json:"pv,omitempty"`     // -pv
	Expected   *int    `json:"expected,omitempty"`
	Mismatch   *bool   `json:"mismatch,omitempty"`
	Lower      *int    `json:"lower,omitempty"` // a stopped solve: the bounds it found
	Upper      *int    `json:"upper,omitempty"`
	Incomplete bool    `json:"incomplete,omitempty"`
	Nodes      uint64  `json:"nodes"`
	Seconds    float64 `json:"seconds"`
}

// jsonPos is how JSON writes a position's moves, pos as a line writes
// them: the empty board's pos is the empty string, as the server's
// answers write it, where a line writes posfile.EmptyBoard. Both read back
// as the empty board.
func jsonPos(pos string) string {
	if pos == posfile.EmptyBoard {
		return ""
	}
	return pos
}

// MarshalJSON writes r with its pos as jsonPos writes it.
func (r result) MarshalJSON() ([]byte, error) {
	type fields result // without this method
	r.Pos = jsonPos(r.Pos)
	return json.Marshal(fields(r))
}

// line returns the result as the plain output line: the moves, then the
// score (or with -analyze the score of each column's move), the line of perfect
// play, and MISMATCH where the expected score differs; for a stopped
// solve, "incomplete" and its bounds.
func (r *result) line() string {
	var sb strings.Builder
	sb.WriteString(r.Pos)
	if r.Score == nil {
		fmt.Fprintf(&sb, " incomplete %d <= score <= %d", *r.Lower, *r.Upper)
		return sb.String()
	}
	if r.Scores != nil {
		for _, sc := range r.Scores {
			if sc == nil {
				sb.WriteString(" full")
			} else {
				sb.WriteString(" " + strconv.Itoa(*sc))
			}
		}
	} else {
		sb.WriteString(" " + strconv.Itoa(*r.Score))
	}
	if r.PV != "" {
		sb.WriteString(" " + r.PV)
	}
	if r.Mismatch != nil && *r.Mismatch {
		sb.WriteString(" MISMATCH")
	}
	return sb.String()
}

// emit writes a result on standard output: with -json v, as one line of
// JSON, else the line text.
func (c *command) emit(v any, text string) {
	if !c.opt.json {
		fmt.Fprintln(c.stdout, text)
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		c.bad(fmt.Errorf("encoding the result: %w", err))
		return
	}
	fmt.Fprintf(c.stdout, "%s\n", b)
}

// verifyMismatch is a line verify found a wrong score on, as -json prints it.
type verifyMismatch struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Pos      string `json:"pos"`
	Expected int    `json:"expected"`
	Score    int    `json:"score"`
	Mismatch bool   `json:"mismatch"`
}

// MarshalJSON writes m with its pos as jsonPos writes it.
func (m verifyMismatch) MarshalJSON() ([]byte, error) {
	type fields verifyMismatch // without this method
	m.Pos = jsonPos(m.Pos)
	return json.Marshal(fields(m))
}

// verifyStopped is the line whose solve verify was stopped in, with the
// bounds found, as -json prints it.
type verifyStopped struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Pos        string `json:"pos"`
	Lower      int    `json:"lower"`
	Upper      int    `json:"upper"`
	Incomplete bool   `json:"incomplete"`
}

// MarshalJSON writes v with its pos as jsonPos writes it.
func (v verifyStopped) MarshalJSON() ([]byte, error) {
	type fields verifyStopped // without this method
	v.Pos = jsonPos(v.Pos)
	return json.Marshal(fields(v))
}

// verifySummary is verify's summary of a file, as -json prints it;
// incomplete when it was stopped before the file's end.
func verifySummary(name string, st *bench.Stats, incomplete bool) any {
	return struct {
		File           string  `json:"file"`
		Positions      int     `json:"positions"`
		Mismatches     int     `json:"mismatches"`
		MeanSeconds    float64 `json:"mean_seconds"`
		MedianSeconds  float64 `json:"median_seconds"`
		MaxSeconds     float64 `json:"max_seconds"`
		MeanNodes      float64 `json:"mean_nodes"`
		NodesPerSecond float64 `json:"nodes_per_second"`
		Incomplete     bool    `json:"incomplete,omitempty"`
	}{name, st.Positions, st.Mismatches, st.Mean().Seconds(), st.Median().Seconds(), st.Max().Seconds(),
		st.MeanNodes(), st.NodesPerSecond(), incomplete}
}
