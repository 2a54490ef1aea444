package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"c4solve/internal/position"
)

// checkPV plays pv after moves and reports whether it ends the game as
// score says: a four by the winner at the stone count the score implies,
// or a full board for 0.
func checkPV(t *testing.T, moves, pv string, score int) {
	t.Helper()
	p, err := position.Parse(moves + pv)
	if err != nil {
		t.Errorf("%s then the line %s: %v", moves, pv, err)
		return
	}
	n := p.Stones()
	switch {
	case score == 0 && (n != position.Cells || p.Won()):
		t.Errorf("%s: line %s for a draw does not fill the board", moves, pv)
	case score != 0 && !p.Won():
		t.Errorf("%s: line %s for score %d ends without four", moves, pv, score)
	case score != 0:
		want := 22 - (n+1)/2
		if len(pv)%2 == 0 {
			want = -want
		}
		if want != score {
			t.Errorf("%s: line %s ends with %d stones, a score of %d; want %d", moves, pv, n, want, score)
		}
	}
}

func TestRunPV(t *testing.T) {
	for _, moves := range []string{posA, posB, posE, "4453"} {
		code, stdout, stderr := runCmd(context.Background(), "", "-pv", moves)
		f := strings.Fields(stdout)
		if code != 0 || stderr != "" || len(f) != 3 || f[0] != moves {
			t.Errorf("c4solve -pv %s: exit %d, stdout %q, stderr %q; want 0 and MOVES SCORE PV", moves, code, stdout, stderr)
			continue
		}
		var score int
		if err := json.Unmarshal([]byte(f[1]), &score); err != nil {
			t.Errorf("c4solve -pv %s: score %q: %v", moves, f[1], err)
			continue
		}
		checkPV(t, moves, f[2], score)
	}
}

func TestRunJSON(t *testing.T) {
	type out struct {
		Pos      string
		Score    *int
		Scores   []*int
		Best     []int
		PV       string
		Expected *int
		Mismatch *bool
		Nodes    uint64
		Seconds  float64
	}
	decode := func(t *testing.T, s string) out {
		t.Helper()
		var o out
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		return o
	}
	_, stdout, _ := runCmd(context.Background(), "", "-json", "4453")
	if o := decode(t, stdout); o.Pos != "4453" || o.Score == nil || *o.Score != -2 || o.Scores != nil || o.Expected != nil {
		t.Errorf("c4solve -json 4453: %s; want pos 4453, score -2 and nothing of -analyze", stdout)
	}
	_, stdout, _ = runCmd(context.Background(), posE+" 5\n", "-json")
	if o := decode(t, stdout); *o.Score != 6 || *o.Expected != 5 || !*o.Mismatch || o.Nodes == 0 {
		t.Errorf("c4solve -json <<< %s 5: %s; want score 6, expected 5, mismatch true, nodes", posE, stdout)
	}
	// Column 7 is full; 6 is the best score, of column 5.
	_, stdout, _ = runCmd(context.Background(), "", "-json", "-analyze", "-pv", posE)
	o := decode(t, stdout)
	if len(o.Scores) != 7 || o.Scores[6] != nil || o.Score == nil || *o.Score != 6 || !slices.Equal(o.Best, []int{5}) {
		t.Fatalf("c4solve -json -analyze %s: %s; want 7 scores, null for column 7, best 6 in column 5", posE, stdout)
	}
	for col, sc := range o.Scores {
		if sc != nil && *sc > *o.Score {
			t.Errorf("c4solve -json -analyze %s: column %d scores %d, above the best %d", posE, col+1, *sc, *o.Score)
		}
	}
	if len(o.Best) == 0 || *o.Scores[o.Best[0]-1] != *o.Score || o.PV == "" || int(o.PV[0]-'0') != o.Best[0] {
		t.Errorf("c4solve -json -analyze -pv %s: %s; want best columns of the best score, a line starting with the first", posE, stdout)
	}
	checkPV(t, posE, o.PV, *o.Score)
	// Stopped: the bounds, no score.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, stdout, _ = runCmd(ctx, "", "-json", "-nobook", "")
	if !strings.Contains(stdout, `"incomplete":true`) || strings.Contains(stdout, `"score"`) {
		t.Errorf("c4solve -json, interrupted: %s; want incomplete and no score", stdout)
	}
}

func TestVerifyJSON(t *testing.T) {
	name := writeFile(t, t.TempDir(), "set", posA+" 1\n"+posB+" -2\n")
	code, stdout, _ := runCmd(context.Background(), "", "verify", "-json", name)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	var bad struct {
		File, Pos       string
		Line            int
		Expected, Score int
		Mismatch        bool
	}
	var sum struct {
		File                  string
		Positions, Mismatches int
		MeanSeconds           float64 `json:"mean_seconds"`
		MeanNodes             float64 `json:"mean_nodes"`
	}
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &bad) != nil || json.Unmarshal([]byte(lines[1]), &sum) != nil {
		t.Fatalf("c4solve verify -json: %q; want two JSON lines, the mismatch and the summary", stdout)
	}
	// posB scores -3.
	if bad != (struct {
		File, Pos       string
		Line            int
		Expected, Score int
		Mismatch        bool
	}{name, posB, 2, -2, -3, true}) {
		t.Errorf("c4solve verify -json: mismatch %+v; want line 2, expected -2, score -3", bad)
	}
	if code != 1 || sum.File != name || sum.Positions != 2 || sum.Mismatches != 1 || sum.MeanNodes <= 0 || sum.MeanSeconds <= 0 {
		t.Errorf("c4solve verify -json: exit %d, %+v; want 1, %s, 2 positions, 1 mismatch", code, sum, name)
	}
}

// TestJSONEmptyBoard: in -json's output, of a solve and of verify, the
// empty board's pos is "", as in the server's answers (it was `""`,
// quoted: "pos":"\"\""), and such a line reads back as the empty board.
func TestJSONEmptyBoard(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-json", ""}, `{"pos":"","score":1,`},
		{[]string{"-json", `""`}, `{"pos":"","score":1,`},
		{[]string{"-json", "-analyze", ""}, `{"pos":"","score":1,"scores":[-2,-1,0,1,0,-1,-2],"best":[4],`},
	} {
		code, out, errOut := runCmd(context.Background(), "", tc.args...)
		if code != 0 || !strings.HasPrefix(out, tc.want) {
			t.Errorf("c4solve %q: exit %d, stdout %q, stderr %q; want 0 and %s...", tc.args, code, out, errOut, tc.want)
			continue
		}
		if code, again, errOut := runCmd(context.Background(), out); code != 0 || again != "\"\" 1\n" {
			t.Errorf("c4solve < (c4solve %q): exit %d, stdout %q, stderr %q; want \"\" 1", tc.args, code, again, errOut)
		}
	}
	file := writeFile(t, t.TempDir(), "empty.txt", "\"\" 2\n")
	code, out, _ := runCmd(context.Background(), "", "verify", "-json", file)
	if want := `{"file":"` + file + `","line":1,"pos":"","expected":2,"score":1,"mismatch":true}` + "\n"; code != exitMismatch || !strings.HasPrefix(out, want) {
		t.Errorf("c4solve verify -json of \"\" 2: exit %d, stdout %q; want 1 and %q first", code, out, want)
	}
}
