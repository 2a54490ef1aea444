package doccheck

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blockTimeout is the most a runnable block may take: a runnable block
// takes seconds (0.2 to 2 s each on a 2-core machine with other builds
// running); one that takes longer is marked norun.
const blockTimeout = 60 * time.Second

// norunHint is how a failure says to mark a block that is not to be run.
const norunHint = "open the block with ```sh norun instead of ```sh to have it only checked (bash -n, c4solve's subcommands and flags)"

// A shellBlock is a fenced block of a markdown file whose info string's
// first word is sh, bash, shell or console.
type shellBlock struct {
	file  string   // the markdown file, a slash-separated path from the root
	line  int      // the line of the opening fence
	norun bool     // the info string holds the word norun
	lines []string // the lines between the fences
}

// where names a block in failures: the file, the line of its opening
// fence and the fence itself.
func (b shellBlock) where() string {
	return fmt.Sprintf("%s:%d (the block opened there)", b.file, b.line)
}

// A shellCommand is a command of a block: a line of a script block (with
// the lines it continues by a trailing backslash), or a "$ " line of a
// transcript block with the output shown under it.
type shellCommand struct {
	line int    // its first line in the markdown file
	text string // the command, continuation lines joined by newlines
	want []string
}

// docFiles returns README.md and the markdown files of docs/, as
// slash-separated paths from the root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		files = append(files, "docs/"+filepath.Base(d))
	}
	return files
}

// readShellBlocks returns the shell blocks of the markdown file at file,
// which failures call name.
func readShellBlocks(t *testing.T, file, name string) []shellBlock {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []shellBlock
	var cur *shellBlock
	inFence := false
	for n, line := range strings.Split(string(b), "\n") {
		trimmed := strings.TrimSpace(line)
		if !strings.HasPrefix(trimmed, "```") {
			if cur != nil {
				cur.lines = append(cur.lines, line)
			}
			continue
		}
		if inFence {
			inFence = false
			if cur != nil {
				blocks = append(blocks, *cur)
				cur = nil
			}
			continue
		}
		inFence = true
		info := strings.Fields(strings.TrimPrefix(trimmed, "```"))
		if len(info) > 0 && slices.Contains([]string{"sh", "bash", "shell", "console"}, info[0]) {
			cur = &shellBlock{file: name, line: n + 1, norun: slices.Contains(info[1:], "norun")}
		}
	}
	if cur != nil {
		t.Errorf("%s: the block has no closing ```", cur.where())
	}
	return blocks
}

