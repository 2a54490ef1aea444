package bench

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"c4solve/solver"
	"c4solve/ttable"
)

// Setting is one configuration the harness measures.
type Setting struct {
	Threads  int  // worker goroutines
	TableMiB int  // transposition table size
	Warm     bool // keep the table between positions instead of clearing it
	Weak     bool // solve for the sign of the score only
	// Book is the opening book the solver answers from, nil for none, and
	// BookName what the results call it ("none" when nil).
	Book     solver.Book
	BookName string
}

// Row is the measurement of one file at one setting.
type Row struct {
	File string
	Setting
	Stats Stats
	// Speedup is the mean time at one thread over the mean time at this
	// setting's thread count, for the same file and table; 0 when the
	// one-thread run is not among the rows.
	Speedup float64
}

// Measure solves lines at setting set, with a new table, and returns the
// statistics. Each line's outcome is passed to each, if not nil (for
// progress and mismatch reports). It stops at the first error, an
// interrupted solve or a position that is over.
func Measure(ctx context.Context, lines []Line, set Setting, each func(Outcome)) (Stats, error) {
	s := solver.New(ttable.New(set.TableMiB), set.Threads)
	s.UseBook(set.Book)
	var st Stats
	for _, l := range lines {
		o, err := Solve(ctx, s, l, Options{Weak: set.Weak, Cold: !set.Warm})
		if err != nil {
			return st, fmt.Errorf("line %d %q: %w", l.Num, l.Moves, err)
		}
		st.Add(o.Time, o.Nodes, o.Mismatch)
		if each != nil {
			each(o)
		}
	}
	return st, nil
}

// FillSpeedups sets the Speedup of every row for which a one-thread row
// of the same file, table size, table mode (warm or cold) and solve mode
// (weak or strong) exists.
func FillSpeedups(rows []Row) {
	type key struct {
		file string
		mib  int
		warm bool
		weak bool
	}
	base := make(map[key]time.Duration)
	for _, r := range rows {
		if r.Threads == 1 {
			base[key{r.File, r.TableMiB, r.Warm, r.Weak}] = r.Stats.Mean()
		}
	}
	for i, r := range rows {
		if b, ok := base[key{r.File, r.TableMiB, r.Warm, r.Weak}]; ok && r.Stats.Mean() > 0 {
			rows[i].Speedup = float64(b) / float64(r.Stats.Mean())
		}
	}
}

// columns are the names of a row's fields: the CSV header in its order,
// and the JSON keys.
var columns = []string{"file", "threads", "tt_mib", "table", "mode", "book", "positions", "mismatches",
	"mean_s", "median_s", "max_s", "mean_nodes", "nodes_per_s", "speedup"}

func (r Row) table() string {
	if r.Warm {
		return "warm"
	}
	return "cold"
}

func (r Row) book() string {
	if r.Book == nil || r.BookName == "" {
		return "none"
	}
	return r.BookName
}

func (r Row) mode() string {
	if r.Weak {
		return "weak"
	}
	return "strong"
}

// fields returns the row's values as text, machine-readable (seconds,
// plain numbers).
func (r Row) fields() []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return []string{r.File, strconv.Itoa(r.Threads), strconv.Itoa(r.TableMiB), r.table(), r.mode(), r.book(),
		strconv.Itoa(r.Stats.Positions), strconv.Itoa(r.Stats.Mismatches),
		f(r.Stats.Mean().Seconds()), f(r.Stats.Median().Seconds()), f(r.Stats.Max().Seconds()),
		f(r.Stats.MeanNodes()), f(r.Stats.NodesPerSecond()), f(r.Speedup)}
}

// WriteMarkdown writes the rows as a markdown table, durations rounded
// for reading.
func WriteMarkdown(w io.Writer, rows []Row) error {
	_, err := fmt.Fprint(w, "| file | threads | table MiB | table | mode | book | positions | mismatches | mean | median | max | mean nodes | nodes/s | speedup |\n",
		"|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	if err != nil {
		return err
	}
	for _, r := range rows {
		speedup := "-"
		if r.Speedup > 0 {
			speedup = fmt.Sprintf("%.2f", r.Speedup)
		}
		_, err := fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %d | %d | %v | %v | %v | %.0f | %.3g | %s |\n",
			r.File, r.Threads, r.TableMiB, r.table(), r.mode(), r.book(), r.Stats.Positions, r.Stats.Mismatches,
			round(r.Stats.Mean()), round(r.Stats.Median()), round(r.Stats.Max()),
			r.Stats.MeanNodes(), r.Stats.NodesPerSecond(), speedup)
		if err != nil {
			return err
		}
	}
	return nil
}

// WriteCSV writes the rows as CSV with a header line.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(columns)
	for _, r := range rows {
		cw.Write(r.fields())
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the rows as a JSON array of objects keyed like the CSV
// header; numbers are JSON numbers.
func WriteJSON(w io.Writer, rows []Row) error {
	out := make([]map[string]any, 0, len(rows))
	for _, r := range rows {
		m := make(map[string]any, len(columns))
		for i, v := range r.fields() {
			if x, err := strconv.ParseFloat(v, 64); err == nil && i != 0 {
				m[columns[i]] = x
			} else {
				m[columns[i]] = v
			}
		}
		out = append(out, m)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
