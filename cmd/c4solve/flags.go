package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/settings"
	"c4solve/posfile"
	"c4solve/solver"
	"c4solve/ttable"
)

// The flags the commands that search share, defined once here and checked
// in one place (check). bench takes lists of thread counts and table sizes
// instead, to compare them.

// defaultTableMiB is -tt's default (tests make it small).
var defaultTableMiB = settings.DefaultTableMiB

// searchFlags are -threads and -tt.
type searchFlags struct {
	threads int
	ttMiB   int
	fs      *flag.FlagSet // where they are registered
}

func (f *searchFlags) register(fs *flag.FlagSet) {
	f.fs = fs
	fs.IntVar(&f.threads, "threads", runtime.NumCPU(), "search goroutines sharing the table")
	fs.IntVar(&f.ttMiB, "tt", defaultTableMiB,
		fmt.Sprintf("shared transposition table size in MiB (each search goroutine adds a table of %d MiB of its own)", settings.LeafTableMiB))
}

func (f *searchFlags) check() error {
	if err := ttable.CheckSize(f.ttMiB); err != nil {
		return fmt.Errorf("-tt %d: %w", f.ttMiB, err)
	}
	if f.threads < 1 || f.threads > maxThreads() {
		return fmt.Errorf("-threads %d: want 1 to %d (%d times this machine's %d CPUs)", f.threads, maxThreads(), settings.ThreadsPerCPU, runtime.NumCPU())
	}
	return nil
}

// explicitTT reports whether -tt was given.
func (f *searchFlags) explicitTT() bool {
	explicit := false
	if f.fs != nil {
		f.fs.Visit(func(fl *flag.Flag) { explicit = explicit || fl.Name == "tt" })
	}
	return explicit
}

// noteRounded says on stderr that a table of mib MiB was made of got MiB,
// where the two differ.
func noteRounded(stderr io.Writer, mib, got int) {
	if got != mib {
		fmt.Fprintf(stderr, "c4solve: note: -tt %d: a table holds a power of two of buckets: using %d MiB\n", mib, got)
	}
}

// fitTable returns the size of a shared table of mib MiB for searches of
// workers goroutines in all, each of which adds a table of its own,
// within what the process may use (ttable.Limit.Fit): a default size that
// does not fit is made smaller, with a note on stderr; an explicit one is
// an error.
func fitTable(mib, workers int, explicit bool, stderr io.Writer) (int, error) {
	limit := processMemoryLimit()
	fit, err := limit.Fit(ttable.Sizing{MiB: mib, Explicit: explicit, OtherMiB: workers * settings.LeafTableMiB})
	goroutines := plural(workers, "search goroutine")
	switch {
	case err != nil && explicit:
		return 0, fmt.Errorf("-tt %d with %s: %w: use -tt or -threads to ask for less", mib, goroutines, err)
	case err != nil && workers == 1:
		return 0, fmt.Errorf("%s: %w: raise the limit", goroutines, err)
	case err != nil:
		return 0, fmt.Errorf("%s: %w: use -threads to ask for fewer, or raise the limit", goroutines, err)
	case fit != mib:
		fmt.Fprintf(stderr, "c4solve: note: the default table of %d MiB does not fit the %d MiB this process may use (%s): using %d MiB (-tt %d)\n",
			mib, limit.Bytes>>20, limit.Why, fit, fit)
	}
	return fit, nil
}

// processMemoryLimit is ttable.MemoryLimit; tests replace it.
var processMemoryLimit = ttable.MemoryLimit

// sizeFlag is -size: the board, 7x6 unless given.
type sizeFlag struct{ board.Size }

func (f *sizeFlag) String() string {
	return f.board().String()
}

func (f *sizeFlag) Set(s string) error {
	z, err := board.ParseSize(s)
	if err != nil {
		return err
	}
	f.Size = z
	return nil
}

// board returns the board of the flag: 7x6 unless -size named another.
func (f *sizeFlag) board() board.Size { return f.Size.OrStandard() }

// format returns how lines name positions, with columns from 0 if from0.
func (f *sizeFlag) format(from0 bool) (posfile.Format, error) {
	g, err := board.NewGrid(f.board())
	return posfile.Format{Grid: g, From0: from0}, err
}

// bookFlags are -book and -nobook.
type bookFlags struct {
	name string
	off  bool
}

func (f *bookFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.name, "book", "", "answer from the opening book in `FILE` instead of the built-in one")
	fs.BoolVar(&f.off, "nobook", false, "use no opening book: search every position")
}

// errBookAndNobook is the error of -book FILE with -nobook.
var errBookAndNobook = errors.New("-book and -nobook contradict each other")

