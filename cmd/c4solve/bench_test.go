package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// l3r1Ten is the first ten lines of l3r1.
var l3r1Ten = strings.Join(strings.SplitAfter(l3r1, "\n")[:10], "")

// mdRow is one data row of the markdown table, keyed by its header.
type mdRow map[string]string

// parseTable parses the markdown table that bench prints: a header line,
// an alignment line and the data rows.
func parseTable(t *testing.T, cmd, stdout string) []mdRow {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[1], "|---|") {
		t.Fatalf("%s: stdout %q; want a markdown table", cmd, stdout)
	}
	cells := func(line string) []string {
		if !strings.HasPrefix(line, "| ") || !strings.HasSuffix(line, " |") {
			t.Fatalf("%s: stdout line %q is not a table row", cmd, line)
		}
		return strings.Split(strings.TrimSuffix(strings.TrimPrefix(line, "| "), " |"), " | ")
	}
	header := cells(lines[0])
	var rows []mdRow
	for _, line := range lines[2:] {
		c := cells(line)
		if len(c) != len(header) {
			t.Fatalf("%s: row %q has %d cells; want %d", cmd, line, len(c), len(header))
		}
		r := make(mdRow)
		for i, h := range header {
			r[h] = c[i]
		}
		rows = append(rows, r)
	}
	return rows
}

// checkSpeedup checks that the speedup of row r is the mean time of the
// one-thread row of its file and table over its own, up to the rounding of
// the printed times (four digits or so) and of the speedup (two decimals).
func checkSpeedup(t *testing.T, cmd string, rows []mdRow, r mdRow) {
	t.Helper()
	s, err := strconv.ParseFloat(r["speedup"], 64)
	if err != nil {
		t.Errorf("%s: speedup %q; want a number", cmd, r["speedup"])
		return
	}
	for _, base := range rows {
		if base["threads"] != "1" || base["file"] != r["file"] || base["table MiB"] != r["table MiB"] || base["table"] != r["table"] {
			continue
		}
		one, err1 := time.ParseDuration(base["mean"])
		mean, err2 := time.ParseDuration(r["mean"])
		if err1 != nil || err2 != nil || mean <= 0 {
			t.Errorf("%s: means %q and %q; want durations", cmd, base["mean"], r["mean"])
			return
		}
		want := float64(one) / float64(mean)
		// The means shown are rounded (bench's round): each may be off
		// by half its last digit, which moves their ratio.
		halfStep := func(d time.Duration) float64 {
			switch {
			case d >= time.Second:
				return float64(time.Millisecond / 2)
			case d >= time.Millisecond:
				return float64(time.Microsecond / 2)
			}
			return float64(5 * time.Nanosecond)
		}
		tol := 0.005 + want*(0.002+halfStep(one)/float64(one)+halfStep(mean)/float64(mean))
		if d := s - want; d > tol || d < -tol {
			t.Errorf("%s: %s threads, speedup %v; the means %v and %v make it %.4f", cmd, r["threads"], s, one, mean, want)
		}
		return
	}
	t.Errorf("%s: a speedup %q without a one-thread row to compare with", cmd, r["speedup"])
}

