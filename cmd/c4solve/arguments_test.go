package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongArgument: a bad argument of 100 KB is named by its start only.
func TestLongArgument(t *testing.T) {
	long := strings.Repeat("4", 100000)
	code, _, stderr := runCmd(context.Background(), "", long)
	if code != exitBad || len(stderr) > 300 || !strings.Contains(stderr, `"444444`) || !strings.Contains(stderr, "(100000 bytes)") {
		t.Errorf("c4solve <100 KB of 4>: exit %d, stderr of %d bytes %.200q; want 2 and a short message", code, len(stderr), stderr)
	}
}

// TestHelp: help asked for goes to standard output, exit 0; "help" is a
// command, not a position; a command without flags lists none.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "c4solve serve [flags]"},
		{[]string{"help", "serve"}, "GET /solve?pos=MOVES"},
		{[]string{"help", "play"}, "c4solve play [flags] [MOVES]"},
		{[]string{"serve", "-h"}, "-addr HOST:PORT"},
		{[]string{"serve", "-h"}, "answer 503 to a request not solved within DURATION (0: no limit) (default 10s)"},
		{[]string{"book", "info", "-h"}, "c4solve book info [FILE]"},
	} {
		code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, tc.want) || strings.HasSuffix(stdout, "Flags:\n") {
			t.Errorf("c4solve %v: exit %d, stderr %q, stdout %q; want 0, and %q on stdout", tc.args, code, stderr, stdout, tc.want)
		}
	}
	if code, _, stderr := runCmd(context.Background(), "", "help", "nosuch"); code != exitBad || !strings.Contains(stderr, `unknown command "nosuch"`) {
		t.Errorf("c4solve help nosuch: exit %d, stderr %q; want 2 and unknown command", code, stderr)
	}
}

// TestDurationFlags: a duration without a unit is named as such.
func TestDurationFlags(t *testing.T) {
	for _, args := range [][]string{{"-timeout", "5", "4453"}, {"serve", "-timeout", "5"}, {"serve", "-idle", "30"}} {
		code, stdout, stderr := runCmd(context.Background(), "", args...)
		if code != exitBad || stdout != "" || !strings.Contains(stderr, "a duration needs a unit: 5s") && !strings.Contains(stderr, "a duration needs a unit: 30s") {
			t.Errorf("c4solve %v: exit %d, stdout %q, stderr %q; want 2 and that a unit is missing", args, code, stdout, stderr)
		}
	}
	if code, _, stderr := runCmd(context.Background(), "", "-timeout", "soon", "4453"); code != exitBad || !strings.Contains(stderr, "not a duration") {
		t.Errorf("c4solve -timeout soon: exit %d, stderr %q; want 2 and not a duration", code, stderr)
	}
}

// TestFlagsAfterFilesAndWords: flags after a file are flags (verify FILE
// -json), after "--" everything is a file or position, and a word near a
// command's name is named as a mistyped command, not as a bad position.
func TestFlagsAfterFilesAndWords(t *testing.T) {
	file := filepath.Join(t.TempDir(), "v.txt")
	os.WriteFile(file, []byte("4453 -2\n"), 0o644)
	for _, tc := range []struct {
		args   []string
		code   int
		stdout string // a prefix
		stderr string // contained
	}{
		{[]string{"verify", file, "-json"}, exitOK, `{"file":"` + file + `","positions":1,"mismatches":0,`, ""},
		{[]string{"bench", file, "-threads", "1", "-tt", "16"}, exitOK, "| file |", ""},
		{[]string{"verify", "--", file, "-json"}, exitBad, file + " positions=1 mismatches=0", "open -json: no such file"},
		{[]string{"--", "-4453"}, exitBad, "", `argument 1 "-4453": position 1: '-' is not a column 1-7`},
		{[]string{"4453", "-analyze"}, exitBad, "", `argument 2 "-analyze": flags go before the positions`},
		{[]string{"verfy", file}, exitBad, "", `unknown command "verfy" (did you mean verify?)`},
		{[]string{"sreve"}, exitBad, "", `unknown command "sreve" (did you mean serve?)`},
	} {
		code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
		if code != tc.code || !strings.HasPrefix(stdout, tc.stdout) || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("c4solve %v: exit %d, stdout %q, stderr %q; want %d, %q..., and %q", tc.args, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}
