package main

import (
	"flag"
	"fmt"
	"strings"

	"c4solve/posfile"
)

// checkArguments refuses, before anything is solved, a flag after the
// positions, which would be ignored, and a first argument that is a
// command misspelt: a word of letters that is no position on the board,
// and is near a command's name, or has no letter that is a column of the
// board. Every other argument is a position: one with a bad move is left
// to the batch, which reports it with its own error and solves the
// others.
func checkArguments(args []string, afterDashes bool, opt options, fs *flagSet) error {
	format, err := opt.size.format(opt.from0)
	if err != nil {
		return err
	}
	for i, a := range args {
		if len(a) > 1 && a[0] == '-' && !afterDashes {
			return fmt.Errorf("argument %d %q: flags go before the positions (c4solve [flags] MOVES ...)", i+1, a)
		}
	}
	if a := args0(args); len(a) > 1 && !afterDashes && strings.Trim(a, "abcdefghijklmnopqrstuvwxyz") == "" {
		if _, err := format.Position(a); err != nil {
			return unknownCommand(a, format, fs)
		}
	}
	return nil
}

// unknownCommand is the error for word, a first argument that is no
// position on format's board, where it is a command misspelt: near a
// command's name (isNear: letters wrong, missing, extra or swapped),
// or with no letter that is a column, naming what it most likely
// misspells, a command or a flag of solving ("analyze" is -analyze). It
// is nil where word is a position with a bad move.
func unknownCommand(word string, format posfile.Format, fs *flagSet) error {
	if word == "solve" {
		return fmt.Errorf("unknown command %q: solving takes no command word (c4solve 4453)", word)
	}
	near, nearest := "", 3
	for _, c := range append(subcommands, helpDoc) {
		if d := editDistance(word, c.word()); d < nearest && isNear(d, word) {
			near, nearest = c.word(), d
		}
	}
	if near == "" && hasColumn(word, format) {
		return nil // a position, reported as one
	}
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(word, f.Name); d < nearest && isNear(d, word) {
			near, nearest = "-"+f.Name, d
		}
	})
	if near == "" {
		return fmt.Errorf("unknown command %q (the commands are %s; c4solve -h lists them and the flags)", word, names(append(subcommands, helpDoc)))
	}
	return fmt.Errorf("unknown command %q (did you mean %s?)", word, near)
}

// hasColumn reports whether a letter of word is a column of format's
// board (a, b, c, ... are columns 10, 11, 12, ... of a wide one).
func hasColumn(word string, format posfile.Format) bool {
	for _, r := range word {
		if _, err := format.Position(string(r)); err == nil {
			return true
		}
	}
	return false
}

// editDistance is the optimal string alignment distance of a and b: the
// fewest letters inserted, deleted, changed or swapped with a neighbour
// that turn one into the other.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
