package cli

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/apply"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/engine"
	"github.com/agyconf/agyconf/internal/importer"
	"github.com/agyconf/agyconf/internal/layout"
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
workflows, GEMINI.md's managed block, the files of global rules agy reads
whole (~/.gemini/config/AGENTS.md …), skills in ~/.gemini/skills/, and in
a workspace the legacy roots .agent/, _agents/ and _agent/ besides
.agents/ — and prints an agyconf config that renders back to the same
content: every member of every entry, those agyconf does not know in
extra, rules and workflows as they were (no trigger invented). What render
writes elsewhere (a legacy root's files under .agents/, a flat subagent as
NAME/agent.md) is listed as converted, as are agyconf's own agyhook
wrappings, read back as the servers they start: agyhook exec-env as the
local server, agyhook-bridge as the remote one, the files they read as
secret_file() (named, never read). Nothing under DIR is changed. A
file that does not parse, or cannot be read (a named pipe, a device, over
16 MiB), is reported with the position and message render gives, and the
rest of the tree is still imported: the config declares nothing of it, and
render refuses to merge into such a file until it is fixed. agy's own
empty mcp_config.json is no servers.

Output: the config on stdout; with --out DIR it is written to
DIR/agyconf.hcl instead, with bodies over 10 lines or 512 bytes as
file("…") next to it and skill folders copied there. The report goes to
stderr, one line per item: "not imported: PATH[:LINE:COL] [UNIT]: REASON",
"converted: …" (changed on the way, e.g. url written as serverUrl), "secret:
…" and "harness: …".

Secrets: import never prints a credential, on stdout, on stderr or into any
file but its own. A value is one when any agyconf state under the root,
ROOT (every *.json in ROOT/.local/state/agyconf/, or in ROOT/.agyconf/ in
workspace scope), records it as read from secret_file(); and, wherever no
state marks it, when it is an MCP server's env, headers, oauth or args
value and
  - its key (an env or header name, a key in a JSON value) contains TOKEN,
    SECRET, KEY, PASSWORD, PASSWD, PASSPHRASE, AUTH, CREDENTIAL or
    COOKIE, or PASS not followed by a letter (DB_PASS, PGPASS), or PWD
    between a non-letter and a non-letter or the end (MYSQL_PWD), any
    case; an
    oauth clientSecret always is one;
  - or its value starts with "Bearer ", "Basic " or "Token ", or holds,
    at its start or after a character other than a letter or digit, ghp_,
    gho_, ghu_, ghs_ or ghr_ and 8 more characters, github_pat_ or glpat-
    and 8, sk- and 16, xoxa-, xoxb-, xoxp- or xoxr- and 8, AKIA or ASIA
    and 16, AIza and 20, or a JWT (eyJ….eyJ…);
  - or its value holds a random-looking run: 24 or more of A-Z a-z 0-9
    + / = _ - ., with at least 20 letters and digits, lowercase, uppercase
    and digits all present, and at least 2 in 5 neighbouring letters and
    digits switching between those three classes (hex and lowercase-only
    strings never count: name them in a key);
  - or its value is a URL (it holds "://") holding a credential, as a
    server URL can (below): postgres://app:PASSWORD@db/app;
  - or its value is JSON (a jsonencode() argument) holding such a key with
    a non-empty string or number, or such a value;
  - for args also: --FLAG=VALUE, or the argument after --FLAG unless it
    starts with "-", when FLAG's last word (split at "-", "_", ".") is
    token, secret, key, apikey, password, passwd, pass, pat, credential,
    credentials, auth or bearer; or a header "NAME: VALUE" whose NAME
    matches the key rule.
A hook's command has no secret_file(): one whose command line holds a
value the value rule matches, a bearer token, a user and password (-u
USER:PASS), a header or a variable set for the command whose name matches
the key rule (X-Api-Key: …, API_KEY=…), or a word the args rule takes is
not imported ("the command holds what looks like a credential"), and
stays in hooks.json as the user's. agyconf diff leaves out such a command
line, and what this rule takes in a user's mcp_config.json entries, too.
The whole string is the secret ("Bearer …", a whole JSON argument).
Without --out the config reads it with
secret_file("ROOT/.config/agyconf/secrets/<server>-<name>") and a TODO
comment, and the report gives the command that creates that file from the
live one. With --out it is written to DIR/secrets/<server>-<name> (mode
0600, the folder created 0700, never over an existing file), which the
config reads, and DIR/agyconf.hcl, which then calls secret_file(), is
written mode 0600 too. A local server holding one, and a remote server
whose headers hold one, get secret_mode = "inline", so that they render
back to the same file; removing it has agyhook exec-env or agyhook-bridge
read the file when agy starts the server. In workspace scope,
where secret_file() is refused, such a value is not imported.

