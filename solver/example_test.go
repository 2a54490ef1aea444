package solver_test

import (
	"context"
	"fmt"

	"c4solve/board"
	"c4solve/solver"
)

func Example() {
	g, _ := board.NewGrid(board.Standard)
	b, err := g.Parse("4455", false)
	if err != nil {
		panic(err)
	}
	s, err := solver.New(g, 16, 2)
	if err != nil {
		panic(err)
	}
	r, err := s.Solve(context.Background(), b)
	if err != nil {
		panic(err)
	}
	// The first player wins with its fourth stone: 22 - 4.
	fmt.Println(r.Score)
	// Output: 18
}

func ExampleSolver_Analyze() {
	// A late position of Pons' Test_L3_R1 set, which scores 1.
	g, _ := board.NewGrid(board.Standard)
	b, _ := g.Parse("7422341735647741166133573473242566", false)
	s, _ := solver.New(g, 16, 1)
	an, _ := s.Analyze(context.Background(), b, false)
	for col, sc := range an.Scores {
		if an.Legal[col] {
			fmt.Printf("column %d: %d\n", col+1, sc)
		} else {
			fmt.Printf("column %d: full\n", col+1)
		}
	}
	// Output:
	// column 1: -3
	// column 2: 1
	// column 3: full
	// column 4: full
	// column 5: -4
	// column 6: 1
	// column 7: full
}
