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

/*
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>

static const size_t threadStack = 1 << 20;

__attribute__((constructor)) static void smallThreads(void) {
	struct rlimit as;
	if (getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur == RLIM_INFINITY) {
		return;
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
