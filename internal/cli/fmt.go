package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
)

func fmtCommand() *cli.Command {
	return &cli.Command{
		Name:      "fmt",
		Usage:     "rewrite HCL configs in the canonical format",
		UsageText: "agyconf fmt [--check] [--diff] [PATH...]\n   agyconf fmt [--check] -",
		Description: `Formats agyconf's HCL files the way HCL's own formatter does (indentation,
aligned "=" and comments, spacing), and rewrites in place each file that
changes, atomically and keeping its mode; a linked file is rewritten where
the link points. Each PATH is a .hcl file or a folder, whose *.hcl files
directly inside it are formatted (as a config folder is read); without
PATH, the default config ($XDG_CONFIG_HOME/agyconf, ~/.config/agyconf), as
every command reads. - formats standard input to standard output. A file
in the Nix store (the Home Manager module's config) is never rewritten:
change the Nix options instead; --check still reads it.

JSON configs (what the Nix module writes) are left alone. A file with a
syntax error is left alone too and reported as file:line:column: exit 2.
Formatting is idempotent: a formatted file formats to itself.

--check writes nothing, lists the files that would change and exits 1
when there is one: the CI gate. --diff prints what changes as a unified
diff instead of the file names.

EXAMPLES:
   agyconf fmt
   agyconf fmt ~/.config/agyconf
   agyconf fmt --check --diff agyconf.hcl`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "check", Usage: "write nothing; list the files that are not formatted and exit 1 if there is one"},
			&cli.BoolFlag{Name: "diff", Usage: "print a unified diff of each change instead of the file's name"},
			quietFlag(),
		},
		Action: runFmt,
	}
}

func runFmt(c *cli.Context) error {
	paths := c.Args().Slice()
	if len(paths) == 1 && paths[0] == "-" {
		return fmtStdin(c)
	}
	if len(paths) == 0 {
		def, err := defaultConfig()
		if err != nil {
			return exit(ExitBadInput, fmt.Errorf("fmt needs a PATH: %w (see agyconf fmt --help)", err))
		}
		paths = []string{def}
	}
	var files []string
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "-" {
			return exit(ExitBadInput, fmt.Errorf("- (standard input) goes alone (see agyconf fmt --help)"))
		}
		found, err := fmtFiles(c.App.ErrWriter, p)
		if err != nil {
			return exit(ExitBadInput, err)
		}
		for _, f := range found {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	var changed, broken int
	for _, f := range files {
		ok, bad, err := fmtFile(c, f)
		if err != nil {
			return exit(ExitBadInput, err)
		}
		if bad {
			broken++
		}
		if ok {
			changed++
		}
	}
	switch {
	case broken > 0:
		return exit(ExitBadInput, fmt.Errorf("%d file(s) with syntax errors left as they are", broken))
	case changed > 0 && c.Bool("check"):
		return exit(ExitFindings, fmt.Errorf("%d file(s) not formatted; agyconf fmt would rewrite them", changed))
	}
	return nil
}

// fmtFiles lists the HCL files a PATH names: the file itself, or the
// *.hcl files directly inside a folder, hidden ones skipped, in name
// order. A JSON config is skipped with a note.
func fmtFiles(note io.Writer, path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		if strings.EqualFold(filepath.Ext(path), ".json") {
			fmt.Fprintf(note, "agyconf: %s: a JSON config, left alone (fmt formats HCL)\n", path)
			return nil, nil
		}
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var files []string
	json := false
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		switch strings.ToLower(filepath.Ext(name)) {
		case ".hcl":
			files = append(files, filepath.Join(path, name))
		case ".json":
			json = true
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		if json {
			fmt.Fprintf(note, "agyconf: %s holds JSON configs only, left alone (fmt formats HCL)\n", path)
			return nil, nil
		}
		return nil, fmt.Errorf("no .hcl file in %s (see agyconf fmt --help)", path)
	}
	return files, nil
}

// fmtFile formats one file: changed says it is (or, with --check, would
// be) rewritten; broken that it has syntax errors, reported and left
// alone.
func fmtFile(c *cli.Context, path string) (changed, broken bool, err error) {
	src, err := readLimited(path)
	if err != nil {
		return false, false, err
	}
	out, diags := formatHCL(src, path)
	if diags.HasErrors() {
		writeSyntaxErrors(c.App.ErrWriter, diags)
		return false, true, nil
	}
	if bytes.Equal(src, out) {
		return false, false, nil
	}
	if c.Bool("diff") {
		io.WriteString(c.App.Writer, udiff.Unified("a/"+filepath.ToSlash(path), "b/"+filepath.ToSlash(path), string(src), string(out)))
	} else {
		fmt.Fprintln(info(c, c.App.Writer), path)
	}
	if c.Bool("check") {
		return true, false, nil
	}
	// Rewrite where a link points: replacing the link with a file would
	// cut it from what it links to.
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false, false, err
	}
	if confine.InNixStore(target) {
		return false, false, fmt.Errorf("%s is in the Nix store (%s), which Nix keeps read-only: change the Nix options that generate it instead", path, target)
	}
	st, err := os.Stat(target)
	if err != nil {
		return false, false, err
	}
	if err := confine.ReplaceFile(target, out, st.Mode().Perm()); err != nil {
		return false, false, err
	}
	return true, false, nil
}