func TestBench(t *testing.T) {
	dir := t.TempDir()
	ten := writeFile(t, dir, "ten", l3r1Ten)
	other := writeFile(t, dir, "other", l3r1)
	// Line 13 expects 6; say 3, a win all the same.
	wrong := writeFile(t, dir, "wrong", strings.Replace(l3r1, "67152117737262713366376314254 6\n", "67152117737262713366376314254 3\n", 1))

	type want struct {
		file, threads, tt, table, mode, positions, mismatches string
		speedup                                               bool // a number, not "-"
	}
	tests := []struct {
		name string
		args []string
		rows []want
	}{
		{"two thread counts", []string{"-threads", "1,2", "-tt", "4", ten}, []want{
			{"ten", "1", "4", "cold", "strong", "10", "0", true},
			{"ten", "2", "4", "cold", "strong", "10", "0", true},
		}},
		{"lines", []string{"-threads", "1,2", "-tt", "4", "-lines", "3", ten}, []want{
			{"ten", "1", "4", "cold", "strong", "3", "0", true},
			{"ten", "2", "4", "cold", "strong", "3", "0", true},
		}},
		{"lines beyond the end", []string{"-threads", "1", "-tt", "1", "-lines", "50", ten}, []want{
			{"ten", "1", "1", "cold", "strong", "10", "0", true},
		}},
		{"no one-thread row", []string{"-threads", "2,3", "-tt", "1", "-lines", "2", ten}, []want{
			{"ten", "2", "1", "cold", "strong", "2", "0", false},
			{"ten", "3", "1", "cold", "strong", "2", "0", false},
		}},
		// The fewest threads first, whatever the order asked.
		{"table sizes, warm", []string{"-threads", "2, 1", "-tt", "1,4", "-warm", "-lines", "4", ten}, []want{
			{"ten", "1", "1", "warm", "strong", "4", "0", true},
			{"ten", "2", "1", "warm", "strong", "4", "0", true},
			{"ten", "1", "4", "warm", "strong", "4", "0", true},
			{"ten", "2", "4", "warm", "strong", "4", "0", true},
		}},
		{"two files", []string{"-threads", "1", "-tt", "1", ten, other}, []want{
			{"ten", "1", "1", "cold", "strong", "10", "0", true},
			{"other", "1", "1", "cold", "strong", "20", "0", true},
		}},
		{"weak compares signs", []string{"-threads", "1,2", "-tt", "1", "-weak", wrong}, []want{
			{"wrong", "1", "1", "cold", "weak", "20", "0", true},
			{"wrong", "2", "1", "cold", "weak", "20", "0", true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(context.Background(), "", append([]string{"bench"}, tc.args...)...)
			cmd := "c4solve bench " + strings.Join(tc.args, " ")
			if code != 0 || stderr != "" {
				t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", cmd, code, stderr)
			}
			rows := parseTable(t, cmd, stdout)
			if len(rows) != len(tc.rows) {
				t.Fatalf("%s: %d rows in\n%s\nwant %d", cmd, len(rows), stdout, len(tc.rows))
			}
			for i, w := range tc.rows {
				r := rows[i]
				got := want{filepath.Base(r["file"]), r["threads"], r["table MiB"], r["table"], r["mode"], r["positions"], r["mismatches"], r["speedup"] != "-"}
				if got != w {
					t.Errorf("%s: row %d = %+v; want %+v", cmd, i+1, got, w)
				}
				if w.speedup {
					// Two threads on microsecond solves can be hundreds
					// of times slower than one, which shows as 0.00.
					checkSpeedup(t, cmd, rows, r)
					if w.threads == "1" && r["speedup"] != "1.00" {
						t.Errorf("%s: row %d, one thread, speedup %q; want 1.00", cmd, i+1, r["speedup"])
					}
				}
				for _, col := range []string{"mean", "median", "max"} {
					if !strings.HasSuffix(r[col], "s") {
						t.Errorf("%s: row %d %s %q; want a duration", cmd, i+1, col, r[col])
					}
				}
				for _, col := range []string{"mean nodes", "nodes/s"} {
					if x, err := strconv.ParseFloat(r[col], 64); err != nil || x <= 0 {
						t.Errorf("%s: row %d %s %q; want a positive number", cmd, i+1, col, r[col])
					}
				}
			}
		})
	}
}

// TestBenchOutput writes the results with -o and reads them back.
func TestBenchOutput(t *testing.T) {
	ten := writeFile(t, t.TempDir(), "ten", l3r1Ten)
	for _, ext := range []string{".json", ".csv"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "results"+ext)
			args := []string{"-threads", "1,2", "-tt", "4", "-o", out, ten}
			cmd := "c4solve bench " + strings.Join(args, " ")
			code, stdout, stderr := runCmd(context.Background(), "", append([]string{"bench"}, args...)...)
			if code != 0 || stderr != "" {
				t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", cmd, code, stderr)
			}
			if rows := parseTable(t, cmd, stdout); len(rows) != 2 {
				t.Errorf("%s: stdout\n%s\nwant 2 rows", cmd, stdout)
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if !slices.Equal(names, []string{"results" + ext}) {
				t.Errorf("%s: the directory holds %q; want only %q", cmd, names, "results"+ext)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatalf("%s: %v", cmd, err)
			}

			// Read each format back into maps of text.
			var rows []map[string]string
			switch ext {
			case ".json":
				var objs []map[string]any
				if err := json.Unmarshal(data, &objs); err != nil {
					t.Fatalf("%s: reading back %s: %v", cmd, data, err)
				}
				for _, o := range objs {
					m := make(map[string]string)
					for k, v := range o {
						switch v := v.(type) {
						case string:
							m[k] = v
						case float64:
							m[k] = strconv.FormatFloat(v, 'g', -1, 64)
						default:
							t.Errorf("%s: %s = %#v; want a string or a number", cmd, k, v)
						}
					}
					rows = append(rows, m)
				}
				if n, ok := objs[0]["threads"].(float64); !ok || n != 1 {
					t.Errorf("%s: threads = %#v; want the JSON number 1", cmd, objs[0]["threads"])
				}
			case ".csv":
				records, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
				if err != nil || len(records) == 0 {
					t.Fatalf("%s: reading back %s: %d records, error %v", cmd, data, len(records), err)
				}
				for _, rec := range records[1:] {
					m := make(map[string]string)
					for i, h := range records[0] {
						m[h] = rec[i]
					}
					rows = append(rows, m)
				}
			}
			if len(rows) != 2 {
				t.Fatalf("%s: %d rows in %s; want 2", cmd, len(rows), data)
			}
			for i, r := range rows {
				if filepath.Base(r["file"]) != "ten" || r["threads"] != strconv.Itoa(i+1) || r["tt_mib"] != "4" ||
					r["table"] != "cold" || r["mode"] != "strong" || r["positions"] != "10" || r["mismatches"] != "0" {
					t.Errorf("%s: row %d = %v; want file ten, %d threads, 4 MiB, cold, strong, 10 positions, 0 mismatches",
						cmd, i+1, r, i+1)
				}
				num := make(map[string]float64)
				for _, k := range []string{"mean_s", "median_s", "max_s", "mean_nodes", "nodes_per_s", "speedup"} {
					x, err := strconv.ParseFloat(r[k], 64)
					if err != nil || x <= 0 {
						t.Errorf("%s: row %d %s = %q; want a positive number", cmd, i+1, k, r[k])
					}
					num[k] = x
				}
				if num["mean_s"] > num["max_s"] || num["median_s"] > num["max_s"] {
					t.Errorf("%s: row %d mean_s %v, median_s %v, max_s %v; want the max the largest",
						cmd, i+1, num["mean_s"], num["median_s"], num["max_s"])
				}
			}
			if rows[0]["speedup"] != "1" {
				t.Errorf("%s: one-thread speedup %q; want 1", cmd, rows[0]["speedup"])
			}
			if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
				t.Errorf("%s: results file mode %v, %v; want -rw-r--r--", cmd, fi.Mode(), err)
			}
		})
	}
}

