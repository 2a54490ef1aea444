package board_test

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"c4solve/board"
)

func mustGrid(t testing.TB, size string) *board.Grid {
	t.Helper()
	z, err := board.ParseSize(size)
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// perftOf counts the distinct positions of the grid at each ply from the
// empty board, won positions counted but not extended (as Tromp and Böck
// count them), up to maxPly.
func perftOf(g *board.Grid, maxPly int) []int {
	level := map[board.Key]board.Board{{}: g.Empty()}
	counts := []int{1}
	for ply := 1; ply <= maxPly && len(level) > 0; ply++ {
		next := make(map[board.Key]board.Board, 2*len(level))
		for _, b := range level {
			if b.Won() {
				continue
			}
			for col := range g.Width {
				if b.CanPlay(col) {
					c := b
					c.Play(col)
					next[c.Key()] = c
				}
			}
		}
		if len(next) > 0 {
			counts = append(counts, len(next))
		}
		level = next
	}
	return counts
}

// publishedPerft reads testdata/sizes/perft.txt: the counts per ply of each
// size, by "WxH".
func publishedPerft(t *testing.T) map[string][]int {
	t.Helper()
	f, err := os.Open("../testdata/sizes/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	counts := make(map[string][]int)
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		for _, s := range fields[1:] {
			n, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("perft.txt: %q: %v", line, err)
			}
			counts[fields[0]] = append(counts[fields[0]], n)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return counts
}

// TestPerftSizes counts positions per ply on boards of other sizes and
// compares them with the published counts: 4x4, 5x4 and 4x5 to the full
// board, the larger ones for their first plies (more in -short's absence).
func TestPerftSizes(t *testing.T) {
	want := publishedPerft(t)
	tests := []struct {
		size         string
		plies, short int
	}{
		{"4x4", 16, 16},
		{"5x4", 20, 12},
		{"4x5", 20, 12},
		{"5x5", 11, 8},
		{"6x5", 9, 7},
		{"6x6", 9, 7},
		{"7x6", 8, 7},
		{"6x7", 9, 7},
	}
	for _, tt := range tests {
		plies := tt.plies
		if testing.Short() {
			plies = tt.short
		}
		w, ok := want[tt.size]
		if !ok || len(w) <= plies {
			t.Fatalf("perft.txt has %d counts for %s; want more than %d", len(w), tt.size, plies)
		}
		got := perftOf(mustGrid(t, tt.size), plies)
		if len(got) != plies+1 {
			t.Errorf("%s: %d plies counted; want %d", tt.size, len(got)-1, plies)
			continue
		}
		for ply, n := range got {
			if n != w[ply] {
				t.Errorf("%s: %d positions at ply %d; want %d", tt.size, n, ply, w[ply])
			}
		}
	}
}

// TestMirrorSizes: on every width the mirror image's key is the key of
// the game played in mirrored columns, and mirroring twice is the same.
func TestMirrorSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 2))
	for _, size := range []string{"4x4", "5x4", "8x5", "9x5", "10x5", "12x4", "12x4", "8x7"} {
		g := mustGrid(t, size)
		for game := 0; game < 200; game++ {
			b, m := g.Empty(), g.Empty()
			for n := r.IntN(g.Cells()); n > 0 && !b.Over(); n-- {
				col := r.IntN(g.Width)
				if !b.CanPlay(col) {
					continue
				}
				b.Play(col)
				m.Play(g.Width - 1 - col)
			}
			key, mirrored, symmetric := b.CanonicalKey()
			want := b.Key()
			if m.Key().Less(want) {
				want = m.Key()
			}
			if key != want || mirrored != (key != b.Key()) || symmetric != (b.Key() == m.Key()) {
				t.Fatalf("%s: CanonicalKey = %#x, %t; want %#x (keys %#x and mirror %#x)", size, key, mirrored, want, b.Key(), m.Key())
			}
		}
	}
}

// TestWinsSizes checks a four in each direction on boards whose shifts
// differ from 7x6's, at the board's edges.
func TestWinsSizes(t *testing.T) {
	tests := []struct {
		size, moves string
		won         bool
	}{
		{"4x4", "1213141", true},       // vertical in column 1
		{"4x4", "1122334", true},       // bottom row
		{"9x5", "9898989", true},       // vertical in column 9
		{"10x4", "aa99887", true},      // horizontal at the right edge: columns 7-10
		{"12x4", "cbcbcbc", true},      // vertical in column 12
		{"4x9", "1213141", true},       // vertical
		{"4x9", "121314", false},       // three
		{"5x5", "1223533454544", true}, // diagonal / from column 1
		{"5x5", "122353345454", false}, // one move before it
		{"12x4", "9a9b9c9", true},      // vertical, three columns from the edge
		{"12x4", "9a9b9c", false},
		{"8x7", "5656565", true},
	}
	for _, tt := range tests {
		g := mustGrid(t, tt.size)
		b, err := g.Parse(tt.moves, false)
		if err != nil {
			t.Errorf("%s %s: %v", tt.size, tt.moves, err)
			continue
		}
		if b.Won() != tt.won {
			t.Errorf("%s %s: Won() = %t; want %t", tt.size, tt.moves, b.Won(), tt.won)
		}
	}
}

