package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"c4solve/board"
	"c4solve/player"
	"c4solve/posfile"
	"c4solve/solver"
)

const playHelp = `A game against c4solve in the terminal, from the empty board or
from MOVES, on the 7x6 board or another (-size). Type a column (1 to 7 on
7x6; 1 to 9, then a, b, c, ... on wider boards) to play, u to take back your last move,
h for a hint (the score of each column; past -timeout, the best move
found and the bounds on each column's score), q to quit. The board is drawn in
colour when standard output is a terminal (not with NO_COLOR set or
TERM=dumb), the first player's stones x and the second's o otherwise; the
game reads moves from standard input, so a whole game can be piped in. The
game ends with a line saying who won; end of input ends it too. c4solve
plays perfectly, or at -level 1 to 9 as a weaker player: the best move
with probability (level-1)/9, else a random one (README, "Players of
graded strength"); with
-timeout, it moves within that time, past it the best move it found.
`

func runPlay(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	first := fs.String("first", "human", "who plays first: `human` or engine")
	level := fs.Int("level", player.MaxLevel, "the engine's strength, `N` from 1 (random) to 10 (perfect): the best move with probability (N-1)/9, else a random one")
	seed := fs.Uint64("seed", 0, "the seed of a level's random moves (0: from the clock)")
	var opt options
	durationVar(fs.FlagSet, &opt.timeout, "timeout", 0, "move within `DURATION` (e.g. 5s; 0: no limit): past it, the best move found, not proved")
	opt.search.register(fs.FlagSet)
	opt.book.register(fs.FlagSet)
	fs.Var(&opt.size, "size", "play on a board of `WxH`, as 8x5, instead of 7x6 (no book)")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	if *first != "human" && *first != "engine" {
		return fmt.Errorf("-first %q: want human or engine", *first)
	}
	if *level < player.MinLevel || *level > player.MaxLevel {
		return fmt.Errorf("-level %d: want %d to %d", *level, player.MinLevel, player.MaxLevel)
	}
	*seed = cmp.Or(*seed, uint64(time.Now().UnixNano()))
	if fs.NArg() > 1 {
		return errors.New("want at most one position")
	}
	if in, ok := std.in.(closedStd); ok {
		return fmt.Errorf("standard input, where your moves are read: %w", in.err)
	}
	moves := fs.Arg(0)
	grid, err := board.NewGrid(opt.size.board())
	if err != nil {
		return err
	}
	p, err := grid.Parse(moves, false)
	if err == nil && p.Over() {
		err = solver.ErrGameOver
	}
	if err != nil {
		return fmt.Errorf("%q: %w", moves, err)
	}
	c, err := newCommand(fs.Name(), opt, std, nil)
	if err != nil {
		return err
	}
	cols, _ := grid.Columns(moves, false) // parsed above
	g := &game{c: c, p: p, cols: cols, start: len(cols), engine: p.Stones() % 2, level: *level, rng: rand.New(rand.NewPCG(*seed, 0))}
	if *first == "human" {
		g.engine = 1 - g.engine
	}
	// Colours on a terminal, unless the environment asks for none (NO_COLOR
	// set and not empty, as no-color.org has it, or TERM=dumb).
	g.colour = isTerminal(std.out) && os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb"
	return exit(g.run(ctx, std))
}

// game is a game of play: the position, the moves so far and the perfect
// player's side.
type game struct {
	c      *command
	p      board.Board
	cols   []int // the moves so far, 0-based columns
	start  int   // the moves given at the start, which undo leaves
	engine int   // the side c4solve plays: 0 moves first
	level  int   // its level (package player)
	rng    *rand.Rand
	colour bool // draw with colours
}

// play plays col, which must be legal.
func (g *game) play(col int) {
	g.p.Play(col)
	g.cols = append(g.cols, col)
}

// moves returns the moves so far as a move string.
func (g *game) moves() string { return board.FormatColumns(g.cols, false) }

// columns says which columns a player may type: "1-7", or "1-9, a-c".
func (g *game) columns() string {
	w := g.p.Grid().Width
	switch {
	case w <= 9:
		return fmt.Sprintf("1-%d", w)
	case w == 10:
		return "1-9, a"
	}
	return fmt.Sprintf("1-9, a-%c", board.ColumnName(w-1))
}

