package posfile_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"c4solve/posfile"
)

// TestScanContextStops: a scan of a pipe whose writer sends a line and
// then nothing stops when its context is cancelled, with the cause, after
// giving the line that came.
func TestScanContextStops(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stopped by the test")
	go w.Write([]byte("4453 -2\n"))
	var got []string
	err := posfile.Format{}.ScanContext(ctx, r, func(l posfile.Line, _ bool) bool {
		got = append(got, l.Moves)
		cancel(stop) // the next line never comes: the scan waits in a read
		return true
	}, func(e *posfile.LineError) { t.Errorf("bad line %v", e) })
	if !errors.Is(err, stop) || len(got) != 1 || got[0] != "4453" {
		t.Errorf("ScanContext = %v, lines %q; want %v after 4453", err, got, stop)
	}
}

// TestRead: Read gives the lines, the first limit of them, and a bad
// line's *LineError, which InFile names with the file.
func TestRead(t *testing.T) {
	ctx := context.Background()
	ls, err := posfile.Format{}.Read(ctx, strings.NewReader("# c\n4453 -2\n\n4455\n"), 1)
	if err != nil || len(ls) != 1 || ls[0].Moves != "4453" {
		t.Errorf("Read(limit 1) = %+v, %v; want 4453 alone", ls, err)
	}
	_, err = posfile.Format{}.Read(ctx, strings.NewReader("4453\n448\n"), 0)
	if le := (*posfile.LineError)(nil); !errors.As(err, &le) || le.Num != 2 {
		t.Fatalf("Read of a bad line 2: %v; want its *LineError", err)
	}
	if got := posfile.InFile("f.txt", err).Error(); !strings.HasPrefix(got, "f.txt:2: position 3: '8'") {
		t.Errorf("InFile = %q; want f.txt:2: position 3: '8' ...", got)
	}
}
