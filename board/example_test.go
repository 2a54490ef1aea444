package board_test

import (
	"errors"
	"fmt"

	"c4solve/board"
)

func ExampleBoard_Draw() {
	g, _ := board.NewGrid(board.Standard)
	b, err := g.Parse("4453", false)
	if err != nil {
		panic(err)
	}
	fmt.Print(b.Draw(func(who int) string { return ".xo"[who : who+1] }))
	// Output:
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . . . . .
	// . . . o . . .
	// . . o x x . .
	// 1 2 3 4 5 6 7
}

func ExampleGrid_Parse() {
	g, _ := board.NewGrid(board.Standard)
	b, err := g.Parse("4453", false)
	if err != nil {
		panic(err)
	}
	fmt.Println(b.Stones(), b.CanPlay(3), b.Height(3), b.Cell(3, 0), b.Cell(3, 1))

	_, err = g.Parse("448", false)
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
	fmt.Println(board.FormatColumns(cols, false))
	// Output:
	// [3 3 4 2] <nil>
	// 4453
}

func ExampleBoard_IsWinningMove() {
	g, _ := board.NewGrid(board.Standard)
	b, _ := g.Parse("445566", false) // the first player has three on the bottom row
	for col := range g.Width {
		if b.IsWinningMove(col) {
			fmt.Println("column", col+1, "wins")
		}
	}
	// Output:
	// column 3 wins
	// column 7 wins
}
