package main

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestGolden")

// TestGolden generates the variants of a small template
// (testdata/golden/small.tmpl.go) and compares them with the files
// expected (zsmall*.go.golden; -update rewrites them): names renamed,
// package position's varying names given the variant's suffix, and in the
// 128-bit variant every operator on a bitboard a method of Bits128.
func TestGolden(t *testing.T) {
	j := job{dir: "testdata/golden", templates: []string{"small.tmpl.go"}, variants: []variant{v7x6, v64, v128}, others: []string{}}
	outs, err := j.generate(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) != 3 {
		t.Errorf("%d files generated, want 3: %v", len(outs), slices.Sorted(maps.Keys(outs)))
	}
	for _, name := range slices.Sorted(maps.Keys(outs)) {
		golden := filepath.Join("testdata/golden", name+".golden")
		if *update {
			if err := os.WriteFile(golden, outs[name], 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(outs[name], want) {
			t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, golden, outs[name])
		}
	}
}

// TestTemplateDoesNotTypeCheck: a template with a type error is an error
// that names the template's line, and nothing is written.
func TestTemplateDoesNotTypeCheck(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "bad")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "//go:build ignore\n\npackage bad\n\nfunc f() int { return \"four\" }\n"
	if err := os.WriteFile(filepath.Join(dir, "bad.tmpl.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	j := job{dir: "bad", templates: []string{"bad.tmpl.go"}, variants: []variant{v7x6, v64}}
	err := run(root, []job{j}, false)
	if err == nil || !strings.Contains(err.Error(), "do not type-check") || !strings.Contains(err.Error(), "bad.tmpl.go:5:") {
		t.Errorf("run of a template that does not type-check: %v; want its error, at bad.tmpl.go:5", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "zbad.go")); err == nil {
		t.Errorf("zbad.go written for a template that does not type-check")
	}
}

// TestBrokenGenerated runs gen on a copy of the module whose generated
// files are broken or missing (a generated file of each package that
// does not parse, the solver's glue gone): gen runs, and writes them as
// they were.
func TestBrokenGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("copies the module and generates every variant")
	}
	root := t.TempDir()
	out, err := exec.Command("git", "-C", "../..", "ls-files", "go.mod", "go.sum", "*.go").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	for _, name := range strings.Fields(string(out)) {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	broken := []string{"internal/position/zposition64.go", "internal/position/zgeometry.go", "solver/zsearch64.go", "solver/zengine.go"}
	for _, name := range broken {
		if err := os.WriteFile(filepath.Join(root, name), []byte("package broken\n\nthis is not Go\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(root, "solver/zvariants.go")); err != nil {
		t.Fatal(err)
	}
	if err := run(root, jobs, false); err != nil {
		t.Fatalf("gen on broken generated files: %v", err)
	}
	for _, name := range append(broken, "solver/zvariants.go") {
		got, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("../..", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: gen wrote something else than the tree's", name)
		}
	}
}
