package bench_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"c4solve/bench"
	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

// l3r1Head is the first eight lines of Pons' Test_L3_R1 set, with their
// published scores; each solves in microseconds.
const l3r1Head = `2252576253462244111563365343671351441 -1
7422341735647741166133573473242566 1
23163416124767223154467471272416755633 0
71255763773133525731261364622167124446454 0
65214673556155731566316327373221417 -1
52677675164321472411331752454 0
67152117737262713366376314254 6
2762751722231276466633475674533 5
`

// parseLines parses text as a position file, failing the test on any bad
// line.
func parseLines(t *testing.T, text string) []posfile.Line {
	t.Helper()
	var ls []posfile.Line
	err := posfile.Format{}.Scan(strings.NewReader(text), func(l posfile.Line) bool {
		ls = append(ls, l)
		return true
	}, func(e *posfile.LineError) {
		t.Fatalf("parsing the test lines: %v", e)
	})
	if err != nil {
		t.Fatal(err)
	}
	return ls
}

// measureScores runs Measure and returns its statistics and the score of
// each line, in order.
func measureScores(t *testing.T, lines []posfile.Line, set bench.Setting) (bench.Stats, []int, []bench.Outcome) {
	t.Helper()
	var scores []int
	var outs []bench.Outcome
	st, err := bench.Measure(context.Background(), testSolver(t, standardGrid(t), set.TableMiB, set.Threads), slices.Values(lines), set, func(o bench.Outcome, err error) error {
		if err == nil {
			scores = append(scores, o.Score)
			outs = append(outs, o)
		}
		return err
	})
	if err != nil {
		t.Fatalf("Measure(%+v) error %v", set, err)
	}
	return st, scores, outs
}

func TestMeasure(t *testing.T) {
	lines := parseLines(t, l3r1Head)
	want := make([]int, len(lines))
	for i, l := range lines {
		want[i] = l.Expected
	}
	for _, set := range []bench.Setting{
		{Threads: 1, TableMiB: 1},
		{Threads: 1, TableMiB: 1, Warm: true},
		{Threads: 3, TableMiB: 1},
		{Threads: 3, TableMiB: 4, Warm: true},
	} {
		st, scores, outs := measureScores(t, lines, set)
		if st.Positions != len(lines) || st.Mismatches != 0 || len(st.Times) != len(lines) || st.Nodes == 0 {
			t.Errorf("Measure(%+v) = Positions %d, Mismatches %d, %d times, Nodes %d; want %d, 0, %d, some",
				set, st.Positions, st.Mismatches, len(st.Times), st.Nodes, len(lines), len(lines))
		}
		if !slices.Equal(scores, want) {
			t.Errorf("Measure(%+v) scores %v; want %v", set, scores, want)
		}
		var nodes uint64
		for i, o := range outs {
			nodes += o.Nodes
			if o.Line != lines[i] || o.Time != st.Times[i] {
				t.Errorf("Measure(%+v) outcome %d = line %d, time %v; want line %d, time %v (Stats.Times[%d])",
					set, i, o.Line.Num, o.Time, lines[i].Num, st.Times[i], i)
			}
		}
		if nodes != st.Nodes {
			t.Errorf("Measure(%+v) Nodes = %d; want %d, the sum over the outcomes", set, st.Nodes, nodes)
		}
	}
}

// TestMeasureThreads checks that the thread count changes no score: 3
// threads against 1, cold and warm.
func TestMeasureThreads(t *testing.T) {
	lines := parseLines(t, l3r1Head)
	for _, warm := range []bool{false, true} {
		_, one, _ := measureScores(t, lines, bench.Setting{Threads: 1, TableMiB: 1, Warm: warm})
		_, three, _ := measureScores(t, lines, bench.Setting{Threads: 3, TableMiB: 1, Warm: warm})
		if !slices.Equal(one, three) {
			t.Errorf("Measure warm=%t: scores %v at 3 threads; want %v, those at 1", warm, three, one)
		}
	}
}

