package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"c4solve/board"
)

// unreachedFile writes a table file of the board z holding n records of
// keys no position has (a column's bits all set), and returns its bytes.
func unreachedFile(t *testing.T, path string, z board.Size, n int, extra ...byte) []byte {
	t.Helper()
	data := []byte("c4solve table file 1\n" + strings.Replace(z.String(), "x", " ", 1) + "\n")
	for i := range n {
		data = append(data, tableRecord(board.Key{Lo: uint64(i)<<8 | 0xff}, -1, 1, 2)...)
	}
	data = append(data, extra...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTableFileWriteFails: a write of the table file that fails (here a
// file size limit, as a full disk) is said on stderr when it happens, once,
// before the solve ends, and the exit status is 2; a table file that
// cannot take even its header (/dev/full) is refused at once.
func TestTableFileWriteFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.tab")
	unreachedFile(t, path, board.Standard, 43) // 1057 bytes, past the limit
	// ulimit -f counts blocks of 1024 bytes; Go ignores SIGXFSZ, so the
	// write fails with EFBIG.
	code, out, errOut := runScript(t, `ulimit -f 1 && exec "$0" -nobook -v -threads 1 -table-file "$1" 4444443`, path)
	failed := "c4solve: -table-file " + path + ": write " + path + ": file too large; the entries found from now on are not kept, and c4solve will exit with status 2\n"
	i, j := strings.Index(errOut, failed), strings.Index(errOut, `"4444443": nodes=`)
	summary := regexp.MustCompile(`c4solve: table file .*: 0 entries added, [1-9][0-9]* not kept \(a write failed\)\n$`)
	if code != 2 || out != "4444443 -1\n" || strings.Count(errOut, "file too large") != 1 || i < 0 || j < i || !summary.MatchString(errOut) {
		t.Errorf("a write that fails: exit %d, %q, %q; want 2, the failure said once before the solve's -v line, and the entries not kept counted", code, out, errOut)
	}

	code, out, errOut = runCmd(t.Context(), "", "-size", "5x4", "-table-file", "/dev/full", "")
	if code != 2 || out != "" || !strings.Contains(errOut, "-table-file: writing the header of /dev/full: write /dev/full: no space left on device") {
		t.Errorf("-table-file /dev/full: exit %d, %q, %q; want 2 and no space left", code, out, errOut)
	}
}

// TestTableFileFullCounts: a write of the table file that fails part way
// (here at a file size limit of 2048 bytes, as at a full disk) leaves the
// records before the one it cut in the file, and the exit line counts
// them as added: exactly what the next run loads more. The file holds 83
// records, 2017 bytes: room for one more and 7 bytes. Before, the exit
// line said "0 entries added, 181 not kept" wherever the first write held
// two records or more, and the next run loaded 84.
func TestTableFileFullCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.tab")
	unreachedFile(t, path, board.Standard, 83)
	code, out, errOut := runScript(t, `ulimit -f 2 && exec "$0" -nobook -threads 1 -table-file "$1" 4444443`, path)
	m := regexp.MustCompile(`c4solve: table file .*: (\d+) entries added, (\d+) not kept \(a write failed\)\n$`).FindStringSubmatch(errOut)
	if code != 2 || out != "4444443 -1\n" || m == nil || m[1] != "1" || m[2] == "0" {
		t.Fatalf("a write cut at 2048 bytes: exit %d, %q, %q; want 2, 1 entry added, some not kept", code, out, errOut)
	}
	code, _, errOut = runCmd(t.Context(), "", "-nobook", "-threads", "1", "-table-file", path, "4444443")
	want := "c4solve: table file " + path + ": 84 entries loaded; a last record cut short (7 bytes, a write cut by a kill or a full disk) removed from the file\n"
	if code != 0 || !strings.HasPrefix(errOut, want) {
		t.Errorf("the run after: exit %d, %q; want 0 and %q (83 and the 1 added)", code, errOut, want)
	}
}

// TestTableFileReadOnlyFlag: a table file c4solve may not write is read,
// its entries used, and c4solve says that those of the run are not kept;
// nothing in it changes. Run as root, the command runs as nobody.
func TestTableFileReadOnlyFlag(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.tab")
	data := unreachedFile(t, path, board.Size{Width: 5, Height: 4}, 61, 1, 2, 3)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	bin := os.Args[0]
	var attr *syscall.SysProcAttr
	if os.Geteuid() == 0 {
		// Root may write any file: run as nobody, who needs to reach
		// the test's own folders, and nothing above them.
		tmp := filepath.Clean(os.TempDir()) + string(filepath.Separator)
		for d := dir; strings.HasPrefix(d, tmp); d = filepath.Dir(d) {
			if err := os.Chmod(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		bin = filepath.Join(dir, "c4solve.test")
		copyFile(t, os.Args[0], bin)
		attr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	cmd := exec.Command(bin, "-size", "5x4", "-table-file", path, "")
	cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1")
	cmd.SysProcAttr = attr
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	want := "c4solve: table file " + path + ": 61 entries loaded; a last record cut short (3 bytes) ignored; the file is read-only here: the entries of this run will not be kept\n"
	if err != nil || out.String() != "\"\" 0\n" || errOut.String() != want {
		t.Errorf("a read-only table file: %v, %q, %q; want %q", err, out.String(), errOut.String(), want)
	}
	if got := mustRead(t, path); !bytes.Equal(got, data) {
		t.Errorf("a read-only table file was changed")
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
