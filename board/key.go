package board

import (
	"cmp"
	"fmt"

	"c4solve/internal/position"
)

// Key is a position's key (Board.Key): current+mask, the stones of the
// side to move plus the occupied cells, which adds one bit above the top
// stone of each column and is so unique for every position of its board
// (Pons, "Solving Connect 4", part 7). Lo holds bits 0 to 63, Hi the
// others: 0 on a board of at most 64 bits. Keys are comparable, so map
// keys, and ordered as unsigned numbers of 128 bits (Compare, Less);
// books and table files store them. A Key is a plain value; the zero
// value is the empty board's key.
type Key struct{ Lo, Hi uint64 }

// Compare returns -1, 0 or +1 as k is less than, equal to or greater than
// l, as unsigned numbers: the order of a book's keys.
func (k Key) Compare(l Key) int { return cmp.Or(cmp.Compare(k.Hi, l.Hi), cmp.Compare(k.Lo, l.Lo)) }

// Less reports whether k < l as unsigned numbers.
func (k Key) Less(l Key) bool { return k.Hi < l.Hi || k.Hi == l.Hi && k.Lo < l.Lo }

// Format writes k as one number, the high word's digits before the low
// word's, so that a key of two words reads as a key of one: with %x (and
// %#x, %X), and with %v as %#x. A key of a board of at most 64 bits, whose
// high word is 0, prints as its one word does.
func (k Key) Format(f fmt.State, verb rune) { position.Bits128(k).Format(f, verb) }
