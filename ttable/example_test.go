package ttable_test

import (
	"fmt"

	"c4solve/ttable"
)

// New rounds the size down to a power-of-two number of buckets, of 32
// bytes for keys of at most 49 bits and of 64 above.
func ExampleNew() {
	for _, c := range []ttable.Config{
		{MiB: 0, KeyBits: 49},
		{MiB: 3, KeyBits: 49},
		{MiB: 16, KeyBits: 49, Grow: true},
		{MiB: 3, KeyBits: 72},
	} {
		t, err := ttable.New(c)
		if err != nil {
			panic(err)
		}
		fmt.Println(c.MiB, c.KeyBits, t.Bytes()>>20)
		t.Free()
	}
	_, err := ttable.New(ttable.Config{MiB: 1, KeyBits: 129})
	fmt.Println(err)
	// Output:
	// 0 49 1
	// 3 49 2
	// 16 49 16
	// 3 72 2
	// ttable: keys of 129 bits: 1 to 128
}
