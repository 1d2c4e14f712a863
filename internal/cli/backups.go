package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
)

func backupsCommand() *cli.Command {
	return &cli.Command{
		Name:      "backups",
		Usage:     "list the backups agyconf kept of what it overwrote, and how to restore one",
		UsageText: "agyconf backups --config PATH [--root DIR] [--format text|json]\n   agyconf backups show ID|PATH --config PATH [--root DIR]",
		Description: `agyconf backs up every piece of content it overwrites without having
written it — a file or an entry taken over with --adopt, an edit overwritten
with --force, the first change it makes to something it found — each time,
never replacing an earlier backup, in the state folder's backups/ (mode
0600; secrets agyconf writes are redacted). They are never removed by
agyconf; when agyconf lets go of a file or an entry (the config drops it,
or clean) it gives the latest one back by itself.

Lists the config instance's backups, oldest first, each with the command
that restores it by hand. "show" prints one: by ID, or the latest of a PATH
below the root.

EXAMPLES:
   agyconf backups --config ~/.config/agyconf
   agyconf backups show .gemini/config/mcp_config.json --config ~/.config/agyconf`,
		Flags:  append(applyFlags(), formatFlag()),
		Action: runBackups,
		Subcommands: []*cli.Command{{
			Name:      "show",
			Usage:     "print one backup: by ID, or the latest of a PATH",
			UsageText: "agyconf backups show ID|PATH --config PATH [--root DIR]",
			Description: `Prints a backup as it was kept (secrets agyconf writes redacted): by its
ID, or the latest backup of a PATH below the root.

EXAMPLES:
   agyconf backups show .gemini/config/mcp_config.json
   agyconf backups show 3f2a9c0e1d4b5a6978877665544332211 > original.json`,
			Flags:  applyFlags(),
			Action: runBackupsShow,
		}},
	}
}

// backupRow is one backup as listed.
type backupRow struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	Entry   string `json:"entry,omitempty"`
	Reason  string `json:"reason"`
	File    string `json:"file"`
	Restore string `json:"restore"`
	// Secrets are the JSON pointers, relative to the backup, of strings
	// that hold "<secret>" where a secret was: the restore command copies
	// the placeholder, agyconf's own restore puts the value back.
	Secrets []string `json:"secrets,omitempty"`
}

func backupRows(s *session) []backupRow {
	var rows []backupRow
	for _, b := range s.State.Backups {
		file := s.Store.BackupPath(b.ID)
		target := s.FS.Full(b.Path)
		restore := fmt.Sprintf("cp %s %s", shellQuote(file), shellQuote(target))
		if b.Entry != "" {
			path, _ := json.Marshal(pointerSegments(b.Entry))
			restore = fmt.Sprintf("jq --slurpfile e %s 'setpath(%s; $e[0])' %s > %s.new && mv %s.new %s",
				shellQuote(file), path, shellQuote(target), shellQuote(target), shellQuote(target), shellQuote(target))
		}
		if b.Reason == "takeover" {
			restore = fmt.Sprintf("cp %s %s   # the whole file as it was before agyconf first merged into it", shellQuote(file), shellQuote(target))
		}
		row := backupRow{ID: b.ID, Path: b.Path, Entry: b.Entry, Reason: b.Reason, File: file, Restore: restore}
		for _, sec := range b.Secrets {
			row.Secrets = append(row.Secrets, sec.Pointer)
		}
		rows = append(rows, row)
	}
	return rows
}

// pointerSegments splits a JSON pointer into its unescaped segments.
func pointerSegments(p string) []string {
	var out []string
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		out = append(out, strings.NewReplacer("~1", "/", "~0", "~").Replace(seg))
	}
	return out
}

var backupReasons = map[string]string{
	"adopt":    "taken over with --adopt",
	"force":    "an edit --force overwrote",
	"found":    "as agyconf found it, before it first changed it",
	"takeover": "the whole file before agyconf first merged into it",
}

func runBackups(c *cli.Context) error {
	s, err := decide(c, false, false)
	if err != nil {
		return err
	}
	defer s.close()
	rows := backupRows(s)
	out := s.out(c)
	if c.String("format") == "json" {
		if rows == nil {
			rows = []backupRow{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(struct {
			Root    string      `json:"root"`
			Backups []backupRow `json:"backups"`
		}{s.Root, rows})
	}
	for _, r := range rows {
		what := r.Path
		if r.Entry != "" {
			what += " " + strings.Join(pointerSegments(r.Entry), ".")
		}
		fmt.Fprintf(out, "%s  %s (%s)\n    %s\n    restore: %s\n", r.ID, what, backupReasons[r.Reason], r.File, r.Restore)
		if len(r.Secrets) > 0 {
			fmt.Fprintf(out, "    holds %d secret(s) as \"<secret>\" (%s): put the values back after restoring by hand; agyconf puts them back when it restores this itself\n", len(r.Secrets), strings.Join(r.Secrets, ", "))
		}
	}
	fmt.Fprintf(out, "%s: %d backup(s)\n", s.Root, len(rows))
	return nil
}

func runBackupsShow(c *cli.Context) error {
	args, err := trailingFlags(c)
	if err != nil {
		return exit(ExitBadInput, fmt.Errorf("%w (see agyconf backups --help)", err))
	}
	if len(args) != 1 {
		return exit(ExitBadInput, errors.New("backups show takes one ID or PATH (see agyconf backups --help)"))
	}
	want := args[0]
	// decide checks for positional arguments; the one here is ours.
	s, err := decideWith(c, false, false, true, false)
	if err != nil {
		return err
	}
	defer s.close()
	var found *apply.Backup
	for i := range s.State.Backups {
		b := &s.State.Backups[i]
		if b.ID == want || b.Path == want {
			found = b // the latest of a path wins
		}
	}
	if found == nil {
		return exit(ExitBadInput, fmt.Errorf("no backup %q; agyconf backups lists them", want))
	}
	data, err := s.Store.ReadBackup(found.ID)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	_, err = c.App.Writer.Write(data)
	return err
}

// trailingFlags reads the flags given after the positional arguments —
// urfave/cli stops reading flags at the first argument, and the documented
// form is `agyconf backups show ID --config …` — sets them on c, and
// returns the positional arguments.
func trailingFlags(c *cli.Context) ([]string, error) {
	var args []string
	rest := c.Args().Slice()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" {
			args = append(args, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(rest) {
				return nil, fmt.Errorf("flag %s needs a value", a)
			}
			i++
			value = rest[i]
		}
		if err := c.Set(name, value); err != nil {
			return nil, fmt.Errorf("flag %s: %v", a, err)
		}
	}
	return args, nil
}
