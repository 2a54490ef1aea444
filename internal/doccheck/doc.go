// Package doccheck checks that the README's words about the tree stay
// true. It has no code, only tests, which read ../../README.md:
//
//   - TestLayout: every file or directory the layout table (the table under
//     "## Layout") names in backquotes exists, and every directory of the
//     repository that holds Go files has a row of its own. The README said
//     for a while that cmd/c4solve held stdio_linux.go and stdio_other.go,
//     deleted long before, and nothing in it of sized.go or engine.go.
//   - TestReadmeLength: the README is at most 400 lines, a manual, and
//     keeps its two commands (solve a position, run the tests) at the top.
//
// The tests run with go test ./..., so a change that moves, adds or
// deletes a package or a file the table names fails until the README says
// so.
package doccheck
