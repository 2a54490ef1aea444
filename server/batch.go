package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/posfile"
)

// BatchError is the line of a batch's answer for a position that got no
// answer: a bad position, or a solve stopped (Config.Timeout, a server
// that stops: Error is then ErrStopping's text, and so it is for each
// position after it).
type BatchError struct {
	Pos   string `json:"pos"`
	Error string `json:"error"`
}

// batch answers a POST of positions of one board (size= in the query, as
// for one), one a line (blank lines skipped; `""` is the empty board) or
// a JSON array of strings ("" or `""` the empty board): one JSON object a
// line, in the order given, each as a GET of that position answers it
// (the empty board's pos ""), or a BatchError, written as each is solved
// (Config.Solvers of them at once, ahead of the one written next). Each
// position has its own Config.Timeout. A body over Config.MaxBody bytes
// or of more than Config.MaxBatch positions is refused whole with 413. A
// client that goes away stops the solve under way and the rest; a server
// that stops (ErrStopping) stops them too, and answers each position left
// with its BatchError, "the server is stopping".
func (s *Server) batch(w http.ResponseWriter, r *http.Request, workOf func(pos string) work) {
	_, z, err := s.query(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, int64(s.cfg.MaxBody)))
	if mb := (*http.MaxBytesError)(nil); errors.As(err, &mb) {
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("a body of more than %s: send at most %d, or split the batch", count(s.cfg.MaxBody, "byte", "bytes"), s.cfg.MaxBody))
		return
	} else if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("reading the body: %v", err))
		return
	}
	positions, err := batchPositions(body)
	switch {
	case err == nil && len(positions) == 0:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("no position in the body: POST takes positions in its body, one a line or a JSON array of strings; GET %s?pos=MOVES answers one", r.URL.Path))
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case len(positions) > s.cfg.MaxBatch:
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("%d positions: send at most %d a request", len(positions), s.cfg.MaxBatch))
		return
	}
	if !s.admit(w) {
		return
	}
	defer func() { <-s.slots }()
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	// Config.Solvers positions are solved at once, each with a solver of
	// its own (solveWith), ahead of the one written next; the answers
	// are written in the order given. Every solve has ended when batch
	// returns: ctx ends them early where the client went away.
	ctx, cancel := context.WithCancel(r.Context())
	answers := make([]chan any, len(positions))
	for i := range answers {
		answers[i] = make(chan any, 1)
	}
	var solves errgroup.Group
	solves.SetLimit(1 + s.cfg.Solvers) // the goroutine that starts the solves, and the solves
	solves.Go(func() error {
		for i, pos := range positions {
			if ctx.Err() != nil {
				break
			}
			solves.Go(func() error {
				answers[i] <- s.batchAnswer(ctx, pos, z, workOf(pos))
				return nil
			})
		}
		return nil
	})
	defer solves.Wait()
	defer cancel()
	written, cut := 0, 0 // lines written; of them, positions cut short by the server's stop
lines:
	for i, pos := range positions {
		var answer any
		select {
		case answer = <-answers[i]:
		case <-ctx.Done():
			if !errors.Is(context.Cause(ctx), ErrStopping) {
				break lines // the client went away: nobody reads the rest
			}
			// The server is stopping: the position under way and each
			// one after it get their line, which says so, so that the
			// client can tell a batch cut short from a whole one.
			select {
			case answer = <-answers[i]:
			default:
				answer = BatchError{pos, ErrStopping.Error()}
			}
		}
		if e, ok := answer.(BatchError); ok && e.Error == ErrStopping.Error() {
			cut++
		}
		line, err := json.Marshal(answer)
		if err != nil {
			line, _ = json.Marshal(BatchError{pos, "encoding the answer"})
		}
		if _, err := w.Write(append(line, '\n')); err != nil {
			break
		}
		rc.Flush()
		written++
	}
	if lw, ok := w.(*logWriter); ok {
		lw.note = fmt.Sprintf("%d of %s answered", written-cut, count(len(positions), "position", "positions"))
		if cut > 0 {
			lw.note += fmt.Sprintf(", %d cut short: %v", cut, context.Cause(ctx))
		}
		lw.gone = written < len(positions)
	}
}

// batchAnswer returns the answer of one position of a batch, or its
// BatchError.
func (s *Server) batchAnswer(ctx context.Context, pos string, z board.Size, do work) any {
	b, err := s.parse(pos, z)
	if err != nil {
		return BatchError{pos, fmt.Sprintf("pos %q: %v", clip(pos), err)}
	}
	ctx, cancel := s.limited(ctx)
	defer cancel()
	answer, err := s.solveWith(ctx, b, do)
	if err != nil {
		return BatchError{pos, s.reason(ctx, err)}
	}
	return answer
}

// batchPositions returns the positions of a batch's body: a JSON array of
// strings, or lines, blank ones skipped; `""` is the empty board, "" in
// the positions returned.
func batchPositions(body []byte) ([]string, error) {
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		var positions []string
		if err := json.Unmarshal(t, &positions); err != nil {
			return nil, fmt.Errorf("the body is not a JSON array of strings: %v", err)
		}
		for i, pos := range positions {
			positions[i] = posfile.Unspell(pos)
		}
		return positions, nil
	}
	var positions []string
	for line := range strings.Lines(string(body)) {
		if line = strings.TrimSpace(line); line != "" {
			positions = append(positions, posfile.Unspell(line))
		}
	}
	return positions, nil
}
