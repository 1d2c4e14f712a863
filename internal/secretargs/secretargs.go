// Package secretargs is the command line through which agyhook exec-env
// and agyhook-bridge receive values built from literal text and secret
// files, so that a rendered mcp_config.json names where a secret is and
// never what it is:
//
//	agyhook exec-env [--env VAR=TEXT | --env-file VAR=PATH | --env-file-json VAR=N:PATH]... -- COMMAND [ARG...]
//	agyhook-bridge [--header NAME=TEXT | --header-file NAME=PATH | --header-file-json NAME=N:PATH]... -- URL
//
// One grammar per program, both directions side by side: the programs
// parse their arguments with it, agyconf render writes them with it and
// agyconf import reads them back with it, so a form one side knows cannot
// be missing from the other. Standard library only (and agyconf's own
// standard-library packages): agyhook links it, and pays at every hook
// start for what it links.
package secretargs

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// Part is one --X, --X-file or --X-file-json: a piece of the named value,
// in command-line order. A name given several times is one value whose
// pieces append.
type Part struct {
	Name string
	// Text is --X's text; Path is --X-file's path (absolute, or in the
	// runtime folder, expanded when the file is read).
	Text, Path string
	File       bool
	// JSONEscape is --X-file-json's N: the file's value is escaped N
	// times as the inside of a JSON string (the secret was inside N
	// jsonencode() calls, as the text around it was).
	JSONEscape int
}

// UsageError is a malformed command line: decided before any file is
// read, and never holding a value (a TEXT, or an argument that may be
// all value). An empty Msg is a request for help.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usageErr(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Grammar is one program's command line.
type Grammar struct {
	// flag is the text flag; flag+"-file" and flag+"-file-json" are the
	// file flags.
	flag string
	// textForm and pathForm are what a flag's argument looks like, for
	// messages.
	textForm, pathForm string
	// badName says what is wrong with a value's name, or "".
	badName func(flag, name string) string
	// badText says what is wrong with a text, or "" (never quoting it).
	badText func(name, text string) string
	// after is what follows "--", for messages.
	after string
	// tail checks what follows "--".
	tail func(rest []string) error
}

// ExecEnv is agyhook exec-env's command line (after the subcommand):
// environment variables, then the command and its arguments.
func ExecEnv() Grammar {
	return Grammar{
		flag: "--env", textForm: "VAR=TEXT", pathForm: "VAR=PATH",
		badName: func(flag, name string) string {
			if ValidEnvName(name) {
				return ""
			}
			return fmt.Sprintf("%s: invalid variable name %q (want [A-Za-z_][A-Za-z0-9_]*)", flag, name)
		},
		badText: func(name, text string) string {
			if strings.IndexByte(text, 0) >= 0 {
				return fmt.Sprintf("--env %s: the text contains a NUL byte", name)
			}
			return ""
		},
		after: "the command",
		tail: func(rest []string) error {
			switch {
			case len(rest) == 0:
				return usageErr("no command after --")
			case rest[0] == "":
				return usageErr("empty command after --")
			}
			return nil
		},
	}
}

// Bridge is agyhook-bridge's command line (and `agyhook bridge`'s, which
// passes it on): headers, then the remote server's URL.
func Bridge() Grammar {
	return Grammar{
		flag: "--header", textForm: "NAME=…", pathForm: "NAME=…",
		badName: func(flag, name string) string {
			if ValidHeaderName(name) {
				return ""
			}
			return fmt.Sprintf("%s: invalid header name %q", flag, name)
		},
		badText: func(name, text string) string {
			if !ValidHeaderText(text) {
				return fmt.Sprintf("--header %s: the text holds a control character, which a header cannot carry", name)
			}
			return ""
		},
		after: "the URL",
		tail: func(rest []string) error {
			if len(rest) != 1 {
				return usageErr("want exactly one URL after --, got %d arguments", len(rest))
			}
			return CheckURL(rest[0])
		},
	}
}