// TestBenchOutputFails names a directory with -o: it is refused before any
// solve, and no temporary file may be left beside it.
func TestBenchOutputFails(t *testing.T) {
	ten := writeFile(t, t.TempDir(), "ten", l3r1Ten)
	dir := t.TempDir()
	out := filepath.Join(dir, "results.csv")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, out, "keep", "")
	code, stdout, stderr := runCmd(context.Background(), "", "bench", "-threads", "1", "-tt", "1", "-o", out, ten)
	cmd := "c4solve bench -threads 1 -tt 1 -o " + out + " " + ten
	if code != 2 || !strings.Contains(stderr, "c4solve bench: -o: "+out+" is a directory") {
		t.Errorf("%s, a directory: exit %d, stderr %q; want 2 and an error naming it", cmd, code, stderr)
	}
	if stdout != "" {
		t.Errorf("%s: stdout\n%s\nwant nothing: the output is refused before the work", cmd, stdout)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "results.csv" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("%s: the directory holds %q; want only results.csv", cmd, names)
	}
}

func TestBenchErrors(t *testing.T) {
	dir := t.TempDir()
	ten := writeFile(t, dir, "ten", l3r1Ten)
	// Line 13 expects 6; say 5.
	wrong := writeFile(t, dir, "wrong", strings.Replace(l3r1, "67152117737262713366376314254 6\n", "67152117737262713366376314254 5\n", 1))
	bad := writeFile(t, dir, "bad", "# a comment\n"+posA+" 1\n448 0\n"+posC+"\n")
	won := writeFile(t, dir, "won", posA+" 1\n"+posB+" -3\n"+posWon+"\n"+posC+" -1\n")
	missing := filepath.Join(dir, "missing")
	noDir := filepath.Join(dir, "no", "such", "dir", "results.json")
	quick := []string{"-threads", "1", "-tt", "1"}

	tests := []struct {
		name   string
		args   []string
		code   int
		rows   int      // data rows in the table on stdout; 0: an empty table or nothing; -1: nothing
		stderr []string // substrings; none means stderr must be empty
	}{
		{name: "threads 0", args: []string{"-threads", "0", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -threads: \"0\" is not a whole number from 1 to " + strconv.Itoa(maxThreads())}},
		{name: "threads a", args: []string{"-threads", "a", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -threads: \"a\" is not a whole number"}},
		{name: "threads empty item", args: []string{"-threads", "1,,2", ten}, code: 2, rows: -1,
			stderr: []string{"-threads: \"\" is not a whole number"}},
		{name: "threads too many", args: []string{"-threads", "1,1025", ten}, code: 2, rows: -1,
			stderr: []string{"-threads: \"1025\""}},
		{name: "tt 0", args: []string{"-tt", "0", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -tt: \"0\" is not a whole number"}},
		{name: "tt a", args: []string{"-tt", "4,a", ten}, code: 2, rows: -1, stderr: []string{"-tt: \"a\""}},
		{name: "tt too large", args: []string{"-tt", "1,1073741824", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -tt 1073741824: "}},
		{name: "lines -1", args: []string{"-lines", "-1", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -lines -1: want 0 or more"}},
		{name: "lines a", args: []string{"-lines", "a", ten}, code: 2, rows: -1, stderr: []string{"-lines"}},
		{name: "unknown flag", args: []string{"-x", ten}, code: 2, rows: -1,
			stderr: []string{"c4solve bench: -x: no such flag (c4solve bench -h lists the flags)\n"}},
		{name: "no files", args: quick, code: 2, rows: -1, stderr: []string{"c4solve bench: no files given"}},
		{name: "o txt", args: append([]string{"-o", filepath.Join(dir, "x.txt")}, append(quick, ten)...), code: 2, rows: -1,
			stderr: []string{"c4solve bench: -o " + filepath.Join(dir, "x.txt") + ": the name must end in .json or .csv"}},
		{name: "o no extension", args: append([]string{"-o", filepath.Join(dir, "json")}, append(quick, ten)...), code: 2, rows: -1,
			stderr: []string{"must end in .json or .csv"}},
		{name: "missing", args: append(quick, missing), code: 2, rows: 0,
			stderr: []string{"c4solve bench: open " + missing + ": no such file"}},
		{name: "missing then good", args: append(quick, missing, ten), code: 2, rows: 1, stderr: []string{missing}},
		{name: "bad line", args: append(quick, bad), code: 2, rows: 0,
			stderr: []string{"c4solve bench: " + bad + ":3: position 3: '8' is not a column 1-7"}},
		{name: "bad line then good", args: append(quick, bad, ten), code: 2, rows: 1, stderr: []string{bad + ":3: "}},
		{name: "bad line beyond -lines", args: append([]string{"-lines", "1"}, append(quick, bad)...), rows: 1},
		{name: "game over", args: append(quick, won), code: 2, rows: 0,
			stderr: []string{"c4solve bench: " + won + ":3: \"1212121\": the game is already over"}},
		{name: "wrong", args: []string{"-threads", "1,2", "-tt", "1", wrong}, code: 1, rows: 2,
			stderr: []string{"c4solve bench: MISMATCH " + wrong + ":13 67152117737262713366376314254 expected=5 got=6\n"}},
		{name: "wrong, then bad", args: append(quick, wrong, bad), code: 2, rows: 1,
			stderr: []string{"MISMATCH " + wrong + ":13 ", bad + ":3: "}},
		{name: "o in no directory", args: append([]string{"-o", noDir}, append(quick, ten)...), code: 2, rows: -1,
			stderr: []string{"c4solve bench: ", filepath.Join(dir, "no", "such", "dir")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(context.Background(), "", append([]string{"bench"}, tc.args...)...)
			cmd := "c4solve bench " + strings.Join(tc.args, " ")
			if code != tc.code {
				t.Errorf("%s: exit %d; want %d (stderr %q)", cmd, code, tc.code, stderr)
			}
			switch {
			case tc.rows < 0 && stdout != "":
				t.Errorf("%s: stdout %q; want it empty", cmd, stdout)
			case tc.rows == 0 && stdout == "":
			case tc.rows >= 0:
				if rows := parseTable(t, cmd, stdout); len(rows) != tc.rows {
					t.Errorf("%s: stdout\n%s\nwant %d rows", cmd, stdout, tc.rows)
				}
			}
			if len(tc.stderr) == 0 && stderr != "" {
				t.Errorf("%s: stderr %q; want it empty", cmd, stderr)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s: stderr %q; want it to hold %q", cmd, stderr, s)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "x.txt")); err == nil {
		t.Errorf("c4solve bench -o x.txt wrote x.txt")
	}
}

func TestBenchHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"-help"}, {"-h", "-threads", "0"}} {
		code, stdout, stderr := runCmd(context.Background(), "", append([]string{"bench"}, args...)...)
		cmd := "c4solve bench " + strings.Join(args, " ")
		if code != 0 || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q; want 0 and nothing", cmd, code, stderr)
		}
		for _, s := range []string{"Usage:\n  c4solve bench [flags] FILE ...", "Exit status:", "-threads", "-tt", "-lines", "-warm", "-weak", "-o FILE"} {
			if !strings.Contains(stdout, s) {
				t.Errorf("%s: stdout %q; want it to hold %q", cmd, stdout, s)
			}
		}
	}
	// The main usage names the command.
	if code, out, _ := runCmd(context.Background(), "", "-h"); code != 0 ||
		!strings.Contains(out, "c4solve bench [flags] FILE ...") {
		t.Errorf("c4solve -h: exit %d, stdout %q; want 0 and a line on bench", code, out)
	}
}

// TestBenchCanceled checks that an interrupted bench exits 3 and prints
// no table of the part it did.
func TestBenchCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The first position needs a search (it cannot be won at once, and
	// there is no book), so the solver sees the cancellation.
	in := writeFile(t, t.TempDir(), "in", "4\n"+l3r1Ten)
	code, stdout, stderr := runCmd(ctx, "", "bench", "-nobook", "-threads", "1", "-tt", "1", in)
	if code != 3 || stdout != "" || !strings.Contains(stderr, in+": interrupted") {
		t.Errorf("c4solve bench, interrupted: exit %d, stdout %q, stderr %q; want 3, nothing, the file it stopped at",
			code, stdout, stderr)
	}
}

// TestBenchFlagsBefore refuses flags given before the word bench, which
// would otherwise be silently ignored.
func TestBenchFlagsBefore(t *testing.T) {
	code, out, errOut := runCmd(context.Background(), "", "-weak", "bench", "f")
	if code != 2 || out != "" || !strings.Contains(errOut, "flags go after the command name") {
		t.Errorf("c4solve -weak bench f: exit %d, stdout %q, stderr %q; want 2 and the flags refused", code, out, errOut)
	}
}

// TestBenchCPUProfile checks that -cpuprofile writes a profile (gzipped
// protocol buffers, as go tool pprof reads them) and that a profile that
// cannot be created stops bench before any work, naming the file.
func TestBenchCPUProfile(t *testing.T) {
	dir := t.TempDir()
	ten := writeFile(t, dir, "ten", l3r1Ten)
	prof := filepath.Join(dir, "cpu.prof")
	code, stdout, stderr := runCmd(context.Background(), "", "bench", "-threads", "1", "-tt", "1", "-cpuprofile", prof, ten)
	cmd := "c4solve bench -threads 1 -tt 1 -cpuprofile " + prof + " " + ten
	if code != 0 || stderr != "" {
		t.Fatalf("%s: exit %d, stderr %q; want 0 and nothing", cmd, code, stderr)
	}
	if rows := parseTable(t, cmd, stdout); len(rows) != 1 || rows[0]["positions"] != "10" {
		t.Errorf("%s: table %v; want one row of 10 positions", cmd, rows)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("%s: the profile starts %q; want gzip's magic number", cmd, b[:min(len(b), 8)])
	}

	bad := filepath.Join(dir, "no", "such", "cpu.prof")
	code, stdout, stderr = runCmd(context.Background(), "", "bench", "-threads", "1", "-tt", "1", "-cpuprofile", bad, ten)
	if code != 2 || !strings.Contains(stderr, "-cpuprofile: open "+bad) || stdout != "" {
		t.Errorf("c4solve bench -cpuprofile %s: exit %d, stdout %q, stderr %q; want 2, no table and an error naming the file", bad, code, stdout, stderr)
	}
}
