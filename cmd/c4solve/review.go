package main

import (
	"context"
	"fmt"
	"strings"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/review"
)

// reviewHelp is the review command's manual; its drops are
// review.LargeDrop's.
var reviewHelp = fmt.Sprintf(`Reviews games: each GAME is the moves of a game from the empty board, as a
position is written (or, with none or "-", each line of standard input is
one). For each move it prints the score of the position before it (for
the side that played it), the score of the move played, the drop from one
to the other, its class and the best columns, then for each player the
counts of each class and the accuracy (the percentage of best moves; none
for a player with no move), and the turning points, the moves that changed
the result. Every score is exact: each position is analysed, from the book
where it holds the position. A move is classed by the result it throws
away and, where it keeps the result, by its drop:

  best        the best score, a drop of 0
  inaccuracy  the same result, a drop of 1 to %[1]d: a win a little slower,
              or a loss a little faster
  mistake     a win thrown to a draw, or a draw to a loss (a turning
              point); or the same result, a drop of %[2]d or more
  blunder     a win thrown to a loss (a turning point)
`, review.LargeDrop-1, review.LargeDrop)

func runReview(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	var opt options
	fs.BoolVar(&opt.json, "json", false, "print each review as a JSON object on a line of its own")
	opt.search.register(fs.FlagSet)
	opt.book.register(fs.FlagSet)
	durationVar(fs.FlagSet, &opt.timeout, "timeout", 0, "stop after `DURATION` (e.g. 30s; 0: no limit), printing what was reviewed")
	fs.Var(&opt.size, "size", "review games on a board of `WxH`, as 8x5, instead of 7x6")
	fs.BoolVar(&opt.quiet, "quiet", false, quietUsage)
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	c, err := newCommand(fs.Name(), opt, std, nil)
	if err != nil {
		return err
	}
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	games := fs.Args()
	total := 0 // of standard input: not known
	if len(games) > 0 && !(len(games) == 1 && games[0] == "-") {
		total = len(games)
	}
	defer c.startLog("game", "reviewed", total)()
	if total > 0 {
		for i, moves := range games {
			l, err := c.format.Position(moves)
			if err != nil {
				c.bad(fmt.Errorf("argument %d %s: %w", i+1, quoteShort(moves), err))
				continue
			}
			if !c.review(ctx, fmt.Sprintf("argument %d", i+1), l) {
				break
			}
		}
		return exit(c.status)
	}
	err = c.format.ScanContext(ctx, std.in, func(l posfile.Line, _ bool) bool {
		return c.review(ctx, fmt.Sprintf("line %d", l.Num), l)
	}, func(e *posfile.LineError) { c.bad(e) })
	if err != nil && ctx.Err() == nil {
		c.bad(fmt.Errorf("reading standard input: %w", err))
	}
	return exit(c.status)
}

// review reviews the game of l and prints the review, or where it stopped
// (where says which game it is), and reports whether to go on.
func (c *command) review(ctx context.Context, where string, l posfile.Line) bool {
	cols, _ := c.format.Grid.Columns(l.Moves, c.format.From0) // l was read from them
	stop := c.showProgress()
	log := review.WithProgress(ctx, func(reviewed int) {
		c.log.begin(fmt.Sprintf("%s %s, move %d of %d", where, posfile.Spell(l.Moves), reviewed+1, len(cols)), c.s)
	})
	rv, err := review.Game(log, c.s, c.format.Grid.Empty(), cols)
	c.log.begin("", nil)
	c.log.count()
	stop()
	if err != nil {
		fmt.Fprintf(c.stderr, "%s: %s %s: %d of %s reviewed: %s\n", c.name, where, posfile.Spell(l.Moves), len(rv.Moves), plural(len(cols), "move"), stopReason(ctx, err))
		c.fail(exitIncomplete)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "game %s\n ply player column score played drop class      best\n", posfile.Spell(l.Moves))
	for _, m := range rv.Moves {
		fmt.Fprintf(&sb, "%4d %6d %6c %5d %6d %4d %-10v %s\n", m.Ply, m.Player, board.ColumnName(m.Column), m.Score, m.Played, m.Drop, m.Class,
			strings.Join(strings.Split(board.FormatColumns(m.Best, false), ""), ",")) // best as 2,4,5
	}
	for i, p := range rv.Players {
		fmt.Fprintf(&sb, "player %d: ", i+1)
		a, ok := p.Accuracy()
		if !ok {
			sb.WriteString("no moves\n")
			continue
		}
		fmt.Fprintf(&sb, "%s, %d best, %s, %s, %s; accuracy %.1f%%\n", plural(p.Moves, "move"),
			p.Best, plural(p.Inaccuracies, "inaccuracy"), plural(p.Mistakes, "mistake"), plural(p.Blunders, "blunder"), a)
	}
	if len(rv.TurningPoints) == 1 {
		sb.WriteString("turning point:")
	} else {
		sb.WriteString("turning points:")
	}
	if len(rv.TurningPoints) == 0 {
		sb.WriteString(" none")
	}
	sep := ""
	for _, m := range rv.Moves {
		if m.Turning() {
			fmt.Fprintf(&sb, "%s ply %d (player %d, column %c: %s to %s)", sep, m.Ply, m.Player, board.ColumnName(m.Column), outcome(m.Score), outcome(m.Played))
			sep = ";"
		}
	}
	if err != nil {
		fmt.Fprintf(&sb, "\nincomplete: %d of %s reviewed", len(rv.Moves), plural(len(cols), "move"))
	}
	c.emit(struct {
		Game string `json:"game"`
		review.Review
		Incomplete bool `json:"incomplete,omitempty"`
	}{posfile.Unspell(l.Moves), rv, err != nil}, sb.String())
	return err == nil
}

// outcome names the result a score gives the side to move.
func outcome(score int) string {
	switch board.WeakScore(score) {
	case 1:
		return "win"
	case -1:
		return "loss"
	}
	return "draw"
}
