package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/schema"
)

func shellValues() []string { return []string{"bash", "zsh", "fish"} }

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash, zsh or fish)",
		UsageText: "agyconf completion bash|zsh|fish",
		Description: `Prints a completion script for SHELL, generated from agyconf's own
command definitions: commands and subcommands, each command's flags, the
values of flags that take one of a few (--format, --scope, --color…),
hook events, schema names, and files where a flag or argument is a path.
The scripts run nothing when they complete: they are static.

bash: add source <(agyconf completion bash) to ~/.bashrc, or save the
script as ~/.local/share/bash-completion/completions/agyconf.
zsh: save it as _agyconf in a folder of $fpath, or add
source <(agyconf completion zsh) to ~/.zshrc after compinit.
fish: save it as ~/.config/fish/completions/agyconf.fish.

EXAMPLES:
   agyconf completion bash > ~/.local/share/bash-completion/completions/agyconf
   agyconf completion zsh > "${fpath[1]}/_agyconf"
   agyconf completion fish > ~/.config/fish/completions/agyconf.fish`,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return exit(ExitBadInput, fmt.Errorf("completion takes one SHELL: bash, zsh or fish (see agyconf completion --help)"))
			}
			spec := completionSpec(c.App)
			switch shell := c.Args().First(); shell {
			case "bash":
				writeBashCompletion(c.App.Writer, spec)
			case "zsh":
				writeZshCompletion(c.App.Writer, spec)
			case "fish":
				writeFishCompletion(c.App.Writer, spec)
			default:
				return exit(ExitBadInput, fmt.Errorf("unknown shell %q: use bash, zsh or fish (see agyconf completion --help)", shell))
			}
			return nil
		},
	}
}

// compCmd is one command as the completion scripts see it.
type compCmd struct {
	path  string // "" for agyconf itself, "render", "hook test"
	usage string
	subs  []*compCmd
	flags []compFlag
	args  compValues // what its positional arguments are
}

// compFlag is one flag: its names with dashes, and its value, if any.
type compFlag struct {
	long, short string // "--config", "-c" (short may be empty)
	usage       string
	takesValue  bool
	value       compValues
}

// compValues says what a flag value or a positional argument is: one of a
// few words, a file, a folder, or anything.
type compValues struct {
	words []string
	kind  string // "words", "file", "dir", "" (anything: nothing to offer)
}

// completionSpec walks the app's definition. The help command and the
// --help flag are added here as urfave/cli adds them when it runs a
// command.
func completionSpec(app *cli.App) *compCmd {
	root := &compCmd{path: "", usage: app.Usage}
	root.flags = compFlags("", app.VisibleFlags())
	if !hasFlag(root.flags, "--help") && !app.HideHelp {
		root.flags = append(root.flags, helpCompFlag())
	}
	var names []string
	for _, cmd := range app.VisibleCommands() {
		if cmd.Name == "help" {
			continue
		}
		root.subs = append(root.subs, compCommand("", cmd))
		names = append(names, cmd.Name)
	}
	if !app.HideHelpCommand {
		root.subs = append(root.subs, &compCmd{path: "help", usage: "show the help of a command",
			flags: []compFlag{helpCompFlag()}, args: compValues{kind: "words", words: names}})
	}
	return root
}

func compCommand(parent string, cmd *cli.Command) *compCmd {
	path := strings.TrimSpace(parent + " " + cmd.Name)
	cc := &compCmd{path: path, usage: cmd.Usage, args: argValues(path)}
	cc.flags = compFlags(path, cmd.VisibleFlags())
	if !cmd.HideHelp && !hasFlag(cc.flags, "--help") {
		cc.flags = append(cc.flags, helpCompFlag())
	}
	for _, sub := range cmd.Subcommands {
		if sub.Hidden || sub.Name == "help" {
			continue
		}
		cc.subs = append(cc.subs, compCommand(path, sub))
	}
	return cc
}

func helpCompFlag() compFlag {
	return compFlag{long: "--help", short: "-h", usage: "show help"}
}

func hasFlag(flags []compFlag, long string) bool {
	for _, f := range flags {
		if f.long == long {
			return true
		}
	}
	return false
}

func compFlags(path string, flags []cli.Flag) []compFlag {
	var out []compFlag
	for _, f := range flags {
		df, ok := f.(cli.DocGenerationFlag)
		if !ok {
			continue
		}
		cf := compFlag{usage: strings.ReplaceAll(df.GetUsage(), "`", ""), takesValue: df.TakesValue()}
		for _, n := range df.Names() {
			switch {
			case len(n) == 1 && cf.short == "":
				cf.short = "-" + n
			case len(n) > 1 && cf.long == "":
				cf.long = "--" + n
			}
		}
		if cf.long == "" { // a flag with a one-letter name only
			cf.long, cf.short = cf.short, ""
		}
		if cf.takesValue {
			cf.value = flagValues(path, strings.TrimLeft(cf.long, "-"))
			if m := backticked().FindStringSubmatch(df.GetUsage()); m != nil && cf.value.kind == "" {
				cf.value = placeholderValues(m[1])
			}
		}
		out = append(out, cf)
	}
	return out
}

