package ttable_test

import (
	"fmt"

	"c4solve/ttable"
)

// A search stores what it proved about a position; later stores of the same
// position narrow the bounds, and a store without a move keeps the old one.
func Example() {
	t, err := ttable.New(1)
	if err != nil {
		panic(err)
	}
	const key = 0x1234 // a board key, below 2^49

	t.Put(key, -3, 5, 2, 1000) // score in [-3, 5], best move column 2
	t.Put(key, 0, 8, -1, 50)   // score in [0, 8], no move found
	e, ok := t.Get(key)
	fmt.Printf("%+v %t\n", e, ok)

	_, ok = t.Get(key + 1)
	fmt.Println(ok)
	// Output:
	// {Lower:0 Upper:5 Move:2} true
	// false
}

// New rounds the size down to a power of two number of 32-byte buckets.
func ExampleNew() {
	for _, mib := range []int{0, 1, 3, 16} {
		t, err := ttable.New(mib)
		if err != nil {
			panic(err)
		}
		fmt.Println(mib, t.Bytes()>>20)
	}
	// Output:
	// 0 1
	// 1 1
	// 3 2
	// 16 16
}