// TestParseSizeErrors: sizes that do not fit say why.
func TestParseSizeErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"8x5", ""},
		{"12x4", ""},
		{"13x4", ""},
		{"8X7", ""},
		{"8x8", ""},
		{"8x15", ""},
		{"25x4", ""},
		{"4x31", ""},
		{"9x13", ""},
		{"26x4", `size 26x4: too large: at most 25 columns and 31 rows, and 128 bits (width x (height+1))`},
		{"4x32", `size 4x32: too large: at most 25 columns and 31 rows, and 128 bits (width x (height+1))`},
		{"8x16", `size 8x16: needs 136 bits, at most 128 are supported (width x (height+1))`},
		{"9999999999x9999999999", `size 9999999999x9999999999: too large: at most 25 columns and 31 rows, and 128 bits (width x (height+1))`},
		{"18446744073709551617x4", `size "18446744073709551617x4": too large: at most 25 columns and 31 rows, and 128 bits (width x (height+1))`},
		{"8x99999999999999999999", `size "8x99999999999999999999": too large: at most 25 columns and 31 rows, and 128 bits (width x (height+1))`},
		{"18446744073709551617xb", `size "18446744073709551617xb": want WIDTHxHEIGHT, as 8x5`},
		{"3x6", `size 3x6: each side must be 4 or more`},
		{"17x2", `size 17x2: each side must be 4 or more`},
		{"17x3", `size 17x3: each side must be 4 or more`},
		{"7", `size "7": want WIDTHxHEIGHT, as 8x5`},
		{"7x", `size "7x": want WIDTHxHEIGHT, as 8x5`},
		{"axb", `size "axb": want WIDTHxHEIGHT, as 8x5`},
	} {
		_, err := board.ParseSize(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("ParseSize(%q) error %q; want %q", tt.in, got, tt.want)
		}
	}
	if _, err := board.NewGrid(board.Size{Width: 4, Height: 3}); err == nil || err.Error() != "size 4x3: each side must be 4 or more" {
		t.Errorf("NewGrid(4x3) = %v; want each side must be 4 or more", err)
	}
}

// TestParseGrid reads both notations and reports bad moves with their
// place.
func TestParseGrid(t *testing.T) {
	g := mustGrid(t, "10x5")
	b, err := g.Parse("1a9", false)
	if err != nil || b.Height(0) != 1 || b.Height(9) != 1 || b.Height(8) != 1 {
		t.Fatalf(`Parse("1a9") = %v, heights %d %d %d`, err, b.Height(0), b.Height(9), b.Height(8))
	}
	z, err := g.Parse("098", true)
	if err != nil || z.Key() != b.Key() {
		t.Fatalf(`Parse("098", from 0) = %v, key %#x; want %#x`, err, z.Key(), b.Key())
	}
	for _, tt := range []struct {
		moves string
		from0 bool
		pos   int
		why   string
	}{
		{"10", false, 2, `'0' is not a column 1-a of the 10x5 board`},
		{"1b", false, 2, `'b' is not a column 1-a of the 10x5 board`},
		{"0a", true, 2, `'a' is not a column 0-9 of the 10x5 board`},
		{"111111", false, 6, `column 1 is full`},
		{"12121212", false, 8, `the game was already won by move 7`},
	} {
		_, err := g.Parse(tt.moves, tt.from0)
		var pe *board.ParseError
		if !errors.As(err, &pe) || pe.Pos != tt.pos || pe.Reason != tt.why {
			t.Errorf("Parse(%q, %t) = %v; want position %d: %s", tt.moves, tt.from0, err, tt.pos, tt.why)
		}
	}
}

// TestGridRandomPositions: on 9x5 the positions are distinct, of the
// stones asked, not over, with no win at once (TestRandomPositions checks
// 7x6).
func TestGridRandomPositions(t *testing.T) {
	g := mustGrid(t, "9x5")
	seen := map[board.Key]bool{}
	err := g.RandomPositions(12, 20, 200, func(m string) bool {
		b, err := g.Parse(m, false)
		key, _, _ := b.CanonicalKey()
		if err != nil || len(m) != 20 || b.Over() || b.CanWinNext() || seen[key] {
			t.Fatalf("9x5 position %q: %v, over %t, win at once %t, seen %t", m, err, b.Over(), b.CanWinNext(), seen[key])
		}
		seen[key] = true
		return true
	})
	if err != nil || len(seen) != 200 {
		t.Fatalf("9x5: %d positions, %v; want 200", len(seen), err)
	}
	if err := mustGrid(t, "4x4").RandomPositions(1, 16, 1, func(string) bool { return true }); err == nil {
		t.Error("16 stones of 4x4: no error; want one (want 0 to 15)")
	}
}

// TestGridFromKey: FromKey inverts Key on boards of several sizes, and
// refuses what is no key.
func TestGridFromKey(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 5))
	for _, size := range []string{"4x4", "7x6", "9x5", "12x4", "8x7"} {
		g := mustGrid(t, size)
		for game := 0; game < 300; game++ {
			b := g.Empty()
			for n := r.IntN(g.Cells()); n > 0 && !b.Over(); n-- {
				if col := r.IntN(g.Width); b.CanPlay(col) {
					b.Play(col)
				}
			}
			got, err := g.FromKey(b.Key())
			if err != nil || got != b {
				t.Fatalf("%s: FromKey(%#x) = %v, %v; want the position back", size, b.Key(), got.Key(), err)
			}
		}
	}
	if _, err := mustGrid(t, "4x4").FromKey(board.Key{Lo: 1 << 20}); err == nil {
		t.Error("4x4: FromKey(1<<20) succeeded; want beyond the board's 20 bits")
	}
	if _, err := mustGrid(t, "4x4").FromKey(board.Key{Lo: 3}); err == nil {
		t.Error("4x4: FromKey(3) succeeded; want the stones' count wrong")
	}
	if _, err := mustGrid(t, "7x6").FromKey(board.Key{Lo: 1, Hi: 1}); err == nil || !strings.Contains(err.Error(), "beyond the board's 49 bits") {
		t.Errorf("7x6: FromKey of a key of two words = %v; want beyond the board's 49 bits", err)
	}
}
