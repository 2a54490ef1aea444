//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	os.WriteFile(regular, []byte("old"), 0o644)
	readOnly := filepath.Join(dir, "ro")
	os.WriteFile(readOnly, []byte("old"), 0o444)
	link := filepath.Join(dir, "link")
	os.Symlink(regular, link)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "no", "where"), dangling)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, want, err string // want: the file Check returns; err: what its error says
	}{
		{regular, regular, ""},
		{filepath.Join(dir, "new"), filepath.Join(dir, "new"), ""},
		{link, regular, ""},
		{dir, "", "is a directory"},
		{readOnly, "", "read-only"},
		{fifo, "", "not a regular file"},
		{"/dev/null", "", "not a regular file"},
		{dangling, "", "symbolic link"},
		{filepath.Join(dir, "no", "such", "f"), "", "no such file"},
		{filepath.Join(regular, "f"), "", "not a directory"},
	}
	for _, tc := range tests {
		got, err := Check(tc.name)
		if got != tc.want || (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Check(%s) = %q, %v; want %q, an error saying %q", tc.name, got, err, tc.want, tc.err)
		}
	}
	// Write through the link replaces the file it points to; the link stays.
	if err := Write(link, 0o644, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(regular); string(b) != "new" {
		t.Errorf("after Write through the link, the target holds %q; want new", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("after Write through the link, it is no link: %v", err)
	}
	// What Check refuses, Write refuses before calling write.
	called := false
	if err := Write(fifo, 0o644, func(io.Writer) error { called = true; return nil }); err == nil || called {
		t.Errorf("Write(fifo): %v, write called %v; want an error and no call", err, called)
	}
}
