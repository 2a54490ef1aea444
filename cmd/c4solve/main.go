// C4solve solves Connect-Four positions exactly, and serves, analyses and
// plays them.
//
//	Usage:
//	  c4solve [flags] [MOVES ...]      solve positions (standard input if none, or "-")
//	  c4solve verify [flags] FILE ...  check benchmark files and time the solves
//	  c4solve bench [flags] FILE ...   measure speed at several thread counts and table sizes
//	  c4solve book CMD ...             generate, merge, inspect or check opening books
//	  c4solve serve [flags]            answer positions over HTTP, with a page to play on
//	  c4solve play [flags] [MOVES]     play against the perfect player in the terminal
//	  c4solve review [flags] [GAMES]   grade every move of games against the exact scores
//	  c4solve random [flags] STONES    print random positions of real play, for benchmarks
//	  c4solve site [flags] -o DIR      write a static site that solves in the browser (WebAssembly)
//	  c4solve help [CMD]               this text, or a command's ("c4solve CMD -h")
//
//	MOVES are the columns played from the empty board, 1 to 7: "4453".
//	"" is the empty board. Each result is printed as "MOVES SCORE".
//
//	SCORE is for the side to move: 0 draw; 22 minus the winner's stone count
//	when the game ends if it wins; the negative of that if it loses.
//
//	Other boards: -size WxH (as 8x5, width x height; width x (height+1) at
//	most 128), columns 1 to 9 then a, b, c, ...; a win on move m scores
//	1 + (W*H - m)/2 (Steininger's convention). -from0 reads columns from 0.
//
//	Positions within the built-in opening book are answered from it at once
//	(see -book, -nobook).
//
//	Input lines may carry an expected score ("4453 -2"); a differing result
//	gets a third field, MISMATCH. Blank lines and '#' comments are skipped.
//
//	A solve stopped by -timeout or Ctrl-C prints "MOVES incomplete L <= score <= U".
//
//	Exit status: 0 ok, 1 a score differed from the expected one, 2 bad usage,
//	bad position, unreadable file or standard output that cannot be written
//	(a full disk, or closed: >&-), 3 a solve was stopped before it finished.
//
// Each command describes itself and its flags with -h ("c4solve verify -h",
// "c4solve serve -h"); the README shows each with real output. The text
// above is what "c4solve -h" prints: the list of commands, made from the
// table of commands (subcommands), then usage.txt. A test keeps the two
// the same.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// Exit statuses.
const (
	exitOK         = 0
	exitMismatch   = 1
	exitBad        = 2
	exitIncomplete = 3
)

func main() {
	// SIGTERM and SIGHUP stop the command as Ctrl-C does.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// Below a few descriptors Go's runtime cannot start the poller its
	// timers need, and ends the process with a dump at the first one.
	if limit, ok := fileLimit(); ok && limit < minFiles {
		fmt.Fprintf(os.Stderr, "c4solve: needs at least %d file descriptors, and this process may open %d (ulimit -n): raise the limit\n", minFiles, limit)
		os.Exit(exitBad)
	}
	// A standard output closed at the start (>&-) would lose every
	// result in silence; the null device given on purpose is not refused
	// (closedStdFiles tells the two apart).
	var stdin io.Reader = os.Stdin
	var stdout io.Writer = os.Stdout
	closedIn, closedOut := closedStdFiles()
	if closedOut && args0(os.Args[1:]) != "serve" { // serve writes no results there
		fmt.Fprintln(os.Stderr, "c4solve: standard output is closed (as by >&-): the results would be lost; "+
			"send it to a file, or to /dev/null (>/dev/null) to discard them")
		os.Exit(exitBad)
	}
	if closedOut {
		stdout = closedStd{errClosedStdout}
	}
	if closedIn {
		stdin = closedStd{errClosedStdin}
	}
	os.Exit(run(ctx, os.Args[1:], stdin, stdout, os.Stderr))
}

// closedStd stands for a standard input or output that was closed at the
// start: reading and writing fail with err, where the null device Go's
// runtime opened in its place would read as empty and take every write.
type closedStd struct{ err error }

// The errors of a closed standard input and output.
var (
	errClosedStdin  = errors.New("it is closed (as by <&-): give it a file or a pipe (< FILE)")
	errClosedStdout = errors.New("it is closed (as by >&-): send it to a file, or to /dev/null (>/dev/null) to discard it")
)