// commands splits a block into its commands. A block with a line that
// begins with "$ " is a transcript: its commands are those lines, each
// followed by the output it prints; any other block is a script, each
// line a command.
func (b shellBlock) commands() (cmds []shellCommand, transcript bool) {
	for _, l := range b.lines {
		if strings.HasPrefix(l, "$ ") {
			transcript = true
		}
	}
	for i := 0; i < len(b.lines); i++ {
		l := b.lines[i]
		if transcript {
			if !strings.HasPrefix(l, "$ ") {
				if len(cmds) > 0 {
					cmds[len(cmds)-1].want = append(cmds[len(cmds)-1].want, l)
				}
				continue
			}
			l = strings.TrimPrefix(l, "$ ")
		}
		c := shellCommand{line: b.line + 1 + i, text: l}
		for strings.HasSuffix(strings.TrimRight(l, " "), `\`) && i+1 < len(b.lines) {
			i++
			l = b.lines[i]
			c.text += "\n" + l
		}
		if strings.TrimSpace(c.text) != "" {
			cmds = append(cmds, c)
		}
	}
	for i := range cmds {
		for len(cmds[i].want) > 0 && strings.TrimSpace(cmds[i].want[len(cmds[i].want)-1]) == "" {
			cmds[i].want = cmds[i].want[:len(cmds[i].want)-1]
		}
	}
	return cmds, transcript
}

// script joins a block's commands into one shell script.
func script(cmds []shellCommand) string {
	var s strings.Builder
	for _, c := range cmds {
		s.WriteString(c.text + "\n")
	}
	return s.String()
}

// A word is a shell word after quote removal; expands says that it held
// a $ expansion or a command substitution, whose value the test cannot
// know, and quoted holds the text of a single-quoted part (a command
// given to another program, as GNU parallel's).
type word struct {
	text    string
	expands bool
	quoted  string
}

// dupFD matches a redirection that duplicates or closes a descriptor.
var dupFD = regexp.MustCompile(`&[0-9-]+$`)

// simpleCommands splits a command into its simple commands (at |, ||, &&,
// ;, &, parentheses and newlines), each as its words, with comments and
// redirections (and their targets) left out. It knows enough of the shell
// for the commands of the docs, not all of it: bash -n checks the rest.
func simpleCommands(s string) [][]word {
	var (
		cmds   [][]word
		cur    []word
		w      word
		inWord bool
		redir  bool // the next word is a redirection's target
	)
	endWord := func() {
		if !inWord {
			return
		}
		if redir {
			redir = false
		} else {
			cur = append(cur, w)
		}
		w, inWord = word{}, false
	}
	endCmd := func() {
		endWord()
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			if s[i] != '\n' {
				w.text += string(s[i])
				inWord = true
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			w.text += s[i+1 : i+1+j]
			w.quoted += s[i+1 : i+1+j]
			inWord = true
			i += j + 1
		case c == '"':
			j := i + 1
			for ; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' {
					j++
				} else if s[j] == '$' {
					w.expands = true
				}
			}
			w.text += s[i+1 : min(j, len(s))]
			inWord = true
			i = j
		case c == '$' || c == '`':
			w.expands = true
			inWord = true
			if c == '`' {
				j := strings.IndexByte(s[i+1:], '`')
				if j >= 0 {
					i += j + 1
				}
			} else if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				open, close := s[i+1], byte(')')
				if open == '{' {
					close = '}'
				}
				depth := 0
				for j := i + 1; j < len(s); j++ {
					if s[j] == open {
						depth++
					} else if s[j] == close {
						depth--
						if depth == 0 {
							i = j
							break
						}
					}
				}
			}
			w.text += "$"
		case c == '#' && !inWord:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			endCmd()
		case c == '<' || c == '>':
			if inWord && strings.Trim(w.text, "0123456789&") == "" && !w.expands {
				w, inWord = word{}, false // the 2 of 2>
			}
			endWord()
			start := i
			for i+1 < len(s) && strings.IndexByte("<>&|-0123456789", s[i+1]) >= 0 {
				i++
			}
			redir = !dupFD.MatchString(s[start : i+1]) // 2>&1 and >&- have no target
		case c == '|' || c == ';' || c == '&' || c == '(' || c == ')' || c == '\n':
			endCmd()
		case c == ' ' || c == '\t':
			endWord()
		default:
			w.text += string(c)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

// flagSets holds what c4solve -h and c4solve CMD -h say: the commands
// (keys "", "verify", "book generate", ...) and, for each, its flags,
// true where the flag takes a value.
type flagSets struct {
	bin  string
	sets map[string]map[string]bool
}

var (
	usageCommand = regexp.MustCompile(`^  c4solve ([a-z]+) `)
	usageBookCmd = regexp.MustCompile(`^  c4solve book ([a-z]+) `)
	usageFlag    = regexp.MustCompile(`^  -([A-Za-z0-9_-]+)( [^\t ]+)?(\t|$)`)
)

// help returns the output of c4solve ARGS... -h.
func (f *flagSets) help(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(f.bin, append(args, "-h")...).CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("c4solve %s -h: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// flagsOf reads the flags under "Flags:" of a -h text.
func flagsOf(help string) map[string]bool {
	flags := map[string]bool{"h": false, "help": false}
	in := false
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(l, "Flags:") {
			in = true
			continue
		}
		if m := usageFlag.FindStringSubmatch(l); in && m != nil {
			flags[m[1]] = m[2] != ""
		}
	}
	return flags
}

// loadFlagSets asks the c4solve at bin for its commands and their flags.
func loadFlagSets(t *testing.T, bin string) *flagSets {
	t.Helper()
	f := &flagSets{bin: bin, sets: map[string]map[string]bool{}}
	top := f.help(t)
	f.sets[""] = flagsOf(top)
	for _, l := range strings.Split(top, "\n") {
		m := usageCommand.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch m[1] {
		case "book":
			f.sets["book"] = map[string]bool{"h": false, "help": false}
			for _, bl := range strings.Split(f.help(t, "book"), "\n") {
				if bm := usageBookCmd.FindStringSubmatch(bl); bm != nil {
					f.sets["book "+bm[1]] = flagsOf(f.help(t, "book", bm[1]))
				}
			}
		case "help":
			f.sets["help"] = nil // its words are command names
		default:
			f.sets[m[1]] = flagsOf(f.help(t, m[1]))
		}
	}
	if len(f.sets) < 5 || f.sets["book generate"] == nil || len(f.sets[""]) < 5 {
		t.Fatalf("c4solve -h, c4solve book -h: could not read the commands and their flags (got %v)", f.sets)
	}
	return f
}

// isFlag reports whether a word is a flag: a dash, then not a number.
func isFlag(s string) bool {
	return len(s) > 1 && s[0] == '-' && strings.Trim(s, "-0123456789.") != ""
}

// check returns what is wrong with the arguments of a c4solve command: a
// command or a flag that c4solve does not have.
func (f *flagSets) check(args []word) []string {
	var problems []string
	cmd, positional := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		set, known := f.sets[cmd]
		if known && set == nil { // help's words
			return problems
		}
		if isFlag(a.text) {
			name, _, hasValue := strings.Cut(strings.TrimLeft(a.text, "-"), "=")
			if a.expands && strings.Contains(name, "$") {
				continue
			}
			takes, ok := set[name]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s has no flag -%s (%s -h lists its flags)", strings.TrimSpace("c4solve "+cmd), name, strings.TrimSpace("c4solve "+cmd)))
			}
			if takes && !hasValue {
				i++
			}
			continue
		}
		switch {
		case cmd == "book" && !a.expands:
			if _, ok := f.sets["book "+a.text]; !ok {
				return append(problems, fmt.Sprintf("c4solve book has no command %q (c4solve book -h lists them)", a.text))
			}
			cmd = "book " + a.text
		case cmd == "" && !positional && !a.expands && f.sets[a.text] != nil || a.text == "help" && cmd == "":
			cmd = a.text
		default:
			positional = true
		}
	}
	if cmd == "book" {
		problems = append(problems, "c4solve book needs a command (c4solve book -h lists them)")
	}
	return problems
}

// c4solveArgs returns the arguments of a simple command that runs
// c4solve (c4solve, a path ending in /c4solve, go run ./cmd/c4solve, or a
// name that a go build -o NAME ./cmd/c4solve of the same block wrote),
// and whether it runs c4solve.
func c4solveArgs(words []word, built map[string]bool) ([]word, bool) {
	for len(words) > 0 && (strings.Contains(words[0].text, "=") && !strings.HasPrefix(words[0].text, "-") || words[0].text == "exec" || words[0].text == "time") {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, false
	}
	name := words[0].text
	if path.Base(name) == "c4solve" || built[name] {
		return words[1:], true
	}
	if name == "go" && len(words) > 2 && words[1].text == "run" {
		for i, w := range words[2:] {
			if strings.TrimSuffix(w.text, "/") == "./cmd/c4solve" {
				return words[2+i+1:], true
			}
		}
	}
	if name == "go" && len(words) > 2 && words[1].text == "build" && strings.TrimSuffix(words[len(words)-1].text, "/") == "./cmd/c4solve" {
		for i, w := range words[:len(words)-1] {
			if w.text == "-o" {
				built[words[i+1].text] = true
			}
		}
	}
	return nil, false
}

// checkStatic checks a block without running it and returns what is
// wrong: bash -n parses it, no command begins with a dash (a comment's
// wrapped tail), and every c4solve command it gives names a command and
// flags that c4solve has.
func checkStatic(b shellBlock, flags *flagSets) []string {
	var problems []string
	errorf := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	cmds, _ := b.commands()
	out, err := exec.Command("bash", "-n", "-c", script(cmds)).CombinedOutput()
	if err != nil {
		errorf("%s: bash -n does not parse it: %s", b.where(), strings.TrimSpace(string(out)))
	}
	built := map[string]bool{}
	var visit func(line int, text string, depth int)
	visit = func(line int, text string, depth int) {
		for _, words := range simpleCommands(text) {
			if isFlag(words[0].text) {
				errorf("%s:%d: the command %q begins with a dash: the tail of a wrapped line? Join it to the line it belongs to", b.file, line, words[0].text)
				continue
			}
			if args, ok := c4solveArgs(words, built); ok {
				for _, p := range flags.check(args) {
					errorf("%s:%d: %s", b.file, line, p)
				}
				continue
			}
			for _, w := range words {
				if depth == 0 && strings.Contains(w.quoted, "c4solve ") {
					visit(line, w.quoted, depth+1) // a command given to another program
				}
			}
		}
	}
	for _, c := range cmds {
		visit(c.line, c.text, 0)
	}
	return problems
}

// varying matches the fields of -json's output that differ from run to
// run; a block's output and the command's are compared with their values
// masked.
var varying = regexp.MustCompile(`("nodes"|"seconds"):[0-9.eE+-]+`)

// runBlock runs a runnable block in dir, with the c4solve under test
// first on PATH: a transcript command by command, each printing what the
// block shows under it, a script as a whole; each must exit 0.
func runBlock(t *testing.T, b shellBlock, dir, binDir string) {
	t.Helper()
	cmds, transcript := b.commands()
	env := append(os.Environ(), "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(text string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", text)
		cmd.Dir, cmd.Env = dir, env
		// A command the block starts in the background, or a c4solve
		// serve that never ends, goes with the shell at the timeout.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
		cmd.WaitDelay = time.Second
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if ctx.Err() != nil {
			return stdout.String(), fmt.Errorf("took more than %v: a runnable block must take seconds; %s", blockTimeout, norunHint)
		}
		if err != nil {
			return stdout.String(), fmt.Errorf("%v, standard error %q: make it run, or %s", err, lastLines(stderr.String(), 3), norunHint)
		}
		return stdout.String(), nil
	}
	if !transcript {
		if _, err := run(script(cmds)); err != nil {
			t.Errorf("%s: the script failed: %v", b.where(), err)
		}
		return
	}
	for _, c := range cmds {
		out, err := run(c.text)
		if err != nil {
			t.Errorf("%s:%d: $ %s: %v", b.file, c.line, c.text, err)
			continue
		}
		got := strings.Split(strings.TrimRight(out, "\n"), "\n")
		if out == "" {
			got = nil
		}
		for i := range got {
			got[i] = varying.ReplaceAllString(strings.TrimRight(got[i], " "), "$1:N")
		}
		want := make([]string, len(c.want))
		for i, w := range c.want {
			want[i] = varying.ReplaceAllString(strings.TrimRight(w, " "), "$1:N")
		}
		if !outputMatches(got, want) {
			t.Errorf("%s:%d: $ %s\nprinted (\"nodes\" and \"seconds\" masked as N):\n\t%s\nbut the block shows:\n\t%s\nmake the block show what it prints, or, where the output cannot be shown exactly, %s",
				b.file, c.line, c.text, strings.Join(got, "\n\t"), strings.Join(want, "\n\t"), norunHint)
		}
	}
}

