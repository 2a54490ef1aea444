package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	farm "github.com/dgryski/go-farm"
)

// bookRoot and bookDepth make books a test can afford (see package book's
// tests): three moves after a position of score -10.
const (
	bookRoot  = "737534232264"
	bookDepth = "15"
)

func TestBookGenerateInfoVerify(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "b.c4book")
	code, out, errOut := runCmd(context.Background(), "", "book", "generate", "-from", bookRoot, "-depth", bookDepth, "-tt", "16", "-threads", "2", "-o", name)
	if code != exitOK || !strings.HasPrefix(out, "book="+name+" board=7x6 depth=15 positions=") || !strings.Contains(out, " resumed=0 ") {
		t.Fatalf("book generate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(name + ".checkpoint"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is still there after a finished run: %v", err)
	}

	code, out, _ = runCmd(context.Background(), "", "book", "info", name)
	if code != exitOK || !strings.Contains(out, `depth=15 root="737534232264" shard=whole`) ||
		!strings.Contains(out, "\nstones=12 positions=1\n") || !strings.Contains(out, "\nstones=15 positions=") {
		t.Errorf("book info: exit %d, stdout %q", code, out)
	}
	code, out, errOut = runCmd(context.Background(), "", "book", "verify", "-n", "10", "-tt", "16", "-seed", "7", name)
	if code != exitOK || !strings.HasPrefix(out, "book="+name+" board=7x6 checksum=ok checked=10 mismatches=0 seed=7") {
		t.Errorf("book verify: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// A sample is lines of the benchmark format, each the book's score,
	// which the command itself (no book) agrees with.
	code, out, errOut = runCmd(context.Background(), "", "book", "sample", "-n", "5", "-stones", bookDepth, "-seed", "9", name)
	if code != exitOK || strings.Count(out, "\n") != 5 || !strings.Contains(errOut, "stones=15 seed=9 positions=5") {
		t.Fatalf("book sample: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		moves, _, _ := strings.Cut(line, " ")
		if len(moves) != 15 {
			t.Errorf("book sample: line %q is not a position of 15 stones", line)
		}
	}
	if code, got, errOut := runCmd(context.Background(), out, "-nobook", "-tt", "16"); code != exitOK || got != out {
		t.Errorf("the sample solved without the book: exit %d, stdout %q, stderr %q; want %q", code, got, errOut, out)
	}

	// The book answers: -v shows one node. Without it, a search.
	code, out, errOut = runCmd(context.Background(), "", "-book", name, "-v", bookRoot, bookRoot+"1")
	if code != exitOK || !strings.HasPrefix(out, bookRoot+" -10\n") || strings.Count(errOut, "nodes=1 ") != 2 {
		t.Errorf("c4solve -book: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(context.Background(), "", "-nobook", "-tt", "16", "-v", bookRoot)
	if code != exitOK || out != bookRoot+" -10\n" || strings.Contains(errOut, "nodes=1 ") {
		t.Errorf("c4solve -nobook: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	// A wrong score in a book whose checksum holds is found by verify.
	data, _ := os.ReadFile(name)
	wrong := slices.Clone(data)
	// The last entry's score, off by one, still a possible score.
	if sc := int8(wrong[len(wrong)-1]); sc > 0 {
		wrong[len(wrong)-1] = byte(sc - 1)
	} else {
		wrong[len(wrong)-1] = byte(sc + 1)
	}
	clear(wrong[24:32])
	binary.LittleEndian.PutUint64(wrong[24:], farm.Fingerprint64(wrong))
	bad := filepath.Join(dir, "wrong.c4book")
	os.WriteFile(bad, wrong, 0o644)
	code, out, _ = runCmd(context.Background(), "", "book", "verify", "-n", "100000", "-tt", "16", bad)
	if code != exitMismatch || !strings.Contains(out, "MISMATCH "+bad+" pos=") || !strings.Contains(out, " mismatches=1 ") {
		t.Errorf("book verify of a wrong score: exit %d, stdout %q", code, out)
	}

	bad = filepath.Join(dir, "bad.c4book")
	os.WriteFile(bad, data[:len(data)-5], 0o644)
	code, _, errOut = runCmd(context.Background(), "", "book", "verify", bad)
	if code != exitBad || !strings.Contains(errOut, "book "+bad+": truncated") {
		t.Errorf("book verify of a truncated file: exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "-book", bad, "4")
	if code != exitBad || !strings.Contains(errOut, "book "+bad+": truncated") {
		t.Errorf("c4solve -book with a truncated file: exit %d, stderr %q", code, errOut)
	}
}

func TestBookBuiltIn(t *testing.T) {
	code, out, errOut := runCmd(context.Background(), "", "book", "info")
	if code != exitOK || !strings.HasPrefix(out, `book="(built in)" version=1 board=7x6 depth=`) {
		t.Errorf("book info: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestBookUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"book"}, exitBad, "Usage:"},
		{[]string{"book", "-h"}, exitOK, ""},
		{[]string{"book", "frobnicate"}, exitBad, `unknown command "frobnicate"`},
		{[]string{"-tt", "16", "book", "info"}, exitBad, "flags go after the command name"},
		{[]string{"book", "generate", "-depth", "5"}, exitBad, "c4solve book generate: -o is required: the FILE to write the book to, as -o book.c4book\n"},
		{[]string{"book", "generate", "-depth", "5", "-o", "x", "-shard", "4/3"}, exitBad, `-shard "4/3"`},
		{[]string{"book", "generate", "-depth", "3", "-from", "4453", "-o", "x"}, exitBad, "depth 3"},
		{[]string{"book", "generate", "-depth", "5", "-from", "48", "-o", "x"}, exitBad, "'8' is not a column"},
		{[]string{"book", "merge", "-o", "x"}, exitBad, "want -o FILE and the part files"},
		{[]string{"book", "merge", "-o", "x", "no-such-file"}, exitBad, "no-such-file"},
		{[]string{"book", "info", "no-such-file"}, exitBad, "no-such-file"},
		{[]string{"book", "verify", "a", "b"}, exitBad, "want at most one book file"},
		{[]string{"book", "sample", "a", "b"}, exitBad, "want at most one book file"},
		{[]string{"book", "sample", "-n", "-1"}, exitBad, "-n -1: want 0 or more"},
		{[]string{"book", "sample", "-stones", "43"}, exitBad, "-stones 43: the book (built in) holds positions of at most"},
		{[]string{"-book", "x", "-nobook", "4"}, exitBad, "contradict"},
	} {
		code, out, errOut := runCmd(context.Background(), "", tc.args...)
		if tc.code == exitOK && !strings.HasPrefix(out, "Usage:") {
			t.Errorf("c4solve %s: stdout %q; want the usage", strings.Join(tc.args, " "), out)
		}
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("c4solve %s: exit %d, stderr %q; want exit %d and %q", strings.Join(tc.args, " "), code, errOut, tc.code, tc.want)
		}
	}
}

// Three shards, each a separate process, merge into the book one run
// makes, byte for byte.
func TestBookShardsAsProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "c4solve")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	var parts []string
	for k := 1; k <= 3; k++ {
		part := filepath.Join(dir, fmt.Sprintf("part%d", k))
		parts = append(parts, part)
		wg.Go(func() {
			out, err := exec.Command(bin, "book", "generate", "-from", bookRoot, "-depth", bookDepth,
				"-tt", "16", "-threads", "1", "-shard", fmt.Sprintf("%d/3", k), "-o", part).CombinedOutput()
			if err != nil {
				errs[k-1] = fmt.Errorf("shard %d/3: %v\n%s", k, err, out)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// -o naming one of the parts is refused before any work, the part intact.
	before, _ := os.ReadFile(parts[0])
	if code, _, errOut := runCmd(context.Background(), "", append([]string{"book", "merge", "-o", parts[0]}, parts...)...); code != exitBad ||
		!strings.Contains(errOut, "is one of the parts to merge") {
		t.Errorf("book merge -o %s %v: exit %d, stderr %q; want 2 and a message", parts[0], parts, code, errOut)
	}
	if after, _ := os.ReadFile(parts[0]); !bytes.Equal(before, after) || len(after) == 0 {
		t.Errorf("book merge -o naming part 1 changed it")
	}
	merged := filepath.Join(dir, "merged")
	if code, out, errOut := runCmd(context.Background(), "", append([]string{"book", "merge", "-o", merged}, parts...)...); code != exitOK {
		t.Fatalf("book merge: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	whole := filepath.Join(dir, "whole")
	if code, out, errOut := runCmd(context.Background(), "", "book", "generate", "-from", bookRoot, "-depth", bookDepth, "-tt", "16", "-o", whole); code != exitOK {
		t.Fatalf("book generate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	a, _ := os.ReadFile(merged)
	b, _ := os.ReadFile(whole)
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Fatalf("merged book (%d bytes) differs from the whole run's (%d bytes)", len(a), len(b))
	}
	code, out, _ := runCmd(context.Background(), "", "book", "info", parts[1])
	if code != exitOK || !strings.Contains(out, "shard=2/3") {
		t.Errorf("book info of part 2: exit %d, stdout %q", code, out)
	}
}

// TestBookOutputRefused: outputs that cannot or must not be written are
// refused before any position is solved.
func TestBookOutputRefused(t *testing.T) {
	dir := t.TempDir()
	same := filepath.Join(dir, "same.book")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"book", "generate", "-depth", "5", "-o", same, "-checkpoint", same}, "are the same file"},
		{[]string{"book", "generate", "-depth", "5", "-o", "/dev/null"}, "not a regular file"},
		{[]string{"book", "generate", "-depth", "5", "-o", dir}, "is a directory"},
		{[]string{"book", "generate", "-depth", "5", "-o", filepath.Join(dir, "no", "b")}, "no such file"},
		{[]string{"book", "merge", "-o", dir, "part"}, "is a directory"},
	} {
		code, _, errOut := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || !strings.Contains(errOut, tc.want) {
			t.Errorf("c4solve %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut, tc.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the refused commands left %d files behind", len(entries))
	}
}

// TestBookProgressResumed: after a resume the bar counts only what this run
// solves, so that its rate and time left are this run's. (The bar draws
// at most every 200 ms, but always the last position: the test draws
// that, not a clock's worth.)
func TestBookProgressResumed(t *testing.T) {
	var b bytes.Buffer
	show := bookProgress(&b, &knownScores{resumed: 900})
	show(900, 1000) // resumed with 900 done
	show(950, 1000)
	show(1000, 1000)
	show(-1, 0)
	out := b.String()
	if !strings.Contains(out, "900 solved before the resume") || !strings.Contains(out, "100/100") || strings.Contains(out, "1000/1000") || strings.Contains(out, "950/1000") {
		t.Errorf("progress after a resume at 900 of 1000, then 950 and 1000: %q; want 100/100 and the 900 set apart", out)
	}
}

// TestBookGenerateCopied: the positions a book generate copies from the
// book it is bounded by are counted apart from those it solves: a book of
// depth 4 made from the built-in one solved none (it said "solved=N" and
// a rate of hundreds of millions an hour).
func TestBookGenerateCopied(t *testing.T) {
	out := filepath.Join(t.TempDir(), "b4.c4book")
	code, stdout, stderr := runCmd(context.Background(), "", "book", "generate", "-depth", "4", "-o", out)
	m := regexp.MustCompile(` solved=0 copied=([1-9]\d*) resumed=0 .* solved_per_hour=0 `).FindStringSubmatch(stdout)
	if code != exitOK || m == nil || !strings.Contains(stderr, "0 positions to solve ("+m[1]+" copied from the book)") {
		t.Errorf("book generate -depth 4: exit %d, stdout %q, stderr %q; want its positions copied, none solved", code, stdout, stderr)
	}
}

// TestBookGenerateWithParents: book generate bounds its solves by a book
// of one stone less (-book), says so, and writes the book it writes
// without; the built-in book, of depth 9, bounds no book of depth 15.
func TestBookGenerateWithParents(t *testing.T) {
	dir := t.TempDir()
	parents, plain, bounded := filepath.Join(dir, "p.c4book"), filepath.Join(dir, "plain.c4book"), filepath.Join(dir, "bounded.c4book")
	for _, run := range []struct {
		args []string
		want string
	}{
		{[]string{"-depth", "14", "-o", parents}, `parents="none"`},
		{[]string{"-depth", bookDepth, "-o", plain}, `parents="none"`},
		{[]string{"-depth", bookDepth, "-book", parents, "-o", bounded}, `parents="` + parents + `"`},
	} {
		args := append([]string{"book", "generate", "-from", bookRoot, "-tt", "16", "-threads", "2"}, run.args...)
		if code, out, errOut := runCmd(context.Background(), "", args...); code != exitOK || !strings.Contains(out, run.want) {
			t.Fatalf("%v: exit %d, stdout %q, stderr %q; want %s", args, code, out, errOut, run.want)
		}
	}
	a, errA := os.ReadFile(plain)
	b, errB := os.ReadFile(bounded)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		t.Errorf("the book made with -book %s differs from the one without (%v, %v)", parents, errA, errB)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-depth", "5", "-book", parents, "-nobook"}, "-book and -nobook contradict each other"},
		{[]string{"-size", "5x4", "-depth", "5", "-book", parents}, "a book of the 7x6 board, and -size is 5x4"},
		{[]string{"-size", "5x4", "-depth", "5", "-book", parents, "-nobook"}, "-book and -nobook contradict each other"},
	} {
		args := append(append([]string{"book", "generate"}, tc.args...), "-o", filepath.Join(dir, "x"))
		if code, _, errOut := runCmd(context.Background(), "", args...); code != exitBad || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", args, code, errOut, tc.want)
		}
	}
}