// TestMeasureWarm solves one position twice: with a cleared table the
// second solve repeats the first node for node (one thread is
// deterministic); with the table kept it finds the score stored.
func TestMeasureWarm(t *testing.T) {
	lines := parseLines(t, "52677675164321472411331752454 0\n52677675164321472411331752454 0\n")
	for _, warm := range []bool{false, true} {
		_, scores, outs := measureScores(t, lines, bench.Setting{Threads: 1, TableMiB: 1, Warm: warm})
		first, second := outs[0].Nodes, outs[1].Nodes
		if !slices.Equal(scores, []int{0, 0}) || warm && second >= first || !warm && second != first {
			t.Errorf("Measure warm=%t of one position twice: scores %v, nodes %d then %d; want 0, 0, and %s",
				warm, scores, first, second, map[bool]string{false: "equal nodes", true: "fewer the second time"}[warm])
		}
	}
}

func TestMeasureMismatch(t *testing.T) {
	// Line 2 expects 1; say 2.
	lines := parseLines(t, strings.Replace(l3r1Head, "7422341735647741166133573473242566 1\n",
		"7422341735647741166133573473242566 2\n", 1))
	st, scores, outs := measureScores(t, lines, bench.Setting{Threads: 1, TableMiB: 1})
	if st.Positions != len(lines) || st.Mismatches != 1 {
		t.Errorf("Measure with one wrong score: Positions %d, Mismatches %d; want %d, 1", st.Positions, st.Mismatches, len(lines))
	}
	for i, o := range outs {
		if want := i == 1; o.Mismatch != want {
			t.Errorf("Measure with line 2 wrong: line %d %q expected %d, got %d, Mismatch %t; want %t",
				o.Line.Num, o.Line.Moves, o.Line.Expected, o.Score, o.Mismatch, want)
		}
	}
	if scores[1] != 1 {
		t.Errorf("Measure: line 2 scored %d; want 1", scores[1])
	}

	// A line without a score never mismatches.
	lines = parseLines(t, "7422341735647741166133573473242566\n")
	if st, _, _ := measureScores(t, lines, bench.Setting{Threads: 1, TableMiB: 1}); st.Mismatches != 0 {
		t.Errorf("Measure of a line with no score: Mismatches %d; want 0", st.Mismatches)
	}
}

// TestMeasureWeak checks that a weak solve compares the sign of the
// expected score only.
func TestMeasureWeak(t *testing.T) {
	tests := []struct {
		text       string
		scores     []int
		mismatches int
	}{
		{l3r1Head, []int{-1, 1, 0, 0, -1, 0, 1, 1}, 0},
		// 6 and 5 are wins of another length: still 1.
		{"67152117737262713366376314254 3\n2762751722231276466633475674533 18\n", []int{1, 1}, 0},
		// A draw or loss expected for a win, a win for a draw.
		{"67152117737262713366376314254 0\n2762751722231276466633475674533 -2\n52677675164321472411331752454 4\n", []int{1, 1, 0}, 3},
	}
	for _, tt := range tests {
		lines := parseLines(t, tt.text)
		st, scores, _ := measureScores(t, lines, bench.Setting{Threads: 2, TableMiB: 1, Weak: true})
		if !slices.Equal(scores, tt.scores) || st.Mismatches != tt.mismatches {
			t.Errorf("Measure weak %q: scores %v, Mismatches %d; want %v, %d",
				tt.text, scores, st.Mismatches, tt.scores, tt.mismatches)
		}
	}
}

func TestMeasureGameOver(t *testing.T) {
	lines := parseLines(t, "7422341735647741166133573473242566 1\n# the first player has four in column 1\n1212121\n2252576253462244111563365343671351441 -1\n")
	calls := 0
	st, err := bench.Measure(context.Background(), testSolver(t, standardGrid(t), 1, 1), slices.Values(lines), bench.Setting{Threads: 1, TableMiB: 1}, func(_ bench.Outcome, err error) error {
		if err == nil {
			calls++
		}
		return err
	})
	if !errors.Is(err, solver.ErrGameOver) {
		t.Fatalf("Measure with a won position: error %v; want %v", err, solver.ErrGameOver)
	}
	if want := `line 3: "1212121": the game is already over`; err.Error() != want {
		t.Errorf("Measure with a won position: error %q; want %q", err, want)
	}
	if st.Positions != 1 || calls != 1 {
		t.Errorf("Measure with a won position at line 3: Positions %d, %d calls; want 1, 1 (it stops there)", st.Positions, calls)
	}
}

