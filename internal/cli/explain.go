package cli

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/rulebook"
)

func explainCommand() *cli.Command {
	return &cli.Command{
		Name:      "explain",
		Usage:     "explain a rule a warning or finding names",
		UsageText: "agyconf explain RULE\n   agyconf explain --list",
		Description: `Prints what the rule RULE (the id every warning and finding names, such
as hooks/relative-command) judges, its severity and what agy does with what
it finds, why, the fix, and where that is known from (docs/agy-facts.md
lists the sources). --list prints every rule with its severity and fix.
Every command that prints warnings prints them in full, with each rule's
explanation, under --explain.

EXAMPLES:
   agyconf explain hooks/relative-command
   agyconf explain --list`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Usage: "list every rule with its severity and fix"},
		},
		Action: runExplain,
	}
}

func runExplain(c *cli.Context) error {
	if c.Bool("list") {
		if c.NArg() > 0 {
			return exit(ExitBadInput, fmt.Errorf("--list takes no RULE"))
		}
		listRules(c.App.Writer)
		return nil
	}
	if c.NArg() != 1 {
		return exit(ExitBadInput, fmt.Errorf("explain takes one RULE, such as hooks/relative-command (agyconf explain --list names them all)"))
	}
	id := c.Args().First()
	r, ok := rulebook.Lookup(id)
	if !ok {
		var ids []string
		for _, r := range rulebook.All() {
			ids = append(ids, r.ID)
		}
		hint := "agyconf explain --list names them all"
		if s := config.Suggest(id, ids); s != "" {
			hint = fmt.Sprintf("did you mean %q? (%s)", s, hint)
		}
		return exit(ExitBadInput, fmt.Errorf("no rule is named %q: %s", id, hint))
	}
	_, err := io.WriteString(c.App.Writer, rulebook.Explain(r))
	return err
}

// listRules prints every rule on one line: id, severity, what it judges
// and the fix.
func listRules(w io.Writer) {
	for _, r := range rulebook.All() {
		fix := r.Fix
		if fix == "" {
			fix = "-"
		}
		fmt.Fprintf(w, "%-32s %-7s %-7s %s\n", r.ID, r.Severity(), r.Of, fix)
	}
}
