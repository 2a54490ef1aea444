package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"runtime"
	"time"

	"c4solve/internal/settings"
	"c4solve/server"
	"c4solve/ttable"
)

const serveHelp = `Answers positions over HTTP:

  GET /solve?pos=MOVES    {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
  GET /analyze?pos=MOVES  score, scores, best moves, a line of perfect play;
                          past -timeout, the bounds found ("incomplete":true)
  POST /solve, /analyze   many positions (one a line, or a JSON array): one
                          JSON line each, in order, as they are solved
  GET /review?pos=MOVES   each move of the game graded: scores, class, accuracy
  GET /move?pos=MOVES&level=N&seed=S
                          the move of a player of level N (1 random to 10
                          perfect); past -timeout, the best move found
  GET /                   a page to play and analyse on (/?pos=4453)

/solve answers as the public service connect4.gamesolver.org does, so that
its clients can be pointed here unchanged: score[i] is the score of playing
column i+1 for the side to move, 100 (-full) for a full column; pos=
with no value, or pos="", is the empty board, answered as "pos":"".
Errors are JSON, {"error": "..."}, never a score: 400 for a request
without exactly one well-formed pos, 405 for a method other than GET (and
POST of a batch), 413 for a batch over 10,000 positions or 1 MiB, 503
with Retry-After for a solve over -timeout (but /analyze's, which
answers what it established), a request beyond the -queue waiting, or a
server that is stopping. The
requests of each board share one table of -tt MiB, kept from request to
request, so that a retry or the next request continues from what was
stored.

Any board the solver takes is answered: size=WxH or width=W&height=H in
the query (/solve?pos=45&size=8x5, /?size=8x5&pos=45 on the page), 4 or
more columns and rows and width x (height+1) at most 128; a bad size, or
one whose scores reach -full, is a 400 that says why. -size is the board
of the requests that name none. Larger boards take longer: 8x5's 45
about a minute on a 2-core machine, past the default -timeout.

A board's table is made when a request first needs it (the default
board's at the start, made resident); at most -boards are kept: a
request of another board releases the one used least recently whose
solves are all done, or, with each solving, waits for one to be done.
So the tables take at most -boards times -tt MiB (a search of a board
other than 7x6 uses its table from 32 MiB up as it grows), beside
-solvers times -threads search goroutines' own tables a board. Where
they do not fit what the process may use, a default -tt is halved until
they do, with a note; a -tt given is refused. -solvers, -queue and
-timeout count the requests of every board together. -book may be given
once for each board: a request uses the book of its board if one is
loaded (7x6: the built-in book unless -book gives one of 7x6, or
-nobook).

Each request is logged on standard error (time, method, path and query,
status or "gone" for a client that left, milliseconds) unless -quiet.
Connections idle for -idle are closed. -addr :5555 listens on every
interface, 127.0.0.1:5555 (the default) on this machine only.
Ctrl-C or SIGTERM stops the server: solves under way are cancelled (a
GET answers 503, a batch "the server is stopping" for each position it
had not answered), and it exits 0.
`

// minServeFiles is the fewest file descriptors serve starts with: the
// standard three, the runtime's poller (two), the listener, and room for
// a few connections.
const minServeFiles = 32

