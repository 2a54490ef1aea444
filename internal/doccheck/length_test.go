package doccheck

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// maxReadmeLines is the most the README may hold: a manual (what it is,
// the two commands, install, usage by task, one speed table, links), with
// measurements and history in docs/ and the commit log.
const maxReadmeLines = 400

// TestReadmeLength: the README stays a manual, at most maxReadmeLines
// lines, and keeps its two commands at the top: one that solves a
// position, one that runs the tests.
func TestReadmeLength(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > maxReadmeLines {
		t.Errorf("README.md has %d lines, more than %d: move measurements and history to docs/", n, maxReadmeLines)
	}
	head := b[:min(len(b), 300)]
	for _, cmd := range []string{"go run ./cmd/c4solve 4453", "go test ./..."} {
		if !bytes.Contains(head, []byte(cmd)) {
			t.Errorf("README.md's first lines lack %q", cmd)
		}
	}
}
