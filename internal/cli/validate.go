package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/diagfmt"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/rulebook"
	"github.com/agyconf/agyconf/schema"
)

func validateCommand() *cli.Command {
	return &cli.Command{
		Name:      "validate",
		Usage:     "check an agyconf config, or Antigravity files as they are on disk, without writing anything",
		UsageText: "agyconf validate --config PATH [--offline] [--strict] [--diagnostics-format text|json]\n   agyconf validate [--format text|json|sarif] [--strict] [--agy-version X.Y.Z] PATH...",
		Description: `With --config, reads the agyconf config at PATH — one .hcl or .json
file, or a folder of them — through the same pipeline render runs
(decoding, harnesses, rendering, and every rendered document checked
against its schema and the rules below that depend on the file alone), and
reports every problem at once, each led by its file:line:column: a config
it calls valid renders here. An inline secret
(one render writes into a file) that cannot be read here is an error, as
render refuses it too; what else depends on this machine is a warning,
labelled so: a secret agyhook reads when agy starts the server, missing
here (only looked at, never read), and, when the render root exists, what
render would refuse there. --offline judges the config alone, looking at
nothing of this machine (no secret file, no render root): for CI or a
build machine, where the secrets are not.
Exits 0 when the config is valid, 1 when it has problems (with --strict,
also on a warning about this machine).

With PATHs, lints Antigravity's own files as they are on disk, whoever
wrote them: a global ~/.gemini, a workspace (.agents/, .agent/, _agents/,
_agent/), a plugin folder, or single files recognised by name. Each finding
has a rule id (docs/validate.md), a severity, file:line:column and the
source of what it says agy does. The severity follows what agy does: an
error only where agy refuses the file, drops the entry, misreads a value or
never reads the place; a warning for a key agy ignores, what the sources
contest, and what is likely a mistake. Exits 1 when there are errors, or
warnings with --strict. --format sarif writes
SARIF 2.1.0 for code scanning.

Nothing is written either way; 2 means the command could not run.

EXAMPLES:
   agyconf validate --config ~/.config/agyconf
   agyconf validate --config agyconf.hcl --offline
   agyconf validate --config agyconf.hcl --diagnostics-format json | jq .diagnostics
   agyconf validate ~/.gemini .
   agyconf validate --format sarif --strict . > agyconf.sarif`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "config", Aliases: []string{"c"}, Usage: "validate the agyconf config (`PATH`): a file or folder"},
			&cli.StringFlag{Name: "root", Usage: "with --config, also decide against the live files under `DIR` (default: the scope's, when it exists); what render would refuse there is a warning"},
			&cli.StringFlag{Name: "instance", Usage: "with --config, the config's state `NAME` for that decision"},
			&cli.BoolFlag{Name: "offline", Usage: "with --config, judge the config alone: no secret file, render root or anything else of this machine is looked at (CI, a build machine)"},
			diagFormatFlag(),
			explainFlag(),
			optionPathsFlag(),
			colorFlag(),
			&cli.StringFlag{Name: "format", Value: "text", Usage: "report for PATHs: text, json or sarif"},
			&cli.BoolFlag{Name: "strict", Usage: "warnings count as findings too (exit 1): with PATHs, every warning; with --config, the warnings about this machine (a secret agyhook reads missing here, a live conflict)"},
			quietFlag(),
			&cli.StringFlag{Name: "agy-version", Usage: "with PATHs, the oldest agy build (`X.Y.Z`) the files must load on: what only newer builds read as written is judged for it (an error below the version where the build refuses, drops or misreads it); without it, for the newest agy agyconf knows"},
		},
		Action: runValidate,
	}
}

