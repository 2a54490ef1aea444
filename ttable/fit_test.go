package ttable

import (
	"strings"
	"testing"
)

func TestFit(t *testing.T) {
	l := Limit{Bytes: 100 << 20, Why: "a test's limit"}
	for _, tt := range []struct {
		limit   Limit
		s       Sizing
		mib     int // below s.MiB: a default made smaller
		errText string
	}{
		{l, Sizing{MiB: 64, OtherMiB: 4}, 64, ""},
		{l, Sizing{MiB: 64, Explicit: true, OtherMiB: 36}, 64, ""},
		{l, Sizing{MiB: 64, Explicit: true, OtherMiB: 37}, 0, "the tables take 101 MiB (64 shared, 37 beside it), more than the 100 MiB this process may use (a test's limit)"},
		{l, Sizing{MiB: 512, OtherMiB: 4}, 64, ""},
		{l, Sizing{MiB: 512, OtherMiB: 90}, 0, "even with a table of 16 MiB the tables take 106 MiB (90 beside it)"},
		{Limit{}, Sizing{MiB: 1 << 20, Explicit: true, OtherMiB: 1 << 20}, 1 << 20, ""},
		// An address-space limit says which limit would do: the runtime's
		// 1,536 MiB and the tables' 18 MiB, in KiB as ulimit -v takes it.
		{Limit{Bytes: 1, Why: "ulimit -v", AddressSpace: 1536 << 20}, Sizing{MiB: 512, OtherMiB: 2}, 0, "(ulimit -v; ulimit -v 1591296 would do)"},
		// Where nothing is left, the error says so, never "the 0 MiB".
		{Limit{Bytes: 1, Why: "ulimit -v", AddressSpace: 1536 << 20}, Sizing{MiB: 512, OtherMiB: 2}, 0,
			"even with a table of 16 MiB the tables take 18 MiB (2 beside it), and this process has no memory left for them (ulimit -v"},
		{Limit{Bytes: 1 << 19, Why: "ulimit -v"}, Sizing{MiB: 1, Explicit: true, OtherMiB: 2}, 0,
			"the tables take 3 MiB (1 shared, 2 beside it), and this process has no memory left for them (ulimit -v)"},
		// Several tables (the server's boards) are halved together.
		{Limit{Bytes: 150 << 20, Why: "a test's limit"}, Sizing{MiB: 512, Tables: 2, OtherMiB: 8}, 64, ""},
		{Limit{Bytes: 150 << 20, Why: "a test's limit"}, Sizing{MiB: 128, Tables: 2, Explicit: true, OtherMiB: 16}, 0,
			"the tables take 272 MiB (256 shared, 16 beside it), more than the 150 MiB"},
		{Limit{Bytes: 40 << 20, Why: "a test's limit"}, Sizing{MiB: 512, Tables: 4, OtherMiB: 256}, 0,
			"even with tables of 16 MiB each the tables take 320 MiB (64 shared, 256 beside it), more than the 40 MiB"},
	} {
		mib, err := tt.limit.Fit(tt.s)
		if mib != tt.mib || (err == nil) != (tt.errText == "") || err != nil && !strings.Contains(err.Error(), tt.errText) {
			t.Errorf("%+v.Fit(%+v) = %d, %v; want %d, %q", tt.limit, tt.s, mib, err, tt.mib, tt.errText)
		}
	}
}

func TestCheckSize(t *testing.T) {
	for _, tt := range []struct {
		mib  int
		want string
	}{
		{0, "at least 1 MiB"},
		{1, ""},
		{MaxMiB + 1, "MiB"}, // more than half the machine's memory, or MaxMiB
	} {
		if err := CheckSize(tt.mib); (err == nil) != (tt.want == "") || err != nil && !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckSize(%d) = %v; want %q", tt.mib, err, tt.want)
		}
	}
}
