package tables

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// allocSlots maps n zeroed slots from the operating system, and returns
// them with the function that unmaps them, which does so once however
// often it is called (Compact.Free, then the cleanup).
func allocSlots(n int) ([]atomic.Uint64, func(), error) {
	mem, err := unix.Mmap(-1, 0, n*slotBytes, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return nil, nil, err
	}
	slots := unsafe.Slice((*atomic.Uint64)(unsafe.Pointer(&mem[0])), n)
	var once sync.Once
	return slots, func() { once.Do(func() { unix.Munmap(mem) }) }, nil
}
