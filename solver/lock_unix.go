//go:build unix

package solver

import (
	"errors"
	"os"
	"syscall"
)

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("another c4solve is using it (it is locked); wait for that one to end, or give another file")

// lockFile takes an exclusive lock on f, released when f is closed, or
// fails at once with errLocked if another process holds one (the book's
// checkpoint locks the same way).
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
