package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"c4solve/board"
)

// tableRecord is a record of a table file, as solver.TableFile writes it.
func tableRecord(key board.Key, lower, upper, move int) []byte {
	rec := make([]byte, 24)
	binary.LittleEndian.PutUint64(rec, key.Lo)
	binary.LittleEndian.PutUint64(rec[8:], key.Hi)
	rec[16], rec[17], rec[18] = byte(int8(lower)), byte(int8(upper)), byte(int8(move))
	binary.LittleEndian.PutUint32(rec[20:], crc32.ChecksumIEEE(rec[:20]))
	return rec
}

// entriesAdded returns the n of c4solve's "table file ...: n entries
// added" on stderr, or -1 where it says none.
func entriesAdded(errOut string) int {
	m := regexp.MustCompile(`: (\d+) entries added`).FindStringSubmatch(errOut)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestTableFileSenseFlag: records of the root whose checksum holds but
// whose bounds cannot be (lower above upper, a lower bound above the
// board's highest score) change no score, and c4solve says it skipped
// them. Before they were checked, each made "-size 6x5 3" 8 or 20 instead
// of 0 (and "-size 8x5 45" 8 or 20 instead of 2).
func TestTableFileSenseFlag(t *testing.T) {
	z := board.Size{Width: 6, Height: 5}
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Parse("3", false)
	if err != nil {
		t.Fatal(err)
	}
	key, _, _ := p.CanonicalKey()
	for _, tc := range []struct {
		name string
		recs [][]byte
		want string
	}{
		{"lower above upper", [][]byte{tableRecord(key, 8, 3, 3)}, "0 entries loaded; 1 record that cannot be of a 6x5 board"},
		{"bounds above the highest score", [][]byte{tableRecord(key, 20, 20, 3)}, "0 entries loaded; 1 record that cannot be of a 6x5 board"},
		{"both", [][]byte{tableRecord(key, 8, 3, 3), tableRecord(key, 20, 20, 3)}, "0 entries loaded; 2 records that cannot be of a 6x5 board"},
	} {
		path := filepath.Join(t.TempDir(), "cr.tab")
		data := []byte("c4solve table file 1\n6 5\n")
		for _, r := range tc.recs {
			data = append(data, r...)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCmd(context.Background(), "", "-nobook", "-size", "6x5", "-table-file", path, "3")
		if code != 0 || out != "3 0\n" || !strings.Contains(errOut, tc.want+" (bounds, move or key out of range) skipped") {
			t.Errorf("-size 6x5 3 with %s: exit %d, %q, %q; want 0, \"3 0\", and %q", tc.name, code, out, errOut, tc.want)
		}
	}
}

// TestTableFileMessages: what c4solve says of a table file with a record
// damaged (skipped, the file kept) and a last record cut short (removed),
// of one whose header is not c4solve's (refused, the file kept), of one
// another process holds (refused), and of one it may not write (read, and
// nothing kept).
func TestTableFileMessages(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tab")
	unreached := func(i int) board.Key { return board.Key{Lo: uint64(i)<<8 | 0x1f} }
	data := []byte("c4solve table file 1\n5 4\n")
	for i := range 61 {
		data = append(data, tableRecord(unreached(i), -1, 1, 2)...)
	}
	bad := append([]byte{}, data...)
	bad[25] ^= 1
	if err := os.WriteFile(path, append(bad, 1, 2, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(context.Background(), "", "-size", "5x4", "-table-file", path, "")
	want := "c4solve: table file " + path + ": 60 entries loaded; 1 damaged record (checksum fails) skipped; a last record cut short (3 bytes, a write cut by a kill or a full disk) removed from the file\n"
	if code != 0 || out != "\"\" 0\n" || !strings.HasPrefix(errOut, want) {
		t.Errorf("a damaged record and a cut one: exit %d, %q, %q; want 0 and %q", code, out, errOut, want)
	}
	if got := mustRead(t, path); len(got) < len(bad) || string(got[:len(bad)]) != string(bad) {
		t.Errorf("the file's records were changed")
	}

	header := filepath.Join(dir, "h.tab")
	for _, h := range []string{"05 4\n", "5  4\n", " 5 4\n", "5 4"} {
		content := "c4solve table file 1\n" + h
		if err := os.WriteFile(header, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errOut := runCmd(context.Background(), "", "-size", "5x4", "-table-file", header, "")
		if code != 2 || !strings.Contains(errOut, "-table-file: "+header+": a table file ") || !strings.Contains(errOut, "refused, and left as it is") {
			t.Errorf("a header %q: exit %d, %q; want 2, the file named and refused", content, code, errOut)
		}
		if got := string(mustRead(t, header)); got != content {
			t.Errorf("a header %q became %q", content, got)
		}
	}

	// Two processes on one file: the test holds it, as another c4solve
	// would.
	cmd := c4solveCmd("-nobook", "-size", "5x4", "-table-file", path, "-")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// It holds the lock once it says what it loaded.
	if line, err := bufio.NewReader(stderr).ReadString('\n'); err != nil || !strings.Contains(line, "entries loaded") {
		t.Fatalf("the first c4solve said %q, %v", line, err)
	}
	code, _, errOut = runCmd(context.Background(), "", "-size", "5x4", "-table-file", path, "")
	in.Close()
	cmd.Wait()
	if wantErr := "-table-file: " + path + ": another c4solve is using it (it is locked)"; code != 2 || !strings.Contains(errOut, wantErr) {
		t.Errorf("a table file another process holds: exit %d, %q; want 2 and %q", code, errOut, wantErr)
	}
}

// TestTableFileBatch: a batch, positions given as arguments or on
// standard input, keeps its entries in the table file, on 7x6 (where
// positions are solved side by side) and on other boards.
func TestTableFileBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: solves of seconds")
	}
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
	}{
		{"7x6, arguments", []string{"-nobook", "-threads", "2", "444444", "4444443"}, ""},
		{"7x6, standard input", []string{"-nobook", "-threads", "2"}, "444444\n4444443\n"},
		{"7x5, arguments", []string{"-threads", "2", "-size", "7x5", "4", "44"}, ""},
		{"7x5, standard input", []string{"-threads", "2", "-size", "7x5", "-"}, "4\n44\n"},
	} {
		path := filepath.Join(t.TempDir(), "t.tab")
		code, out, errOut := runCmd(context.Background(), tc.stdin, append([]string{"-table-file", path}, tc.args...)...)
		n := entriesAdded(errOut)
		if code != 0 || n <= 0 {
			t.Errorf("%s: exit %d, %q, %q; want 0 and some entries added", tc.name, code, out, errOut)
			continue
		}
		if size := len(mustRead(t, path)); size != len(tableFileHeader(tc.args))+24*n {
			t.Errorf("%s: %d entries added, and the file has %d bytes", tc.name, n, size)
		}
	}
}

// tableFileHeader is the header of the table file of a command's args.
func tableFileHeader(args []string) string {
	size := "7 6"
	for i, a := range args {
		if a == "-size" {
			size = strings.Replace(args[i+1], "x", " ", 1)
		}
	}
	return "c4solve table file 1\n" + size + "\n"
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTableFileFlag: -table-file is made, loaded the next time, and a file
// of another board is refused, naming both.
func TestTableFileFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.c4table")
	code, out, errOut := runCmd(context.Background(), "", "-size", "5x4", "-table-file", path, "")
	if code != 0 || out != "\"\" 0\n" || !strings.Contains(errOut, "table file "+path+": 0 entries loaded") || !strings.Contains(errOut, "entries added") {
		t.Fatalf("-table-file: exit %d, %q, %q", code, out, errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "-size", "6x4", "-table-file", path, "")
	if code != 2 || !strings.Contains(errOut, "a table file of the 5x4 board, and the board solved is 6x4") {
		t.Errorf("-table-file of 5x4 with -size 6x4: exit %d, %q; want 2 and both boards named", code, errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "-table-file", path, "4453")
	if code != 2 || !strings.Contains(errOut, "a table file of the 5x4 board, and the board solved is 7x6") {
		t.Errorf("-table-file of 5x4 on 7x6: exit %d, %q; want 2 and both boards named", code, errOut)
	}
}
