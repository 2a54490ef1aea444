package ttable

import (
	"c4solve/internal/settings"
	"fmt"
)

// A Limit is the most memory a process's tables may take, and what sets
// it, in words (see MemoryLimit). The zero value is no known limit.
type Limit struct {
	Bytes uint64
	Why   string
	// AddressSpace is set where the limit is the address-space limit
	// (ulimit -v): the bytes it must hold beyond the tables, what the
	// process has mapped and the runtime's reserve, so that a message
	// can say which limit would do.
	AddressSpace uint64
}

// over says how much tables of mib MiB in all exceed l (the MiB the
// process may use, or, where not one is left, that none is), what sets
// l, and, where it is an address-space limit, which limit would do.
func (l Limit) over(mib int) string {
	room := "and this process has no memory left for them"
	if l.Bytes >= 1<<20 {
		room = fmt.Sprintf("more than the %d MiB this process may use", l.Bytes>>20)
	}
	would := ""
	if l.AddressSpace != 0 {
		would = fmt.Sprintf("; ulimit -v %d would do", (l.AddressSpace+uint64(mib)<<20)>>10)
	}
	return fmt.Sprintf("%s (%s%s)", room, l.Why, would)
}

// Sizing is a request for the size of the shared tables of a process.
type Sizing struct {
	MiB      int  // the size asked for, of each shared table
	Tables   int  // how many shared tables of MiB each the process keeps (0 is one)
	Explicit bool // the user asked for MiB: refuse it rather than shrink it
	OtherMiB int  // what the tables beside them take (the search goroutines' own)
}

// Fit returns the size, in MiB, of each shared table to allocate for s
// within l: the size asked for when the tables fit beside the other
// tables; a default size halved until they fit, no further than 16 MiB;
// or a *FitError for an explicit size that does not fit, or when even the
// smallest does not. Every command and the server size their tables with
// it; a result below s.MiB is a default made smaller, which the caller
// says in a note.
func (l Limit) Fit(s Sizing) (mib int, err error) {
	tables := max(s.Tables, 1)
	fits := func(mib int) bool { return l.Bytes == 0 || uint64(tables*mib+s.OtherMiB)<<20 <= l.Bytes }
	mib = s.MiB
	for !s.Explicit && mib > settings.MinFitMiB && !fits(mib) {
		mib /= 2
	}
	if !fits(mib) {
		return 0, &FitError{Sizing: s, MiB: mib, Limit: l}
	}
	return mib, nil
}

// A FitError is Fit's error: tables of MiB each, the size asked for if
// Sizing.Explicit, else the smallest tried, do not fit Limit beside the
// other tables.
type FitError struct {
	Sizing
	MiB   int
	Limit Limit
}

// Error says how much the tables take, and for a default size how small
// they were made before Fit gave up.
func (e *FitError) Error() string {
	if e.Explicit {
		return e.Over()
	}
	if e.Tables > 1 {
		return fmt.Sprintf("even with tables of %d MiB each %s", e.MiB, e.Over())
	}
	return fmt.Sprintf("even with a table of %d MiB the tables take %d MiB (%d beside it), %s",
		e.MiB, e.MiB+e.OtherMiB, e.OtherMiB, e.Limit.over(e.MiB+e.OtherMiB))
}

// Over says how much the tables take, the shared ones and those beside
// them, and how much that exceeds the Limit.
func (e *FitError) Over() string {
	shared := max(e.Tables, 1) * e.MiB
	return fmt.Sprintf("the tables take %d MiB (%d shared, %d beside it), %s",
		shared+e.OtherMiB, shared, e.OtherMiB, e.Limit.over(shared+e.OtherMiB))
}

// CheckSize refuses table sizes that cannot be allocated: below MinMiB,
// above MaxMiB, or more than half the machine's memory.
func CheckSize(mib int) error {
	if mib < MinMiB {
		return fmt.Errorf("the table needs at least %d MiB", MinMiB)
	}
	if mem := physicalMemory(); mem > 0 && uint64(mib) > mem>>21 {
		return fmt.Errorf("more than half of this machine's %d MiB of memory", mem>>20)
	}
	if mib > MaxMiB {
		return fmt.Errorf("the table holds at most %d MiB", MaxMiB)
	}
	return nil
}
