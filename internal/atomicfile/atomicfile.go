// Package atomicfile writes files that appear whole or not at all.
package atomicfile

import (
	"io"
	"os"
	"path/filepath"
)

// Write creates or replaces the file name with what write writes, through
// a temporary file in the same directory that is synced and then renamed
// into place: a reader, or a crash at any moment, sees the old file or the
// whole new one, never a part. perm is the new file's permission bits.
func Write(name string, perm os.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
