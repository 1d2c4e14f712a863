package cli_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

const (
	tutorialDoc    = "../../docs/tutorial.md"
	tutorialScript = "testdata/script/tutorial.txtar"
	// tutorialHome is how the tutorial writes the home folder the script
	// knows as $HOME.
	tutorialHome = "/home/me"
)

// TestTutorialMatchesScript keeps docs/tutorial.md and the script that
// runs it in CI (testdata/script/tutorial.txtar, run by TestScripts) one
// and the same: the commands of the tutorial's ```sh blocks, in order, are
// exactly the agyconf and agyhook commands the script runs (with ~ written
// $HOME there), and every file the script keeps under doc/ is shown in the
// tutorial as one fenced block, with $HOME written /home/me. So a command
// or a file changed on one side fails here until the other follows.
func TestTutorialMatchesScript(t *testing.T) {
	doc, err := os.ReadFile(tutorialDoc)
	if err != nil {
		t.Fatal(err)
	}
	ar, err := txtar.ParseFile(tutorialScript)
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
		t.Fatalf("no commands found: %d in %s, %d in %s", len(docCmds), tutorialDoc, len(scriptCmds), tutorialScript)
	}
	if !homeSet {
		t.Errorf("%s runs agyconf before setting HOME (env HOME=$WORK/home): the tutorial's ~ would not be the script's home", tutorialScript)
	}
	if strings.Join(docCmds, "\n") != strings.Join(scriptCmds, "\n") {
		t.Errorf("the commands of %s and %s differ:\ntutorial:\n  %s\nscript:\n  %s",
			tutorialDoc, tutorialScript, strings.Join(docCmds, "\n  "), strings.Join(scriptCmds, "\n  "))
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
		want := strings.ReplaceAll(string(f.Data), "$HOME", tutorialHome)
		if !shown[want] {
			t.Errorf("%s: the file %s is not shown in %s as a fenced block of its own (with $HOME written %s):\n%s",
				tutorialScript, f.Name, tutorialDoc, tutorialHome, want)
		}
	}
	if docFiles == 0 {
		t.Errorf("%s keeps no doc/ files: the tutorial's files would not be tested", tutorialScript)
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

// scriptCommands are the agyconf and agyhook commands a script runs, in
// order, without exec and its ! or ? prefix; homeSet says whether HOME
// was set before the first of them.
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
	}
	return cmds, homeSet
}