// outputMatches reports whether the lines a command printed are those a
// block shows: equal, but that a shown line ending in "..." stands for
// every line that begins with what comes before it.
func outputMatches(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i, w := range want {
		if prefix, cut := strings.CutSuffix(w, "..."); cut && strings.HasPrefix(got[i], prefix) {
			continue
		}
		if got[i] != w {
			return false
		}
	}
	return true
}

// lastLines returns the last n lines of s, joined by " / ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " / ")
}

// buildC4solve builds cmd/c4solve into a temporary directory and returns
// that directory.
func buildC4solve(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "c4solve"), "./cmd/c4solve")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/c4solve: %v\n%s", err, out)
	}
	return dir
}

// TestShellBlocks runs every ```sh block of README.md and docs/*.md
// against a c4solve built from this tree, each in an empty temporary
// directory, and checks those marked norun without running them (see
// the package doc).
func TestShellBlocks(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the blocks with")
	}
	binDir := buildC4solve(t)
	flags := loadFlagSets(t, filepath.Join(binDir, "c4solve"))
	ran, checked := 0, 0
	for _, file := range docFiles(t) {
		for _, b := range readShellBlocks(t, filepath.Join(root, filepath.FromSlash(file)), file) {
			for _, p := range checkStatic(b, flags) {
				t.Error(p)
			}
			if b.norun {
				checked++
			} else {
				ran++
				runBlock(t, b, t.TempDir(), binDir)
			}
		}
	}
	if ran == 0 || checked == 0 {
		t.Fatalf("%d shell blocks run and %d marked norun in README.md and docs/*.md; want some of each: are the fences read right?", ran, checked)
	}
	t.Logf("%d shell blocks run, %d marked norun and checked", ran, checked)
}

