//go:build !linux

package ttable

import "sync/atomic"

func adviseHugePages([]atomic.Uint64) {}
