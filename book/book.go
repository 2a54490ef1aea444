package book

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"slices"

	farm "github.com/dgryski/go-farm"

	"c4solve/board"
	"c4solve/internal/atomicfile"
)

// The file format, version 1, of boards of at most 64 bits, and version
// 2, of boards of 65 to 128, whose keys take two words. All integers are
// little-endian.
//
//	offset  size  field
//	0       8     magic "C4BOOK\r\n"
//	8       2     version, 1 or 2
//	10      1     board width, 7 for the standard board
//	11      1     board height, 6 for the standard board
//	12      1     depth: the most stones of any position in the book
//	13      1     shard K of a part, 0 for a whole book
//	14      1     shards N of a part, 0 for a whole book
//	15      1     length R of the root's moves
//	16      8     entry count C
//	24      8     checksum: go-farm Fingerprint64 of the file with these 8 bytes zero
//	32      R     the root's moves, as column names (board.ColumnName)
//	32+R    ...   C keys, increasing, each as the uvarint of its difference from the last (the first from 0)
//	...     C     C scores, one signed byte each, in the keys' order
//
// In version 2, each key's difference from the last, a number of two
// words, is the uvarint of its high word, then the uvarint of its low.
//
// Keys are canonical: the smaller of a position's key and its mirror
// image's (board.Board.CanonicalKey). Sorted keys of 7x6 differ by about
// 2^49 / C, so a key takes 3 to 5 bytes.

const (
	magic       = "C4BOOK\r\n"
	version     = 1 // keys of one word
	versionWide = 2 // keys of two words
	headerSize  = 32
	sumOffset   = 24
)

// Book holds exact scores: those of every position of at most Depth stones
// that can arise from Root, its mirror images once, except the positions
// whose game is over. A part (Shards > 0) holds only the positions of
// exactly Depth stones that fall in its shard (see Generate).
//
// A Book is immutable and safe for concurrent use. The zero value is an
// empty book, which knows no position.
type Book struct {
	root          string // moves, as column names (board.ColumnName)
	depth         int
	shard, shards int
	keys          []board.Key // canonical keys, increasing
	scores        []int8
	size          board.Size // the board; zero, in the zero Book, for 7x6
}

// Board returns the size of the book's board.
func (b *Book) Board() board.Size { return b.size.OrStandard() }

// Root returns the moves of the position the book extends, "" for the
// empty board.
func (b *Book) Root() string { return b.root }

// Depth returns the most stones a position in the book has.
func (b *Book) Depth() int { return b.depth }

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.scores) }

// FormatVersion returns the version of the file format of the book: 1,
// or 2 for a board over 64 bits.
func (b *Book) FormatVersion() int { return versionOf(b.Board()) }

// versionOf is FormatVersion of the books of the board z, which is also
// the number of words of their keys.
func versionOf(z board.Size) int {
	if z.Bits() > 64 {
		return versionWide
	}
	return version
}

// formatKey formats a key in hexadecimal, two words as one number.
func formatKey(k board.Key) string { return fmt.Sprintf("%#x", k) }

// Shard returns K and N for part K of N, 0 and 0 for a whole book.
func (b *Book) Shard() (k, n int) { return b.shard, b.shards }

// Lookup returns the score of p, a position of the book's board, and
// whether the book holds p.
func (b *Book) Lookup(p board.Board) (score int, ok bool) {
	if p.Stones() > b.depth || p.Grid().Size != b.Board() {
		return 0, false
	}
	i, ok := slices.BinarySearchFunc(b.keys, canonicalKey(p), board.Key.Compare)
	if !ok {
		return 0, false
	}
	return int(b.scores[i]), true
}

// Size returns the size of the book in the file format, in bytes.
func (b *Book) Size() int { return len(b.encode()) }

// Counts returns the number of positions in the book with n stones, for n
// from 0 to Depth.
func (b *Book) Counts() []int {
	counts := make([]int, b.depth+1)
	g, _ := board.NewGrid(b.Board()) // checked when the book was made
	for i := range b.Len() {
		p, _ := b.Entry(g, i)
		counts[p.Stones()]++
	}
	return counts
}

// Entry returns the i-th position of the book, in the order of keys, on
// a grid of the book's board, g, and its score.
func (b *Book) Entry(g *board.Grid, i int) (board.Board, int) {
	p, _ := g.FromKey(b.keys[i]) // validated when the book was made
	return p, int(b.scores[i])
}

// canonicalKey returns the key of p in the book: its canonical key
// (board.Board.CanonicalKey).
func canonicalKey(p board.Board) board.Key {
	k, _, _ := p.CanonicalKey()
	return k
}

