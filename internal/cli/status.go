package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
)

func formatFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "format",
		Value: "text",
		Usage: "output: text, or json (one document on standard output)",
		// Checked when given, before the command reads anything: any
		// other value printed text.
		Action: func(c *cli.Context, v string) error {
			if v != "text" && v != "json" {
				return exit(ExitBadInput, fmt.Errorf("unknown --format %q: use text or json (see agyconf %s --help)", v, c.Command.Name))
			}
			return nil
		},
	}
}

// statusWords describe each decision as the state of an owned entry.
var statusWords = map[apply.Action]string{
	apply.Unchanged: "in sync",
	apply.Create:    "missing",
	apply.Recreate:  "deleted",
	apply.Update:    "outdated",
	apply.Adopt:     "not agyconf's",
	apply.Found:     "found",
	apply.Release:   "stale, found",
	apply.Restore:   "stale, taken",
	apply.Prune:     "stale",
	apply.Keep:      "stale, edited",
	apply.Conflict:  "conflict",
	apply.Pending:   "pending",
}

// stateWord names an entry's state. An unchanged entry with a reason is a
// default agy has set to its own value since; a release is of what
// agyconf found, or of what it leaves where it is without having found
// it (a unit recorded where the layout never wrote, one whose backup is
// gone).
func stateWord(ch apply.Change) string {
	switch {
	case ch.Action == apply.Unchanged && ch.Reason != "":
		return "agy's value"
	case ch.Action == apply.Release && ch.Origin() != apply.OriginFound && ch.Origin() != apply.OriginUnknown:
		return "stale, left"
	}
	return statusWords[ch.Action]
}

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:      "status",
		Usage:     "list the files and entries agyconf owns under a root, and their state",
		UsageText: "agyconf status --config PATH [--root DIR] [--format text|json]",
		Description: `Lists every file and every entry of a shared file the config describes or
agyconf recorded, each with its state: in sync, missing, deleted (agyconf's,
removed by someone), outdated, not recorded, stale (no longer in the config),
stale and edited, conflict, or pending (it needs an inline secret that
cannot be read yet: a render with --defer-secrets leaves it as it is, the
state lists it, and a render that can read the secret writes it). Changes
nothing.

EXAMPLES:
   agyconf status --config ~/.config/agyconf
   agyconf status --config agyconf.hcl --format json | jq '.entries[] | select(.state != "in sync")'`,
		// A secret not decrypted yet is what status reports, as pending,
		// never a reason to fail: status always defers secrets.
		Flags:  append(applyFlags(), formatFlag(), &cli.BoolFlag{Name: "defer-secrets", Value: true, Hidden: true}),
		Action: runStatus,
	}
}

func runStatus(c *cli.Context) error {
	s, err := decide(c, false, false)
	if err != nil {
		return err
	}
	defer s.close()
	var shown []apply.Change
	for _, ch := range s.Changes {
		if ch.Action != apply.Merge {
			shown = append(shown, ch)
		}
	}
	if c.String("format") == "json" {
		return writeReport(s.out(c), s.Root, shown, false)
	}
	out := bufio.NewWriter(s.out(c))
	defer out.Flush()
	writeStatus(out, shown)
	fmt.Fprintf(out, "%s: %d owned or described\n", s.Root, len(shown))
	return nil
}

// writeStatus prints one line per change in three aligned columns —
// state, path, entry of a shared file — then the reason, if any. Widths
// count characters: paths and names may be any UTF-8.
func writeStatus(w io.Writer, changes []apply.Change) {
	stateW, pathW := 0, 0
	for _, ch := range changes {
		stateW = max(stateW, utf8.RuneCountInString(stateWord(ch)))
		if ch.Unit != "" {
			pathW = max(pathW, utf8.RuneCountInString(ch.Path))
		}
	}
	pad := func(s string, n int) string { return s + strings.Repeat(" ", n-utf8.RuneCountInString(s)) }
	for _, ch := range changes {
		line := pad(stateWord(ch), stateW) + "  " + ch.Path
		if ch.Unit != "" {
			line = pad(line, stateW+2+pathW) + "  " + ch.Unit
		}
		if ch.Reason != "" {
			line += ": " + ch.Reason
		}
		fmt.Fprintln(w, line)
	}
}

func cleanCommand() *cli.Command {
	return &cli.Command{
		Name:      "clean",
		Usage:     "remove every file and entry agyconf wrote and nobody edited since",
		UsageText: "agyconf clean --config PATH [--root DIR] [--dry-run]",
		Description: `What to run after dropping agyconf: removes every file, entry of a shared
file and managed block that the config's state records and that is as
agyconf wrote it. Edited ones are kept and listed; everything else in the
files — entries of others, keys agy writes — stays.

EXAMPLES:
   agyconf clean --config ~/.config/agyconf --dry-run
   agyconf clean --config ~/.config/agyconf`,
		Flags: append(applyFlags(),
			&cli.BoolFlag{Name: "dry-run", Usage: "print what clean would remove; change nothing"},
			quietFlag(),
		),
		Action: runClean,
	}
}

func runClean(c *cli.Context) error {
	s, err := decide(c, true, !c.Bool("dry-run"))
	if err != nil {
		return err
	}
	defer s.close()
	if c.Bool("dry-run") {
		report(s.out(c), c.App.ErrWriter, s.Root, s.Changes, "would clean")
		return nil
	}
	return s.execute(c, "cleaned")
}

// reportEntry is one change in the JSON form of check and status.
type reportEntry struct {
	Path   string `json:"path"`
	Entry  string `json:"entry,omitempty"`
	Action string `json:"action"`
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// writeReport prints changes as one JSON document. With drift set, any
// entry means exit 1, as for --check in text.
func writeReport(w io.Writer, root string, changes []apply.Change, drift bool) error {
	doc := struct {
		Root    string        `json:"root"`
		InSync  bool          `json:"in_sync"`
		Entries []reportEntry `json:"entries"`
	}{Root: root, InSync: len(apply.Drift(changes)) == 0, Entries: []reportEntry{}}
	for _, ch := range changes {
		doc.Entries = append(doc.Entries, reportEntry{Path: ch.Path, Entry: ch.Unit, Action: string(ch.Action), State: stateWord(ch), Reason: ch.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	if drift && !doc.InSync {
		return exit(ExitFindings, nil)
	}
	return nil
}
