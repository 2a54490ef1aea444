// Package doccheck checks that the README's and docs' words about the
// tree and the command, and the comments of the Go code, stay true. It has
// no code, only tests, which read ../../README.md, ../../docs/*.md and
// every Go file of the module:
//
//   - TestComments: every name a comment cites, in backquotes (`Solver`,
//     `ttable.Limit`) or in a form that can only be a name (lower camel
//     case, letters then digits, Type.Member, pkg.Name), is declared in
//     the module, is a package's name or is predeclared; in a Type.Member
//     form, the type has that method or field; and exported docs and
//     package docs cite no unexported name, nor one of an internal package
//     outside internal/. Generated files (z*.go) are not checked: their
//     comments come from the templates (*.tmpl.go), which are. A failure
//     names the file, the line, the name and what is wrong, with a near
//     declared name where there is one; TestCommentsCatch shows it catch
//     stale citations in a small package of its own.
//   - TestLayout: every file or directory the layout table (the table under
//     "## Layout") names in backquotes exists, and every directory of the
//     repository that holds Go files has a row of its own. The README said
//     for a while that cmd/c4solve held stdio_linux.go and stdio_other.go,
//     deleted long before, and nothing in it of sized.go or engine.go.
//   - TestReadmeLength: the README is at most 400 lines, a manual, and
//     keeps its two commands (solve a position, run the tests) at the top.
//   - TestShellBlocks: every shell block (a fenced block whose info string
//     begins with sh, bash, shell or console) of README.md and docs/*.md
//     is run or marked not to be run. A block opened by ```sh is run,
//     against a c4solve built from the tree and first on PATH, in an empty
//     temporary directory, within a minute (it must take seconds): a
//     transcript (lines "$ COMMAND", each followed by its output) command
//     by command, each exiting 0 and printing exactly the lines shown
//     under it ("nodes" and "seconds" of -json compared as any number, and
//     a shown line ending in "..." standing for every line that begins
//     with what comes before it); any other block as one bash -e -o
//     pipefail script that exits 0. A block that cannot run so (a server,
//     a benchmark, minutes or hours of work, files that are not there, a
//     clone) is opened by ```sh norun, and only checked: bash -n parses
//     it, no command begins with a dash (the tail of a wrapped line, as
//     "-seed 50" was in docs/performance.md), and every c4solve it runs
//     (c4solve, a path ending in /c4solve, go run ./cmd/c4solve, a name
//     that the block's go build -o NAME ./cmd/c4solve wrote, or a command
//     in single quotes given to another program) names a command and
//     flags that c4solve CMD -h lists. A failure names the file, the line
//     and what to change, or how to mark the block. Blocks with no info
//     string, or another language (yaml), are not shell and not checked.
//
// The tests run with go test ./..., so a change that moves, adds or
// deletes a package or a file the table names, renames a flag the docs
// use, changes the output a transcript shows or renames a name a comment
// cites fails until the docs say so.
package doccheck