// WriteFile writes the book to the file name, atomically: the file is
// replaced whole or not at all.
func (b *Book) WriteFile(name string) error {
	return atomicfile.Write(name, 0o644, func(w io.Writer) error {
		_, err := w.Write(b.encode())
		return err
	})
}

func (b *Book) encode() []byte {
	v := b.FormatVersion()
	buf := make([]byte, headerSize, headerSize+len(b.root)+6*v*b.Len())
	copy(buf, magic)
	binary.LittleEndian.PutUint16(buf[8:], uint16(v))
	buf[10], buf[11] = byte(b.Board().Width), byte(b.Board().Height)
	buf[12], buf[13], buf[14] = byte(b.depth), byte(b.shard), byte(b.shards)
	buf[15] = byte(len(b.root))
	binary.LittleEndian.PutUint64(buf[16:], uint64(b.Len()))
	buf = append(buf, b.root...)
	last := board.Key{}
	for _, k := range b.keys {
		var d board.Key // k - last: the keys increase
		var borrow uint64
		d.Lo, borrow = bits.Sub64(k.Lo, last.Lo, 0)
		d.Hi, _ = bits.Sub64(k.Hi, last.Hi, borrow)
		if v == versionWide {
			buf = binary.AppendUvarint(buf, d.Hi)
		}
		buf = binary.AppendUvarint(buf, d.Lo)
		last = k
	}
	for _, s := range b.scores {
		buf = append(buf, byte(s))
	}
	binary.LittleEndian.PutUint64(buf[sumOffset:], farm.Fingerprint64(buf))
	return buf
}

// ReadFile reads and checks the book in the file name. Its errors name the
// file and the problem (FileError).
//
// It reads no more than the header says the book takes, so that a file
// that is no book (/dev/zero, say) is refused without reading it whole.
func ReadFile(name string) (*Book, error) {
	// A FIFO or a device would block in open or read for ever: a book is a
	// file, read whole.
	if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.IsDir() {
			what = "is a directory"
		}
		return nil, &FileError{Name: name, Err: fmt.Errorf("%s: a book is a file", what)}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	header := make([]byte, headerSize)
	n, err := io.ReadFull(f, header)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, &FileError{Name: name, Err: err}
	}
	if n < headerSize {
		return Decode(name, header[:n]) // refused: too short, or not a book
	}
	if _, err := decode(header); err != nil && !errors.Is(err, errTruncated) {
		return nil, &FileError{Name: name, Err: err}
	}
	// The root's moves, then at most 10 bytes a word of key and 1 of
	// score a position, and one byte more to tell a longer file.
	count := binary.LittleEndian.Uint64(header[16:])
	if count > math.MaxInt32 {
		return Decode(name, header) // refused: damaged
	}
	words := int64(binary.LittleEndian.Uint16(header[8:])) // the version, checked
	limit := int64(header[15]) + int64(count)*(words*binary.MaxVarintLen64+1) + 1
	rest, err := io.ReadAll(io.LimitReader(f, limit))
	if err != nil {
		return nil, &FileError{Name: name, Err: err}
	}
	if int64(len(rest)) == limit {
		return nil, &FileError{Name: name, Err: fmt.Errorf("longer than its header says a book of %d positions takes: %w", count, errDamaged)}
	}
	return Decode(name, append(header, rest...))
}

// errTruncated is the problem of a file that ends early.
var errTruncated = errors.New("truncated: the file ends early")

// Decode checks and decodes a book in the file format; name, for errors,
// says where the bytes came from. A damaged file fails its 64-bit
// checksum, and content no writer makes (unsorted keys, impossible scores)
// is refused even with a valid checksum.
func Decode(name string, data []byte) (*Book, error) {
	b, err := decode(data)
	if err != nil {
		return nil, &FileError{Name: name, Err: err, decoded: true}
	}
	return b, nil
}

// A FileError is an error of ReadFile or Decode: the book of the file
// Name, refused for Err. Its message names the file, "book NAME: ERR"
// where Decode refused the bytes and "NAME: ERR" where ReadFile refused
// the file before; where the file cannot be opened at all, ReadFile
// returns os.Open's *fs.PathError instead.
type FileError struct {
	Name    string
	Err     error
	decoded bool
}

func (e *FileError) Error() string {
	if e.decoded {
		return "book " + e.Name + ": " + e.Err.Error()
	}
	return e.Name + ": " + e.Err.Error()
}

func (e *FileError) Unwrap() error { return e.Err }

