package mcpbridge

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// Usage is the bridge's command line, as agyconf renders it; `agyhook
// bridge` takes the same arguments and executes agyhook-bridge with them.
const Usage = "usage: agyhook-bridge [--header NAME=TEXT | --header-file NAME=PATH | --header-file-json NAME=N:PATH]... -- URL"

// headerOp is one --header or --header-file, in command-line order.
type headerOp struct {
	Name string
	// Text is --header's text; Path is --header-file's path (absolute or
	// in the runtime folder, expanded when read).
	Text, Path string
	File       bool
	// JSONEscape: --header-file-json's N.
	JSONEscape int
}

// usageError is a malformed command line: decided before any file is read,
// and never holding a value.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErr(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// parseArgs parses the bridge's arguments into its header operations and
// the server's URL. Like exec-env's, its errors name flags and header
// names, never a TEXT.
func parseArgs(args []string) ([]headerOp, string, error) {
	var ops []headerOp
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch a {
		case "--":
			rest := args[i+1:]
			if len(rest) != 1 {
				return nil, "", usageErr("want exactly one URL after --, got %d arguments", len(rest))
			}
			if err := checkURL(rest[0]); err != nil {
				return nil, "", err
			}
			return ops, rest[0], nil
		case "--header", "--header-file", "--header-file-json":
			if i+1 >= len(args) {
				return nil, "", usageErr("%s needs an argument", a)
			}
			i++
			name, val, ok := strings.Cut(args[i], "=")
			if !ok {
				// Without "=" the argument may be all value: not echoed.
				return nil, "", usageErr("%s needs NAME=… (argument %d has no =)", a, i+1)
			}
			if !validHeaderName(name) {
				return nil, "", usageErr("%s: invalid header name %q", a, name)
			}
			op := headerOp{Name: name}
			if a == "--header" {
				if !validHeaderText(val) {
					return nil, "", usageErr("--header %s: the text holds a control character, which a header cannot carry", name)
				}
				op.Text = val
			} else {
				if a == "--header-file-json" {
					n, rest, ok := strings.Cut(val, ":")
					level, err := strconv.Atoi(n)
					if !ok || err != nil || level < 1 || level > jsonesc.MaxTimes {
						return nil, "", usageErr("--header-file-json %s: want N:PATH with N from 1 to %d", name, jsonesc.MaxTimes)
					}
					op.JSONEscape, val = level, rest
				}
				if strings.IndexByte(val, 0) >= 0 {
					return nil, "", usageErr("%s %s: the path contains a NUL byte", a, name)
				}
				if err := secretpath.Check(val); err != nil {
					return nil, "", usageErr("%s %s: path %q is not absolute (%v)", a, name, val, err)
				}
				op.Path, op.File = val, true
			}
			ops = append(ops, op)
		case "-h", "-help", "--help":
			return nil, "", &usageError{}
		default:
			if strings.HasPrefix(a, "-") {
				flagName, _, _ := strings.Cut(a, "=")
				return nil, "", usageErr("unknown flag %q", flagName)
			}
			return nil, "", usageErr("argument %d is not a flag: put -- before the URL", i+1)
		}
	}
	return nil, "", usageErr("missing -- and the URL")
}

// checkURL accepts what agyconf's server_url accepts: an absolute http or
// https URL with a host.
func checkURL(u string) error {
	pu, err := url.Parse(u)
	if err != nil || (pu.Scheme != "https" && pu.Scheme != "http") || pu.Hostname() == "" {
		return usageErr("the URL must be an absolute http or https URL, got %q", u)
	}
	return nil
}

// validHeaderName: an HTTP field name (RFC 9110's token), the rule
// agyconf's decoder applies to headers' names.
func validHeaderName(s string) bool {
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

// validHeaderText: no control character but tab, which is what a header
// value can carry (a line break would end the header, or start another).
func validHeaderText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// buildHeaders reads the header files (read is agyhook.ReadSecret bound to
// the environment) and joins each header's parts in command-line order. A
// header named twice, in any case, is one header: its parts append, as
// exec-env's variables do. Errors name the flag, the header and the path,
// never a value.
func buildHeaders(ops []headerOp, read func(string) (string, error)) (http.Header, error) {
	vals := map[string]*strings.Builder{}
	var order []string
	for _, op := range ops {
		key := http.CanonicalHeaderKey(op.Name)
		b := vals[key]
		if b == nil {
			b = &strings.Builder{}
			vals[key] = b
			order = append(order, key)
		}
		if !op.File {
			b.WriteString(op.Text)
			continue
		}
		flag := "--header-file"
		if op.JSONEscape > 0 {
			flag = "--header-file-json"
		}
		v, err := read(op.Path)
		if err != nil {
			return nil, fmt.Errorf("%s %s=%s: %v", flag, op.Name, showPath(op.Path), err)
		}
		v, err = jsonesc.String(v, op.JSONEscape)
		if err != nil {
			return nil, fmt.Errorf("%s %s=%s: %v", flag, op.Name, showPath(op.Path), err)
		}
		if !validHeaderText(v) {
			return nil, fmt.Errorf("%s %s=%s: the file holds a line break or another control character, which a header cannot carry", flag, op.Name, showPath(op.Path))
		}
		b.WriteString(v)
	}
	h := http.Header{}
	for _, k := range order {
		h[k] = []string{vals[k].String()}
	}
	return h, nil
}

// showPath is p, quoted when it holds anything unprintable.
func showPath(p string) string {
	if q := strconv.Quote(p); q[1:len(q)-1] != p {
		return q
	}
	return p
}
