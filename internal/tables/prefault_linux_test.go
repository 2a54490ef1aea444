package tables

import (
	"os"
	"runtime"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// residentPages returns how many of the pages of the table's memory are
// resident (mincore(2)), and how many pages it has.
func residentPages(t *testing.T, tt *Compact) (resident, pages int) {
	mem := unsafe.Slice((*byte)(unsafe.Pointer(&tt.words[0])), len(tt.words)*slotBytes)
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
	tt := must(NewCompact(64, false))
	if n, pages := residentPages(t, tt); n == pages {
		t.Fatalf("all %d pages of a new table are resident before Prefault; the test proves nothing", pages)
	}
	tt.Prefault()
	if n, pages := residentPages(t, tt); n != pages {
		t.Errorf("%d of %d pages resident after Prefault; want all", n, pages)
	}
}

// TestFree: Free gives a table's memory back at once (mincore finds it
// unmapped), twice is harmless, and the cleanup after it unmaps nothing
// again.
func TestFree(t *testing.T) {
	tt := must(NewCompact(64, false))
	w := must(NewWide(64, 128, true))
	mems := [][]byte{
		unsafe.Slice((*byte)(unsafe.Pointer(&tt.words[0])), len(tt.words)*slotBytes),
		unsafe.Slice((*byte)(unsafe.Pointer(&w.words[0])), len(w.words)*8),
	}
	tt.Free()
	w.Free()
	tt.Free()
	w.Free()
	for i, mem := range mems {
		vec := make([]byte, (len(mem)+os.Getpagesize()-1)/os.Getpagesize())
		_, _, errno := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&mem[0])), uintptr(len(mem)), uintptr(unsafe.Pointer(&vec[0])))
		if errno != unix.ENOMEM {
			t.Errorf("table %d: mincore after Free: %v; want ENOMEM, the memory unmapped", i, errno)
		}
	}
	if tt.Bytes() != 0 || w.Bytes() != 0 {
		t.Errorf("Bytes after Free: %d, %d; want 0", tt.Bytes(), w.Bytes())
	}
	runtime.GC() // the cleanups run, and unmap nothing a second time
	runtime.GC()
}
