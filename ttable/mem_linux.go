package ttable

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// physicalMemory returns the machine's memory in bytes, or 0 if unknown.
func physicalMemory() uint64 {
	var si unix.Sysinfo_t
	if unix.Sysinfo(&si) != nil {
		return 0
	}
	return uint64(si.Totalram) * uint64(si.Unit)
}

// runtimeReserve is the address space left to the Go runtime beyond what
// the process has mapped when the tables are sized, for its heap and
// threads to grow: a solve at 2 threads maps 66 MiB more by its end than
// at its start, and the heap grows by reserving 64 MiB at a time. 128 MiB
// ended in the runtime's "out of memory" under ulimit -v 1500000 while
// cgo's threads took large stacks and malloc arenas, and once those were
// made small (cmd/c4solve's threads_cgo.go), let the table's size move
// from run to run by a heap arena; 256 MiB keeps it the same.
const runtimeReserve = 256 << 20

// MemoryLimit returns the most memory the tables of this process may
// take, and what sets that bound: half of the machine's memory, half of
// the memory limit of the process's cgroup (a container's), or what its
// address-space limit (ulimit -v) leaves beyond what is mapped already and
// a reserve for the runtime. It is the zero Limit when nothing is known.
func MemoryLimit() (l Limit) {
	if mem := physicalMemory(); mem > 0 {
		l.Bytes, l.Why = mem/2, "half of this machine's memory"
	}
	if cg := cgroupLimit(); cg > 0 && (l.Bytes == 0 || cg/2 < l.Bytes) {
		l.Bytes, l.Why = cg/2, "half of its cgroup's memory limit"
	}
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &rl) == nil && rl.Cur != unix.RLIM_INFINITY {
		// What is mapped varies by a MiB or so from run to run (threads,
		// heap); counted in the runtime's 64 MiB steps it does not, and
		// neither does the table fit to what is left.
		const step = 64 << 20
		used := (mappedBytes() + step - 1) / step * step
		left := uint64(0)
		if rl.Cur > used+runtimeReserve {
			left = rl.Cur - used - runtimeReserve
		}
		if l.Bytes == 0 || left < l.Bytes {
			// A Go program maps about 1.3 GB of address space as it
			// starts (its heap's arenas), which a limit must hold too.
			l.Bytes, l.Why = max(left, 1), fmt.Sprintf("what its address-space limit, ulimit -v %d, leaves beyond the %d MiB Go maps as it starts and %d MiB kept for its heap",
				rl.Cur>>10, used>>20, runtimeReserve>>20)
			l.AddressSpace = used + runtimeReserve
		}
	}
	return l
}

// cgroupLimit returns the memory limit of the process's cgroup in bytes,
// v2 or v1, or 0 if it has none or it cannot be read.
func cgroupLimit() uint64 {
	var files []string
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for line := range strings.Lines(string(b)) {
			// hierarchy-ID:controllers:path
			parts := strings.SplitN(strings.TrimSuffix(line, "\n"), ":", 3)
			if len(parts) != 3 {
				continue
			}
			switch {
			case parts[0] == "0" && parts[1] == "":
				files = append(files, filepath.Join("/sys/fs/cgroup", parts[2], "memory.max"))
			case strings.Contains(","+parts[1]+",", ",memory,"):
				files = append(files, filepath.Join("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"))
			}
		}
	}
	files = append(files, "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
	var limit uint64
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
		if err != nil || v >= 1<<60 { // "max", or v1's stand-in for none
			continue
		}
		if limit == 0 || v < limit {
			limit = v
		}
	}
	return limit
}

// mappedBytes returns the address space the process has mapped (VmSize),
// or 0 if unknown.
func mappedBytes() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}
