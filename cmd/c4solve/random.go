package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"c4solve/board"
	"c4solve/posfile"
)

const randomHelp = `Prints -n distinct positions of STONES stones, one move string a line,
each reached by uniformly random legal moves from the empty board: the
positions a game in progress asks about. Games that ended on the way and
positions whose side to move wins at once are left out, and mirror images
count as one. The same -seed gives the same positions. Pipe them into
c4solve to get their scores as a benchmark file:

  c4solve random -seed 7 -n 100 8 | c4solve -nobook > random8.txt
  c4solve random -size 9x5 -n 100 12 | c4solve -size 9x5 > random9x5.txt

With -games, it prints -n whole games of uniformly random legal moves
instead, each played to its end (a four or a full board), and takes no
STONES: games to review (c4solve review).

Positions are printed as they are drawn. At most 1,000,000 a run; asking
for more positions of up to 8 stones of 7x6 than exist is refused at once,
and otherwise a run that finds no new position in a million draws stops.

Exit status: 0 ok, 2 bad usage or too few distinct positions, 3 stopped by
a signal.
`

func runRandom(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	seed := fs.Uint64("seed", 1, "the seed of the random moves")
	n := fs.Int("n", 100, "how many positions")
	games := fs.Bool("games", false, "print whole games of random moves instead, played to their end")
	var size sizeFlag
	fs.Var(&size, "size", "positions of a board of `WxH`, as 8x5, instead of 7x6")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	stones := 0
	switch {
	case *games && fs.NArg() > 0:
		return errors.New("-games takes no number of stones: its games are played to their end")
	case !*games && fs.NArg() != 1:
		return errors.New("want one argument, the number of stones (run \"c4solve random -h\" for help)")
	case !*games:
		var err error
		if stones, err = strconv.Atoi(fs.Arg(0)); err != nil {
			return fmt.Errorf("number of stones %s: not a number", quoteShort(fs.Arg(0)))
		}
	}
	if *n < 1 {
		return fmt.Errorf("-n %d: want at least 1", *n)
	}
	g, err := board.NewGrid(size.board())
	if err != nil {
		return err
	}
	// Each position or game is printed as it is drawn; Ctrl-C or SIGTERM
	// stops.
	if *games {
		r := rand.New(rand.NewPCG(*seed, 0))
		for range *n {
			fmt.Fprintln(std.out, board.FormatColumns(g.RandomGame(r), false))
			if ctx.Err() != nil {
				break
			}
		}
	} else {
		err = g.RandomPositions(*seed, stones, *n, func(moves string) bool {
			fmt.Fprintln(std.out, posfile.Spell(moves))
			return ctx.Err() == nil
		})
	}
	if err == nil && ctx.Err() != nil {
		return failed(exitIncomplete, errors.New(stopReason(ctx, ctx.Err())))
	}
	return err
}
