package tables

import (
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHugePages asks Linux to back the slots with 2 MiB pages. Probes hit
// random slots, so with 4 KiB pages nearly every probe also misses the TLB;
// huge pages remove most of that cost. Where transparent huge pages are
// off, or the advice fails, nothing changes but speed.
func adviseHugePages(slots []atomic.Uint64) {
	const huge = 2 << 20
	if len(slots) == 0 {
		return
	}
	base := unsafe.Pointer(&slots[0])
	addr := uintptr(base)
	skip := (huge - addr%huge) % huge // bytes up to the first 2 MiB boundary
	total := uintptr(len(slots)) * slotBytes
	if total < skip+huge {
		return
	}
	size := (total - skip) &^ (huge - 1)
	mem := unsafe.Slice((*byte)(unsafe.Add(base, skip)), size)
	_ = unix.Madvise(mem, unix.MADV_HUGEPAGE)
}
