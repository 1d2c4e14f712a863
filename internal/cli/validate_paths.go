package cli

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
)

// lintPaths validates live Antigravity files and folders, the second form
// of `agyconf validate`.
func lintPaths(c *cli.Context, paths []string) error {
	format := c.String("format")
	switch format {
	case "text", "json", "sarif":
	default:
		return exit(ExitBadInput, fmt.Errorf("unknown --format %q: use text, json or sarif", format))
	}
	if err := checkColor(c.String("color")); err != nil {
		return exit(ExitBadInput, err)
	}
	var version agy.Version
	if s := c.String("agy-version"); s != "" {
		v, ok := agy.ParseVersion(s)
		if !ok {
			return exit(ExitBadInput, fmt.Errorf("--agy-version %q: want a release number such as 1.2.10", s))
		}
		version = v
	}
	findings, err := lint.Paths(paths, lint.Options{AgyVersion: version})
	if err != nil {
		return exit(ExitBadInput, err)
	}
	out := c.App.Writer
	switch format {
	case "json":
		if err := lint.WriteJSON(out, findings); err != nil {
			return exit(ExitBadInput, err)
		}
	case "sarif":
		report, err := lint.SARIF(findings, lint.Rules(), buildVersion())
		if err != nil {
			return exit(ExitBadInput, err)
		}
		if err := report.PrettyWrite(out); err != nil {
			return exit(ExitBadInput, err)
		}
	default:
		lint.WriteText(out, findings, useColor(out, c.String("color")), c.Bool("explain"))
	}
	errs, warns := lint.Counts(findings)
	if errs > 0 || (warns > 0 && c.Bool("strict")) {
		return exit(ExitFindings, nil)
	}
	return nil
}
