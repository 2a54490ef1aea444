package ttable

import (
	"os"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// residentPages returns how many of the pages of the table's memory are
// resident (mincore(2)), and how many pages it has.
func residentPages(t *testing.T, tt *Table) (resident, pages int) {
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&tt.slots[0])), len(tt.slots)*slotBytes)
	vec := make([]byte, (len(mem)+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0]))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	for _, v := range vec {
		resident += int(v & 1)
	}
	return resident, len(vec)
}

// TestPrefaultResident: a new table's memory is mapped but not resident;
// after Prefault, every page of it is.
func TestPrefaultResident(t *testing.T) {
	tt := New(64)
	if n, pages := residentPages(t, tt); n == pages {
		t.Fatalf("all %d pages of a new table are resident before Prefault; the test proves nothing", pages)
	}
	tt.Prefault()
	if n, pages := residentPages(t, tt); n != pages {
		t.Errorf("%d of %d pages resident after Prefault; want all", n, pages)
	}
}
