package book

import (
	_ "embed"
	"sync"
)

// defaultData is the book built into the binary. Regenerate it with
//
//	go run ./cmd/c4solve book generate -depth 6 -threads 2 -tt 1024 -o book/default.c4book
//
// (see the README for the depth and what it took).
//
//go:embed default.c4book
var defaultData []byte

// Default returns the book built into the binary.
var Default = sync.OnceValues(func() (*Book, error) {
	return Decode("(built in)", defaultData)
})
