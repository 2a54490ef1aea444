package main

import (
	"c4solve/board"
	"c4solve/posfile"
)

// sizeFlag is -size: the board, 7x6 unless given.
type sizeFlag struct{ board.Size }

func (f *sizeFlag) String() string {
	return f.board().String()
}

func (f *sizeFlag) Set(s string) error {
	z, err := board.ParseSize(s)
	if err != nil {
		return err
	}
	f.Size = z
	return nil
}

// board returns the board of the flag: 7x6 unless -size named another.
func (f *sizeFlag) board() board.Size { return f.Size.OrStandard() }

// format returns how lines name positions, with columns from 0 if from0.
func (f *sizeFlag) format(from0 bool) (posfile.Format, error) {
	g, err := board.NewGrid(f.board())
	return posfile.Format{Grid: g, From0: from0}, err
}
