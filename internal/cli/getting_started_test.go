package cli_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

const (
	pageDoc    = "../../docs/getting-started.md"
	pageScript = "testdata/script/getting_started.txtar"
	// pageHome is how the page writes the home folder the script
	// knows as $HOME.
	pageHome = "/home/me"
)

// TestGettingStartedMatchesScript keeps docs/getting-started.md and the
// script that runs it in CI (testdata/script/getting_started.txtar, run by
// TestScripts) one and the same: the commands of the page's ```sh blocks,
// in order, are exactly the agyconf and agyhook commands and the cd into
// the home the script runs (with ~ written $HOME there); every file the
// script keeps under doc/ — the configs the page shows, and doc/*.out, the
// outputs the script compares whole with what agyconf prints — is shown
// in the page as one fenced block, with $HOME written /home/me; and every
// stub program the script puts on PATH (bin/…) is named in the page, whose
// outputs assume it. So a command, a file or an output changed on one side
// fails here until the other follows.
func TestGettingStartedMatchesScript(t *testing.T) {
	doc, err := os.ReadFile(pageDoc)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(pageScript)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(doc))

	var docCmds []string
	for _, b := range blocks {
		if b.lang != "sh" {
			continue
		}
		for _, line := range strings.Split(b.body, "\n") {
			if cmd := docCommand(line); cmd != "" {
				docCmds = append(docCmds, cmd)
			}
		}
	}
	scriptCmds, homeSet := scriptCommands(string(ar.Comment))
	if len(docCmds) == 0 || len(scriptCmds) == 0 {
		t.Fatalf("no commands found: %d in %s, %d in %s", len(docCmds), pageDoc, len(scriptCmds), pageScript)
	}
	if !homeSet {
		t.Errorf("%s runs agyconf before setting HOME (env HOME=$WORK/home): the page's ~ would not be the script's home", pageScript)
	}
	if strings.Join(docCmds, "\n") != strings.Join(scriptCmds, "\n") {
		t.Errorf("the commands of %s and %s differ:\npage:\n  %s\nscript:\n  %s",
			pageDoc, pageScript, strings.Join(docCmds, "\n  "), strings.Join(scriptCmds, "\n  "))
	}

	shown := map[string]bool{}
	for _, b := range blocks {
		shown[b.body] = true
	}
	docFiles := 0
	for _, f := range ar.Files {
		if !strings.HasPrefix(f.Name, "doc/") {
			continue
		}
		docFiles++
		want := strings.ReplaceAll(string(f.Data), "$HOME", pageHome)
		if !shown[want] {
			t.Errorf("%s: the file %s is not shown in %s as a fenced block of its own (with $HOME written %s):\n%s",
				pageScript, f.Name, pageDoc, pageHome, want)
		}
	}
	if docFiles == 0 {
		t.Errorf("%s keeps no doc/ files: the page's files would not be tested", pageScript)
	}
	stubs := 0
	for _, f := range ar.Files {
		if name, ok := strings.CutPrefix(f.Name, "bin/"); ok {
			stubs++
			if !strings.Contains(string(doc), "`"+name+"`") {
				t.Errorf("%s puts the stub %s on PATH, and %s does not name it: its outputs assume it", pageScript, name, pageDoc)
			}
		}
	}
	if stubs == 0 {
		t.Errorf("%s puts no stub program on PATH (bin/…): the page says it does", pageScript)
	}
}

type fencedBlock struct {
	lang string
	body string // the lines between the fences, each ending in \n
}

// fencedBlocks returns the ``` blocks of a markdown text, in order.
func fencedBlocks(md string) []fencedBlock {
	var out []fencedBlock
	var cur *fencedBlock
	for _, line := range strings.SplitAfter(md, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			cur = &fencedBlock{lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
		case cur != nil && trimmed == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.body += trimmed + "\n"
		}
	}
	return out
}

// trailingComment is a shell comment after a command: a # after blanks.
var trailingComment = regexp.MustCompile(`\s+#.*$`)

// docCommand is a line of a ```sh block as the script would run it: no
// comment, ~ as $HOME, words separated by one space; "" for a blank or
// comment line.
func docCommand(line string) string {
	line = strings.TrimSpace(trailingComment.ReplaceAllString(line, ""))
	if line == "" || strings.HasPrefix(line, "#") {
		return ""
	}
	words := strings.Fields(line)
	for i, w := range words {
		if w == "~" || strings.HasPrefix(w, "~/") {
			words[i] = "$HOME" + strings.TrimPrefix(w, "~")
		}
	}
	return strings.Join(words, " ")
}

// scriptCommands are the agyconf and agyhook commands a script runs, and
// its cd into the home, in order, without exec and its ! or ? prefix;
// homeSet says whether HOME was set before the first of them.
func scriptCommands(script string) (cmds []string, homeSet bool) {
	for _, line := range strings.Split(script, "\n") {
		words := strings.Fields(line)
		if len(words) > 0 && (words[0] == "!" || words[0] == "?") {
			words = words[1:]
		}
		if len(words) >= 2 && words[0] == "env" && strings.HasPrefix(words[1], "HOME=") && len(cmds) == 0 {
			homeSet = true
		}
		if len(words) >= 2 && words[0] == "exec" && (words[1] == "agyconf" || words[1] == "agyhook") {
			cmds = append(cmds, strings.Join(words[1:], " "))
		}
		if len(words) == 2 && words[0] == "cd" && strings.HasPrefix(words[1], "$HOME") {
			cmds = append(cmds, strings.Join(words, " "))
		}
	}
	return cmds, homeSet
}
