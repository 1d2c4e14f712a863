package codec

import (
	"fmt"
	"net/http"
	"sort"

	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/secretargs"
)

// The agyhook wrappings of an MCP server whose secrets agyhook reads when
// agy starts it (secret_mode "exec"), both directions side by side on the
// programs' own grammar (internal/secretargs): render writes a local
// server's secret env as `agyhook exec-env … -- COMMAND ARGS…` and a
// remote server's headers as `agyhook-bridge … -- URL`; import reads each
// back as the server it wraps. A value is its literal parts and secret
// files in order (--X NAME=TEXT, --X-file NAME=PATH, and
// --X-file-json NAME=N:PATH for a secret inside N jsonencode() calls).

// ExecEnvArgs are agyhook's arguments for a local server: the exec-env
// subcommand, env's values, then the command and its args. Variables are
// written sorted by name.
func ExecEnvArgs(env map[string]model.Str, command string, args []model.Str) []model.Str {
	flags := secretargs.ExecEnv().Format(valueParts(env), command)
	out := make([]model.Str, 0, 1+len(flags)+len(args))
	out = append(out, Lit("exec-env"))
	for _, f := range flags {
		out = append(out, Lit(f))
	}
	return append(out, args...)
}

// ReadExecEnv reads agyhook's arguments back (what follows the command
// agyhook): the env exec-env sets, the command it executes and that
// command's arguments. An error says why args are no exec-env wrapping.
func ReadExecEnv(args []string) (env map[string]model.Str, command string, rest []string, err error) {
	if len(args) == 0 || args[0] != "exec-env" {
		return nil, "", nil, fmt.Errorf("not agyhook exec-env")
	}
	parts, tail, err := secretargs.ExecEnv().Parse(args[1:])
	if err != nil {
		return nil, "", nil, err
	}
	return partValues(parts, func(s string) string { return s }), tail[0], tail[1:], nil
}

// BridgeArgs are agyhook-bridge's arguments for a remote server: its
// headers (sorted by name), then its URL.
func BridgeArgs(headers map[string]model.Str, url string) []model.Str {
	flags := secretargs.Bridge().Format(valueParts(headers), url)
	out := make([]model.Str, len(flags))
	for i, f := range flags {
		out[i] = Lit(f)
	}
	return out
}

// ReadBridge reads agyhook-bridge's arguments back (or those of `agyhook
// bridge`, after the subcommand): the headers and the URL. A header
// named twice in different case is one header, as the bridge sends it:
// its parts append under the first spelling.
func ReadBridge(args []string) (headers map[string]model.Str, url string, err error) {
	parts, tail, err := secretargs.Bridge().Parse(args)
	if err != nil {
		return nil, "", err
	}
	return partValues(parts, http.CanonicalHeaderKey), tail[0], nil
}

// valueParts are the parts of each value, sorted by name: a literal part
// as --X NAME=TEXT (an empty one only when it is the whole value, which
// still names the variable or header), a secret as a file flag.
func valueParts(values map[string]model.Str) []secretargs.Part {
	names := make([]string, 0, len(values))
	for k := range values {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []secretargs.Part
	for _, k := range names {
		v := values[k]
		if len(v) == 0 {
			out = append(out, secretargs.Part{Name: k})
		}
		for _, p := range v {
			switch {
			case p.SecretFile != "":
				out = append(out, secretargs.Part{Name: k, Path: p.SecretFile, File: true, JSONEscape: p.JSONEscape})
			case p.Text != "" || len(v) == 1:
				out = append(out, secretargs.Part{Name: k, Text: p.Text})
			}
		}
	}
	return out
}

// partValues joins parts into values, adjacent texts merged and empty ones
// dropped unless a value is nothing else, as the decoder splits a string
// at its secrets. fold names a value (parts whose names fold the same are
// one value, under the first spelling).
func partValues(parts []secretargs.Part, fold func(string) string) map[string]model.Str {
	out := map[string]model.Str{}
	spelled := map[string]string{}
	for _, p := range parts {
		name, ok := spelled[fold(p.Name)]
		if !ok {
			name = p.Name
			spelled[fold(p.Name)] = name
		}
		v := out[name]
		switch {
		case p.File:
			if len(v) == 1 && v[0].SecretFile == "" && v[0].Text == "" {
				v = nil
			}
			v = append(v, model.Part{SecretFile: p.Path, JSONEscape: p.JSONEscape})
		case len(v) > 0 && v[len(v)-1].SecretFile == "":
			v[len(v)-1].Text += p.Text
		case p.Text != "" || len(v) == 0:
			v = append(v, model.Part{Text: p.Text})
		}
		out[name] = v
	}
	return out
}