func runValidate(c *cli.Context) error {
	// A flag of one mode given to the other is refused, not ignored: each
	// mode has its own report format, and --format json on a config
	// printed text.
	if c.NArg() > 0 {
		if c.String("config") != "" {
			return exit(ExitBadInput, fmt.Errorf("validate takes --config PATH or live PATHs, not both (see agyconf validate --help)"))
		}
		if c.IsSet("diagnostics-format") {
			return exit(ExitBadInput, fmt.Errorf("--diagnostics-format goes with --config; for live PATHs write --format json (or sarif) (see agyconf validate --help)"))
		}
		for _, name := range []string{"offline", "root", "instance"} {
			if c.IsSet(name) {
				return exit(ExitBadInput, fmt.Errorf("--%s goes with --config, not live PATHs (see agyconf validate --help)", name))
			}
		}
		return lintPaths(c, c.Args().Slice())
	}
	if c.String("agy-version") != "" {
		return exit(ExitBadInput, fmt.Errorf("--agy-version applies to live PATHs; a config names the build it targets itself, in agyconf { agy_version = \"…\" }"))
	}
	if c.IsSet("format") {
		return exit(ExitBadInput, fmt.Errorf("--format is the report of live PATHs; for a config's problems as JSON write --diagnostics-format json (see agyconf validate --help)"))
	}
	offline := c.Bool("offline")
	if offline && (c.String("root") != "" || c.String("instance") != "") {
		return exit(ExitBadInput, fmt.Errorf("--offline looks at nothing of this machine, so --root and --instance do not go with it (see agyconf validate --help)"))
	}
	path, format, err := configFlags(c)
	if err != nil {
		return err
	}
	if root := c.String("root"); root != "" {
		// As render: a root given that is not there is said first, and
		// alone (liveConflicts passes over a missing default root only).
		if _, err := engine.RenderRoot(root, model.ScopeGlobal); err != nil {
			return exit(ExitBadInput, err)
		}
	}
	// The same pipeline render runs: what validate calls valid, render
	// writes. An inline secret render cannot read is an error here as it
	// is there; what else of this machine stands in the way is a warning
	// (a secret agyhook reads later, a live file in conflict). Once a
	// secret refuses the render, the root is not looked at: render stops
	// before it, and one problem is told once.
	cfg := engine.Load(path)
	diags := cfg.Diags
	if cfg.OK() && !offline {
		_, sd := cfg.Secrets(false)
		diags = append(diags, sd...)
		if !sd.HasErrors() {
			diags = append(diags, liveConflicts(c, cfg)...)
		}
	}
	if err := writeDiags(c, format, cfg.Parser.Files(), diags); err != nil {
		return exit(ExitBadInput, err)
	}
	if diags.HasErrors() {
		if config.Unreadable(diags) {
			return exit(ExitBadInput, nil) // input missing or unreadable: cannot run
		}
		return exit(ExitFindings, nil)
	}
	if c.Bool("strict") && machineWarnings(diags) {
		// What this machine lacks or holds in the way (a secret file
		// missing or not readable, a live conflict): a gate on the
		// machine that renders may want it.
		return exit(ExitFindings, nil)
	}
	if format == diagfmt.Text {
		fmt.Fprintf(info(c, c.App.Writer), "%s: valid (%s)\n", path, summary(cfg.Model))
	}
	return nil
}

// machineWarnings reports whether any diagnostic is about this machine
// (engine.MachineCheck) rather than the config.
func machineWarnings(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if m, ok := d.Extra.(interface{ MachineDependent() bool }); ok && m.MachineDependent() {
			return true
		}
	}
	return false
}

// liveConflicts decides the config against its render root, read-only,
// when the root exists, and returns what render would refuse there as
// warnings about this machine. A root that does not exist (a Nix build
// sandbox has no home) is not looked at.
func liveConflicts(c *cli.Context, cfg *engine.Config) hcl.Diagnostics {
	if _, err := engine.RenderRoot(c.String("root"), cfg.Model.Agyconf.Scope); err != nil {
		return nil
	}
	s, err := engine.Open(cfg, engine.Options{Root: c.String("root"), Instance: c.String("instance"), LockWait: time.Second})
	if err != nil {
		return hcl.Diagnostics{{Severity: hcl.DiagWarning, Summary: fmt.Sprintf("agyconf render would refuse to run here — %v", err),
			Detail: "agyconf render would refuse to run until that is resolved.", Extra: rulebook.Tag{Rule: "root/unusable", Machine: true}}}
	}
	defer s.Close()
	return s.ConflictDiags()
}

