//go:build !linux

package tables

import "sync/atomic"

func adviseHugePages([]atomic.Uint64) {}
