package main

import (
	"context"
	"errors"
	"fmt"
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

Positions are printed as they are drawn. At most 1,000,000 a run; asking
for more positions of up to 8 stones of 7x6 than exist is refused at once,
and otherwise a run that finds no new position in a million draws stops.

Exit status: 0 ok, 2 bad usage or too few distinct positions, 3 stopped by
a signal.
`

// runRandom is the random command.
func runRandom(ctx context.Context, cmd *subcommand, args []string, std stdio) error {
	fs := cmd.flagSet(std)
	seed := fs.Uint64("seed", 1, "the seed of the random moves")
	n := fs.Int("n", 100, "how many positions")
	var size sizeFlag
	fs.Var(&size, "size", "positions of a board of `WxH`, as 8x5, instead of 7x6")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	if fs.NArg() != 1 {
		return errors.New("want one argument, the number of stones (run \"c4solve random -h\" for help)")
	}
	stones, err := strconv.Atoi(fs.Arg(0))
	if err != nil {
		return fmt.Errorf("number of stones %s: not a number", quoteShort(fs.Arg(0)))
	}
	if *n < 1 {
		return fmt.Errorf("-n %d: want at least 1", *n)
	}
	// Each position is printed as it is drawn; Ctrl-C or SIGTERM stops.
	print := func(moves string) bool {
		fmt.Fprintln(std.out, posfile.Spell(moves))
		return ctx.Err() == nil
	}
	g, err := board.NewGrid(size.board())
	if err != nil {
		return err
	}
	err = g.RandomPositions(*seed, stones, *n, print)
	if err == nil && ctx.Err() != nil {
		return failed(exitIncomplete, errors.New(stopReason(ctx, ctx.Err())))
	}
	return err
}
