package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"c4solve/internal/settings"
	"c4solve/solver"
)

// progressEvery is how often long work says where it is on standard error
// when that is not a terminal (a log, a batch job's output, a pipe): one
// line each time, the first progressEvery after the work began, so that
// work shorter than that says nothing. (A variable: tests shorten it.)
var progressEvery = settings.ProgressEvery

// workLog says where a command's work is, a line on its standard error
// every progressEvery, as a log reads:
//
//	c4solve review: 20s: 0 of 1 game reviewed; argument 1 "4455", move 3 of 4 under way: 1234567 nodes, -2 <= score <= 5
//
// the time since the work began, the stage of the work if it has stages
// (bench's rows), the items done (and in all, where that is known), and
// the item under way with its search's nodes and bounds so far
// (solver.Solver.Progress). The command sets what it says as it goes.
//
// Its methods are safe for concurrent use. A nil *workLog logs nothing
// and its methods do nothing: a command calls them whether it logs or not.
type workLog struct {
	w     io.Writer // shared with the command's own writes
	name  string    // the command, as its messages are prefixed
	item  string    // what is counted, as "position"
	verb  string    // what is done to it, as "done"
	start time.Time
	halt  func() // ends the log

	mu          sync.Mutex
	stage       string         // the stage of the work, "" for none
	done, total int            // items done, and in all (0: not known)
	current     string         // the item under way, "" for none
	s           *solver.Solver // its solver, nil for none
}

// startLog starts the log of the work of the command name on w, its
// standard error, which counts items (of the noun item, as "position") as
// verb says ("done"), total in all (0 for not known); it returns nil where
// w is a terminal (a progress display shows the work there instead) or
// the user asked for quiet (-quiet). It also returns the writer the
// command must write its own messages to from then on: w, guarded, so
// that its lines and the log's are written whole, one at a time. The log
// ends with stop.
func startLog(w io.Writer, quiet bool, name, item, verb string, total int) (*workLog, io.Writer) {
	if quiet || isTerminal(w) {
		return nil, w
	}
	if _, ok := w.(*syncWriter); !ok {
		w = &syncWriter{w: w}
	}
	l := &workLog{w: w, name: name, item: item, verb: verb, total: total, start: time.Now()}
	l.halt = every(progressEvery, func() { io.WriteString(l.w, l.line(time.Since(l.start))) })
	return l, w
}

// stop ends the log: nothing is written after it returns.
func (l *workLog) stop() {
	if l != nil {
		l.halt()
	}
}

// every calls f every period, from a goroutine of its own, until the stop
// it returns is called; nothing is called after stop returns.
func every(period time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(period)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				f()
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
}

// line is the log's line after the work ran for took.
func (l *workLog) line(took time.Duration) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %v: ", l.name, took.Round(time.Second))
	if l.stage != "" {
		sb.WriteString(l.stage + ": ")
	}
	if l.total > 0 {
		fmt.Fprintf(&sb, "%d of %s %s", l.done, plural(l.total, l.item), l.verb)
	} else {
		fmt.Fprintf(&sb, "%s %s", plural(l.done, l.item), l.verb)
	}
	if l.current != "" {
		fmt.Fprintf(&sb, "; %s under way", l.current)
		if l.s != nil {
			nodes, lower, upper := l.s.Progress()
			fmt.Fprintf(&sb, ": %d nodes, %d <= score <= %d", nodes, lower, upper)
		}
	}
	sb.WriteString("\n")
	return sb.String()
}

// setStage begins a stage of the work, of total items (0: not known),
// none done yet.
func (l *workLog) setStage(stage string, total int) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stage, l.done, l.total, l.current, l.s = stage, 0, total, "", nil
}

// begin says that the item current is under way, searched by s (nil for
// none), until the end it returns is called.
func (l *workLog) begin(current string, s *solver.Solver) (end func()) {
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.current, l.s = current, s
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.current == current && l.s == s { // not one begun since, beside it
			l.current, l.s = "", nil
		}
	}
}

// count counts an item done.
func (l *workLog) count() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.done++
}

// startLog starts the log of c's work (see startLog), unless c.terminal
// (c.stderr, guarded for a table file, may hide a terminal from
// isTerminal) or -quiet. From then on c.stderr is shared with the log. It
// returns the function that stops it.
func (c *command) startLog(item, verb string, total int) (stop func()) {
	c.log, c.stderr = startLog(c.stderr, c.opt.quiet || c.terminal, c.name, item, verb, total)
	return c.log.stop
}

// quietUsage is -quiet's usage, the same in every command that takes it
// but serve (where it turns off the log of requests).
const quietUsage = "show no progress on standard error: no bar on a terminal, no line every 10s elsewhere"

// progressDelay is how long a solve runs before progress is shown: quick
// solves show none. (A variable: tests shorten it.)
var progressDelay = settings.ProgressDelay

// showProgress shows, while a solve runs and stderr is a terminal, its
// elapsed time, nodes, node rate and score bounds, refreshed in place. It
// returns the function that ends the display; no goroutine outlives it.
func (c *command) showProgress() (stop func()) {
	if !c.terminal || c.s == nil {
		return func() {}
	}
	start := time.Now()
	var bar *progressbar.ProgressBar // made and used by every's goroutine, then by stop
	halt := every(progressDelay/4, func() {
		d := time.Since(start)
		if d < progressDelay {
			return
		}
		if bar == nil {
			// The spinner turns with each tick: with its own interval the
			// bar renders from a goroutine of its own, which would outlive
			// stop and write after it.
			bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(c.stderr),
				progressbar.OptionSpinnerType(14), progressbar.OptionSetElapsedTime(true),
				progressbar.OptionSetSpinnerChangeInterval(0))
		}
		nodes, lo, hi := c.s.Progress()
		bar.Describe(fmt.Sprintf("%d nodes  %.2f M nodes/s  %d <= score <= %d",
			nodes, float64(nodes)/d.Seconds()/1e6, lo, hi))
		bar.Add(1)
	})
	return func() {
		halt() // every's goroutine has ended: bar is ours
		if bar != nil {
			bar.Clear()
			clearLine(c.stderr)
		}
	}
}