func (g *game) run(ctx context.Context, std stdio) int {
	lines := make(chan inputLine)
	var inErr error // set before lines closes
	go func() {     // ends with the input; may stay blocked in a read until the process ends
		defer close(lines)
		inErr = posfile.ScanLines(std.in, func(num int, text string, tooLong bool) bool {
			select {
			case lines <- inputLine{num, text, tooLong}:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	for {
		p := g.p
		fmt.Fprint(g.c.stdout, "\n"+p.Draw(g.cell))
		if p.Over() {
			g.result(p)
			return exitOK
		}
		if p.Stones()%2 == g.engine {
			an, exact, err := g.analyze(ctx, p)
			if err != nil {
				return g.c.status
			}
			col := player.Choose(an, g.level, g.rng)
			note := ""
			if !exact {
				note = fmt.Sprintf(" (the best found in %v, not proved)", g.c.opt.timeout)
			}
			fmt.Fprintf(g.c.stdout, "c4solve plays %c%s\n", board.ColumnName(col), note)
			g.play(col)
			continue
		}
		fmt.Fprintf(g.c.stdout, "your move (%s, u undo, h hint, q quit): ", g.columns())
		var line inputLine
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
			if !outputFailed(g.c.stdout) { // else run says so
				fmt.Fprintf(g.c.stderr, "\nc4solve play: %s\n", stopReason(ctx, ctx.Err()))
			}
			return exitIncomplete
		}
		if !ok {
			fmt.Fprintf(g.c.stdout, "\nend of input: the game stops at %q\n", g.moves())
			if inErr != nil {
				g.c.bad(fmt.Errorf("reading standard input: %w", inErr))
			}
			return g.c.status
		}
		if line.tooLong {
			fmt.Fprintf(g.c.stdout, "line %d: longer than %d bytes (%q...): type a column %s, u, h or q\n",
				line.num, posfile.MaxLineBytes, line.text[:20], strings.Replace(g.columns(), "-", " to ", 1))
			continue
		}
		switch cmd := strings.TrimSpace(line.text); cmd {
		case "q":
			fmt.Fprintf(g.c.stdout, "quit at %q\n", g.moves())
			return exitOK
		case "u":
			g.undo()
		case "h":
			if an, exact, err := g.analyze(ctx, p); err == nil {
				g.hint(an, exact)
			}
		default:
			col := -1
			for c := range p.Grid().Width {
				if cmd == string(board.ColumnName(c)) {
					col = c
				}
			}
			if col < 0 {
				if len(cmd) > 40 {
					cmd = cmd[:40] + "..."
				}
				fmt.Fprintf(g.c.stdout, "%q: type a column %s, u, h or q\n", cmd, strings.Replace(g.columns(), "-", " to ", 1))
			} else if !p.CanPlay(col) {
				fmt.Fprintf(g.c.stdout, "column %s is full\n", cmd)
			} else {
				g.play(col)
			}
		}
	}
}

// inputLine is a line that play read, or the start of one too long
// (posfile.ScanLines).
type inputLine struct {
	num     int
	text    string
	tooLong bool
}

// undo takes back the human's last move and the perfect player's reply:
// the position is played again from the empty board, without them.
func (g *game) undo() {
	for i := len(g.cols) - 1; i >= g.start; i-- {
		if i%2 != g.engine {
			g.cols = g.cols[:i]
			g.p = g.p.Grid().Empty()
			for _, col := range g.cols {
				g.p.Play(col)
			}
			return
		}
	}
	fmt.Fprintln(g.c.stdout, "nothing of yours to take back")
}

// analyze scores every move of p, showing progress on a terminal, within
// -timeout: exact says whether it finished, and past -timeout the
// analysis holds what it established (solver.Analysis.BestFound). An
// error is ctx's: an interrupt.
func (g *game) analyze(ctx context.Context, p board.Board) (an solver.Analysis, exact bool, err error) {
	limited, cancel := g.c.withTimeout(ctx)
	defer cancel()
	stop := g.c.showProgress()
	an, err = g.c.s.Analyze(limited, p, false)
	stop()
	switch {
	case err == nil:
		return an, true, nil
	case ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded):
		return an, false, nil
	}
	g.c.solveError(ctx, "the game", g.moves(), err)
	return an, false, err
}

// hint prints the score of each column of an analysis, or of one that
// -timeout stopped (not exact), the best move found
// (solver.Analysis.BestFound), the one c4solve would play, and the bounds
// established on each column's score, lo..hi, or the score where the
// column was solved (as each is in an exact analysis).
func (g *game) hint(an solver.Analysis, exact bool) {
	what := "the score of each column"
	if !exact {
		col, proved := an.BestFound()
		how := "not proved"
		if proved {
			how = "proved best"
		}
		fmt.Fprintf(g.c.stdout, "hint: not solved within %v; the best found is column %c, %s\n", g.c.opt.timeout, board.ColumnName(col), how)
		what = "the bounds of each column's score"
	}
	fmt.Fprintf(g.c.stdout, "hint: %s:", what)
	for col, legal := range an.Legal {
		switch {
		case !legal:
			fmt.Fprintf(g.c.stdout, " %c:full", board.ColumnName(col))
		case an.Lows[col] == an.Highs[col]:
			fmt.Fprintf(g.c.stdout, " %c:%d", board.ColumnName(col), an.Lows[col])
		default:
			fmt.Fprintf(g.c.stdout, " %c:%d..%d", board.ColumnName(col), an.Lows[col], an.Highs[col])
		}
	}
	fmt.Fprintln(g.c.stdout)
}

// cell is how the board is drawn (board.Board.Draw): the first player's
// stones as x, or red in colour, the second's as o, or yellow.
func (g *game) cell(who int) string {
	switch {
	case who == 0:
		return "."
	case !g.colour:
		return "xo"[who-1 : who]
	case who == 1:
		return "\033[1;31m●\033[0m"
	}
	return "\033[1;33m●\033[0m"
}

// result prints who won.
func (g *game) result(p board.Board) {
	switch {
	case !p.Won():
		fmt.Fprintf(g.c.stdout, "draw: the board is full (%s)\n", g.moves())
	case (p.Stones()-1)%2 == g.engine:
		fmt.Fprintf(g.c.stdout, "c4solve wins (%s)\n", g.moves())
	default:
		fmt.Fprintf(g.c.stdout, "you win (%s)\n", g.moves())
	}
}
