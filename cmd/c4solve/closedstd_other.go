//go:build !(unix && cgo)

package main

// seesClosedStd is whether closedStdFiles knows: a build without cgo
// cannot, its runtime opens the null device on a closed standard
// descriptor before any code of c4solve runs (see closedstd_cgo.go).
const seesClosedStd = false

// closedStdFiles reports that neither standard input nor standard output
// was closed at the start: without cgo it cannot tell.
func closedStdFiles() (stdin, stdout bool) { return false, false }
