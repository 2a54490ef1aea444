package main

import (
	"errors"
	"time"
)

// options are the flags of solving and of verify.
type options struct {
	weak    bool
	analyze bool
	pv      bool
	json    bool
	warm    bool
	version bool
	verbose bool
	quiet   bool
	search  searchFlags
	book    bookFlags
	timeout time.Duration
	size    sizeFlag
	from0   bool
	// tableFile is -table-file: where the entries of large subtrees are
	// kept, so that a long solve resumes (solver.TableFile).
	tableFile string
}

// register defines the flags of solving, or with verify, those of verify:
// -analyze and -pv only solve, -warm only verifies (solving takes it only
// to say so, and to hand "c4solve -warm verify FILE" on to verify).
func (o *options) register(fs *flagSet, verify bool) {
	fs.BoolVar(&o.weak, "weak", false, "print only the sign of the score: 1 win, 0 draw, -1 loss")
	fs.BoolVar(&o.json, "json", false, "print each result as a JSON object on a line of its own")
	o.search.register(fs.FlagSet)
	durationVar(fs.FlagSet, &o.timeout, "timeout", 0, "stop after `DURATION` (e.g. 30s; 0: no limit), printing the bounds found")
	fs.BoolVar(&o.verbose, "v", false, "print nodes, time and nodes/s of each solve on standard error")
	fs.BoolVar(&o.quiet, "quiet", false, quietUsage)
	fs.BoolVar(&o.warm, "warm", false, "keep the table from one position to the next")
	if !verify {
		fs.BoolVar(&o.analyze, "analyze", false, "print the score of each move instead: one a column of the board (seven on 7x6, W on -size WxH)")
		fs.BoolVar(&o.pv, "pv", false, "also print a line of perfect play to the end of the game, as columns")
		fs.StringVar(&o.tableFile, "table-file", "", "keep the results of large subtrees in `FILE` as the search runs (written within a quarter second), and load them first, so that a long solve killed part way resumes where it was with the same command (one c4solve at a time; a file it may not write is only read)")
		fs.hide("warm") // taken only to hand "c4solve -warm verify FILE" on to verify
		fs.BoolVar(&o.version, "version", false, "print c4solve's version (module version, commit, Go) and exit")
	}
	o.book.register(fs.FlagSet)
	fs.Var(&o.size, "size", "solve on a board of `WxH`, width x height, as 8x5, instead of 7x6: any with width x (height+1) at most 128 (columns 10 and up are a, b, c, ...; no book but one of that board given by -book)")
	fs.BoolVar(&o.from0, "from0", false, "columns in positions are numbered from 0, as in Steininger's test files")
}

// check refuses flag values and combinations that make no sense.
func (o *options) check() error {
	if err := o.search.check(); err != nil {
		return err
	}
	if o.weak && o.pv {
		return errors.New("-pv needs the exact score: drop -weak")
	}
	return checkTimeout(o.timeout)
}
