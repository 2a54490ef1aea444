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
//	  c4solve random [flags] STONES    print random positions of real play, for benchmarks
//	  c4solve help [CMD]               this text, or a command's ("c4solve CMD -h")
//
//	MOVES are the columns played from the empty board, 1 to 7: "4453".
//	"" is the empty board. Each result is printed as "MOVES SCORE".
//
//	SCORE is for the side to move: 0 draw; 22 minus the winner's stone count
//	when the game ends if it wins; the negative of that if it loses.
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
//	bad position or unreadable file, 3 a solve was stopped before it finished.
//
// Each command describes itself and its flags with -h ("c4solve verify -h",
// "c4solve serve -h"); the README shows each with real output. The text
// above is usage.txt, which "c4solve -h" prints: a test keeps the two
// the same.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
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
	if closedAtStart(1) && (len(os.Args) < 2 || os.Args[1] != "serve") {
		// Every result would be lost. (serve writes nothing there: a
		// service manager may well give it the null device.)
		fmt.Fprintln(os.Stderr, "c4solve: standard output is closed: there is nowhere to write the results")
		os.Exit(exitBad)
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// stdio is a command's standard input and outputs.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// A subcommand is one of c4solve's commands (in the shape of cmd/go's
// base.Command): its name and its run function, which parses its own
// flags (usage with -h) and returns what went wrong: an error to report
// (exit status 2), or an exitStatus whose failures it has reported itself,
// line by line. Solving positions, the default, is runSolve.
type subcommand struct {
	name string
	run  func(ctx context.Context, args []string, std stdio) error
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

// status returns the exit status of a run function's error, reporting it
// on stderr as cmd's unless it is an exitStatus.
func status(stderr io.Writer, cmd string, err error) int {
	var st exitStatus
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &st):
		return int(st)
	}
	return report(stderr, cmd, exitBad, err)
}

// subcommands are c4solve's commands, in the order help lists them.
var subcommands = []subcommand{
	{"verify", runVerify},
	{"bench", runBench},
	{"book", runBook},
	{"serve", runServe},
	{"play", runPlay},
	{"random", runRandom},
}

// lookup returns the subcommand called name.
func lookup(name string) (subcommand, bool) {
	for _, c := range subcommands {
		if c.name == name {
			return c, true
		}
	}
	return subcommand{}, false
}

// subcommandNames is the names of the subcommands, for messages.
func subcommandNames() string {
	names := make([]string, len(subcommands))
	for i, c := range subcommands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
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
	var st int
	switch cmd, ok := lookup(args0(args)); {
	case args0(args) == "help":
		st = status(stderr, "c4solve help", runHelp(ctx, args[1:], std))
	case ok:
		st = status(stderr, "c4solve "+cmd.name, cmd.run(ctx, args[1:], std))
	default:
		st = status(stderr, "c4solve", runSolve(ctx, args, std))
	}
	if out.err != nil {
		fmt.Fprintf(stderr, "c4solve: writing standard output: %v\n", out.err)
		return exitBad
	}
	return st
}

// runHelp prints the usage, or a command's help.
func runHelp(ctx context.Context, args []string, std stdio) error {
	switch {
	case len(args) == 0:
		return runSolve(ctx, []string{"-h"}, std) // the usage and the flags of solving
	case len(args) > 1:
		return errors.New("want at most one command")
	}
	if cmd, ok := lookup(args[0]); ok {
		return cmd.run(ctx, []string{"-h"}, std)
	}
	return fmt.Errorf("unknown command %q (want one of %s)", args[0], subcommandNames())
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