// Parse reads a command line into its parts and what follows "--".
// Errors are *UsageError.
func (g Grammar) Parse(args []string) ([]Part, []string, error) {
	file, fileJSON := g.flag+"-file", g.flag+"-file-json"
	var parts []Part
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--":
			rest := args[i+1:]
			if err := g.tail(rest); err != nil {
				return nil, nil, err
			}
			return parts, rest, nil
		case g.flag, file, fileJSON:
			if i+1 >= len(args) {
				return nil, nil, usageErr("%s needs an argument", a)
			}
			i++
			name, val, ok := strings.Cut(args[i], "=")
			if !ok {
				// Without "=" the argument may be all value: not echoed.
				form := g.pathForm
				if a == g.flag {
					form = g.textForm
				}
				return nil, nil, usageErr("%s needs %s (argument %d has no =)", a, form, i+1)
			}
			if msg := g.badName(a, name); msg != "" {
				return nil, nil, usageErr("%s", msg)
			}
			p := Part{Name: name}
			if a == g.flag {
				if msg := g.badText(name, val); msg != "" {
					return nil, nil, usageErr("%s", msg)
				}
				p.Text = val
			} else {
				if a == fileJSON {
					n, rest, ok := strings.Cut(val, ":")
					level, err := strconv.Atoi(n)
					if !ok || err != nil || level < 1 || level > jsonesc.MaxTimes {
						return nil, nil, usageErr("%s %s: want N:PATH with N from 1 to %d", a, name, jsonesc.MaxTimes)
					}
					p.JSONEscape, val = level, rest
				}
				if strings.IndexByte(val, 0) >= 0 {
					return nil, nil, usageErr("%s %s: the path contains a NUL byte", a, name)
				}
				// An absolute path, or one naming the runtime folder as
				// sops-nix and agenix write it (%r/…, ${XDG_RUNTIME_DIR}/…),
				// expanded when the file is read.
				if err := secretpath.Check(val); err != nil {
					return nil, nil, usageErr("%s %s: path %q is not absolute (%v)", a, name, val, err)
				}
				p.Path, p.File = val, true
			}
			parts = append(parts, p)
		case "-h", "-help", "--help":
			return nil, nil, &UsageError{}
		default:
			if strings.HasPrefix(a, "-") {
				// --flag=value: the value may be a secret, so only the name.
				flagName, _, _ := strings.Cut(a, "=")
				return nil, nil, usageErr("unknown flag %q", flagName)
			}
			return nil, nil, usageErr("argument %d is not a flag: put -- before %s", i+1, g.after)
		}
	}
	return nil, nil, usageErr("missing -- and %s", g.after)
}

// Format writes parts and then, after "--", tail: the command line Parse
// reads back as parts and tail.
func (g Grammar) Format(parts []Part, tail ...string) []string {
	out := make([]string, 0, 2*len(parts)+1+len(tail))
	for _, p := range parts {
		switch {
		case p.File && p.JSONEscape > 0:
			out = append(out, g.flag+"-file-json", p.Name+"="+strconv.Itoa(p.JSONEscape)+":"+p.Path)
		case p.File:
			out = append(out, g.flag+"-file", p.Name+"="+p.Path)
		default:
			out = append(out, g.flag, p.Name+"="+p.Text)
		}
	}
	out = append(out, "--")
	return append(out, tail...)
}

// ValidEnvName reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func ValidEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// ValidHeaderName: an HTTP field name (RFC 9110's token), the rule
// agyconf's decoder applies to headers' names.
func ValidHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c > '~' || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// ValidHeaderText: no control character but tab, which is what a header
// value can carry (a line break would end the header, or start another).
func ValidHeaderText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// CheckURL accepts what agyconf's server_url accepts: an absolute http or
// https URL with a host.
func CheckURL(u string) error {
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Hostname() == "" {
		return usageErr("the URL must be an absolute http or https URL, got %q", u)
	}
	return nil
}
