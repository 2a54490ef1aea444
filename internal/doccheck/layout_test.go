package doccheck

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// A layoutRow is a row of the README's layout table: the directory its
// first cell names (a slash-separated path from the root, no trailing
// slash), the paths its other cells name, and its line in the README.
type layoutRow struct {
	dir   string
	names []string
	line  int
}

// quoted matches a backquoted span of a markdown line.
var quoted = regexp.MustCompile("`([^`]+)`")

var (
	pathLike  = regexp.MustCompile(`^[A-Za-z0-9_.*/-]+$`) // a * for a glob
	extension = regexp.MustCompile(`\.[a-z][a-z0-9]*$`)
)

// isPath reports whether a backquoted span names a file or directory: path
// characters only, and a slash or a file extension in lower case. It leaves
// out Go identifiers (Position64), qualified ones (solver.Solver: a capital
// after the dot), commands (go generate ./...: a space) and the server's
// paths (/solve: a slash first).
func isPath(s string) bool {
	return pathLike.MatchString(s) && !strings.HasPrefix(s, "/") && (strings.Contains(s, "/") || extension.MatchString(s))
}

// readLayout returns the rows of the first table under the heading
// "## Layout" of the README at name.
func readLayout(t *testing.T, name string) []layoutRow {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []layoutRow
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	inSection, inTable := false, false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			if inSection {
				return rows
			}
			inSection = strings.TrimSpace(line) == "## Layout"
		case !inSection:
		case strings.HasPrefix(line, "|"):
			inTable = true
			cells := strings.Split(strings.Trim(line, "| "), "|")
			first := quoted.FindStringSubmatch(cells[0])
			if first == nil {
				continue // the header, or the line under it
			}
			row := layoutRow{dir: strings.TrimSuffix(first[1], "/"), line: n}
			for _, m := range quoted.FindAllStringSubmatch(strings.Join(cells[1:], "|"), -1) {
				if isPath(m[1]) {
					row.names = append(row.names, m[1])
				}
			}
			rows = append(rows, row)
		case inTable:
			return rows // the table has ended
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestLayout checks the README's layout table against the tree: every
// path a row names exists (a bare name in the row's directory, a name
// with a slash from the root, a glob matching something), and every
// directory holding .go files, but testdata and hidden ones, has a row.
func TestLayout(t *testing.T) {
	readme := filepath.Join(root, "README.md")
	rows := readLayout(t, readme)
	if len(rows) == 0 {
		t.Fatalf("%s: no layout table (a table of `dir/` rows under \"## Layout\")", readme)
	}
	named := map[string]bool{}
	for _, r := range rows {
		named[r.dir] = true
		if fi, err := os.Stat(filepath.Join(root, r.dir)); err != nil || !fi.IsDir() {
			t.Errorf("README.md:%d: the layout table's row `%s/` names no directory of the repository", r.line, r.dir)
		}
		for _, name := range r.names {
			rel := strings.TrimSuffix(name, "/")
			if !strings.Contains(rel, "/") {
				rel = r.dir + "/" + rel
			}
			matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil || len(matches) == 0 {
				t.Errorf("README.md:%d: the layout table's row `%s/` names `%s`, but %s does not exist", r.line, r.dir, name, rel)
			}
		}
	}
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".go") {
			dir, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			dirs = append(dirs, filepath.ToSlash(dir))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	for _, dir := range dirs {
		if !named[dir] {
			t.Errorf("%s holds Go files, but no row of README.md's layout table names it: add a row `%s/`", dir, dir)
		}
	}
}

// TestIsPath checks which backquoted spans the layout test takes for
// paths.
func TestIsPath(t *testing.T) {
	for s, want := range map[string]bool{
		"solve.go":          true,
		"reexec_*.go":       true,
		"page/":             true,
		"server/page/":      true,
		"default.c4book":    true,
		"usage.txt":         true,
		"Position64":        false,
		"ttable.Wide":       false,
		"solver.Solver":     false,
		"go generate ./...": false,
		"moves score":       false,
		"/solve":            false,
	} {
		if got := isPath(s); got != want {
			t.Errorf("isPath(%q) = %v; want %v", s, got, want)
		}
	}
}