// loadBook returns the book the flags ask for to solve positions of the
// board z: none with -nobook, the file of -book (which must be of z), or
// the built-in book where it is of z (book.Default).
func (f *bookFlags) loadBook(z board.Size) (solver.Book, error) {
	if f.off && f.name != "" {
		return nil, errBookAndNobook
	} else if f.off {
		return nil, nil
	}
	bk, err := book.Default()
	if f.name != "" {
		bk, err = readBook(f.name)
	}
	switch {
	case err != nil:
		return nil, err
	case bk.Board() == z:
		return bk, nil
	case f.name == "":
		return nil, nil // the built-in book is of another board
	}
	return nil, fmt.Errorf("book %s: a book of the %v board, and -size is %v: give -size %v to use it", f.name, bk.Board(), z, bk.Board())
}

// readBook is book.ReadFile of name, the value of -book, whose error
// names -book: "-book /nonexistent: no such file or directory".
func readBook(name string) (*book.Book, error) {
	bk, err := book.ReadFile(name)
	var pe *fs.PathError
	var fe *book.FileError
	switch {
	case err == nil:
		return bk, nil
	case errors.As(err, &pe) && pe.Path == name:
		err = pe.Err
	case errors.As(err, &fe):
		err = fe.Err
	}
	return nil, fmt.Errorf("-book %s: %w", name, err)
}

// loadBooks returns the books of files by board, each of the board its
// file records (book.Book.Board), and the built-in one (book.Default) if
// none of files is of its board (none with off). Two books of one board
// are an error.
func loadBooks(files []string, off bool) (map[board.Size]solver.Book, error) {
	if off && len(files) > 0 {
		return nil, errBookAndNobook
	}
	books := make(map[board.Size]solver.Book)
	from := make(map[board.Size]string) // the file of each board's book
	for _, name := range files {
		bk, err := readBook(name)
		if err != nil {
			return nil, err
		}
		z := bk.Board()
		if other, ok := from[z]; ok {
			return nil, fmt.Errorf("-book %s and -book %s: two books of the %v board; give one", other, name, z)
		}
		from[z], books[z] = name, bk
	}
	if off {
		return books, nil
	}
	bk, err := book.Default()
	if _, ok := books[bk.Board()]; err == nil && !ok {
		books[bk.Board()] = bk
	}
	return books, err
}

// durationValue is a flag.Value of a duration, as flag.Duration's, whose
// error says what is wrong (flag.Duration's says "parse error"): a number
// without a unit is the usual mistake.
type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }

func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, errNum := strconv.ParseFloat(s, 64); errNum == nil {
			return fmt.Errorf("a duration needs a unit: %ss, %sms, %sm", s, s, s)
		}
		if strings.Contains(err.Error(), "invalid duration") && durationShape.MatchString(s) {
			return fmt.Errorf("longer than the longest duration, %v (about %d years)", time.Duration(math.MaxInt64), math.MaxInt64/int64(365*24*time.Hour))
		}
		return errors.New("not a duration: want a number and a unit, as 10s, 500ms or 2m")
	}
	*d = durationValue(v)
	return nil
}