// TestSimpleCommands checks the shell words the flag check sees.
func TestSimpleCommands(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{`c4solve -pv 4453               # a line of perfect play`, `[c4solve -pv 4453]`},
		{`c4solve random -seed 3 -n 100 8 | c4solve > fresh8.txt   # 0.1 s`, `[c4solve random -seed 3 -n 100 8] [c4solve]`},
		{`echo 348831577465464783 > 87.txt   # 8x7, 18 stones, c4solve random` + "\n-seed 50", `[echo 348831577465464783] [-seed 50]`},
		{`c4solve "" 4 2>&1 >/dev/null && echo ok`, `[c4solve  4] [echo ok]`},
		{`c4solve -shard ${SLURM_ARRAY_TASK_ID}/16 -o "part$k" <&-`, `[c4solve -shard $/16 -o part$k]`},
		{"parallel 'c4solve book generate -shard {}/16' ::: $(seq 16)", `[parallel c4solve book generate -shard {}/16 ::: $]`},
		{"a \\\n  b; (c)", `[a b] [c]`},
	} {
		var got []string
		for _, words := range simpleCommands(tc.in) {
			var texts []string
			for _, w := range words {
				texts = append(texts, w.text)
			}
			got = append(got, "["+strings.Join(texts, " ")+"]")
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("simpleCommands(%q) = %s; want %s", tc.in, g, tc.want)
		}
	}
}