// statsOf returns Stats with the given times and no nodes.
func statsOf(times ...time.Duration) bench.Stats {
	var s bench.Stats
	for _, d := range times {
		s.Add(d, 0, false)
	}
	return s
}

func TestFillSpeedups(t *testing.T) {
	ms := time.Millisecond
	row := func(file string, threads, mib int, warm, weak bool, times ...time.Duration) bench.Row {
		return bench.Row{File: file, Setting: bench.Setting{Threads: threads, TableMiB: mib, Warm: warm, Weak: weak},
			Stats: statsOf(times...)}
	}
	rows := []bench.Row{
		row("a", 1, 64, false, false, 10*ms, 10*ms),   // mean 10ms
		row("a", 2, 64, false, false, 4*ms, 6*ms),     // mean 5ms: 2
		row("a", 4, 64, false, false, 4*ms),           // 2.5
		row("a", 8, 64, false, false),                 // no times: 0
		row("a", 2, 16, false, false, 5*ms),           // no 1-thread row at 16 MiB: 0
		row("a", 1, 128, false, false, 30*ms),         // 1
		row("a", 3, 128, false, false, 10*ms),         // 3, not 6 from the 64 MiB row's 10ms
		row("b", 2, 64, false, false, 5*ms),           // no 1-thread row for b: 0
		row("a", 2, 64, true, false, 5*ms),            // warm, no 1-thread warm row: 0
		row("a", 2, 64, false, true, 5*ms),            // weak, before its 1-thread row: 4
		row("a", 1, 64, false, true, 20*ms),           // 1
		row("c", 1, 64, false, false),                 // a 1-thread row with no times: 0
		row("c", 2, 64, false, false, 5*ms),           // its base is 0: 0
		row("d", 2, 64, true, true, 7*ms, 8*ms, 9*ms), // 1.5
		row("d", 1, 64, true, true, 12*ms),            // 1
	}
	want := []float64{1, 2, 2.5, 0, 0, 1, 3, 0, 0, 4, 1, 0, 0, 1.5, 1}
	checkSpeedups(t, rows, want)
}

// checkSpeedups runs FillSpeedups on rows and compares the speedups
// with want, and the rest of each row with what it was.
func checkSpeedups(t *testing.T, rows []bench.Row, want []float64) {
	t.Helper()
	before := slices.Clone(rows)
	bench.FillSpeedups(rows)
	for i, r := range rows {
		if r.Speedup != want[i] {
			t.Errorf("FillSpeedups: row %d (%s, %+v, mean %v) Speedup = %v; want %v",
				i, r.File, r.Setting, r.Stats.Mean(), r.Speedup, want[i])
		}
		if r.File != before[i].File || r.Setting != before[i].Setting || !slices.Equal(r.Stats.Times, before[i].Stats.Times) {
			t.Errorf("FillSpeedups changed row %d from %+v to %+v", i, before[i], r)
		}
	}
}

// writerRows are two hand-made rows: a plain one, and one whose file name
// needs quoting in CSV and JSON.
func writerRows() []bench.Row {
	var slow bench.Stats
	slow.Add(1234567*time.Nanosecond, 7, true) // 1.234567ms
	slow.Add(2*time.Second, 0, false)
	slow.Add(12345*time.Nanosecond, 0, false) // 12.345µs
	return []bench.Row{
		{
			File:    "Test_L3_R1",
			Setting: bench.Setting{Threads: 1, TableMiB: 64},
			// mean 15ms, median 15ms, max 20ms, 1500 nodes a position, 100000 nodes/s
			Stats:   bench.Stats{Positions: 2, Nodes: 3000, Expanded: 1000, Times: []time.Duration{10 * time.Millisecond, 20 * time.Millisecond}},
			Speedup: 1,
		},
		{
			File:    `odd, "name"`,
			Setting: bench.Setting{Threads: 3, TableMiB: 1, Warm: true, Weak: true},
			// mean 667.082304ms, median 1.234567ms, max 2s, 7/3 nodes a
			// position, 7/2.001246912 = 3.49782 nodes/s
			Stats:   slow,
			Speedup: 0,
		},
	}
}

