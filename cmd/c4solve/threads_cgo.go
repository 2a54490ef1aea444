//go:build linux && cgo

package main

// Under an address-space limit (ulimit -v) a build with cgo ran out of
// it before main: each thread that Go's runtime starts through C reserves
// a stack of ulimit -s (8 MiB), and glibc gives each thread that calls
// malloc an arena of 64 MiB (128 MiB reserved while it is aligned), all
// counted against the limit, beside the 1.2 GB that Go's runtime itself
// reserves. Under ulimit -v 1500000 one start in six ended in
// "pthread_create failed" and a dump of 100 lines, before main could do
// anything: the fifth thread found no room.
//
// smallThreads runs before the runtime starts (a C constructor, as runc's
// nsenter does), only where the address space is limited: one malloc
// arena for all threads, and C thread stacks of 1 MiB, ample for Go's
// runtime, whose goroutines have stacks of their own.
//
// Some limits no program of Go 1.26 can run under: its runtime reserves
// about 0.7 GB of address space as it starts where the limit is below
// about 1.15 GB, and 1.2 GB above, and then fails inside itself ("fatal
// error: out of memory", "pthread_create failed", a dump of a hundred
// lines) below about 0.8 GB, from 1.175 to 1.275 GB always, and now and
// then up to 0.05 GB on either side of those (measured with this command,
// eight starts at each of 19 limits from 0.76 to 1.4 GB). There it says
// so in one line and exits 2 before the runtime starts: minAddressSpace
// and the band [badAddressSpaceLow, badAddressSpaceHigh), in KiB as
// ulimit -v takes them. A build without cgo cannot: its runtime starts
// first.

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>

#include <stdio.h>
#include <unistd.h>

static const size_t threadStack = 1 << 20;

static const unsigned long minAddressSpace = 850000;
static const unsigned long badAddressSpaceLow = 1150000, badAddressSpaceHigh = 1350000;

__attribute__((constructor)) static void smallThreads(void) {
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) {
		return;
	}
	unsigned long kib = as.rlim_cur >> 10;
	if (kib < minAddressSpace || (kib >= badAddressSpaceLow && kib < badAddressSpaceHigh)) {
		fprintf(stderr, "c4solve: ulimit -v %lu: Go's runtime cannot start reliably under this limit on its address space "
			"(it reserves about 0.7 GB as it starts, 1.2 GB from 1.15 GB up): use ulimit -v %lu or more, "
			"and not %lu to %lu\n", kib, minAddressSpace, badAddressSpaceLow, badAddressSpaceHigh - 1);
		_exit(2);
	}
	mallopt(M_ARENA_MAX, 1);
	pthread_attr_t attr;
	if (pthread_getattr_default_np(&attr) != 0) {
		return;
	}
	size_t size;
	if (pthread_attr_getstacksize(&attr, &size) == 0 && size > threadStack &&
	    pthread_attr_setstacksize(&attr, threadStack) == 0) {
		pthread_setattr_default_np(&attr);
	}
	pthread_attr_destroy(&attr);
}
*/
import "C"