// TestCheckStaticFails checks that the static check finds what it is for:
// a wrapped comment's tail, a flag or command c4solve lacks, a block the
// shell cannot parse. Each block is written to a file and read back, as
// the docs are.
func TestCheckStaticFails(t *testing.T) {
	binDir := buildC4solve(t)
	flags := loadFlagSets(t, filepath.Join(binDir, "c4solve"))
	for _, tc := range []struct {
		block string
		want  []string
	}{
		{"echo 1 > 87.txt   # 8x7, c4solve random\n-seed 50\n", []string{`x.md:3: the command "-seed" begins with a dash`}},
		{"c4solve -threds 2 4453\n", []string{"x.md:2: c4solve has no flag -threds (c4solve -h lists its flags)"}},
		{"$ c4solve book generate -depth 6 -out b.c4book\n", []string{"x.md:2: c4solve book generate has no flag -out"}},
		{"c4solve book make -depth 6\n", []string{`x.md:2: c4solve book has no command "make"`}},
		{"go build -o /tmp/c4 ./cmd/c4solve\n/tmp/c4 bench -nobok x.txt\n", []string{"x.md:3: c4solve bench has no flag -nobok"}},
		{"parallel 'c4solve book generate -shards {}/16' ::: 1\n", []string{"x.md:2: c4solve book generate has no flag -shards"}},
		{"for k in 1 2; do\n", []string{"x.md:1 (the block opened there): bash -n does not parse it"}},
		{"c4solve -size 8x5 -tt 64 verify -from0 -warm x.txt\nc4solve random -seed 3 -n 10 8 | c4solve -json > f\n", nil},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte("```sh norun\n"+tc.block+"```\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		blocks := readShellBlocks(t, filepath.Join(dir, "x.md"), "x.md")
		got := checkStatic(blocks[0], flags)
		if len(got) != len(tc.want) {
			t.Errorf("block %q: %d failures %q; want %d %q", tc.block, len(got), got, len(tc.want), tc.want)
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], tc.want[i]) {
				t.Errorf("block %q: failure %q; want it to begin %q", tc.block, got[i], tc.want[i])
			}
		}
	}
}
