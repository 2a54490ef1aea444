package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"runtime"
	"time"

	"c4solve/board"
	"c4solve/server"
	"c4solve/ttable"
)

const serveHelp = `Answers positions over HTTP:

  GET /solve?pos=MOVES    {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
  GET /analyze?pos=MOVES  score, scores, best moves, a line of perfect play
  GET /                   a page to play and analyse on (/?pos=4453)

/solve answers as the public service connect4.gamesolver.org does, so that
its clients can be pointed here unchanged: score[i] is the score of playing
column i+1 for the side to move, 100 (-full) for a full column; pos=
with no value is the empty board. Errors are JSON, {"error": "..."}, never
a score: 400 for a request without exactly one well-formed pos, 405 for a
method other than GET, 503 with Retry-After for a solve over -timeout, a
request beyond the -queue waiting, or a server that is stopping. All
requests share one table, kept from request to request.

Each request is logged on standard error (time, method, path and query,
status or "gone" for a client that left, milliseconds) unless -quiet.
Connections idle for -idle are closed. -addr :5555 listens on every
interface, 127.0.0.1:5555 (the default) on this machine only.
Ctrl-C or SIGTERM stops the server: solves under way are cancelled, and
it exits 0.
`

// minServeFiles is the fewest file descriptors serve starts with: the
// standard three, the runtime's poller (two), the listener, and room for
// a few connections.
const minServeFiles = 32

// runServe is the serve command.
func runServe(ctx context.Context, cmd *subcommand, args []string, std stdio) error {
	fs := cmd.flagSet(std)
	addr := fs.String("addr", "127.0.0.1:5555", "listen on `HOST:PORT`")
	solvers := fs.Int("solvers", runtime.NumCPU(), "positions solved at once")
	queue := fs.Int("queue", 64, "requests that may wait for a solver; more answer 503 at once")
	full := fs.Int("full", server.DefaultFull, "/solve's score of a full column: outside the scores' range, -18 to 18")
	quiet := fs.Bool("quiet", false, "do not log requests on standard error")
	var idle time.Duration
	durationVar(fs.FlagSet, &idle, "idle", 30*time.Second, "close connections idle for `DURATION`")
	var search searchFlags
	search.register(fs.FlagSet)
	var bf bookFlags
	bf.register(fs.FlagSet)
	var tf timeoutFlag
	tf.register(fs.FlagSet, 10*time.Second, "answer 503 to a request not solved within `DURATION` (0: no limit)")
	var size sizeFlag
	fs.Var(&size, "size", "answer positions of a board of `WxH`, as 8x5, instead of 7x6 (-solvers solvers of one goroutine each, -tt shared out among them, no book, no page)")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err := errors.Join(search.check(), tf.check()); err != nil {
		return err
	}
	maxScore := board.MaxScore
	if !size.standard() {
		maxScore = size.MaxScore()
	}
	if *full >= -maxScore && *full <= maxScore {
		return fmt.Errorf("-full %d: a score a move can have (%d to %d): a full column would look playable; want a number outside that range", *full, -maxScore, maxScore)
	}
	if *addr == "" {
		return errors.New(`-addr "": give HOST:PORT (":5555" listens on every interface)`)
	}
	if idle <= 0 {
		return fmt.Errorf("-idle %v: want a positive duration", idle)
	}
	if *solvers < 1 || *solvers > maxThreads() || *queue < 0 {
		return fmt.Errorf("-solvers %d, -queue %d: want 1 to %d solvers and 0 or more waiting", *solvers, *queue, maxThreads())
	}
	if !size.standard() && bf.name != "" {
		return fmt.Errorf("-book: opening books are of the 7x6 board, and -size is %v", size.Size)
	}
	bk, err := bf.load()
	if err != nil {
		return err
	}
	// Below a few descriptors Go's runtime cannot even start its network
	// poller, and ends the process with a dump: say so first.
	if limit, ok := fileLimit(); ok && limit < minServeFiles {
		return fmt.Errorf("serve needs at least %d file descriptors, and this process may open %d (ulimit -n): raise the limit", minServeFiles, limit)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	cfg := server.Config{Book: bk, Solvers: *solvers, Threads: search.threads, Queue: *queue, Timeout: tf.timeout, Full: *full}
	if size.standard() {
		if cfg.Table, err = search.table(*solvers*search.threads, std.err); err != nil {
			return err
		}
	} else {
		g, err := board.NewGrid(size.Size)
		if err != nil {
			return err
		}
		explicit := false
		fs.Visit(func(fl *flag.Flag) { explicit = explicit || fl.Name == "tt" })
		for range *solvers {
			sz, err := newSized(g, max(search.ttMiB / *solvers, ttable.MinMiB), explicit, search.threads, std.err)
			if err != nil {
				return err
			}
			cfg.Sized = append(cfg.Sized, sz)
		}
	}
	if !*quiet {
		cfg.Log = std.err
	}
	// Requests' contexts derive from base, which a signal cancels: the
	// solves under way then answer 503 at once.
	base, stopAll := context.WithCancelCause(context.Background())
	defer stopAll(nil)
	defer context.AfterFunc(ctx, func() { stopAll(server.ErrStopping) })()
	srv := &http.Server{Handler: server.New(cfg), BaseContext: func(net.Listener) context.Context { return base },
		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: idle, ErrorLog: log.New(std.err, "c4solve serve: ", 0)}
	where := ""
	if host, _, err := net.SplitHostPort(*addr); err == nil && (host == "" || net.ParseIP(host) != nil && net.ParseIP(host).IsUnspecified()) {
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
	stop, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(stop); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	fmt.Fprintln(std.err, "c4solve serve: stopped")
	return nil
}
