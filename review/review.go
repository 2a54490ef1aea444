// Package review grades the moves of a Connect-Four game, on any board,
// against the exact scores of its positions, as a chess program's game
// review does: for each move, the score of the position before it, the
// score of the move played and of the best moves, the drop from one to the
// other, and a class a player understands (Class), graded by the result
// the move throws away and by the size of its drop, as chess sites grade a
// move by what it costs; for each player, the counts of each class and an
// accuracy figure (Player.Accuracy); and the turning points, the moves
// where the game's result changed (Move.Turning).
//
// Every score is exact: each position of the game is analysed by the
// solver (solver.Solver.Analyze), which answers from its opening book
// where the book holds a move's position. Scores follow Pons' convention
// (package board): from the point of view of the side to move, positive
// wins, 0 draws, negative loses, larger sooner.
package review

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"c4solve/board"
	"c4solve/solver"
)

// Class is how a move compares with the best move of its position: by
// the result it throws away, and within the same result by its drop (the
// best score less the move's), the larger of the two grades. The zero
// value is Best.
type Class int

const (
	// Best is a move of the position's best score.
	Best Class = iota
	// Inaccuracy keeps the result and drops less than LargeDrop: a win
	// a little slower, or a loss a little faster.
	Inaccuracy
	// Mistake loses half the result (a win becomes a draw, or a draw a
	// loss), or keeps the result and drops LargeDrop or more: a win
	// much slower, or a loss much faster.
	Mistake
	// Blunder turns a win into a loss.
	Blunder
)

// LargeDrop is the smallest drop that makes a move that keeps the result a
// Mistake rather than an Inaccuracy. A drop of d is a win d of the
// winner's stones later, or a loss d stones sooner: 5 is a game 10 plies
// longer or shorter, a quarter of 7x6's 42 cells, where a drop of 1 or 2
// is a stone or two. Chess sites grade a move by what it costs in the same
// way (lichess by the drop in the chance of winning: 10 points an
// inaccuracy, 20 a mistake, 30 a blunder); here the result is exact, so
// the classes of a changed result stay, and the drop grades the moves
// that keep it.
const LargeDrop = 5

// classNames are the classes as the command and JSON print them.
var classNames = [...]string{Best: "best", Inaccuracy: "inaccuracy", Mistake: "mistake", Blunder: "blunder"}

// String returns the class's name: best, inaccuracy, mistake or blunder.
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return fmt.Sprintf("Class(%d)", int(c))
	}
	return classNames[c]
}

// MarshalText writes the class's name, as JSON prints it.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class's name, as MarshalText writes it.
func (c *Class) UnmarshalText(text []byte) error {
	for k, name := range classNames {
		if string(text) == name {
			*c = Class(k)
			return nil
		}
	}
	return fmt.Errorf("class %q: want best, inaccuracy, mistake or blunder", text)
}

// classify returns the class of a move of score played in a position of
// score best (played <= best).
func classify(best, played int) Class {
	from, to := board.WeakScore(best), board.WeakScore(played)
	switch {
	case played == best:
		return Best
	case from == 1 && to == -1:
		return Blunder
	case from != to || best-played >= LargeDrop:
		return Mistake
	}
	return Inaccuracy
}

// Move is the review of one move of the game, a plain value. Its JSON
// (MarshalJSON) numbers columns from 1, as programs read them.
type Move struct {
	Ply    int // the move's number in the game, from 1 for the first stone of the board
	Player int // who played it: 1 the first player, 2 the second
	Column int // the column played, 0-based
	// Score is the score of the position before the move, for the side
	// that played it: its best move's. Played is the score of the move
	// played, for the same side; Drop is Score - Played, 0 for a best
	// move.
	Score, Played, Drop int
	Best                []int // the columns (0-based) of the best moves, in column order
	Class               Class
}

// Turning reports whether the move changed the game's result with perfect
// play (a win to a draw or a loss, a draw to a loss): a turning point. Each
// is a Mistake or a Blunder; a Mistake by its drop alone is none.
func (m Move) Turning() bool { return board.WeakScore(m.Score) != board.WeakScore(m.Played) }

// moveJSON is a Move as MarshalJSON writes it.
type moveJSON struct {
	Ply    int   `json:"ply"`
	Player int   `json:"player"`
	Column int   `json:"column"`
	Score  int   `json:"score"`
	Played int   `json:"played"`
	Drop   int   `json:"drop"`
	Loss   int   `json:"loss"`
	Class  Class `json:"class"`
	Best   []int `json:"best"`
}

// MarshalJSON writes the move as programs read it: {"ply", "player",
// "column", "score", "played", "drop", "loss", "class", "best"}, its
// columns numbered from 1, as move strings number them, and "loss" the
// drop under the name the first clients read.
func (m Move) MarshalJSON() ([]byte, error) {
	return json.Marshal(moveJSON{m.Ply, m.Player, m.Column + 1, m.Score, m.Played, m.Drop, m.Drop, m.Class, shift(m.Best, 1)})
}

