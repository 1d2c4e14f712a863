package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/importer"
	"github.com/agyconf/agyconf/internal/jsonmerge"
)

func diffCommand() *cli.Command {
	return &cli.Command{
		Name:      "diff",
		Usage:     "show what a render would change",
		UsageText: "agyconf diff --config PATH [--root DIR] [--stat] [--exit-code]",
		Description: `Decides as render --force --adopt does, changes nothing, and prints one
unified diff per file that render would write or remove: applied with
patch -p1, it gives exactly what that render writes. What a plain render
refuses is listed first, each with what resolves it: an edit of agyconf's
(render --force writes over it, after a backup), something agyconf did not
write (render --adopt), a link, another instance's entry (render
--take-over; never diffed). Where every conflict is an edit, the diff is
exactly what render --force writes. Every string that holds a secret is
shown as <secret>, on both sides.

EXAMPLES:
   agyconf diff --config ~/.config/agyconf
   agyconf diff --config agyconf.hcl --stat --exit-code`,
		Flags: append(applyFlags(),
			&cli.BoolFlag{Name: "stat", Usage: "print a line per file with the lines added and removed, not the diff"},
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when there are differences"},
			formatFlag(),
			quietFlag(),
			// Home Manager plumbing, as render's: the diff a refused switch
			// suggests must run while an inline secret is not decrypted yet.
			&cli.BoolFlag{Name: "defer-secrets", Hidden: true, Usage: "an inline secret that cannot be read yet does not fail the diff: what needs it is shown as a render with --defer-secrets leaves it"},
		),
		Action: runDiff,
	}
}

// refusals are the changes a plain render refuses: the conflicts left
// under --force --adopt, and what those flags resolve.
func refusals(changes []apply.Change) []apply.Change {
	var out []apply.Change
	for _, ch := range changes {
		if ch.Action == apply.Conflict || ch.Refused != "" {
			out = append(out, ch)
		}
	}
	return out
}

// refusalReason is why a plain render refuses a change.
func refusalReason(ch apply.Change) string {
	if ch.Refused != "" {
		return ch.Refused
	}
	return ch.Reason
}

func runDiff(c *cli.Context) error {
	// One plan with render --force --adopt: what the diff shows is what
	// that render writes, byte for byte.
	s, err := decideWith(c, false, false, false, true)
	if err != nil {
		return err
	}
	defer s.close()
	out := s.out(c)
	color := useColor(out, c.String("color"))
	drift := apply.Drift(s.Changes)
	if quiet(c) {
		// As git diff --quiet: nothing printed, exit 1 on differences.
		if len(drift) > 0 {
			return exit(ExitFindings, nil)
		}
		return nil
	}
	if c.String("format") == "json" {
		if err := writeDiffJSON(out, s.Root, drift, apply.Files(s.Changes), s.SecretValues()); err != nil {
			return err
		}
		if len(drift) > 0 && c.Bool("exit-code") {
			return exit(ExitFindings, nil)
		}
		return nil
	}
	secrets := s.SecretValues()
	for _, ch := range refusals(s.Changes) {
		fmt.Fprintf(out, "conflict %s: %s\n", ch.Name(), refusalReason(ch))
	}
	for _, ch := range drift {
		if ch.Action == apply.Keep {
			fmt.Fprintf(out, "%s %s: %s\n", ch.Action, ch.Name(), ch.Reason)
		}
	}
	for _, ch := range apply.Files(s.Changes) {
		if ch.Action == apply.Conflict || ch.Action == apply.Keep {
			continue // left as it is: nothing to diff
		}
		text := shownDiff(ch, secrets)
		if c.Bool("stat") {
			add, del := countLines(text)
			fmt.Fprintf(out, "%s | +%d -%d\n", ch.Path, add, del)
			continue
		}
		if text == "" {
			fmt.Fprintf(out, "%s: changes only in a secret's value (never shown) or in the file's mode\n", ch.Path)
			continue
		}
		writeDiff(out, text, color)
	}
	if len(drift) > 0 && c.Bool("exit-code") {
		return exit(ExitFindings, nil)
	}
	return nil
}