A URL holds a credential in its userinfo's password (or a user name the
value rule matches), a query parameter whose key matches the key rule
(with a value) or whose value matches the value rule, a path segment or a
fragment matching it. A server whose serverUrl, url or httpUrl holds one
is not imported, since server_url cannot read secret_file(): the report
shows the URL with <secret> in its place; move the credential into a
header (headers = { Authorization = "Bearer ${secret_file(…)}" }) and
import again. Every secret value import finds is replaced by <secret>
wherever else it would be printed (the report, the migration diff, error
messages).

Links: in workspace scope (a cloned repository, possibly hostile) import
never reads through a symbolic link that leads out of the root, or
nowhere: it reports "not imported: PATH: is a link to TARGET, outside the
project; agyconf does not read through it" and reads nothing of it. Links
that stay inside the root are read. In global scope the root is your own
home, whose files are often linked from elsewhere (a dotfiles checkout,
/nix/store): links out of it are read. Either way only regular files are
read, of at most 16 MiB each; a FIFO or a device is refused. Skill and
plugin folders are imported only as folders of their own, and a link
inside a skill folder is refused.

Harnesses: MemPalace's plugin (its bash hooks or agyhook's) and xmsg's
server, xmsg-register hook and skill become harness "mempalace" and
harness "xmsg" blocks. Since the harness may render differently from what is
installed, the unified diff a render would make by switching is printed to
stderr after the report, under "migration diff"; secrets show as <secret>.

Exit code 0 once imported, whatever the report lists (a file that does not
parse included); 2 for bad usage, or a root or a state that cannot be read.