// UnmarshalJSON reads a move as MarshalJSON writes it.
func (m *Move) UnmarshalJSON(b []byte) error {
	var j moveJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*m = Move{Ply: j.Ply, Player: j.Player, Column: j.Column - 1, Score: j.Score, Played: j.Played, Drop: j.Drop, Best: shift(j.Best, -1), Class: j.Class}
	return nil
}

// shift returns a new slice (never nil: JSON's [] for none) of cols each
// plus d.
func shift(cols []int, d int) []int {
	s := make([]int, len(cols))
	for i, col := range cols {
		s[i] = col + d
	}
	return s
}

// Player sums up one player's moves, a plain value: the zero value is a
// player with no move. Its JSON (MarshalJSON) adds the accuracy.
type Player struct {
	Moves        int `json:"moves"`
	Best         int `json:"best"`
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

// Accuracy returns the percentage of the player's moves that were best
// moves (Best), and false for a player with no move, who has none.
func (p Player) Accuracy() (float64, bool) {
	if p.Moves == 0 {
		return 0, false
	}
	return 100 * float64(p.Best) / float64(p.Moves), true
}

// MarshalJSON writes the player's counts, as the field tags name them,
// and "accuracy", Accuracy rounded to a tenth, null for a player with no
// move.
func (p Player) MarshalJSON() ([]byte, error) {
	type counts Player // without the method
	var accuracy *float64
	if a, ok := p.Accuracy(); ok {
		a = math.Round(a*10) / 10
		accuracy = &a
	}
	return json.Marshal(struct {
		counts
		Accuracy *float64 `json:"accuracy"`
	}{counts(p), accuracy})
}

// add counts a move of class c.
func (p *Player) add(c Class) {
	p.Moves++
	*[...]*int{Best: &p.Best, Inaccuracy: &p.Inaccuracies, Mistake: &p.Mistakes, Blunder: &p.Blunders}[c]++
}

// Review is the review of a game, a plain value (Game makes it). Its JSON
// is that of programs (the command's -json, the server's /review), with
// Moves and TurningPoints [] where there are none (Game makes them
// non-nil) and without Nodes.
type Review struct {
	Moves   []Move    `json:"moves"`
	Players [2]Player `json:"players"` // the first player's, then the second's
	// TurningPoints are the plies (Move.Ply) of the moves that changed
	// the game's result (Move.Turning).
	TurningPoints []int `json:"turning_points"`
	// Nodes is the number of positions the analyses searched.
	Nodes uint64 `json:"-"`
}

// Game reviews the moves cols (0-based columns), played from start, a
// position of s's board, with s: each position before a move is
// analysed. It stops at the first error: a column that cannot be played
// (with what the moves are so far), a move after the game is over, or
// ctx's end, when it returns the moves reviewed so far with the error.
func Game(ctx context.Context, s *solver.Solver, start board.Board, cols []int) (Review, error) {
	r := Review{Moves: []Move{}, TurningPoints: []int{}}
	p := start
	progress, _ := ctx.Value(progressKey{}).(func(int))
	for i, col := range cols {
		if progress != nil {
			progress(i)
		}
		ply := p.Stones() + 1
		switch {
		case p.Over():
			return r, fmt.Errorf("move %d (ply %d): the game is already over", i+1, ply)
		case col < 0 || col >= p.Grid().Width || !p.CanPlay(col):
			return r, fmt.Errorf("move %d (ply %d): column %c cannot be played", i+1, ply, board.ColumnName(col))
		}
		an, err := s.Analyze(ctx, p, false)
		r.Nodes += an.Nodes
		if err != nil {
			return r, fmt.Errorf("move %d (ply %d): %w", i+1, ply, err)
		}
		m := Move{Ply: ply, Player: 1 + p.Stones()%2, Column: col, Score: an.Lower, Played: an.Scores[col], Best: an.Best()}
		m.Drop, m.Class = m.Score-m.Played, classify(m.Score, m.Played)
		if m.Turning() {
			r.TurningPoints = append(r.TurningPoints, m.Ply)
		}
		r.Players[m.Player-1].add(m.Class)
		r.Moves = append(r.Moves, m)
		p.Play(col)
	}
	return r, nil
}

// WithProgress returns a copy of ctx that carries f: Game, given it,
// calls f with the number of moves reviewed before it analyses each move,
// on Game's goroutine, so that a long review (minutes, on a board larger
// than 7x6) can say where it is. A hook carried by the context, as
// net/http/httptrace's are, leaves Game's signature as it is.
func WithProgress(ctx context.Context, f func(reviewed int)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressKey is the key of WithProgress's value.
type progressKey struct{}