// durationShape matches what looks like a duration, numbers each with a
// unit: time.ParseDuration refuses one too long for its int64 of
// nanoseconds with the same "invalid duration" as one mistyped.
var durationShape = regexp.MustCompile(`^[+]?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)

// durationVar defines a duration flag whose errors say what is wrong.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var((*durationValue)(p), name, usage)
}

// checkTimeout refuses a -timeout of d below 0.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("-timeout %v: want a positive duration, or 0 for none", d)
	}
	return nil
}

// maxThreads bounds -threads, -solvers and bench's thread counts: far more
// goroutines than cores only slow the search down, and each adds a table.
func maxThreads() int { return max(8, settings.ThreadsPerCPU*runtime.NumCPU()) }

// flagSet is the flag set of a command, with its help text.
type flagSet struct {
	*flag.FlagSet
	usage          string // the help before the list of flags
	stdout, stderr io.Writer
	hidden         map[string]bool // flags the help leaves out (see hide)
}

// hide leaves the flag name out of the help: one the command takes only
// to hand on to another, which lists it.
func (fs *flagSet) hide(name string) { fs.hidden[name] = true }

// newFlagSet returns the flag set of the command name: parse names a bad
// flag on stderr, and prints the help, when asked for, on stdout.
func newFlagSet(name, usage string, stdout, stderr io.Writer) *flagSet {
	fs := &flagSet{FlagSet: flag.NewFlagSet(name, flag.ContinueOnError), usage: usage, stdout: stdout, stderr: stderr, hidden: map[string]bool{}}
	fs.SetOutput(io.Discard) // parse says what is wrong in a line of its own
	fs.Usage = func() {}     // parse prints the help
	return fs
}

// help prints the command's help and its flags on standard output.
func (fs *flagSet) help() {
	fmt.Fprint(fs.stdout, fs.usage)
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprint(fs.stdout, "\nFlags:\n")
		shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
		fs.VisitAll(func(f *flag.Flag) {
			if !fs.hidden[f.Name] {
				shown.Var(f.Value, f.Name, f.Usage)
				shown.Lookup(f.Name).DefValue = f.DefValue
			}
		})
		shown.SetOutput(fs.stdout)
		shown.PrintDefaults()
	}
}

// parseAll is parse, but takes flags among and after the other arguments
// too ("verify FILE -json"), up to a "--", after which every argument is
// another.
func (fs *flagSet) parseAll(args []string) (status int, ok bool) {
	var rest []string
	for {
		if st, ok := fs.parse(args); !ok {
			return st, false
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			rest = append(rest, left...)
			break
		}
		i := slices.IndexFunc(left, func(a string) bool { return len(a) > 1 && a[0] == '-' })
		if i < 0 {
			rest = append(rest, left...)
			break
		}
		rest, args = append(rest, left[:i]...), left[i:]
	}
	fs.Parse(append([]string{"--"}, rest...)) // Args is rest; no flag is left to parse
	return exitOK, true
}

// parse parses args. When it returns ok false the command ends with
// status: 0 after -h, which printed the help, 2 for a bad flag, which it
// has named on standard error in one line (parseError).
func (fs *flagSet) parse(args []string) (status int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		fs.help()
		return exitOK, false
	}
	fmt.Fprintf(fs.stderr, "%s: %s\n", fs.Name(), fs.parseError(err))
	return exitBad, false
}

// parseError says what is wrong with the flag that err, the flag
// package's error, is about, and what the flag wants: the flag package
// says "parse error" of a number that is none, and nothing of what would
// do. It reads the package's messages (flag.FlagSet.Parse's), and returns
// one it does not know as it is.
func (fs *flagSet) parseError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		near, nearest := "", 3
		fs.VisitAll(func(f *flag.Flag) {
			if d := editDistance(name, f.Name); d < nearest && isNear(d, name) {
				near, nearest = f.Name, d
			}
		})
		if near != "" {
			return fmt.Sprintf("-%s: no such flag (did you mean -%s?)", name, near)
		}
		return fmt.Sprintf("-%s: no such flag (%s -h lists the flags)", name, fs.Name())
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		if f := fs.Lookup(name); f != nil {
			return fmt.Sprintf("-%s needs a value: %s", name, wants(f))
		}
	}
	if syntax, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return fmt.Sprintf("%s: not a flag: flags are -NAME or -NAME=VALUE", quoteShort(syntax))
	}
	for _, prefix := range []string{"invalid boolean value ", "invalid value "} {
		rest, ok := strings.CutPrefix(msg, prefix)
		if !ok {
			continue
		}
		quoted, err := strconv.QuotedPrefix(rest)
		if err != nil {
			break
		}
		value, _ := strconv.Unquote(quoted)
		rest = strings.TrimPrefix(strings.TrimPrefix(rest[len(quoted):], " for "), "flag ")
		name, why, ok := strings.Cut(strings.TrimPrefix(rest, "-"), ": ")
		f := fs.Lookup(name)
		if !ok || f == nil {
			break
		}
		switch {
		case isBool(f):
			return fmt.Sprintf("-%s %s: want true or false (-%s alone is -%s=true)", name, quoteShort(value), name, name)
		case why == "value out of range" && number(f) != "":
			return fmt.Sprintf("-%s %s: out of range: %s", name, quoteShort(value), wants(f))
		case why == "parse error" && number(f) != "":
			return fmt.Sprintf("-%s %s: %s", name, quoteShort(value), wants(f))
		}
		// A value of our own (-size, -timeout), whose error says what is
		// wrong and what would do, and names the value or not.
		if strings.Contains(why, strconv.Quote(value)) || strings.Contains(why, " "+value+":") {
			return fmt.Sprintf("-%s: %s", name, why)
		}
		return fmt.Sprintf("-%s %s: %s", name, quoteShort(value), why)
	}
	return msg
}

// isNear reports whether a name d letters from word (editDistance) is
// near enough to suggest: at most two letters wrong, and fewer than half
// of word's ("-pv" is not "-v" misspelt).
func isNear(d int, word string) bool { return d <= 2 && 2*d < len(word) }

// wants says what the flag f takes: the kind of number, with its
// default as an example, or the name its usage gives its value
// (flag.UnquoteUsage: "-book FILE").
func wants(f *flag.Flag) string {
	example := ""
	if f.DefValue != "" && f.DefValue[0] != '-' && f.DefValue != "0" {
		example = fmt.Sprintf(", as -%s %s", f.Name, f.DefValue)
	}
	if n := number(f); n != "" {
		return "want " + n + example
	}
	if name, _ := flag.UnquoteUsage(f); name != "" && name != "string" && name != "value" {
		return fmt.Sprintf("-%s %s", f.Name, name)
	}
	if example != "" {
		return "want one" + example
	}
	return fmt.Sprintf("-%s VALUE", f.Name)
}

// isBool reports whether f is a flag that may stand alone, as -v.
func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// number names the kind of number the flag f takes, one of the flag
// package's, or "" for none.
func number(f *flag.Flag) string {
	get, _ := f.Value.(flag.Getter)
	if get == nil {
		return ""
	}
	switch get.Get().(type) {
	case int, int64:
		return "a whole number"
	case uint, uint64:
		return "a whole number, 0 or more"
	case float64:
		return "a number"
	}
	return ""
}
