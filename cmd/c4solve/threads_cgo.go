//go:build linux && cgo

package main

// Under an address-space limit (ulimit -v) a build with cgo could run
// out of it before main: each thread Go's runtime starts through C
// reserves a stack of ulimit -s (8 MiB), and glibc gives each thread that
// calls malloc an arena of 64 MiB (128 MiB reserved while it is aligned),
// beside the 1.2 GB the runtime reserves itself. smallThreads, a C
// constructor that runs before the runtime starts (as runc's nsenter
// does), makes one malloc arena for all threads and C thread stacks of
// 1 MiB, ample for the runtime, only where the address space is limited.
//
// Go 1.26's runtime itself fails to start below about 0.8 GB and from
// 1.175 to 1.275 GB, and now and then up to 0.05 GB beyond those
// (measured with this command: eight starts at each of 19 limits from
// 0.76 to 1.4 GB). Under minAddressSpace, or from badAddressSpaceLow up
// to badAddressSpaceHigh (KiB, as ulimit -v takes them), smallThreads
// says so in one line and exits 2, where the runtime would end in a dump
// of a hundred lines. A build without cgo cannot: its runtime starts
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
