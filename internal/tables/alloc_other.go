//go:build !linux

package tables

import "sync/atomic"

// allocSlots returns n zeroed slots from the Go heap, which the garbage
// collector frees.
func allocSlots(n int) ([]atomic.Uint64, func(), error) {
	return make([]atomic.Uint64, n), nil, nil
}
