//go:build race

package main

// raceEnabled: the race detector's runtime maps shadow memory beside the
// program's, so that limits on the address space that the command meets
// fail inside that runtime instead.
const raceEnabled = true