func (c closedStd) Read([]byte) (int, error)  { return 0, c.err }
func (c closedStd) Write([]byte) (int, error) { return 0, c.err }

// minFiles is the fewest file descriptors c4solve starts with: the
// standard three, the two of the runtime's poller, and a few files (a
// book, its checkpoint, an input). serve needs more (minServeFiles).
const minFiles = 10

// stdio is a command's standard input and outputs.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// A subcommand is one of c4solve's commands, described once, in the shape of cmd/go's Command (in cmd/go/internal/base); the lists of commands in the usage texts are
// made from these descriptions. run defines the command's flags on fs,
// made by flagSet, parses them with args, and returns an error to report
// (exit status 2, or failed's), or an exitStatus whose failures it has
// reported itself, line by line.
type subcommand struct {
	path  string // "c4solve verify"
	args  string // the arguments of its usage line
	short string // for the list of commands; lines after the first are continued below it
	long  string // what -h prints between the usage line and the flags
	run   func(ctx context.Context, fs *flagSet, args []string, std stdio) error
}

// word is the command's name, the last word of its path.
func (c *subcommand) word() string { return c.path[strings.LastIndexByte(c.path, ' ')+1:] }

// flagSet returns a flag set for the command, whose -h prints its usage
// line, then its long help.
func (c *subcommand) flagSet(std stdio) *flagSet {
	return newFlagSet(c.path, "Usage:\n  "+c.path+" "+c.args+"\n\n"+c.long, std.out, std.err)
}

// commandList formats cmds as the list of a usage text: each usage line,
// then its short description, aligned.
func commandList(cmds ...*subcommand) string {
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.path)+1+len(c.args))
	}
	var sb strings.Builder
	for _, c := range cmds {
		for i, l := range strings.Split(c.short, "\n") {
			left := ""
			if i == 0 {
				left = c.path + " " + c.args
			}
			fmt.Fprintf(&sb, "  %-*s  %s\n", width, left, l)
		}
	}
	return sb.String()
}

// names returns the commands' names, for messages.
func names(cmds []*subcommand) string {
	var ws []string
	for _, c := range cmds {
		ws = append(ws, c.word())
	}
	return strings.Join(ws, ", ")
}

// exitStatus is the error of a command that has reported its failures
// itself (a mismatch, an interrupted solve, a bad line of many): only its
// exit status is left to give.
type exitStatus int

func (st exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(st)) }

// exit returns the error of exit status st: nil for exitOK.
func exit(st int) error {
	if st == exitOK {
		return nil
	}
	return exitStatus(st)
}

// statusError is an error to report with an exit status other than 2.
type statusError struct {
	st  int
	err error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// failed returns err, to report with exit status st.
func failed(st int, err error) error { return &statusError{st, err} }

// status returns the exit status of a run function's error, reporting it
// on stderr as cmd's unless it is an exitStatus.
func status(stderr io.Writer, cmd string, err error) int {
	var st exitStatus
	var se *statusError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &se):
		return report(stderr, cmd, se.st, se.err)
	}
	return report(stderr, cmd, exitBad, err)
}

// subcommands are c4solve's named commands, in the order help lists them.
var subcommands = []*subcommand{
	{path: "c4solve verify", args: "[flags] FILE ...", short: "check benchmark files and time the solves", long: verifyHelp, run: runVerify},
	{path: "c4solve bench", args: "[flags] FILE ...", short: "measure speed at several thread counts and table sizes", long: benchHelp, run: runBench},
	{path: "c4solve book", args: "CMD ...", short: "generate, merge, inspect or check opening books", run: runBook},
	{path: "c4solve serve", args: "[flags]", short: "answer positions over HTTP, with a page to play on", long: serveHelp, run: runServe},
	{path: "c4solve play", args: "[flags] [MOVES]", short: "play against the perfect player in the terminal", long: playHelp, run: runPlay},
	{path: "c4solve review", args: "[flags] [GAMES]", short: "grade every move of games against the exact scores", long: reviewHelp, run: runReview},
	{path: "c4solve random", args: "[flags] STONES", short: "print random positions of real play, for benchmarks", long: randomHelp, run: runRandom},
	{path: "c4solve site", args: "[flags] -o DIR", short: "write a static site that solves in the browser (WebAssembly)", long: siteHelp, run: runSite},
}

