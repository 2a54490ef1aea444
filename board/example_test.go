package board_test

import (
	"errors"
	"fmt"

	"c4solve/board"
)

func ExamplePosition_String() {
	p, err := board.Parse("4453")
	if err != nil {
		panic(err)
	}
	fmt.Print(p)
	// Output:
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . o . . .
	// . . o x x . .
	// 1 2 3 4 5 6 7
}

func ExampleParse() {
	p, err := board.Parse("4453")
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Stones(), p.CanPlay(3), p.Height(3), p.Cell(3, 0), p.Cell(3, 1))

	_, err = board.Parse("448")
	fmt.Println(err)
	var pe *board.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Pos)
	}
	// Output:
	// 4 true 2 1 2
	// position 3: '8' is not a column 1-7
	// 3
}

func ExampleGrid_Columns() {
	g, _ := board.NewGrid(board.Standard)
	cols, err := g.Columns("4453", false)
	fmt.Println(cols, err)
	fmt.Println(board.FormatColumns(cols))
	// Output:
	// [3 3 4 2] <nil>
	// 4453
}

func ExamplePosition_IsWinningMove() {
	p, _ := board.Parse("445566") // the first player has three on the bottom row
	for col := 0; col < board.Width; col++ {
		if p.IsWinningMove(col) {
			fmt.Println("column", col+1, "wins")
		}
	}
	// Output:
	// column 3 wins
	// column 7 wins
}