func TestWriteMarkdown(t *testing.T) {
	want := `| file | threads | table MiB | table | mode | book | positions | mismatches | mean | median | max | mean nodes | mean expanded | nodes/s | speedup |
|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| Test_L3_R1 | 1 | 64 | cold | strong | none | 2 | 0 | 15ms | 15ms | 20ms | 1500 | 500 | 1e+05 | 1.00 |
| odd, "name" | 3 | 1 | warm | weak | none | 3 | 1 | 667.082ms | 1.235ms | 2s | 2 | 0 | 3.5 | - |
`
	var b bytes.Buffer
	if err := bench.WriteMarkdown(&b, writerRows()); err != nil {
		t.Fatalf("WriteMarkdown error %v", err)
	}
	if got := b.String(); got != want {
		t.Errorf("WriteMarkdown wrote\n%s\nwant\n%s", got, want)
	}

	// A speedup other than 1 shows two decimals; no rows, only the header.
	rows := writerRows()[:1]
	rows[0].Speedup = 2.345678
	b.Reset()
	bench.WriteMarkdown(&b, rows)
	if !strings.HasSuffix(b.String(), " | 2.35 |\n") {
		t.Errorf("WriteMarkdown with speedup 2.345678 wrote %q; want the row to end \" | 2.35 |\"", b.String())
	}
	b.Reset()
	bench.WriteMarkdown(&b, nil)
	if got := strings.Count(b.String(), "\n"); got != 2 {
		t.Errorf("WriteMarkdown(no rows) wrote %q; want the two header lines", b.String())
	}
}

const wantCSV = `file,threads,tt_mib,table,mode,book,positions,mismatches,mean_s,median_s,max_s,mean_nodes,mean_expanded,nodes_per_s,speedup
Test_L3_R1,1,64,cold,strong,none,2,0,0.015,0.015,0.02,1500,500,100000,1
"odd, ""name""",3,1,warm,weak,none,3,1,0.667082304,0.001234567,2,2.3333333333333335,0,3.4978192635931973,0
`

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := bench.WriteCSV(&b, writerRows()); err != nil {
		t.Fatalf("WriteCSV error %v", err)
	}
	if got := b.String(); got != wantCSV {
		t.Errorf("WriteCSV wrote\n%s\nwant\n%s", got, wantCSV)
	}

	records, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatalf("reading back the CSV: %v", err)
	}
	if len(records) != 3 {
		t.Fatalf("the CSV holds %d records; want a header and 2 rows", len(records))
	}
	rows := writerRows()
	for i, rec := range records[1:] {
		m := make(map[string]string)
		for j, name := range records[0] {
			m[name] = rec[j]
		}
		checkFields(t, "CSV", rows[i], func(key string) (float64, bool) {
			x, err := strconv.ParseFloat(m[key], 64)
			return x, err == nil
		}, m["file"], m["table"], m["mode"])
	}
}