func decode(data []byte) (*Book, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		if len(data) < len(magic) && string(data) == magic[:len(data)] {
			return nil, errTruncated
		}
		return nil, errors.New("not a c4solve book (wrong magic number)")
	}
	if len(data) < headerSize {
		return nil, errTruncated
	}
	sum := binary.LittleEndian.Uint64(data[sumOffset:])
	zeroed := slices.Clone(data) // data may be read-only (go:embed)
	clear(zeroed[sumOffset : sumOffset+8])
	got := farm.Fingerprint64(zeroed)
	// A header that makes no sense in a file whose checksum fails is
	// damage (one bit of the width made "a board of 38x5"), not a book
	// of another format or board.
	headerErr := func(err error) error {
		if got != sum {
			return errDamaged
		}
		return err
	}
	v := int(binary.LittleEndian.Uint16(data[8:]))
	if v != version && v != versionWide {
		return nil, headerErr(fmt.Errorf("format version %d; this c4solve reads versions %d and %d", v, version, versionWide))
	}
	size := board.Size{Width: int(data[10]), Height: int(data[11])}
	if err := size.Check(); err != nil {
		return nil, headerErr(fmt.Errorf("a book for a board this c4solve cannot play: %w", err))
	}
	if v != versionOf(size) {
		return nil, headerErr(fmt.Errorf("format version %d for a board of %d bits: version %d is of boards of at most 64 bits, %d of wider ones", v, size.Bits(), version, versionWide))
	}
	b := &Book{depth: int(data[12]), shard: int(data[13]), shards: int(data[14]), size: size}
	rootLen := int(data[15])
	count := binary.LittleEndian.Uint64(data[16:])
	// Each entry takes at least a byte a word of key, and one of score.
	if len(data) < headerSize+rootLen || count > uint64(len(data)-headerSize-rootLen)/uint64(v+1) {
		return nil, errTruncated
	}
	b.root = string(data[headerSize : headerSize+rootLen])
	rest := data[headerSize+rootLen:]
	b.keys = make([]board.Key, count)
	last := board.Key{}
	for i := range count {
		var d board.Key
		for range v {
			x, n := binary.Uvarint(rest)
			if n == 0 {
				return nil, errTruncated
			}
			if n < 0 {
				return nil, errDamaged
			}
			d.Hi, d.Lo, rest = d.Lo, x, rest[n:]
		}
		var carry uint64
		last.Lo, carry = bits.Add64(last.Lo, d.Lo, 0)
		last.Hi, _ = bits.Add64(last.Hi, d.Hi, carry)
		b.keys[i] = last
	}
	switch {
	case uint64(len(rest)) < count:
		return nil, errTruncated
	case got != sum:
		return nil, errDamaged
	case uint64(len(rest)) > count:
		return nil, fmt.Errorf("%d bytes after the last entry", uint64(len(rest))-count)
	}
	b.scores = make([]int8, count)
	for i := range b.scores {
		b.scores[i] = int8(rest[i])
	}
	if err := b.check(); err != nil {
		return nil, err
	}
	return b, nil
}

// errDamaged is the problem of a file whose checksum does not match.
var errDamaged = errors.New("checksum mismatch: the file is damaged")

// check validates a book's header fields and entries: what a file with a
// correct checksum but written by a faulty program could get wrong.
func (b *Book) check() error {
	g, err := board.NewGrid(b.Board())
	if err != nil {
		return err
	}
	if b.depth > g.Cells() {
		return fmt.Errorf("depth %d: a game has at most %d moves", b.depth, g.Cells())
	}
	if b.shards == 0 && b.shard != 0 || b.shards > 0 && (b.shard < 1 || b.shard > b.shards) {
		return fmt.Errorf("shard %d of %d", b.shard, b.shards)
	}
	root, err := g.Parse(b.root, false)
	if err != nil {
		return fmt.Errorf("root %q: %w", b.root, err)
	}
	if root.Stones() > b.depth {
		return fmt.Errorf("root %q is deeper than the depth, %d", b.root, b.depth)
	}
	for i, k := range b.keys {
		if i > 0 && !b.keys[i-1].Less(k) {
			return fmt.Errorf("entry %d: keys out of order", i+1)
		}
		p, err := g.FromKey(k)
		if err != nil {
			return fmt.Errorf("entry %d: %w", i+1, err)
		}
		n := p.Stones()
		switch ck, _, _ := p.CanonicalKey(); {
		case ck.Less(k):
			return fmt.Errorf("entry %d: key %s is not the smaller of its mirror pair", i+1, formatKey(k))
		case n < root.Stones() || n > b.depth || b.shards > 0 && n != b.depth:
			return fmt.Errorf("entry %d: %d stones, outside the book's range", i+1, n)
		case int(b.scores[i]) < g.LossNextScore(n) || int(b.scores[i]) > g.WinNextScore(n):
			return fmt.Errorf("entry %d: score %d is impossible with %d stones", i+1, b.scores[i], n)
		}
	}
	return nil
}
