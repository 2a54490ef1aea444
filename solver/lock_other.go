//go:build !unix

package solver

import "os"

// lockFile would lock f against other processes; here it does nothing.
func lockFile(f *os.File) error { return nil }
