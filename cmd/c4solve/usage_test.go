package main

import (
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"
)

// TestUsageInDocs keeps the usage text, the package documentation (go doc)
// and the README from drifting apart: the package doc holds usage.txt
// whole, and the README its list of commands.
func TestUsageInDocs(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	var indented strings.Builder
	for _, l := range strings.Split(strings.TrimRight(usageText, "\n"), "\n") {
		if l != "" {
			indented.WriteString("\t" + l)
		}
		indented.WriteString("\n")
	}
	if !strings.Contains(doc, indented.String()) {
		t.Errorf("the package doc of main.go does not hold usage.txt, indented by a tab:\n%s", indented.String())
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(usageText, "\n") {
		if strings.HasPrefix(l, "  c4solve ") && !strings.Contains(string(readme), strings.TrimSpace(l)) {
			t.Errorf("README.md does not hold the usage line %q", strings.TrimSpace(l))
		}
	}
}
