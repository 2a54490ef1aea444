//go:build !linux

package main

// reexecUnderAddressLimit does nothing here (see reexec_linux.go).
func reexecUnderAddressLimit() {}
