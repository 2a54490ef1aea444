package main

import (
	"context"
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
	for _, l := range strings.Split(strings.TrimRight(usageText(), "\n"), "\n") {
		if l != "" {
			indented.WriteString("\t" + l)
		}
		indented.WriteString("\n")
	}
	if !strings.Contains(doc, indented.String()) {
		t.Errorf("the package doc of main.go does not hold the usage text, indented by a tab:\n%s", indented.String())
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(usageText(), "\n") {
		if strings.HasPrefix(l, "  c4solve ") && !strings.Contains(string(readme), strings.TrimSpace(l)) {
			t.Errorf("README.md does not hold the usage line %q", strings.TrimSpace(l))
		}
	}
}

// TestCommandTable: every command of the table is in the usage text's
// list, its help (c4solve help NAME, NAME -h) starts with its usage line,
// and an unknown name is refused with the table's names.
func TestCommandTable(t *testing.T) {
	usage := usageText()
	for _, cmd := range append(subcommands, bookCommands...) {
		line := cmd.path + " " + cmd.args
		if !strings.Contains(usage+bookUsage(), "  "+line+"  ") {
			t.Errorf("the usage text does not list %q", line)
		}
		args := append(strings.Fields(cmd.path)[1:], "-h")
		code, out, errOut := runCmd(context.Background(), "", args...)
		if code != exitOK || !strings.HasPrefix(out, "Usage:\n  "+line+"\n") && cmd.word() != "book" {
			t.Errorf("c4solve %s: exit %d, stdout %q, stderr %q; want the usage line %q first", strings.Join(args, " "), code, out, errOut, line)
		}
	}
	for _, cmd := range subcommands {
		code, out, _ := runCmd(context.Background(), "", "help", cmd.word())
		if code != exitOK || !strings.HasPrefix(out, "Usage:\n  "+cmd.path) {
			t.Errorf("c4solve help %s: exit %d, stdout %q; want its usage", cmd.word(), code, out)
		}
	}
	if code, _, errOut := runCmd(context.Background(), "", "help", "frobnicate"); code != exitBad ||
		!strings.Contains(errOut, "want one of verify, bench, book, serve, play, review, random, site") {
		t.Errorf("c4solve help frobnicate: exit %d, stderr %q; want 2 and the names", code, errOut)
	}
}
