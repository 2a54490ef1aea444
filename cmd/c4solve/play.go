package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

const playHelp = `A game against the perfect player in the terminal, from the empty board or
from MOVES. Type a column (1 to 7) to play, u to take back your last move,
h for a hint (the score of each column), q to quit. The board is drawn in
colour when standard output is a terminal, in plain text otherwise; the
game reads moves from standard input, so a whole game can be piped in. The
game ends with a line saying who won; end of input ends it too.
`

// runPlay is the play command.
func runPlay(ctx context.Context, cmd *subcommand, args []string, std stdio) error {
	fs := cmd.flagSet(std)
	first := fs.String("first", "human", "who plays first: `human` or engine")
	var opt options
	opt.search.register(fs.FlagSet)
	opt.book.register(fs.FlagSet)
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	if *first != "human" && *first != "engine" {
		return fmt.Errorf("-first %q: want human or engine", *first)
	}
	if fs.NArg() > 1 {
		return errors.New("want at most one position")
	}
	moves := fs.Arg(0)
	p, err := board.Parse(moves)
	if err == nil && p.Over() {
		err = solver.ErrGameOver
	}
	if err != nil {
		return fmt.Errorf("%q: %w", moves, err)
	}
	c, err := newCommand(opt, std, nil)
	if err != nil {
		return err
	}
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	g := &game{c: c, moves: moves, start: len(moves), engine: p.Stones() % 2}
	if *first == "human" {
		g.engine = 1 - g.engine
	}
	g.colour = isTerminal(std.out)
	return exit(g.run(ctx, std))
}

// game is a game of play: the moves so far and the perfect player's side.
type game struct {
	c      *command
	moves  string
	start  int  // the moves given at the start, which undo leaves
	engine int  // the side the perfect player plays: 0 moves first
	colour bool // draw with colours
}

func (g *game) position() board.Position {
	p, _ := board.Parse(g.moves) // the moves were checked as played
	return p
}

func (g *game) run(ctx context.Context, std stdio) int {
	lines := make(chan inputLine)
	var inErr error // set before lines closes
	go func() {     // ends with the input; may stay blocked in a read until the process ends
		defer close(lines)
		inErr = readLines(std.in, func(l inputLine) bool {
			select {
			case lines <- l:
				return true
			case <-ctx.Done():
				return false
			}
		})
	}()
	for {
		p := g.position()
		g.draw(p)
		if p.Over() {
			g.result(p)
			return exitOK
		}
		if p.Stones()%2 == g.engine {
			an, err := g.analyze(ctx, p)
			if err != nil {
				return g.c.status
			}
			col := an.BestMove()
			fmt.Fprintf(g.c.stdout, "c4solve plays %d\n", col+1)
			g.moves += string(rune('1' + col))
			continue
		}
		fmt.Fprintf(g.c.stdout, "your move (1-7, u undo, h hint, q quit): ")
		var line inputLine
		var ok bool
		select {
		case line, ok = <-lines:
		case <-ctx.Done():
			if !outputFailed(g.c.stdout) { // else run says so
				fmt.Fprintf(g.c.stderr, "\nc4solve play: interrupted: %v\n", context.Cause(ctx))
			}
			return exitIncomplete
		}
		if !ok {
			fmt.Fprintf(g.c.stdout, "\nend of input: the game stops at %q\n", g.moves)
			if inErr != nil {
				g.c.bad(fmt.Errorf("reading standard input: %w", inErr))
			}
			return g.c.status
		}
		if line.tooLong {
			fmt.Fprintf(g.c.stdout, "line %d: longer than %d bytes (%q...): type a column 1 to 7, u, h or q\n",
				line.num, maxPlayLine, line.text[:20])
			continue
		}
		switch cmd := strings.TrimSpace(line.text); cmd {
		case "q":
			fmt.Fprintf(g.c.stdout, "quit at %q\n", g.moves)
			return exitOK
		case "u":
			g.undo()
		case "h":
			if an, err := g.analyze(ctx, p); err == nil {
				g.hint(an)
			}
		default:
			if len(cmd) != 1 || cmd[0] < '1' || cmd[0] >= '1'+board.Width {
				if len(cmd) > 40 {
					cmd = cmd[:40] + "..."
				}
				fmt.Fprintf(g.c.stdout, "%q: type a column 1 to 7, u, h or q\n", cmd)
			} else if !p.CanPlay(int(cmd[0] - '1')) {
				fmt.Fprintf(g.c.stdout, "column %s is full\n", cmd)
			} else {
				g.moves += cmd
			}
		}
	}
}

