package board

import "strings"

// FromKey returns the 7x6 position whose Key is key (Geometry.FromKey).
func FromKey(key uint64) (Position, error) { return Geometry{}.FromKey(key) }

// draw draws a board of width columns and height rows whose cells hold
// who(col, row), each as cell gives it, the column names (ColumnName)
// below.
func draw(width, height int, who func(col, row int) int, cell func(who int) string) string {
	var sb strings.Builder
	for row := height - 1; row >= 0; row-- {
		for col := 0; col < width; col++ {
			if col > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(cell(who(col, row)))
		}
		sb.WriteByte('\n')
	}
	for col := 0; col < width; col++ {
		if col > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(ColumnName(col))
	}
	sb.WriteByte('\n')
	return sb.String()
}
