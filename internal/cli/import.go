package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/importer"
	"github.com/agyconf/agyconf/internal/model"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:      "import",
		Usage:     "write a config from the Antigravity files already there",
		UsageText: "agyconf import [--root DIR] [--scope global|workspace] [--product cli|ide|both] [--out DIR]",
		Description: `Reads the Antigravity files under DIR ($HOME by default in global scope, the
current directory in workspace scope) — mcp_config.json (and the IDE's legacy
one), hooks.json, the CLI's settings.json, plugins, skills, rules, subagents,
workflows, GEMINI.md's managed block — and prints an agyconf config that
renders back to the same content. Nothing under DIR is changed.

Output: the config on stdout; with --out DIR it is written to
DIR/agyconf.hcl instead, with bodies over 10 lines or 512 bytes as
file("…") next to it and skill folders copied there. The report goes to
stderr, one line per item: "not imported: PATH[:LINE:COL] [UNIT]: REASON",
"converted: …" (changed on the way, e.g. url written as serverUrl), "secret:
…" and "harness: …".

Secrets: a value that looks like a credential (env, headers and oauth
clientSecret whose key matches TOKEN, SECRET, KEY, PASSWORD or AUTH, or a
value like "Bearer …", ghp_…, sk-…) is never printed. The config reads it with
secret_file("DIR/.config/agyconf/secrets/<server>-<name>") and a TODO
comment; the report gives the command that creates that file from the
live one. In workspace scope, where secret_file() is refused, such a value is
not imported.

Harnesses: MemPalace's plugin (its bash hooks or agyhook's) and xmsg's
server, xmsg-register hook and skill become harness "mempalace" and
harness "xmsg" blocks. Since the harness may render differently from what is
installed, the unified diff a render would make by switching is printed to
stderr after the report, under "migration diff"; secrets show as <secret>.

Exit code 0 once imported, whatever the report lists; 2 for bad usage or a
root that cannot be read.

EXAMPLES:
   agyconf import > ~/.config/agyconf/agyconf.hcl
   agyconf import --out ~/.config/agyconf
   agyconf import --scope workspace --root ~/src/project --out ~/src/project`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", Usage: "read the files under `DIR` instead of the scope's default"},
			&cli.StringFlag{Name: "scope", Value: "global", Usage: "global or workspace"},
			&cli.StringFlag{Name: "product", Value: "both", Usage: "cli, ide or both: whose paths to read"},
			&cli.StringFlag{Name: "out", Usage: "write `DIR`/agyconf.hcl and its body files instead of printing the config"},
			colorFlag(),
		},
		Action: runImport,
	}
}

func runImport(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	scope := model.Scope(c.String("scope"))
	if scope != model.ScopeGlobal && scope != model.ScopeWorkspace {
		return exit(ExitBadInput, fmt.Errorf("--scope %q: use \"global\" or \"workspace\"", scope))
	}
	product := model.Product(c.String("product"))
	if product != model.ProductCLI && product != model.ProductIDE && product != model.ProductBoth {
		return exit(ExitBadInput, fmt.Errorf("--product %q: use \"cli\", \"ide\" or \"both\"", product))
	}
	if err := checkColor(c.String("color")); err != nil {
		return exit(ExitBadInput, err)
	}
	root, err := renderRoot(c.String("root"), scope)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	out := c.String("out")
	if out != "" {
		if out, err = filepath.Abs(out); err != nil {
			return exit(ExitBadInput, err)
		}
		if st, err := os.Stat(out); err == nil && !st.IsDir() {
			return exit(ExitBadInput, fmt.Errorf("--out %s is not a folder", out))
		}
		if _, err := os.Stat(filepath.Join(out, "agyconf.hcl")); err == nil {
			return exit(ExitBadInput, fmt.Errorf("%s already exists; import does not overwrite a config: choose another --out or move it aside", filepath.Join(out, "agyconf.hcl")))
		}
	}
	res, err := importer.Import(importer.Options{Root: root, Scope: scope, Product: product, Out: out})
	if err != nil {
		return exit(ExitBadInput, err)
	}
	errw := c.App.ErrWriter
	if out == "" {
		if _, err := c.App.Writer.Write(res.HCL); err != nil {
			return exit(ExitBadInput, err)
		}
	} else {
		if err := writeImport(out, res); err != nil {
			return exit(ExitBadInput, err)
		}
		fmt.Fprintf(errw, "wrote %s (%d more file(s))\n", filepath.Join(out, "agyconf.hcl"), len(res.Files))
	}
	for _, it := range res.Items {
		fmt.Fprintln(errw, it.String())
		if it.Command != "" {
			fmt.Fprintf(errw, "  create it: %s\n", it.Command)
		}
	}
	diff, err := importer.MigrationDiff(res, root)
	if err != nil {
		fmt.Fprintf(errw, "agyconf: migration diff: %v\n", err)
	} else if len(res.Config.Harnesses) > 0 {
		if diff == "" {
			fmt.Fprintln(errw, "migration diff: none (the live files already are what the harness blocks render)")
		} else {
			fmt.Fprintln(errw, "migration diff (what agyconf render would change by switching to the harness blocks):")
			writeDiff(errw, diff, useColor(errw, c.String("color")))
		}
	}
	return nil
}

// writeImport writes the config and the files it reads under out; it
// never overwrites a file.
func writeImport(out string, res *importer.Result) error {
	write := func(rel string, data []byte, mode os.FileMode) error {
		p := filepath.Join(out, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	for _, rel := range sortedFileNames(res.Files) {
		mode := os.FileMode(0o644)
		if res.Files[rel].Executable {
			mode = 0o755
		}
		if err := write(rel, res.Files[rel].Data, mode); err != nil {
			return err
		}
	}
	return write("agyconf.hcl", res.HCL, 0o644)
}

func sortedFileNames(m map[string]importer.File) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