// flagValues lists the values of a command's flag that takes one of a few.
// They are those the commands check; TestCompletionValuesDocumented holds
// each flag's usage to naming them. Paths are known by the placeholder in
// the flag's usage (placeholderValues).
func flagValues(path, flag string) compValues {
	words := func(w ...string) compValues { return compValues{kind: "words", words: w} }
	switch flag {
	case "color":
		return words("auto", "always", "never")
	case "diagnostics-format":
		return words("text", "json")
	case "format":
		if path == "validate" {
			return words("text", "json", "sarif")
		}
		return words("text", "json")
	case "scope":
		return words(scopeValues()...)
	case "product":
		return words(productValues()...)
	}
	return compValues{}
}

// placeholderValues says what a flag's value is from the placeholder its
// usage names (` + "`DIR`" + `, ` + "`PATH`" + `).
func placeholderValues(p string) compValues {
	switch p {
	case "DIR":
		return compValues{kind: "dir"}
	case "PATH", "FILE":
		return compValues{kind: "file"}
	}
	return compValues{}
}

// argValues says what a command's positional arguments are.
func argValues(path string) compValues {
	switch path {
	case "validate", "fmt":
		return compValues{kind: "file"}
	case "hook test":
		var events []string
		for _, e := range agy.EventNames() {
			events = append(events, string(e))
		}
		return compValues{kind: "words", words: events}
	case "schema":
		return compValues{kind: "words", words: schema.Names()}
	case "completion":
		return compValues{kind: "words", words: shellValues()}
	}
	return compValues{}
}

// all lists the command and every command under it, depth first.
func (c *compCmd) all() []*compCmd {
	out := []*compCmd{c}
	for _, s := range c.subs {
		out = append(out, s.all()...)
	}
	return out
}

func (c *compCmd) subNames() []string {
	var names []string
	for _, s := range c.subs {
		names = append(names, s.path[strings.LastIndex(s.path, " ")+1:])
	}
	return names
}

func (c *compCmd) flagNames() []string {
	var names []string
	for _, f := range c.flags {
		names = append(names, f.long)
		if f.short != "" {
			names = append(names, f.short)
		}
	}
	return names
}

// --- bash ---

func writeBashCompletion(w io.Writer, root *compCmd) {
	cmds := root.all()
	fmt.Fprint(w, `# bash completion for agyconf, generated by "agyconf completion bash" from
# agyconf's command definitions. Load it with
#   source <(agyconf completion bash)
# or save it as ~/.local/share/bash-completion/completions/agyconf.

# _agyconf_subcommands PATH: the commands under PATH.
_agyconf_subcommands() {
    case "$1" in
`)
	for _, c := range cmds {
		if len(c.subs) > 0 {
			fmt.Fprintf(w, "    %s) echo %s ;;\n", bashQuote(c.path), bashQuote(strings.Join(c.subNames(), " ")))
		}
	}
	fmt.Fprint(w, `    esac
}

# _agyconf_flags PATH: the flags of the command PATH.
_agyconf_flags() {
    case "$1" in
`)
	for _, c := range cmds {
		fmt.Fprintf(w, "    %s) echo %s ;;\n", bashQuote(c.path), bashQuote(strings.Join(c.flagNames(), " ")))
	}
	fmt.Fprint(w, `    esac
}

# _agyconf_value PATH FLAG: what the value of FLAG is; fails when FLAG
# takes no value.
_agyconf_value() {
    case "$1 $2" in
`)
	for _, c := range cmds {
		for _, f := range c.flags {
			if !f.takesValue {
				continue
			}
			pats := bashQuote(c.path + " " + f.long)
			if f.short != "" {
				pats += "|" + bashQuote(c.path+" "+f.short)
			}
			fmt.Fprintf(w, "    %s) echo %s ;;\n", pats, bashQuote(bashValues(f.value)))
		}
	}
	fmt.Fprint(w, `    *) return 1 ;;
    esac
}

# _agyconf_args PATH: what the positional arguments of PATH are.
_agyconf_args() {
    case "$1" in
`)
	for _, c := range cmds {
		if c.args.kind != "" {
			fmt.Fprintf(w, "    %s) echo %s ;;\n", bashQuote(c.path), bashQuote(bashValues(c.args)))
		}
	}
	fmt.Fprint(w, `    esac
}

# _agyconf_reply KIND: COMPREPLY from a value kind: "words W...", "file",
# "dir" or "none".
_agyconf_reply() {
    local IFS=$'\n' kind=$1
    shift
    case "$kind" in
    words) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
    file)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    dir)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -d -- "$cur"))
        ;;
    esac
}

_agyconf() {
    local cur prev path="" word value i skip=""
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=""
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # --flag=value: bash splits it at "=".
    if [[ $cur == "=" ]]; then
        cur=""
    elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi
    # The command path typed so far: the words that name commands, with
    # flags and their values skipped.
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ -n $skip ]]; then
            skip=""
            continue
        fi
        case "$word" in
        --) break ;;
        =) skip=1; continue ;;
        -*) _agyconf_value "$path" "$word" >/dev/null && skip=1; continue ;;
        esac
        case " $(_agyconf_subcommands "$path") " in
        *" $word "*) path=${path:+$path }$word ;;
        esac
    done
    if [[ $prev == -* && $cur != -* ]] && value=$(_agyconf_value "$path" "$prev"); then
        _agyconf_reply $value
        return 0
    fi
    if [[ $cur == -* ]]; then
        _agyconf_reply words $(_agyconf_flags "$path")
        return 0
    fi
    local subs
    subs=$(_agyconf_subcommands "$path")
    if [[ -n $subs ]]; then
        _agyconf_reply words $subs
    elif value=$(_agyconf_args "$path") && [[ -n $value ]]; then
        _agyconf_reply $value
    else
        _agyconf_reply words $(_agyconf_flags "$path")
    fi
    return 0
}

complete -F _agyconf agyconf
`)
}

