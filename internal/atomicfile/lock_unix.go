//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// ErrLocked is Lock's error when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// Lock takes an exclusive lock on f, released when f is closed, or fails
// at once with ErrLocked if another process holds one: two processes
// appending records to one file (a book's checkpoint, a table file) would
// interleave them and cut each other's last.
func Lock(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return ErrLocked
	}
	return err
}
