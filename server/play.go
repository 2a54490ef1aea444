package server

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"c4solve/board"
	"c4solve/player"
	"c4solve/review"
	"c4solve/solver"
)

// ReviewAnswer is the answer of /review?pos=MOVES: the review of the game
// of MOVES from the empty board (package review's Review, whose JSON
// numbers columns from 1 and turning points by ply).
type ReviewAnswer struct {
	Pos string `json:"pos"`
	review.Review
}

// review answers /review: each move of the game graded against the exact
// scores. The game may be over; each position before a move is analysed
// within Config.Timeout altogether, and a retry continues from the
// table's work.
func (s *Server) review(w http.ResponseWriter, r *http.Request) {
	pos, z, ok := s.position(w, r)
	if !ok {
		return
	}
	g, err := s.boards.grid(z)
	var cols []int
	if err == nil {
		cols, err = g.Columns(pos, false)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("pos %q: %v", clip(pos), err))
		return
	}
	s.answer(w, r, g.Empty(), func(ctx context.Context, sv *solver.Solver, b board.Board) (any, error) {
		rv, err := review.Game(ctx, sv, b, cols)
		if err != nil {
			return nil, err
		}
		return ReviewAnswer{Pos: pos, Review: rv}, nil
	})
}

// MoveAnswer is the answer of /move?pos=MOVES&level=N: the column (1 to
// 7 on 7x6) a player of level N (package player) plays. Exact says
// whether the scores it chose from were all solved in time; Score is the
// score of the move, where it was; Note says what the move is where they
// were not: the best the search established, not proved.
type MoveAnswer struct {
	Pos    string `json:"pos"`
	Level  int    `json:"level"`
	Column int    `json:"column"`
	Exact  bool   `json:"exact"`
	Score  *int   `json:"score,omitempty"`
	Note   string `json:"note,omitempty"`
}

// move answers /move: the move of a player of level= (1 to 10, 10 the
// perfect player and the default), drawn from seed= (a number; the same
// seed and position give the same move) or, without one, from the clock.
// Within Config.Timeout, the move is chosen from exact scores; a search
// still under way then is stopped, and the move is the best that it
// established (solver.Analysis.BestFound), said so.
func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	pos, z, ok := s.position(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	level, seed := player.MaxLevel, uint64(time.Now().UnixNano())
	var err error
	if v := q.Get("level"); q.Has("level") {
		if level, err = strconv.Atoi(v); err != nil || level < player.MinLevel || level > player.MaxLevel {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("level %q: want a whole number from %d to %d", clip(v), player.MinLevel, player.MaxLevel))
			return
		}
	}
	if v := q.Get("seed"); q.Has("seed") {
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("seed %q: want a whole number from 0 to 2^64-1", clip(v)))
			return
		}
	}
	start := time.Now()
	s.run(w, r, pos, z, func(ctx context.Context, sv *solver.Solver, b board.Board) (any, error) {
		an, err := sv.Analyze(ctx, b, false)
		if err != nil && !errors.Is(context.Cause(ctx), errTimeout) {
			return nil, err
		}
		col := player.Choose(an, level, rand.New(rand.NewPCG(seed, uint64(b.Stones()))))
		answer := MoveAnswer{Pos: pos, Level: level, Column: col + 1, Exact: err == nil}
		if err == nil {
			answer.Score = &an.Scores[col]
		} else {
			answer.Note = fmt.Sprintf("best found in %.0f s, not proved", time.Since(start).Seconds())
		}
		return answer, nil
	})
}
