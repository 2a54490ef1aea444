package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"c4solve/player"
)

// commandFlags returns each command's flag set, solving's first, with
// its flags defined (by the command's run, asked for its help).
func commandFlags(t *testing.T) map[string]*flagSet {
	t.Helper()
	std := stdio{strings.NewReader(""), io.Discard, io.Discard}
	sets := map[string]*flagSet{}
	var opt options
	sets["c4solve"] = newFlagSet("c4solve", "", io.Discard, io.Discard)
	opt.register(sets["c4solve"], false)
	for _, c := range append(append([]*subcommand{}, subcommands...), bookCommands...) {
		if c.word() == "book" {
			continue // its commands are below
		}
		fs := c.flagSet(std)
		if err := c.run(context.Background(), fs, []string{"-h"}, std); err != nil {
			t.Fatalf("%s -h: %v", c.path, err)
		}
		sets[c.path] = fs
	}
	return sets
}

// TestFlagErrors: a flag that cannot be parsed is named in one line,
// prefixed with the command, that says what the flag wants, exit 2, for
// every flag of every command: a number that is none, a true-or-false
// flag given another word, a value of our own (-size, -timeout) that is
// none, a flag with no value after it. Go's flag package said "parse
// error" on a line without the prefix, and "Run ... for help" on another.
func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-tt", "abc"}, fmt.Sprintf("c4solve: -tt \"abc\": want a whole number, as -tt %d\n", defaultTableMiB)},
		{[]string{"-threads", "x"}, fmt.Sprintf("c4solve: -threads \"x\": want a whole number, as -threads %d\n", runtime.NumCPU())},
		{[]string{"-v=maybe"}, "c4solve: -v \"maybe\": want true or false (-v alone is -v=true)\n"},
		{[]string{"play", "-level", "x"}, fmt.Sprintf("c4solve play: -level \"x\": want a whole number, as -level %d\n", player.MaxLevel)},
		{[]string{"random", "-seed", "-1", "8"}, "c4solve random: -seed \"-1\": want a whole number, 0 or more, as -seed 1\n"},
		{[]string{"-threads", "99999999999999999999"}, fmt.Sprintf("c4solve: -threads \"99999999999999999999\": out of range: want a whole number, as -threads %d\n", runtime.NumCPU())},
		{[]string{"-tt"}, fmt.Sprintf("c4solve: -tt needs a value: want a whole number, as -tt %d\n", defaultTableMiB)},
		{[]string{"-book"}, "c4solve: -book needs a value: -book FILE\n"},
		{[]string{"book", "generate", "-shard"}, "c4solve book generate: -shard needs a value: -shard K/N\n"},
		{[]string{"-size", "x"}, "c4solve: -size: size \"x\": want WIDTHxHEIGHT, as 8x5\n"},
		{[]string{"-timeout", "x"}, "c4solve: -timeout \"x\": not a duration: want a number and a unit, as 10s, 500ms or 2m\n"},
		{[]string{"-thread", "2"}, "c4solve: -thread: no such flag (did you mean -threads?)\n"},
		{[]string{"verify", "-x", "f"}, "c4solve verify: -x: no such flag (c4solve verify -h lists the flags)\n"},
		{[]string{"---x"}, "c4solve: \"---x\": not a flag: flags are -NAME or -NAME=VALUE\n"},
	} {
		code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || stdout != "" || stderr != tc.want {
			t.Errorf("c4solve %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}
	n := 0
	for path, fs := range commandFlags(t) {
		words := strings.Fields(path)[1:]
		fs.VisitAll(func(f *flag.Flag) {
			var bad [][]string // bad uses of f, each one line of stderr
			if isBool(f) {
				bad = append(bad, []string{"-" + f.Name + "=maybe"})
			} else {
				bad = append(bad, []string{"-" + f.Name}) // no value
			}
			switch f.Value.(type) {
			case *sizeFlag, *durationValue: // values of our own
				bad = append(bad, []string{"-" + f.Name, "x"})
			default:
				if number(f) != "" {
					bad = append(bad, []string{"-" + f.Name, "x"})
				}
			}
			for _, args := range bad {
				n++
				args = append(append([]string{}, words...), args...)
				code, stdout, stderr := runCmd(context.Background(), "", args...)
				prefix := path + ": -" + f.Name
				if code != exitBad || stdout != "" || !strings.HasPrefix(stderr, prefix) || strings.Count(stderr, "\n") != 1 ||
					strings.Contains(stderr, "parse error") || strings.Contains(stderr, "invalid value") {
					t.Errorf("c4solve %s: exit %d, stdout %q, stderr %q; want 2 and one line %q... that says what -%s wants",
						strings.Join(args, " "), code, stdout, stderr, prefix, f.Name)
				}
			}
		})
	}
	if n < 100 {
		t.Errorf("%d bad flags tried; want every flag of every command (more than 100)", n)
	}
}

// TestVersion: -version names the commit, or says that the build has
// none (go build -buildvcs=false), where it printed nothing of it.
func TestVersion(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "62ed461"}, {Key: "vcs.time", Value: "2025-12-04T21:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	bare := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}}
	for _, tc := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{stamped, "c4solve (devel) commit 62ed461 of 2025-12-04T21:00:00Z with changes go1.26.8"},
		{bare, "c4solve (devel) commit unknown: built without VCS information; go1.26.8"},
	} {
		if got := formatVersion(tc.info); got != tc.want {
			t.Errorf("formatVersion(%v) = %q; want %q", tc.info.Settings, got, tc.want)
		}
	}
	// This test binary has no VCS stamp: go test never gives one.
	code, out, errOut := runCmd(context.Background(), "", "-version")
	if code != exitOK || !strings.Contains(out, " commit unknown: built without VCS information; go1.") || errOut != "" {
		t.Errorf("c4solve -version: exit %d, stdout %q, stderr %q; want 0 and that the commit is unknown", code, out, errOut)
	}
}

// TestRefusalsSayWhatWould: each refusal is one line that names the flag
// or argument, what is wrong and what would do.
func TestRefusalsSayWhatWould(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.c4book")
	missing := filepath.Join(dir, "nonexistent")
	for _, tc := range []struct {
		args []string
		want string
	}{
		// It said "-depth and -o are required" of both.
		{[]string{"book", "generate", "-depth", "-1", "-o", out}, "c4solve book generate: -depth -1: want 0 or more stones\n"},
		{[]string{"book", "generate", "-o", out}, "c4solve book generate: -depth is required: the most stones of a position in the book, as -depth 4\n"},
		// It said "open NAME: no such file or directory", naming no flag.
		{[]string{"-book", missing, "4453"}, "c4solve: -book " + missing + ": no such file or directory\n"},
		{[]string{"book", "generate", "-depth", "2", "-o", out, "-book", missing}, "c4solve book generate: -book " + missing + ": no such file or directory\n"},
		// A command's bad input is said under its own name; it was "c4solve:".
		{[]string{"verify", missing}, "c4solve verify: open " + missing + ": no such file or directory\n"},
		{[]string{"review", "48"}, "c4solve review: argument 1 \"48\": position 2: '8' is not a column 1-7\n"},
	} {
		code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || stdout != "" || stderr != tc.want {
			t.Errorf("c4solve %s: exit %d, stdout %q, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}

	// verify - reads standard input, as solving does; it said "open -: no
	// such file or directory". A file with CR line ends (the old Mac
	// OS's) reads line by line; it read as one line, whose second
	// position was blamed as a score.
	cr := writeFile(t, dir, "cr.txt", "4453 -2\r44 1\r")
	for _, tc := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"verify", "-"}, "4453 -2\n44 1\n", "- positions=2 mismatches=0 "},
		{[]string{"verify", cr}, "", cr + " positions=2 mismatches=0 "},
		{[]string{"verify", "-"}, "4453 -2\r44 1\r", "- positions=2 mismatches=0 "},
		{nil, "4453 -2\r44 1\r", "4453 -2\n44 1\n"},
	} {
		code, stdout, stderr := runCmd(context.Background(), tc.stdin, tc.args...)
		if code != exitOK || !strings.HasPrefix(stdout, tc.want) || stderr != "" {
			t.Errorf("c4solve %s <<< %q: exit %d, stdout %q, stderr %q; want 0 and %q...", strings.Join(tc.args, " "), tc.stdin, code, stdout, stderr, tc.want)
		}
	}

	// A checkpoint of another run says how to start this one: delete it,
	// or give this run another; it said only that it was another run's.
	ck := out + ".checkpoint"
	other := "c4solve book checkpoint 4 board=5x4 depth=3 root=\"\" shard=0/0\n"
	writeFile(t, dir, filepath.Base(ck), other)
	code, stdout, stderr := runCmd(context.Background(), "", "book", "generate", "-size", "5x4", "-depth", "2", "-nobook", "-o", out)
	want := fmt.Sprintf("c4solve book generate: checkpoint %s: it is not the checkpoint of this run (its first line is %q, this run's is %q): "+
		"to start this run afresh, delete it (rm %s) and run the same command again; "+
		"to keep it for its own run, give this one a checkpoint of its own (-checkpoint FILE)\n",
		ck, other, strings.Replace(other, "depth=3", "depth=2", 1), ck)
	if code != exitBad || stdout != "" || !strings.HasSuffix(stderr, want) {
		t.Errorf("c4solve book generate with another run's checkpoint: exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}

	// A failed write on standard output is said once, by the command: random
	// said it as "stopped by the signal writing standard output" too, and
	// then "c4solve:".
	var full failWriter
	var errOut strings.Builder
	if code := run(context.Background(), []string{"random", "8"}, strings.NewReader(""), &full, &errOut); code != exitBad ||
		errOut.String() != "c4solve random: writing standard output: no space left on device\n" {
		t.Errorf("c4solve random 8 > full disk: exit %d, stderr %q; want 2 and one line", code, errOut.String())
	}
}