// solveDoc and helpDoc describe the commands that have no name in
// subcommands, for the list of commands: solving, the default, and help.
var (
	solveDoc = &subcommand{path: "c4solve", args: "[flags] [MOVES ...]", short: `solve positions (standard input if none, or "-")`}
	helpDoc  = &subcommand{path: "c4solve help", args: "[CMD]", short: `this text, or a command's ("c4solve CMD -h")`}
)

// usageText is "c4solve -h"'s text before the flags: the list of commands,
// then usage.txt.
func usageText() string {
	return "Usage:\n" + commandList(append(append([]*subcommand{solveDoc}, subcommands...), helpDoc)...) + "\n" + usageAbout
}

// lookup returns the command of cmds called name, or an error naming them.
func lookup(cmds []*subcommand, name string) (*subcommand, error) {
	for _, c := range cmds {
		if c.word() == name {
			return c, nil
		}
	}
	return nil, fmt.Errorf("unknown command %q (want one of %s)", name, names(cmds))
}

// run is the whole command, with its environment as arguments for tests.
//
// A failed write on standard output (a full disk, a closed pipe) stops the
// command, as an interrupt would, and makes its exit status 2: results that
// did not reach their reader are an error, never a silent loss.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &checkedWriter{w: stdout, failed: cancel}
	std := stdio{stdin, out, stderr}
	path, err := "c4solve", error(nil)
	switch cmd, errLookup := lookup(subcommands, args0(args)); {
	case args0(args) == "help":
		path, err = "c4solve help", runHelp(ctx, args[1:], std)
	case errLookup == nil:
		path, err = cmd.path, cmd.run(ctx, cmd.flagSet(std), args[1:], std)
	default:
		err = runSolve(ctx, args, std)
	}
	if out.err != nil {
		// The command's error, if any, is that it was stopped by it.
		fmt.Fprintf(stderr, "%s: writing standard output: %v\n", path, out.err)
		return exitBad
	}
	return status(stderr, path, err)
}

// runHelp prints the usage, or a command's help.
func runHelp(ctx context.Context, args []string, std stdio) error {
	switch {
	case len(args) == 0:
		return runSolve(ctx, []string{"-h"}, std) // the usage and the flags of solving
	case len(args) > 1:
		return errors.New("want at most one command")
	}
	cmd, err := lookup(subcommands, args[0])
	if err != nil {
		return err
	}
	return cmd.run(ctx, cmd.flagSet(std), []string{"-h"}, std)
}

// quoteShort quotes s for a message, cut to its first 60 bytes when longer.
func quoteShort(s string) string {
	if len(s) <= 60 {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:60], len(s))
}

// args0 returns the first of args, or "" for none.
func args0(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// report writes a command's failure on stderr as "CMD: err" and returns
// the exit status st: every command reports its failures through it.
func report(stderr io.Writer, cmd string, st int, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
	return st
}

// version is what -version prints, from the build's own record
// (debug.ReadBuildInfo): see formatVersion.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "c4solve: no build information (built without module support)"
	}
	return formatVersion(info)
}

// formatVersion says which build info is, as "go version -m" reads it:
// the module version ("(devel)" for a build of a clone), the commit and
// its time, whether the tree had changes, and the Go that built it. A
// build without the commit (go build -buildvcs=false, or of a tree that
// is no clone) says so.
func formatVersion(info *debug.BuildInfo) string {
	v := "c4solve " + info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	rev := settings["vcs.revision"]
	if rev == "" {
		return v + " commit unknown: built without VCS information; " + info.GoVersion
	}
	v += " commit " + rev
	if t := settings["vcs.time"]; t != "" {
		v += " of " + t
	}
	if settings["vcs.modified"] == "true" {
		v += " with changes"
	}
	return v + " " + info.GoVersion
}

// plural returns n and noun, in the plural unless n is 1: with an s, or
// for a y after a consonant, ies (inaccuracy, inaccuracies).
func plural(n int, noun string) string {
	switch {
	case n == 1:
	case len(noun) > 1 && noun[len(noun)-1] == 'y' && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		noun = noun[:len(noun)-1] + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}
