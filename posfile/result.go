package posfile

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Result is the answer for one position: the line c4solve prints (Line),
// or as JSON (c4solve -json, the server's /analyze) one object; both read
// back as a position line. Fields that do not apply are left out of the
// JSON; /analyze's answers have Score, Scores, Best and PV. The zero value
// is a result of the empty board with nothing found.
type Result struct {
	Pos        string  `json:"pos"`
	Score      *int    `json:"score,omitempty"`  // absent when the solve was stopped
	Scores     []*int  `json:"scores,omitempty"` // an analysis: each column's, null for a full one
	Best       []int   `json:"best,omitempty"`   // an analysis: the columns (from 1) of the best score
	PV         string  `json:"pv,omitempty"`     // a line of perfect play, as columns
	Expected   *int    `json:"expected,omitempty"`
	Mismatch   *bool   `json:"mismatch,omitempty"`
	Lower      *int    `json:"lower,omitempty"` // a stopped solve: the bounds it found
	Upper      *int    `json:"upper,omitempty"`
	Incomplete bool    `json:"incomplete,omitempty"`
	Nodes      uint64  `json:"nodes"`
	Seconds    float64 `json:"seconds"`
}

// MarshalJSON writes r with its pos as Unspell writes it.
func (r Result) MarshalJSON() ([]byte, error) {
	type fields Result // without this method
	r.Pos = Unspell(r.Pos)
	return json.Marshal(fields(r))
}

// Line returns the result as the plain output line: the moves, then the
// score (or with Scores each move's, "full" for a full column), the line
// of perfect play, and MISMATCH where the expected score differs; for a
// stopped solve (Score nil), "incomplete" and its bounds.
func (r *Result) Line() string {
	var sb strings.Builder
	sb.WriteString(r.Pos)
	if r.Score == nil {
		fmt.Fprintf(&sb, " incomplete %d <= score <= %d", *r.Lower, *r.Upper)
		return sb.String()
	}
	scores := r.Scores
	if scores == nil {
		scores = []*int{r.Score}
	}
	for _, sc := range scores {
		if sc == nil {
			sb.WriteString(" full")
		} else {
			sb.WriteString(" " + strconv.Itoa(*sc))
		}
	}
	if r.PV != "" {
		sb.WriteString(" " + r.PV)
	}
	if r.Mismatch != nil && *r.Mismatch {
		sb.WriteString(" MISMATCH")
	}
	return sb.String()
}
