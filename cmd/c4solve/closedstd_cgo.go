//go:build unix && cgo

package main

// Go's runtime opens the null device, read-write, on each of the standard
// descriptors 0 to 2 that is closed when the process starts, before main
// runs: a closed standard output then swallows every result, and looks
// like the null device opened on purpose (1<>/dev/null, or Python's
// subprocess.DEVNULL, opens it the same way). noteClosedStd, a C
// constructor that runs before the runtime starts (as smallThreads does),
// notes which were closed.

/*
#include <errno.h>
#include <fcntl.h>

static int closedStd; // bit i: descriptor i was closed at the start

__attribute__((constructor)) static void noteClosedStd(void) {
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			closedStd |= 1 << fd;
		}
	}
}

static int closedStdFiles(void) { return closedStd; }
*/
import "C"

// seesClosedStd is whether closedStdFiles knows: only a build with cgo,
// whose C constructor looks before the runtime starts.
const seesClosedStd = true

// closedStdFiles reports whether standard input and standard output were
// closed when the process started (by <&- and >&-): the null device Go's
// runtime opened in their place stands there now.
func closedStdFiles() (stdin, stdout bool) {
	closed := C.closedStdFiles()
	return closed&1 != 0, closed&2 != 0
}
