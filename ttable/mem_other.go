//go:build !linux

package ttable

// physicalMemory returns the machine's memory in bytes, or 0 if unknown.
func physicalMemory() uint64 { return 0 }

// MemoryLimit returns the most memory the tables of this process may
// take: unknown here, the zero Limit.
func MemoryLimit() Limit { return Limit{} }
