//go:build unix

package main

import "golang.org/x/sys/unix"

// fileLimit returns how many file descriptors the process may open (its
// soft RLIMIT_NOFILE), if known.
func fileLimit() (uint64, bool) {
	var rl unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_NOFILE, &rl) != nil || rl.Cur == unix.RLIM_INFINITY {
		return 0, false
	}
	return rl.Cur, true
}