func bashValues(v compValues) string {
	switch v.kind {
	case "words":
		return "words " + strings.Join(v.words, " ")
	case "":
		return "none"
	}
	return v.kind
}

// bashQuote quotes a word for a bash case pattern or echo.
func bashQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// --- zsh ---

func writeZshCompletion(w io.Writer, root *compCmd) {
	fmt.Fprint(w, `#compdef agyconf
# zsh completion for agyconf, generated by "agyconf completion zsh" from
# agyconf's command definitions. Save it as _agyconf in a folder of $fpath,
# or add source <(agyconf completion zsh) to ~/.zshrc after compinit.

`)
	for _, c := range root.all() {
		fmt.Fprintf(w, "%s() {\n", zshFunc(c))
		var specs []string
		for _, f := range c.flags {
			specs = append(specs, zshFlagSpec(f))
		}
		switch {
		case len(c.subs) > 0:
			specs = append(specs, "'1: :"+zshFunc(c)+"_commands'", "'*:: :->args'")
		case c.args.kind != "":
			n := "1" // one word of a few: an event, a schema, a shell, a command
			if c.args.kind == "file" {
				n = "*"
			}
			specs = append(specs, "'"+n+":"+zshArgName(c.path)+":"+zshAction(c.args)+"'")
		}
		fmt.Fprintf(w, "    local curcontext=$curcontext state line\n    _arguments -s -C \\\n        %s\n", strings.Join(specs, " \\\n        "))
		if len(c.subs) > 0 {
			fmt.Fprintf(w, "    case $state in\n    args)\n        case $words[1] in\n")
			for _, s := range c.subs {
				fmt.Fprintf(w, "        %s) %s ;;\n", s.path[strings.LastIndex(s.path, " ")+1:], zshFunc(s))
			}
			fmt.Fprintf(w, "        esac\n        ;;\n    esac\n")
		}
		fmt.Fprint(w, "}\n\n")
		if len(c.subs) > 0 {
			fmt.Fprintf(w, "%s_commands() {\n    local -a commands=(\n", zshFunc(c))
			for _, s := range c.subs {
				name := s.path[strings.LastIndex(s.path, " ")+1:]
				fmt.Fprintf(w, "        %s\n", zshQuote(name+":"+s.usage))
			}
			fmt.Fprintf(w, "    )\n    _describe -t commands 'agyconf command' commands\n}\n\n")
		}
	}
	fmt.Fprint(w, `if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _agyconf "$@"
else
    compdef _agyconf agyconf
fi
`)
}

func zshFunc(c *compCmd) string {
	if c.path == "" {
		return "_agyconf"
	}
	return "_agyconf_" + strings.NewReplacer(" ", "_", "-", "_").Replace(c.path)
}

func zshArgName(path string) string {
	switch path {
	case "hook test":
		return "event"
	case "schema":
		return "schema name"
	case "completion":
		return "shell"
	case "help":
		return "command"
	}
	return "path"
}

