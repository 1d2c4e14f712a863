package cli

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
)

// starterFS holds the starter configs agyconf init writes, one per scope.
// They are templates of the product and the path the config is written
// to, and their output is formatted as agyconf fmt would.
//
//go:embed starter/*.hcl.tmpl
var starterFS embed.FS

// defaultInitOut is the file name of a config init writes, and where a
// workspace config goes when --out is not given.
const defaultInitOut = "agyconf.hcl"

func scopeValues() []string { return []string{string(model.ScopeGlobal), string(model.ScopeWorkspace)} }
func productValues() []string {
	return []string{string(model.ProductCLI), string(model.ProductIDE), string(model.ProductBoth)}
}

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "write a commented starter config",
		UsageText: "agyconf init [--scope global|workspace] [--product cli|ide|both] [--out PATH] [--force]",
		Description: `Writes a valid, commented starter config to PATH (a folder means
PATH/agyconf.hcl; - prints it). It declares a rule and a skill (and in
global scope permissions), and shows every other kind of block commented
out: MCP servers (in global scope one whose token comes from
secret_file()), hooks, subagents, workflows, harnesses.

The global starter renders into your home directory and goes by default
where every other command looks for a config,
$XDG_CONFIG_HOME/agyconf/agyconf.hcl (~/.config/agyconf/agyconf.hcl), so
validate, render, diff and status need no --config. The workspace starter
goes by default to ./agyconf.hcl: it is committed with a project and holds
nothing machine-specific (workspace scope refuses env(), abspath() and
secret_file()).

An existing PATH is never overwritten without --force (exit 2). After
writing, init prints the commands to run next.

EXAMPLES:
   agyconf init
   agyconf init --out agyconf.hcl
   agyconf init --scope workspace --product ide
   agyconf init --scope workspace --out - | less`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "scope", Value: string(model.ScopeGlobal), Usage: "the config's scope: global (a home directory) or workspace (a project tree)"},
			&cli.StringFlag{Name: "product", Value: string(model.ProductBoth), Usage: "whose files it writes: cli (the agy CLI), ide (the Antigravity IDE) or both"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "write the config to `PATH`: a file when it ends in .hcl, otherwise a folder that gets agyconf.hcl (as import --out reads it); -: standard output (default: $XDG_CONFIG_HOME/agyconf/agyconf.hcl in global scope, ./agyconf.hcl in workspace scope)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite PATH if it exists"},
			quietFlag(),
		},
		Action: runInit,
	}
}

func runInit(c *cli.Context) error {
	if err := noArgs(c); err != nil {
		return err
	}
	scope, product := model.Scope(c.String("scope")), model.Product(c.String("product"))
	if !slices.Contains(scopeValues(), string(scope)) {
		return exit(ExitBadInput, fmt.Errorf("unknown --scope %q: use \"global\" or \"workspace\"", scope))
	}
	if !slices.Contains(productValues(), string(product)) {
		return exit(ExitBadInput, fmt.Errorf("unknown --product %q: use \"cli\", \"ide\" or \"both\"", product))
	}
	out := c.String("out")
	if c.IsSet("out") && out == "" {
		return exit(ExitBadInput, fmt.Errorf("--out needs a PATH (see agyconf init --help)"))
	}
	if out == "-" {
		text, err := starter(scope, product, defaultInitOut, false)
		if err != nil {
			return exit(ExitBadInput, err)
		}
		_, err = c.App.Writer.Write(text)
		return err
	}
	if out == "" {
		var err error
		if out, err = initOut(scope); err != nil {
			return exit(ExitBadInput, err)
		}
	}
	dir, name, err := configOut(out)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	out = filepath.Join(dir, name)
	// A global config in the default folder needs no --config anywhere.
	atDefault := scope == model.ScopeGlobal && isDefaultConfigDir(dir)
	text, err := starter(scope, product, out, atDefault)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	if err := writeNew(out, text, c.Bool("force")); err != nil {
		return exit(ExitBadInput, err)
	}
	w := info(c, c.App.Writer)
	fmt.Fprintf(w, "wrote %s: a starter config of scope %s, product %s\n", out, scope, product)
	q := shellQuote(out)
	if scope == model.ScopeWorkspace {
		fmt.Fprintf(w, "next:\n   agyconf render --config %s --root . --dry-run   # what it would write\n", q)
		fmt.Fprintf(w, "   agyconf render --config %s --root .             # write it, then commit the result\n", q)
		fmt.Fprintf(w, "in CI:\n   agyconf render --config %s --root . --check     # exit 1 when the tree is out of date\n", q)
		return nil
	}
	flag := " --config " + q
	if atDefault {
		flag = ""
	}
	fmt.Fprintf(w, "next:\n   agyconf render%s --dry-run   # what it would write into $HOME\n", flag)
	fmt.Fprintf(w, "   agyconf render%s             # write it\n", flag)
	return nil
}

