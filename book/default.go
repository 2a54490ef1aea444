package book

import (
	_ "embed"
	"sync"
)

// defaultData is the book built into the binary: every position of at
// most 9 stones. Regenerate it with
//
//	for k in $(seq 1 32); do
//		go run ./cmd/c4solve book generate -depth 9 -threads 2 -tt 2048 -shard $k/32 -o part$k
//	done
//	go run ./cmd/c4solve book merge -o book/default.c4book part*
//
// (hours: see docs/book.md for what it took).
//
//go:embed default.c4book
var defaultData []byte

// Default returns the book built into the binary.
var Default = sync.OnceValues(func() (*Book, error) {
	return Decode("(built in)", defaultData)
})
