package main

import (
	"encoding/json"
	"fmt"

	"c4solve/bench"
)

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

// verifyLine is a line verify found a wrong score on (Expected, Score and
// Mismatch), or whose solve it was stopped in, with the bounds found
// (Lower, Upper and Incomplete), as -json prints it (Pos as
// posfile.Unspell writes it).
type verifyLine struct {
	File       string `json:"file"`
	Line       int    `json:"line"`
	Pos        string `json:"pos"`
	Expected   *int   `json:"expected,omitempty"`
	Score      *int   `json:"score,omitempty"`
	Mismatch   bool   `json:"mismatch,omitempty"`
	Lower      *int   `json:"lower,omitempty"`
	Upper      *int   `json:"upper,omitempty"`
	Incomplete bool   `json:"incomplete,omitempty"`
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
