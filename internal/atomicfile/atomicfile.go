// Package atomicfile writes files that appear whole or not at all, and
// locks a file that records are appended to against a second writer.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Check reports whether Write can write the file name, before any work is
// done to produce it, and returns the file Write will replace: name, or the
// file a symbolic link name points to. It refuses what is not a regular
// file (a directory, a device such as /dev/null, a FIFO, a socket), a
// read-only file, and a name whose directory does not exist or cannot be
// written to.
func Check(name string) (string, error) {
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return "", err
	case fi.Mode()&os.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(name)
		if err != nil {
			return "", fmt.Errorf("%s: a symbolic link to nowhere usable: %w", name, err)
		}
		return Check(target)
	case fi.IsDir():
		return "", fmt.Errorf("%s is a directory", name)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file (%s): refusing to replace it", name, kind(fi.Mode()))
	case fi.Mode().Perm()&0o222 == 0:
		return "", fmt.Errorf("%s is read-only: refusing to replace it", name)
	}
	dir := filepath.Dir(name)
	if di, err := os.Stat(dir); err != nil {
		return "", fmt.Errorf("directory of %s: %w", name, err)
	} else if !di.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(name)+".*.tmp")
	if err != nil {
		return "", fmt.Errorf("cannot write in the directory of %s: %w", name, err)
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return name, nil
}

// kind names the type of a file that is not a regular one.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// Write creates or replaces the file name with what write writes, through
// a temporary file in the same directory that is synced and then renamed
// into place: a reader, or a crash at any moment, sees the old file or the
// whole new one, never a part. perm is the new file's permission bits.
// What Check refuses, Write refuses, before calling write; a symbolic link
// stays, and the file it points to is replaced.
func Write(name string, perm os.FileMode, write func(io.Writer) error) error {
	name, err := Check(name)
	if err != nil {
		return err
	}
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