// configFlags checks what every command that reads a config shares: no
// positional arguments, --config given, a known --diagnostics-format and
// --color.
func configFlags(c *cli.Context) (path string, format diagfmt.Format, err error) {
	if err := noArgs(c); err != nil {
		return "", "", err
	}
	return configFlagsArgs(c)
}

// configFlagsArgs is configFlags for a command with positional arguments.
func configFlagsArgs(c *cli.Context) (path string, format diagfmt.Format, err error) {
	format, err = diagfmt.ParseFormat(c.String("diagnostics-format"))
	if err != nil {
		return "", "", exit(ExitBadInput, err)
	}
	if err := checkColor(c.String("color")); err != nil {
		return "", "", exit(ExitBadInput, err)
	}
	path, err = configPath(c)
	if err != nil {
		return "", "", exit(ExitBadInput, err)
	}
	return path, format, nil
}

// configPath is --config, or else the config the Home Manager module links
// at $XDG_CONFIG_HOME/agyconf (~/.config/agyconf), so that diff and status
// need no arguments there.
func configPath(c *cli.Context) (string, error) {
	if p := c.String("config"); p != "" {
		return p, nil
	}
	def, err := defaultConfig()
	if err != nil {
		if here := configHere(); here != "" {
			return "", fmt.Errorf("%s needs --config PATH: %w; %s is in this folder: pass --config %s (see agyconf %s --help)", c.Command.Name, err, here, shellQuote(here), c.Command.Name)
		}
		return "", fmt.Errorf("%s needs --config PATH: %w (see agyconf %s --help)", c.Command.Name, err, c.Command.Name)
	}
	return def, nil
}

// configHere names a config in the working folder, by the names init and
// import write (agyconf.hcl, or a folder agyconf/ of them) or the JSON form
// the Nix module writes (agyconf.json), for the message of a command that
// found no default config: the user who ran init in a project before init
// wrote to the default folder, or who keeps the config there.
func configHere() string {
	for _, name := range []string{"agyconf.hcl", "agyconf.json", "agyconf"} {
		st, err := os.Stat(name)
		if err != nil {
			continue
		}
		if !st.IsDir() {
			return name
		}
		if files, diags := config.ConfigFiles(name); len(files) > 0 && !diags.HasErrors() {
			return name
		}
	}
	return ""
}

// defaultConfig is the default config, $XDG_CONFIG_HOME/agyconf, when it
// exists.
func defaultConfig() (string, error) {
	def := defaultConfigPath()
	if def == "" {
		return "", errors.New("there is no home folder for a default config")
	}
	if _, err := os.Stat(def); err != nil {
		return "", fmt.Errorf("there is no default config at %s", def)
	}
	if files, _ := config.ConfigFiles(def); len(files) == 0 {
		return "", fmt.Errorf("there is no default config at %s (the folder holds no *.hcl or *.json file)", def)
	}
	return def, nil
}

func defaultConfigPath() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "agyconf")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".config", "agyconf")
	}
	return ""
}