func zshAction(v compValues) string {
	switch v.kind {
	case "words":
		return "(" + strings.Join(v.words, " ") + ")"
	case "file":
		return "_files"
	case "dir":
		return "_files -/"
	}
	return " "
}

// zshFlagSpec is an _arguments spec: '(--config -c)'{--config=,-c+}'[…]:value:_files'.
func zshFlagSpec(f compFlag) string {
	desc := "[" + strings.NewReplacer(`\`, `\\`, "]", `\]`).Replace(f.usage) + "]"
	if f.takesValue {
		desc += ":" + strings.TrimLeft(f.long, "-") + ":" + zshAction(f.value)
	}
	long, short := f.long, f.short
	if f.takesValue {
		long += "="
		if short != "" {
			short += "+"
		}
	}
	if short == "" {
		return zshQuote(long + desc)
	}
	return zshQuote("("+f.long+" "+f.short+")") + "{" + long + "," + short + "}" + zshQuote(desc)
}

func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// --- fish ---

func writeFishCompletion(w io.Writer, root *compCmd) {
	cmds := root.all()
	fmt.Fprint(w, `# fish completion for agyconf, generated by "agyconf completion fish" from
# agyconf's command definitions. Save it as
# ~/.config/fish/completions/agyconf.fish.

# The commands under a command path.
function __agyconf_subcommands
    switch "$argv[1]"
`)
	for _, c := range cmds {
		if len(c.subs) > 0 {
			fmt.Fprintf(w, "        case %s\n            echo %s\n", fishQuote(c.path), strings.Join(c.subNames(), " "))
		}
	}
	fmt.Fprint(w, `    end
end

# The flags of a command path that take a value.
function __agyconf_value_flags
    switch "$argv[1]"
`)
	for _, c := range cmds {
		var names []string
		for _, f := range c.flags {
			if f.takesValue {
				names = append(names, f.long)
				if f.short != "" {
					names = append(names, f.short)
				}
			}
		}
		if len(names) > 0 {
			fmt.Fprintf(w, "        case %s\n            echo %s\n", fishQuote(c.path), strings.Join(names, " "))
		}
	}
	fmt.Fprint(w, `    end
end

# The command path typed so far: the words that name commands, with flags
# and their values skipped.
function __agyconf_path
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l skip 0
    for word in $words
        if test $skip = 1
            set skip 0
            continue
        end
        switch $word
            case --
                break
            case '-*=*'
                continue
            case '-*'
                if contains -- $word (string split ' ' -- (__agyconf_value_flags "$path"))
                    set skip 1
                end
                continue
        end
        if contains -- $word (string split ' ' -- (__agyconf_subcommands "$path"))
            set path (string trim -- "$path $word")
        end
    end
    echo $path
end

function __agyconf_is
    set -l path (__agyconf_path)
    test "$path" = "$argv[1]"
end

complete -c agyconf -f
`)
	for _, c := range cmds {
		cond := `"__agyconf_is '` + c.path + `'"`
		for _, s := range c.subs {
			name := s.path[strings.LastIndex(s.path, " ")+1:]
			fmt.Fprintf(w, "complete -c agyconf -n %s -a %s -d %s\n", cond, name, fishQuote(s.usage))
		}
		for _, f := range c.flags {
			line := fmt.Sprintf("complete -c agyconf -n %s -l %s", cond, strings.TrimLeft(f.long, "-"))
			if f.short != "" {
				line += " -s " + strings.TrimLeft(f.short, "-")
			}
			if f.takesValue {
				line += fishValue(f.value)
			}
			fmt.Fprintf(w, "%s -d %s\n", line, fishQuote(f.usage))
		}
		if c.args.kind != "" && len(c.subs) == 0 {
			fmt.Fprintf(w, "complete -c agyconf -n %s%s\n", cond, fishArg(c.args))
		}
	}
}

func fishValue(v compValues) string {
	switch v.kind {
	case "words":
		return " -x -a " + fishQuote(strings.Join(v.words, " "))
	case "file":
		return " -r -F"
	case "dir":
		return " -x -a '(__fish_complete_directories)'"
	}
	return " -x"
}

func fishArg(v compValues) string {
	switch v.kind {
	case "words":
		return " -a " + fishQuote(strings.Join(v.words, " "))
	case "file":
		return " -F"
	case "dir":
		return " -a '(__fish_complete_directories)'"
	}
	return ""
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", `\'`).Replace(s) + "'"
}

// commandPaths lists every command path of the app, for tests and the man
// page: "render", "hook", "hook test".
func commandPaths(app *cli.App) []string {
	var out []string
	for _, c := range completionSpec(app).all()[1:] {
		out = append(out, c.path)
	}
	sort.Strings(out)
	return out
}
