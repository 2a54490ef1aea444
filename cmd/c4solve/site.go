package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"c4solve/server"
)

const siteHelp = `Writes into the folder DIR (-o, made if need be) a static site: the page
c4solve serve gives (analysis board, play at levels 1-10, review, every
board size, links that keep the position), answered in the browser by
the engine built for WebAssembly, with the built-in 7x6 opening book. Any
static file server serves it, with no c4solve process running:

  c4solve site -o /tmp/site && cd /tmp/site && python3 -m http.server

then open http://localhost:8000/. The files:

  index.html     the page
  c4solve.wasm   the engine and its book (web/main.go, built here)
  wasm_exec.js   Go's loader of it, from the Go that built it
  c4solve.mjs    the JavaScript module the page asks (web/)
  worker.js      the Web Worker the searches run in (web/)

The engine is built from c4solve's source, so run this in the source tree
(or a folder below it), with Go installed: go run ./cmd/c4solve site -o DIR.
Searches in the browser run at one thread, with a table of -tt MiB of
each board (64: the page's memory), and stop after 10 s as serve's do by
default (-timeout); -workers Web Workers share an analysis's moves (1: see
docs/web.md, "Several workers").

Exit status: 0 ok, 2 bad usage or a failed build or write.
`

// siteFiles are the files of web/ that the site holds as they are.
var siteFiles = []string{"c4solve.mjs", "worker.js"}

func runSite(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	dir := fs.String("o", "", "write the site into `DIR`")
	var timeout time.Duration
	durationVar(fs.FlagSet, &timeout, "timeout", 10*time.Second, "the page's searches stop after `DURATION`, answering the bounds and best move found (0: no limit)")
	tt := fs.Int("tt", 64, "each board's table in the browser, `MiB`")
	workers := fs.Int("workers", 1, "the Web Workers that share an analysis's moves, `N`, each with its own table")
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	switch {
	case *tt < 1 || *tt > 2048:
		return fmt.Errorf("-tt %d: want 1 to 2048 MiB (a browser's memory)", *tt)
	case *workers < 1 || *workers > 16:
		return fmt.Errorf("-workers %d: want 1 to 16", *workers)
	case timeout < 0:
		return fmt.Errorf("-timeout %v: want 0 (no limit) or more", timeout)
	}
	if *dir == "" {
		return errors.New("want -o DIR, the folder to write the site into")
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	root, err := sourceRoot()
	if err != nil {
		return err
	}
	if _, err := exec.LookPath("go"); err != nil {
		return errors.New("the engine is built with Go, and there is no go command on PATH: install Go (https://go.dev/dl/)")
	}
	// web/build.sh writes c4solve.wasm and wasm_exec.js.
	build := exec.CommandContext(ctx, "sh", filepath.Join(root, "web", "build.sh"), *dir)
	build.Stdout, build.Stderr = std.err, std.err
	if err := build.Run(); err != nil {
		return fmt.Errorf("building the engine for WebAssembly (web/build.sh in %s): %w", root, err)
	}
	for _, name := range siteFiles {
		b, err := os.ReadFile(filepath.Join(root, "web", name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(*dir, name), b, 0o644); err != nil {
			return err
		}
	}
	page, err := sitePage(engineSettings{timeout: timeout, tableMiB: *tt, workers: *workers})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(*dir, "index.html"), page, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(std.err, "c4solve site: wrote %s: serve it with any static file server (cd %s && python3 -m http.server)\n", *dir, *dir)
	return nil
}

// engineSettings are the settings of the engine in the browser that the
// page gives c4solve.mjs (its configure).
type engineSettings struct {
	timeout           time.Duration
	tableMiB, workers int
}

// sitePage returns the page of c4solve serve with the element that makes
// it ask the engine in the browser (c4solve.mjs) instead of a server, set
// as es says.
func sitePage(es engineSettings) ([]byte, error) {
	page, err := fs.ReadFile(server.Page(), "index.html")
	if err != nil {
		return nil, err
	}
	const at = `<meta charset="utf-8">` + "\n"
	if !bytes.Contains(page, []byte(at)) {
		return nil, errors.New("the page has no charset element to put the engine's after")
	}
	meta := fmt.Sprintf(`<meta name="c4solve-engine" content="./c4solve.mjs" data-timeout="%g" data-table-mib="%d" data-workers="%d">`+"\n",
		es.timeout.Seconds(), es.tableMiB, es.workers)
	return bytes.Replace(page, []byte(at), []byte(at+meta), 1), nil
}

// sourceRoot returns the folder of c4solve's source that holds the working
// directory: the first, going up, with a go.mod of module c4solve and web/.
func sourceRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module c4solve\n")) {
			if _, err := os.Stat(filepath.Join(dir, "web", "main.go")); err == nil {
				return dir, nil
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("the engine is built from c4solve's source, and the working directory is not in it: run this in the clone of c4solve (go run ./cmd/c4solve site -o DIR)")
		}
		dir = up
	}
}
