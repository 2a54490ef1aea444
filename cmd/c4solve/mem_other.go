//go:build !linux

package main

// physicalMemory returns the machine's memory in bytes, or 0 if unknown.
func physicalMemory() uint64 { return 0 }