const wantJSON = `[
  {
    "file": "Test_L3_R1",
    "threads": 1,
    "tt_mib": 64,
    "table": "cold",
    "mode": "strong",
    "book": "none",
    "positions": 2,
    "mismatches": 0,
    "mean_s": 0.015,
    "median_s": 0.015,
    "max_s": 0.02,
    "mean_nodes": 1500,
    "mean_expanded": 500,
    "nodes_per_s": 100000,
    "speedup": 1
  },
  {
    "file": "odd, \"name\"",
    "threads": 3,
    "tt_mib": 1,
    "table": "warm",
    "mode": "weak",
    "book": "none",
    "positions": 3,
    "mismatches": 1,
    "mean_s": 0.667082304,
    "median_s": 0.001234567,
    "max_s": 2,
    "mean_nodes": 2.3333333333333335,
    "mean_expanded": 0,
    "nodes_per_s": 3.4978192635931973,
    "speedup": 0
  }
]
`

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := bench.WriteJSON(&b, writerRows()); err != nil {
		t.Fatalf("WriteJSON error %v", err)
	}
	if got := b.String(); got != wantJSON {
		t.Errorf("WriteJSON wrote\n%s\nwant\n%s", got, wantJSON)
	}

	var objs []map[string]any
	if err := json.Unmarshal(b.Bytes(), &objs); err != nil {
		t.Fatalf("reading back the JSON: %v", err)
	}
	if len(objs) != 2 {
		t.Fatalf("the JSON holds %d objects; want 2", len(objs))
	}
	rows := writerRows()
	for i, m := range objs {
		str := func(key string) string {
			s, ok := m[key].(string)
			if !ok {
				t.Errorf("JSON row %d %q = %#v; want a string", i, key, m[key])
			}
			return s
		}
		checkFields(t, "JSON", rows[i], func(key string) (float64, bool) {
			x, ok := m[key].(float64)
			return x, ok
		}, str("file"), str("table"), str("mode"))
	}

	// Names that read as numbers stay strings, in JSON and CSV.
	for _, name := range []string{"2024", "6", "inf", "NaN", "-0", "1e9"} {
		rows = writerRows()[:1]
		rows[0].File, rows[0].Book, rows[0].BookName = name, emptyBook{}, name
		b.Reset()
		if err := bench.WriteJSON(&b, rows); err != nil {
			t.Errorf("WriteJSON of file and book %q: %v", name, err)
			continue
		}
		var one []map[string]any
		if err := json.Unmarshal(b.Bytes(), &one); err != nil || len(one) != 1 || one[0]["file"] != name || one[0]["book"] != name {
			t.Errorf("WriteJSON of file and book %q wrote %s; want both as the string %q", name, b.String(), name)
		}
		b.Reset()
		if err := bench.WriteCSV(&b, rows); err != nil {
			t.Errorf("WriteCSV of file and book %q: %v", name, err)
			continue
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil || len(recs) != 2 || recs[1][0] != name || recs[1][5] != name || recs[0][5] != "book" {
			t.Errorf("WriteCSV of file and book %q: %q, %v; want the name in columns file and book", name, recs, err)
		}
	}

	// No rows is an empty array, not null.
	b.Reset()
	if err := bench.WriteJSON(&b, nil); err != nil || b.String() != "[]\n" {
		t.Errorf("WriteJSON(no rows) wrote %q, error %v; want \"[]\\n\"", b.String(), err)
	}
}

// checkFields checks the fields of r read back from format: num returns
// a numeric field and whether it is a number.
func checkFields(t *testing.T, format string, r bench.Row, num func(string) (float64, bool), file, table, mode string) {
	t.Helper()
	wantTable, wantMode := "cold", "strong"
	if r.Warm {
		wantTable = "warm"
	}
	if r.Weak {
		wantMode = "weak"
	}
	if file != r.File || table != wantTable || mode != wantMode {
		t.Errorf("%s row %q: file, table, mode = %q, %q, %q; want %q, %q, %q",
			format, r.File, file, table, mode, r.File, wantTable, wantMode)
	}
	want := map[string]float64{
		"threads":       float64(r.Threads),
		"tt_mib":        float64(r.TableMiB),
		"positions":     float64(r.Stats.Positions),
		"mismatches":    float64(r.Stats.Mismatches),
		"mean_s":        r.Stats.Mean().Seconds(),
		"median_s":      r.Stats.Median().Seconds(),
		"max_s":         r.Stats.Max().Seconds(),
		"mean_nodes":    r.Stats.MeanNodes(),
		"mean_expanded": r.Stats.MeanExpanded(),
		"nodes_per_s":   r.Stats.NodesPerSecond(),
		"speedup":       r.Speedup,
	}
	for key, w := range want {
		got, ok := num(key)
		if !ok {
			t.Errorf("%s row %q: %s is not a number", format, r.File, key)
			continue
		}
		// Numbers are written in full (strconv's shortest exact form).
		if got != w {
			t.Errorf("%s row %q: %s = %v; want %v", format, r.File, key, got, w)
		}
	}
}

// emptyBook is a book that knows nothing.
type emptyBook struct{}

func (emptyBook) Depth() int                                { return 0 }
func (emptyBook) Lookup(p board.Board) (score int, ok bool) { return 0, false }

// standardGrid returns the grid of the 7x6 board.
func standardGrid(t *testing.T) *board.Grid {
	t.Helper()
	g, err := board.NewGrid(board.Standard)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// testSolver returns solver.New's solver of g, and fails t where the
// table's memory cannot be had.
func testSolver(t testing.TB, g *board.Grid, mib, threads int) *solver.Solver {
	t.Helper()
	s, err := solver.New(g, mib, threads)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