// fmtStdin formats standard input to standard output; with --check it
// prints nothing and exits 1 when the input is not formatted.
func fmtStdin(c *cli.Context) error {
	src, err := io.ReadAll(io.LimitReader(os.Stdin, maxFmtSize+1))
	if err != nil {
		return exit(ExitBadInput, err)
	}
	if len(src) > maxFmtSize {
		return exit(ExitBadInput, fmt.Errorf("standard input is larger than %d MiB, too large for a config", maxFmtSize>>20))
	}
	out, diags := formatHCL(src, "<stdin>")
	if diags.HasErrors() {
		writeSyntaxErrors(c.App.ErrWriter, diags)
		return exit(ExitBadInput, nil)
	}
	changed := !bytes.Equal(src, out)
	switch {
	case c.Bool("diff"):
		if changed {
			io.WriteString(c.App.Writer, udiff.Unified("a/<stdin>", "b/<stdin>", string(src), string(out)))
		}
	case !c.Bool("check"):
		c.App.Writer.Write(out)
	}
	if changed && c.Bool("check") {
		return exit(ExitFindings, fmt.Errorf("standard input is not formatted"))
	}
	return nil
}

// readLimited reads a file of at most maxFmtSize bytes, without blocking
// on a FIFO or a device.
func readLimited(path string) ([]byte, error) {
	data, err := confine.ReadFile(path, maxFmtSize)
	var tl *confine.TooLargeError
	if errors.As(err, &tl) {
		return nil, fmt.Errorf("%s is larger than %d bytes, the limit of a config file", path, maxFmtSize)
	}
	return data, err
}

// maxFmtSize bounds a file fmt reads, the bound the config loader applies.
const maxFmtSize = 8 << 20

// formatHCL checks src's syntax and formats it. hclwrite formats
// whatever it is given, so a file that does not parse is refused first.
func formatHCL(src []byte, filename string) ([]byte, hcl.Diagnostics) {
	if len(src) > maxFmtSize {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "File too large",
			Detail:  fmt.Sprintf("%s is larger than %d MiB, too large for a config", filename, maxFmtSize>>20),
			Subject: &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos}}}
	}
	// Past the nesting limit the parser itself could exhaust the stack.
	if diags := config.CheckNesting(src, filename); diags.HasErrors() {
		return nil, diags
	}
	if _, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos); diags.HasErrors() {
		return nil, diags
	}
	return hclwrite.Format(src), nil
}

// writeSyntaxErrors prints one line per error, file:line:column first, as
// compilers and editors expect.
func writeSyntaxErrors(w io.Writer, diags hcl.Diagnostics) {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		if d.Subject == nil {
			fmt.Fprintf(w, "agyconf: %s\n", msg)
			continue
		}
		fmt.Fprintf(w, "%s:%d:%d: %s\n", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, msg)
	}
}