// writeDiags prints diagnostics in the chosen format. JSON always prints a
// report, so a program reading stdout gets a document even when all is well.
func writeDiags(c *cli.Context, format diagfmt.Format, files map[string]*hcl.File, diags hcl.Diagnostics) error {
	if file := c.String("option-paths"); file != "" && len(diags) > 0 {
		options, err := readOptionPaths(file)
		if err != nil {
			return err
		}
		diags = diagfmt.Named(diags, files, options)
	}
	if format == diagfmt.JSON {
		return diagfmt.WriteJSON(c.App.Writer, diags)
	}
	if len(diags) == 0 {
		return nil
	}
	return diagfmt.WriteText(c.App.ErrWriter, files, diags, diagfmt.TextOptions{Width: 100, Color: useColor(c.App.ErrWriter, c.String("color")), Explain: c.Bool("explain")})
}

// optionPathsFlag names diagnostics by the option of a generator (the
// Home Manager module) that wrote the config.
func optionPathsFlag() *cli.StringFlag {
	// The Home Manager module's: hidden from help, documented in
	// docs/nix.md.
	return &cli.StringFlag{Name: "option-paths", Hidden: true, Usage: "name each problem in a generated JSON config by the option it came from: `FILE` maps, per config file name, JSON pointers to option paths (the Home Manager module writes it beside its agyconf.json)"}
}

// maxOptionPaths bounds the map: a pointer per value of a config.
const maxOptionPaths = 16 << 20

// readOptionPaths reads --option-paths: {"agyconf.json": {"/mcp_server/github/args/1":
// "programs.agyconf.mcpServers.github.args[1]", …}}.
func readOptionPaths(file string) (map[string]map[string]string, error) {
	data, err := confine.ReadFile(file, maxOptionPaths)
	if err != nil {
		return nil, fmt.Errorf("--option-paths: %w", err)
	}
	var m map[string]map[string]string
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("--option-paths %s: not a map of file names to maps of JSON pointers to option paths: %w", file, err)
	}
	return m, nil
}

// summary counts what a config declares, for the one line validate prints.
func summary(cfg *model.Config) string {
	var parts []string
	add := func(n int, one, many string) {
		switch n {
		case 0:
		case 1:
			parts = append(parts, "1 "+one)
		default:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(len(cfg.Files), "file", "files")
	add(len(cfg.MCPServers), "MCP server", "MCP servers")
	add(len(cfg.Hooks), "hook", "hooks")
	add(len(cfg.Skills), "skill", "skills")
	add(len(cfg.Rules), "rule", "rules")
	add(len(cfg.Agents), "agent", "agents")
	add(len(cfg.Workflows), "workflow", "workflows")
	add(len(cfg.Plugins), "plugin", "plugins")
	add(len(cfg.Harnesses), "harness", "harnesses")
	return fmt.Sprintf("scope %s, product %s: %s", cfg.Agyconf.Scope, cfg.Agyconf.Product, strings.Join(parts, ", "))
}

func schemaCommand() *cli.Command {
	return &cli.Command{
		Name:      "schema",
		Usage:     "print a JSON Schema agyconf embeds",
		UsageText: "agyconf schema [--list] [NAME]",
		Description: `Prints the JSON Schema (2020-12) NAME, by default "agyconf": the schema
of the input's JSON form, as the Nix module writes it. Editors use it for
completion; CI can check Nix-emitted JSON against it.

EXAMPLES:
   agyconf schema > agyconf.schema.json
   agyconf schema --list`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Usage: "list the names of the embedded schemas"},
		},
		Action: func(c *cli.Context) error {
			if c.Bool("list") {
				if c.NArg() > 0 {
					return exit(ExitBadInput, fmt.Errorf("--list takes no NAME"))
				}
				for _, n := range schema.Names() {
					fmt.Fprintln(c.App.Writer, n)
				}
				return nil
			}
			if c.NArg() > 1 {
				return exit(ExitBadInput, fmt.Errorf("schema takes one NAME, got %d", c.NArg()))
			}
			name := schema.Input
			if c.NArg() == 1 {
				name = c.Args().First()
			}
			src, err := schema.Source(name)
			if err != nil {
				return exit(ExitBadInput, err)
			}
			_, err = c.App.Writer.Write(src)
			return err
		},
	}
}
