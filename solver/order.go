package solver

// tableMoveScore is the ordering score of the table's move: above any
// orderScore, shifted by tieBits, plus a tiebreak.
const tableMoveScore = 1 << 16

// tieBits is the room below an orderScore for a tiebreak (Geometry.CellLines' numbers, at most 13).
const tieBits = 4