// shownDiff is the unified diff of one file as a person may see it:
// strings that hold secrets redacted where agyconf puts them, and every
// secret's value redacted wherever else it appears (raw or JSON-escaped),
// a user's own entries included.
func shownDiff(ch apply.Change, secrets []string) string {
	before, after := ch.Shown()
	// A file that is not there on one side is /dev/null on it, as git
	// writes it: patch -p1 and git apply then create or remove the file,
	// where "+++ b/FILE" over no lines leaves an empty FILE.
	from, to := "a/"+ch.Path, "b/"+ch.Path
	if ch.Creates() {
		from = "/dev/null"
	}
	if ch.Removes() {
		to = "/dev/null"
	}
	text := udiff.Unified(from, to, before, after)
	return string(apply.RedactValues([]byte(text), withCredentials(secrets, ch.Path, before, after)))
}

// withCredentials adds to secrets what an mcp_config.json or a hooks.json
// shown holds that import would take for a credential
// (importer.CredentialValues, importer.HookCredentialValues): a
// user's own token beside agyconf's entries is no more for a CI log than
// agyconf's secrets are. Longest first, as RedactValues takes them, and
// none too short to redact usefully.
func withCredentials(secrets []string, path string, texts ...string) []string {
	find := importer.CredentialValues
	switch filepath.Base(path) {
	case "mcp_config.json":
	case "hooks.json":
		find = importer.HookCredentialValues
	default:
		return secrets
	}
	out := slices.Clone(secrets)
	for _, text := range texts {
		t, err := jsonmerge.Read([]byte(text), jsonmerge.JSONC)
		if err != nil {
			continue
		}
		for _, v := range find(t.Value()) {
			if len(v) >= 4 && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
}

// countLines counts the added and removed lines of a unified diff: the
// lines of its hunks, so that a removed line of text that begins with
// "---" counts too, and the file headers never do.
func countLines(diff string) (add, del int) {
	inHunk := false
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "@@"):
			inHunk = true
		case !inHunk:
			// The --- a/… and +++ b/… headers come before the first hunk.
		case strings.HasPrefix(l, "+"):
			add++
		case strings.HasPrefix(l, "-"):
			del++
		}
	}
	return add, del
}

// writeDiff prints a unified diff, coloured on a terminal.
func writeDiff(w io.Writer, diff string, color bool) {
	if !color {
		io.WriteString(w, diff)
		return
	}
	for _, l := range strings.SplitAfter(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			fmt.Fprintf(w, "\x1b[1m%s\x1b[0m", strings.TrimSuffix(l, "\n"))
		case strings.HasPrefix(l, "+"):
			fmt.Fprintf(w, "\x1b[32m%s\x1b[0m", strings.TrimSuffix(l, "\n"))
		case strings.HasPrefix(l, "-"):
			fmt.Fprintf(w, "\x1b[31m%s\x1b[0m", strings.TrimSuffix(l, "\n"))
		case strings.HasPrefix(l, "@@"):
			fmt.Fprintf(w, "\x1b[36m%s\x1b[0m", strings.TrimSuffix(l, "\n"))
		default:
			io.WriteString(w, strings.TrimSuffix(l, "\n"))
		}
		if strings.HasSuffix(l, "\n") {
			io.WriteString(w, "\n")
		}
	}
}

// writeDiffJSON prints the diff as one JSON document: the entries that
// change, and per file its unified diff (secrets redacted) and line counts.
func writeDiffJSON(w io.Writer, root string, drift, files []apply.Change, secrets []string) error {
	type fileDiff struct {
		Path    string `json:"path"`
		Action  string `json:"action"`
		Added   int    `json:"added"`
		Removed int    `json:"removed"`
		Diff    string `json:"diff"`
	}
	doc := struct {
		Root    string        `json:"root"`
		InSync  bool          `json:"in_sync"`
		Entries []reportEntry `json:"entries"`
		Files   []fileDiff    `json:"files"`
	}{Root: root, InSync: len(drift) == 0, Entries: []reportEntry{}, Files: []fileDiff{}}
	for _, ch := range drift {
		e := reportEntry{Path: ch.Path, Entry: ch.Unit, Action: string(ch.Action), State: stateWord(ch), Reason: ch.Reason}
		if ch.Refused != "" {
			// What a plain render does with it: refuse it.
			e.Action, e.State, e.Reason = string(apply.Conflict), statusWords[apply.Conflict], ch.Refused
		}
		doc.Entries = append(doc.Entries, e)
	}
	for _, ch := range files {
		if ch.Action == apply.Conflict || ch.Action == apply.Keep {
			continue
		}
		text := shownDiff(ch, secrets)
		add, del := countLines(text)
		doc.Files = append(doc.Files, fileDiff{Path: ch.Path, Action: string(ch.Action), Added: add, Removed: del, Diff: text})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
