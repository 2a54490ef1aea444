package posfile_test

import (
	"fmt"
	"strings"

	"c4solve/posfile"
)

func ExampleFormat_Scan() {
	in := "# two positions and a bad line\n4453 -2\n448\n4455\n"
	err := posfile.Format{}.Scan(strings.NewReader(in), func(l posfile.Line) bool {
		fmt.Printf("line %d: %s, score given: %v %d\n", l.Num, l.Moves, l.HasScore, l.Expected)
		return true
	}, func(e *posfile.LineError) {
		fmt.Println("bad", e)
	})
	fmt.Println(err)
	// Output:
	// line 2: 4453, score given: true -2
	// bad line 3: position 3: '8' is not a column 1-7
	// line 4: 4455, score given: false 0
	// <nil>
}
