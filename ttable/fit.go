package ttable

import "fmt"

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

// Sizing is a request for the size of a shared table.
type Sizing struct {
	MiB      int  // the size asked for
	Explicit bool // the user asked for MiB: refuse it rather than shrink it
	OtherMiB int  // what the tables beside it take (the search goroutines' own)
}

// minFitMiB is the smallest size a default (not Explicit) size is cut
// down to when it does not fit.
const minFitMiB = 16

// Fit returns the size, in MiB, of the table to allocate for s within l:
// the size asked for when it fits beside the other tables; a default size
// halved until it fits, with a note that says so; an error for an
// explicit size that does not fit, or when even 16 MiB does not.
func (l Limit) Fit(s Sizing) (mib int, note string, err error) {
	fits := func(mib int) bool { return l.Bytes == 0 || uint64(mib+s.OtherMiB)<<20 <= l.Bytes }
	if fits(s.MiB) {
		return s.MiB, "", nil
	}
	if s.Explicit {
		return 0, "", fmt.Errorf("the tables take %d MiB (%d shared, %d beside it), %s",
			s.MiB+s.OtherMiB, s.MiB, s.OtherMiB, l.over(s.MiB+s.OtherMiB))
	}
	mib = s.MiB
	for mib > minFitMiB && !fits(mib) {
		mib /= 2
	}
	if !fits(mib) {
		return 0, "", fmt.Errorf("even with a table of %d MiB the tables take %d MiB (%d beside it), %s",
			mib, mib+s.OtherMiB, s.OtherMiB, l.over(mib+s.OtherMiB))
	}
	return mib, fmt.Sprintf("the default table of %d MiB does not fit the %d MiB this process may use (%s): using %d MiB",
		s.MiB, l.Bytes>>20, l.Why, mib), nil
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