// initOut is where init writes when --out is not given: a global config
// where every other command looks for one (render, diff and status then
// need no --config), a workspace config in the project, to be committed.
func initOut(scope model.Scope) (string, error) {
	if scope == model.ScopeWorkspace {
		return defaultInitOut, nil
	}
	def := defaultConfigPath()
	if def == "" {
		return "", fmt.Errorf("there is no home folder for the default config ($XDG_CONFIG_HOME/agyconf); pass --out PATH")
	}
	return filepath.Join(def, defaultInitOut), nil
}

// isDefaultConfigDir reports whether dir is the default config's folder.
func isDefaultConfigDir(dir string) bool {
	def := defaultConfigPath()
	if def == "" {
		return false
	}
	a, errA := filepath.Abs(dir)
	b, errB := filepath.Abs(def)
	return errA == nil && errB == nil && a == b
}

// starter is the starter config of a scope and product, naming path in
// the commands its comments suggest (none when atDefault: a global config
// in the default folder needs no --config), formatted as agyconf fmt
// would.
func starter(scope model.Scope, product model.Product, path string, atDefault bool) ([]byte, error) {
	t, err := template.ParseFS(starterFS, "starter/"+string(scope)+".hcl.tmpl")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	flag := " --config " + shellQuote(path)
	if atDefault {
		flag = ""
	}
	if err := t.Execute(&b, struct {
		Product model.Product
		Path    string
		Config  string // the --config flag of the commands shown, or ""
	}{product, shellQuote(path), flag}); err != nil {
		return nil, err
	}
	return hclwrite.Format(b.Bytes()), nil
}

// writeNew writes a file, refusing to replace one unless force is set:
// without it the file is created exclusively, so a file that appears
// meanwhile is not lost either; with it the old file is replaced
// atomically.
func writeNew(path string, data []byte, force bool) error {
	if force {
		undo, err := confine.MkdirNew(filepath.Dir(path), 0o755)
		if err != nil {
			return err
		}
		if err := confine.ReplaceFile(path, data, 0o644); err != nil {
			undo() // a failure leaves no folder behind
			return err
		}
		return nil
	}
	err := confine.CreateNew(path, data, 0o644, 0o755)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("%s exists; agyconf init does not overwrite it without --force", path)
	}
	return err
}

// shellQuote quotes a path for a command line a person copies, only when
// it needs it.
func shellQuote(s string) string {
	if shellSafe().MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var shellSafe = lazyre.New(`^[A-Za-z0-9_./=+,:@%-]+$`)

// configOut reads the --out of init and import alike: a path ending in
// .hcl is the config file itself; one ending in .json is refused (agyconf
// writes configs in HCL, the JSON form is what the Nix module generates);
// anything else is a folder, made if missing, that gets agyconf.hcl.
func configOut(out string) (dir, name string, err error) {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".hcl":
		return filepath.Dir(out), filepath.Base(out), nil
	case ".json":
		return "", "", fmt.Errorf("--out %s: agyconf writes configs in HCL (the JSON form is what the Nix module generates); give a .hcl file or a folder", out)
	}
	return out, defaultInitOut, nil
}