EXAMPLES:
   agyconf import > ~/.config/agyconf/agyconf.hcl
   agyconf import --out ~/.config/agyconf
   agyconf import --scope workspace --root ~/src/project --out ~/src/project`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "root", Usage: "read the files under `DIR` instead of the scope's default"},
			&cli.StringFlag{Name: "scope", Value: "global", Usage: "global or workspace"},
			&cli.StringFlag{Name: "product", Value: "both", Usage: "cli, ide or both: whose paths to read"},
			&cli.StringFlag{Name: "out", Usage: "write the config to `PATH` — a file when it ends in .hcl, otherwise a folder that gets agyconf.hcl (as init --out reads it) — with its body files beside it, instead of printing it"},
			colorFlag(),
			quietFlag(),
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
	root, err := engine.RenderRoot(c.String("root"), scope)
	if err != nil {
		return exit(ExitBadInput, err)
	}
	out, name := "", defaultInitOut
	if o := c.String("out"); o != "" {
		if o, err = filepath.Abs(o); err != nil {
			return exit(ExitBadInput, err)
		}
		if out, name, err = configOut(o); err != nil {
			return exit(ExitBadInput, err)
		}
		if st, err := os.Stat(out); err == nil && !st.IsDir() {
			return exit(ExitBadInput, fmt.Errorf("--out %s is not a folder", out))
		}
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			return exit(ExitBadInput, fmt.Errorf("%s already exists; import does not overwrite a config: choose another --out or move it aside", filepath.Join(out, name)))
		}
	}
	// The states are read while import reads the live files, and waited
	// for when import first needs them. Their error comes first: without
	// them import cannot tell what came from secret_file(), and nothing
	// it made is printed or written.
	type read struct {
		secrets map[string][]string
		err     error
	}
	done := make(chan read, 1)
	go func() {
		secrets, err := stateSecrets(root, scope)
		done <- read{secrets, err}
	}()
	states := sync.OnceValue(func() read { return <-done })
	res, err := importer.Import(importer.Options{Root: root, Scope: scope, Product: product, Out: out,
		StateSecrets: func() map[string][]string { return states().secrets },
		// A workspace may be a hostile clone: nothing is read through a
		// link out of it. A home is the user's own, its dotfiles often
		// linked from elsewhere (--help, "Links").
		FollowLinksOut: scope == model.ScopeGlobal})
	if st := states(); st.err != nil {
		return exit(ExitBadInput, st.err)
	}
	if err != nil {
		return exit(ExitBadInput, err)
	}
	errw := c.App.ErrWriter
	if out == "" {
		if _, err := c.App.Writer.Write(res.HCL); err != nil {
			return exit(ExitBadInput, err)
		}
	} else {
		if err := writeImport(out, name, res); err != nil {
			return exit(ExitBadInput, err)
		}
		fmt.Fprintf(info(c, errw), "wrote %s (%d more file(s))\n", filepath.Join(out, name), len(res.Files))
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

// stateSecrets reads every config instance's state under root — each
// *.json in the scope's state folder — and returns, per file relative to
// root, the JSON pointers from the file's root of the values they record
// as read from secret_file(), for import to keep out of what it prints.
// An unreadable state is an error: without it import cannot tell.
func stateSecrets(root string, scope model.Scope) (map[string][]string, error) {
	fsys, err := confine.Open(root, confine.Options{KeepFolders: true})
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	// No instance is named "", so the states "beside" it are all of them.
	states, err := apply.NewStore(fsys, layout.StateDir(scope)).LoadOthers("")
	if err != nil {
		return nil, fmt.Errorf("%w (import reads the states to know which values came from secret_file())", err)
	}
	out := map[string][]string{}
	for _, st := range states {
		for key, f := range st.Files {
			file, entry, _ := strings.Cut(key, "#")
			for _, p := range f.Secrets {
				out[file] = append(out[file], entry+p)
			}
		}
	}
	return out, nil
}

// writeImport writes the config and the files it reads under out; it
// never overwrites a file, and checks that before writing any. Secrets go
// mode 0600 into folders it creates mode 0700, and so does the config
// when it names them.
// writeImport writes the config as out/name and the files it reads
// beside it, all or nothing: a failure removes what it wrote and the
// folders it made.
func writeImport(out, name string, res *importer.Result) (err error) {
	names := append(sortedFileNames(res.Files), name)
	undo, err := confine.MkdirNew(out, 0o755)
	if err != nil {
		return err
	}
	// Through a root opened at out: a link planted among its folders
	// cannot send a secret elsewhere.
	root, err := confine.Open(out, confine.Options{})
	if err != nil {
		undo()
		return err
	}
	defer root.Close()
	var written, made []string
	defer func() {
		if err == nil {
			return
		}
		for i := len(written) - 1; i >= 0; i-- {
			root.Remove(written[i])
		}
		for i := len(made) - 1; i >= 0; i-- {
			root.Remove(made[i]) // only an empty folder goes
		}
		undo()
	}()
	for _, rel := range names {
		if _, err := root.Lstat(rel); err == nil {
			return fmt.Errorf("%s already exists; import does not overwrite a file: choose another --out or move it aside", root.Full(rel))
		}
	}
	write := func(rel string, data []byte, mode os.FileMode) error {
		dirMode := os.FileMode(0o755)
		if mode&0o077 == 0 {
			dirMode = 0o700
		}
		var missing []string
		for d := path.Dir(rel); d != "."; d = path.Dir(d) {
			if _, err := root.Lstat(d); err != nil {
				missing = append(missing, d)
			}
		}
		if err := root.MkdirAll(path.Dir(rel), dirMode); err != nil {
			return err
		}
		for i := len(missing) - 1; i >= 0; i-- {
			made = append(made, missing[i])
		}
		if err := root.CreateNew(rel, data, mode); err != nil {
			return err
		}
		written = append(written, rel)
		return nil
	}
	for _, rel := range sortedFileNames(res.Files) {
		mode := os.FileMode(0o644)
		switch f := res.Files[rel]; {
		case f.Secret:
			mode = 0o600
		case f.Executable:
			mode = 0o755
		}
		if err := write(rel, res.Files[rel].Data, mode); err != nil {
			return err
		}
	}
	mode := os.FileMode(0o644)
	if res.ReadsSecrets {
		mode = 0o600
	}
	return write(name, res.HCL, mode)
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
