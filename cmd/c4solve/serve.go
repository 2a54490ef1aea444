package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"time"

	"c4solve/server"
	"c4solve/ttable"
)

const serveUsage = `Usage:
  c4solve serve [flags]

Answers positions over HTTP:

  GET /solve?pos=MOVES    {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
  GET /analyze?pos=MOVES  score, scores, best moves, a line of perfect play
  GET /                   a page to play and analyse on (/?pos=4453)

/solve answers as the public service connect4.gamesolver.org does, so that
its clients can be pointed here unchanged: score[i] is the score of playing
column i+1 for the side to move, 100 (-full) for a full column. A bad
position answers 400 with {"error": "..."}; a solve over -timeout, or a
request beyond the -queue waiting, 503 with Retry-After. All requests
share one table. Ctrl-C or SIGTERM stops the server: solves under way are
cancelled, and it exits 0.
`

// runServe is the serve command.
func runServe(ctx context.Context, args []string, std stdio) int {
	fs := newFlagSet("c4solve serve", serveUsage, std.out, std.err)
	addr := fs.String("addr", "127.0.0.1:5555", "listen on `HOST:PORT`")
	solvers := fs.Int("solvers", runtime.NumCPU(), "positions solved at once")
	queue := fs.Int("queue", 64, "requests that may wait for a solver; more answer 503 at once")
	full := fs.Int("full", server.DefaultFull, "/solve's score of a full column")
	var search searchFlags
	search.register(fs.FlagSet)
	var bf bookFlags
	bf.register(fs.FlagSet)
	var tf timeoutFlag
	tf.register(fs.FlagSet, 10*time.Second, "answer 503 to a request not solved in this long (0: no limit)")
	if st, ok := fs.parse(args); !ok {
		return st
	}
	fail := func(err error) int {
		fmt.Fprintf(std.err, "c4solve serve: %v\n", err)
		return exitBad
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	if err := errors.Join(search.check(), tf.check()); err != nil {
		return fail(err)
	}
	if *solvers < 1 || *solvers > maxThreads || *queue < 0 {
		return fail(fmt.Errorf("-solvers %d, -queue %d: want 1 to %d solvers and 0 or more waiting", *solvers, *queue, maxThreads))
	}
	bk, err := bf.load()
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(err)
	}
	h := server.New(server.Config{
		Table: ttable.New(search.ttMiB), Book: bk, Solvers: *solvers, Threads: search.threads,
		Queue: *queue, Timeout: tf.timeout, Full: *full,
	})
	// Requests' contexts derive from ctx: a signal cancels the solves under
	// way, which then answer at once.
	srv := &http.Server{Handler: h, BaseContext: func(net.Listener) context.Context { return ctx },
		ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(std.err, "c4solve serve: listening on http://%s/\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fail(err)
	case <-ctx.Done():
	}
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		return fail(fmt.Errorf("shutting down: %w", err))
	}
	fmt.Fprintln(std.err, "c4solve serve: stopped")
	return exitOK
}
