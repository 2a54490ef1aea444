package bench

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"reflect"
	"strconv"
	"time"

	"c4solve/posfile"
	"c4solve/solver"
)

// Setting is one configuration the harness measures.
type Setting struct {
	Threads  int  // worker goroutines
	TableMiB int  // the size of the table measured with (Measure's tt), for the rows
	Warm     bool // keep the table between positions instead of clearing it
	Weak     bool // solve for the sign of the score only
	// Book is the opening book the solver answers from, nil for none, and
	// BookName what the results call it ("none" when nil).
	Book     solver.Book
	BookName string
	// Continue keeps what the table holds from the solves before Measure
	// (verify -warm's files after the first) instead of clearing it.
	Continue bool
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

// Measure solves the lines that lines yields, positions of s's board, with
// s (of set.Threads threads) at setting set, its table cleared first
// unless set.Continue, and returns the statistics of those solved. Each
// line's outcome, or the error that stopped its solve (with the bounds
// found), is passed to each, if not nil (for progress and mismatch
// reports), which returns the error to stop at, nil to go on. Without
// each, Measure stops at the first error: an interrupted solve or a
// position that is over. The error it stops at is a *posfile.LineError
// naming the line. Both bench and verify measure with it.
func Measure(ctx context.Context, s *solver.Solver, lines iter.Seq[posfile.Line], set Setting, each func(Outcome, error) error) (Stats, error) {
	if !set.Continue {
		s.ClearAll() // no timed solve pays for the first touch of its pages
	}
	s.UseBook(set.Book)
	var st Stats
	for l := range lines {
		o, err := Solve(ctx, s, l, Options{Weak: set.Weak, Cold: !set.Warm})
		if err == nil {
			st.Add(o.Time, o.Nodes, o.Mismatch)
			st.Expanded += o.Expanded
		}
		if each != nil {
			err = each(o, err)
		}
		if err != nil {
			return st, &posfile.LineError{Num: l.Num, Err: fmt.Errorf("%q: %w", l.Moves, err)}
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

// record is a row as CSV and JSON write it: the CSV header is the JSON
// keys, in this order; numbers are plain (seconds, not durations).
type record struct {
	File       string  `json:"file"`
	Threads    int     `json:"threads"`
	TableMiB   int     `json:"tt_mib"`
	Table      string  `json:"table"`
	Mode       string  `json:"mode"`
	Book       string  `json:"book"`
	Positions  int     `json:"positions"`
	Mismatches int     `json:"mismatches"`
	MeanS      float64 `json:"mean_s"`
	MedianS    float64 `json:"median_s"`
	MaxS       float64 `json:"max_s"`
	MeanNodes  float64 `json:"mean_nodes"`
	MeanExp    float64 `json:"mean_expanded"`
	NodesPerS  float64 `json:"nodes_per_s"`
	Speedup    float64 `json:"speedup"`
}

func (r Row) record() record {
	rec := record{
		File: r.File, Threads: r.Threads, TableMiB: r.TableMiB, Table: "cold", Mode: "strong", Book: "none",
		Positions: r.Stats.Positions, Mismatches: r.Stats.Mismatches,
		MeanS: r.Stats.Mean().Seconds(), MedianS: r.Stats.Median().Seconds(), MaxS: r.Stats.Max().Seconds(),
		MeanNodes: r.Stats.MeanNodes(), MeanExp: r.Stats.MeanExpanded(), NodesPerS: r.Stats.NodesPerSecond(), Speedup: r.Speedup,
	}
	if r.Warm {
		rec.Table = "warm"
	}
	if r.Weak {
		rec.Mode = "weak"
	}
	if r.Book != nil && r.BookName != "" {
		rec.Book = r.BookName
	}
	return rec
}

// csvHeader returns record's JSON keys, in order.
func csvHeader() []string {
	t := reflect.TypeFor[record]()
	h := make([]string, t.NumField())
	for i := range h {
		h[i] = t.Field(i).Tag.Get("json")
	}
	return h
}

// csvFields returns the fields of rec as text, in record's order.
func csvFields(rec record) []string {
	v := reflect.ValueOf(rec)
	f := make([]string, v.NumField())
	for i := range f {
		switch x := v.Field(i); x.Kind() {
		case reflect.String:
			f[i] = x.String()
		case reflect.Int:
			f[i] = strconv.FormatInt(x.Int(), 10)
		case reflect.Float64:
			f[i] = strconv.FormatFloat(x.Float(), 'g', -1, 64)
		}
	}
	return f
}

// WriteMarkdown writes the rows as a markdown table, durations rounded
// for reading.
func WriteMarkdown(w io.Writer, rows []Row) error {
	if err := WriteMarkdownHeader(w); err != nil {
		return err
	}
	for _, r := range rows {
		if err := WriteMarkdownRow(w, r); err != nil {
			return err
		}
	}
	return nil
}

// WriteMarkdownHeader writes the head of WriteMarkdown's table, for rows
// written one at a time as they are measured (WriteMarkdownRow).
func WriteMarkdownHeader(w io.Writer) error {
	_, err := fmt.Fprint(w, "| file | threads | table MiB | table | mode | book | positions | mismatches | mean | median | max | mean nodes | mean expanded | nodes/s | speedup |\n",
		"|---|---:|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	return err
}

// WriteMarkdownRow writes one row of WriteMarkdown's table.
func WriteMarkdownRow(w io.Writer, r Row) error {
	speedup := "-"
	if r.Speedup > 0 {
		speedup = fmt.Sprintf("%.2f", r.Speedup)
	}
	rec := r.record()
	_, err := fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %d | %d | %v | %v | %v | %.0f | %.0f | %.3g | %s |\n",
		r.File, r.Threads, r.TableMiB, rec.Table, rec.Mode, rec.Book, r.Stats.Positions, r.Stats.Mismatches,
		round(r.Stats.Mean()), round(r.Stats.Median()), round(r.Stats.Max()),
		r.Stats.MeanNodes(), r.Stats.MeanExpanded(), r.Stats.NodesPerSecond(), speedup)
	return err
}

// WriteCSV writes the rows as CSV with a header line.
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write(csvHeader())
	for _, r := range rows {
		cw.Write(csvFields(r.record()))
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON writes the rows as a JSON array of objects keyed like the CSV
// header; numbers are JSON numbers, names are strings whatever they hold.
func WriteJSON(w io.Writer, rows []Row) error {
	out := make([]record, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.record())
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