func runServe(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	addr := fs.String("addr", "127.0.0.1:5555", "listen on `HOST:PORT`")
	solvers := fs.Int("solvers", runtime.NumCPU(), "positions solved at once")
	boards := fs.Int("boards", 4, "keep the tables of at most `K` boards between requests, each of -tt MiB")
	queue := fs.Int("queue", 64, "requests that may wait for a solver; more answer 503 at once")
	full := fs.Int("full", server.DefaultFull, "/solve's score of a full column: outside the scores' range, -18 to 18")
	quiet := fs.Bool("quiet", false, "do not log requests on standard error")
	var idle time.Duration
	durationVar(fs.FlagSet, &idle, "idle", 30*time.Second, "close connections idle for `DURATION`")
	var search searchFlags
	search.register(fs.FlagSet)
	var books []string
	fs.Func("book", "answer from the opening book in `FILE` (given again, one for each board size) instead of the built-in one", func(name string) error {
		books = append(books, name)
		return nil
	})
	nobook := fs.Bool("nobook", false, "use no opening book: search every position")
	var timeout time.Duration
	durationVar(fs.FlagSet, &timeout, "timeout", 10*time.Second, "answer 503 to a request not solved within `DURATION` (0: no limit)")
	var size sizeFlag
	fs.Var(&size, "size", "the board of `WxH`, as 8x5, of the requests that name none, instead of 7x6")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := errors.Join(search.check(), checkTimeout(timeout)); err != nil {
		return err
	}
	maxScore := size.board().MaxScore()
	if *full >= -maxScore && *full <= maxScore {
		return fmt.Errorf("-full %d: a score a move can have (%d to %d): a full column would look playable; want a number outside that range", *full, -maxScore, maxScore)
	}
	if *addr == "" {
		return errors.New(`-addr "": give HOST:PORT (":5555" listens on every interface)`)
	}
	if idle <= 0 {
		return fmt.Errorf("-idle %v: want a positive duration", idle)
	}
	if *solvers < 1 || *solvers > maxThreads() || *queue < 0 || *boards < 1 {
		return fmt.Errorf("-solvers %d, -queue %d, -boards %d: want 1 to %d solvers, 0 or more waiting, 1 or more boards", *solvers, *queue, *boards, maxThreads())
	}
	bks, err := loadBooks(books, *nobook)
	if err != nil {
		return err
	}
	// As main refuses fewer than minFiles.
	if limit, ok := fileLimit(); ok && limit < minServeFiles {
		return fmt.Errorf("serve needs at least %d file descriptors, and this process may open %d (ulimit -n): raise the limit", minServeFiles, limit)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if err := serveTablesMiB(&search, *solvers, *boards, std.err); err != nil {
		return err
	}
	cfg := server.Config{Size: size.board(), Books: bks, TableMiB: search.ttMiB, Boards: *boards,
		Solvers: *solvers, Threads: search.threads, Queue: *queue, Timeout: timeout, Full: *full}
	if !*quiet {
		cfg.Log = std.err
	}
	h, err := server.New(cfg)
	if err != nil {
		ln.Close()
		return fmt.Errorf("%w (use -tt to ask for less)", err)
	}
	noteRounded(std.err, search.ttMiB, h.TableMiB())
	// Requests' contexts derive from base, which a signal cancels: the
	// solves under way then answer 503 at once, and a batch under way
	// answers each position left "the server is stopping". The cause
	// names the signal, for the log.
	base, stopAll := context.WithCancelCause(context.Background())
	defer stopAll(nil)
	defer context.AfterFunc(ctx, func() { stopAll(fmt.Errorf("%w (%v)", server.ErrStopping, context.Cause(ctx))) })()
	srv := &http.Server{Handler: h, BaseContext: func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idle, ErrorLog: log.New(std.err, "c4solve serve: ", 0)}
	where := ""
	if host, _, err := net.SplitHostPort(*addr); err == nil && (host == "" || net.ParseIP(host).IsUnspecified()) {
		where = " (every interface)"
	}
	fmt.Fprintf(std.err, "c4solve serve: listening on http://%s/%s\n", ln.Addr(), where)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	fmt.Fprintf(std.err, "c4solve serve: stopping (%v): requests under way answer \"the server is stopping\"\n", context.Cause(ctx))
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	fmt.Fprintln(std.err, "c4solve serve: stopped")
	return nil
}

// serveTablesMiB sizes the tables of serve: a table of -tt MiB for each
// of boards boards, beside the tables of their search goroutines, solvers
// times -threads a board (ttable.Limit.Fit, as every command's): a default
// -tt whose tables do not fit what the process may use is made smaller
// until they do, with a note on stderr; an explicit one that does not fit
// is an error. It sets search.ttMiB to the size of each.
func serveTablesMiB(search *searchFlags, solvers, boards int, stderr io.Writer) error {
	limit := processMemoryLimit()
	asked := search.ttMiB
	mib, err := limit.Fit(ttable.Sizing{MiB: asked, Tables: boards, Explicit: search.explicitTT(),
		OtherMiB: boards * solvers * search.threads * settings.LeafTableMiB})
	goroutines := fmt.Sprintf("with %d solvers of %d search goroutines a board", solvers, search.threads)
	var fe *ttable.FitError
	switch {
	case errors.As(err, &fe) && fe.Explicit:
		return fmt.Errorf("-tt %d for each of %d boards, %s: %s: use -tt, -boards, -solvers or -threads to ask for less", fe.MiB, boards, goroutines, fe.Over())
	case errors.As(err, &fe):
		return fmt.Errorf("even with tables of %d MiB for each of %d boards, %s: %s: use -boards, -solvers or -threads to ask for fewer, or raise the limit", fe.MiB, boards, goroutines, fe.Over())
	case err != nil:
		return err
	}
	if mib != asked {
		fmt.Fprintf(stderr, "c4solve: note: the default tables of %d MiB for each of %d boards do not fit the %d MiB this process may use (%s): using -tt %d\n",
			asked, boards, limit.Bytes>>20, limit.Why, mib)
	}
	search.ttMiB = mib
	return nil
}