// maxPlayLine bounds the lines play reads, as every command's: a longer
// one is reported and skipped, never held whole in memory.
const maxPlayLine = posfile.MaxLineBytes

// inputLine is a line that play read, or the start of one too long.
type inputLine struct {
	num     int
	text    string // without its newline; its first bytes if tooLong
	tooLong bool   // longer than maxPlayLine: skipped to its end
}

// readLines calls fn with each line of r until the input ends, a read
// fails (the error returned) or fn returns false.
func readLines(r io.Reader, fn func(inputLine) bool) error {
	br := bufio.NewReaderSize(r, maxPlayLine)
	for num := 1; ; num++ {
		line, err := br.ReadSlice('\n')
		l := inputLine{num: num, text: strings.TrimRight(string(line), "\r\n")}
		if errors.Is(err, bufio.ErrBufferFull) {
			l.tooLong = true
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
		}
		if (len(line) > 0 || l.tooLong) && !fn(l) {
			return nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// undo takes back the human's last move and the perfect player's reply.
func (g *game) undo() {
	for i := len(g.moves) - 1; i >= g.start; i-- {
		if i%2 != g.engine {
			g.moves = g.moves[:i]
			return
		}
	}
	fmt.Fprintln(g.c.stdout, "nothing of yours to take back")
}

// analyze scores every move of p, showing progress on a terminal.
func (g *game) analyze(ctx context.Context, p board.Position) (solver.Analysis, error) {
	stop := g.c.showProgress()
	an, err := g.c.s.Analyze(ctx, p)
	stop()
	if err != nil {
		g.c.solveError("the game", g.moves, err)
	}
	return an, err
}

func (g *game) hint(an solver.Analysis) {
	var sb strings.Builder
	sb.WriteString("hint: the score of each column:")
	for col, sc := range an.Scores {
		if an.Legal[col] {
			fmt.Fprintf(&sb, " %d:%d", col+1, sc)
		} else {
			fmt.Fprintf(&sb, " %d:full", col+1)
		}
	}
	fmt.Fprintln(g.c.stdout, sb.String())
}

// draw prints the board, the first player's stones as x (red), the
// second's as o (yellow).
func (g *game) draw(p board.Position) {
	var sb strings.Builder
	sb.WriteString("\n 1 2 3 4 5 6 7\n")
	for row := board.Height - 1; row >= 0; row-- {
		for col := range board.Width {
			switch p.Cell(col, row) {
			case 1:
				sb.WriteString(g.stone("x", "31"))
			case 2:
				sb.WriteString(g.stone("o", "33"))
			default:
				sb.WriteString(" .")
			}
		}
		sb.WriteString("\n")
	}
	fmt.Fprint(g.c.stdout, sb.String())
}

func (g *game) stone(plain, ansi string) string {
	if !g.colour {
		return " " + plain
	}
	return " \033[1;" + ansi + "m●\033[0m"
}

// result prints who won.
func (g *game) result(p board.Position) {
	switch {
	case !p.Won():
		fmt.Fprintf(g.c.stdout, "draw: the board is full (%s)\n", g.moves)
	case (p.Stones()-1)%2 == g.engine:
		fmt.Fprintf(g.c.stdout, "c4solve wins (%s)\n", g.moves)
	default:
		fmt.Fprintf(g.c.stdout, "you win (%s)\n", g.moves)
	}
}
