package mcpbridge

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/secretargs"
)

// Usage is the bridge's command line, as agyconf renders it; `agyhook
// bridge` takes the same arguments and executes agyhook-bridge with them.
const Usage = "usage: agyhook-bridge [--header NAME=TEXT | --header-file NAME=PATH | --header-file-json NAME=N:PATH]... -- URL"

// headerOp is one --header, --header-file or --header-file-json, in
// command-line order: the bridge's grammar is internal/secretargs', which
// agyconf render writes and agyconf import reads back.
type headerOp = secretargs.Part

// usageError is a malformed command line: decided before any file is read,
// and never holding a value.
type usageError = secretargs.UsageError

// parseArgs parses the bridge's arguments into its header operations and
// the server's URL. Like exec-env's, its errors name flags and header
// names, never a TEXT.
func parseArgs(args []string) ([]headerOp, string, error) {
	ops, rest, err := secretargs.Bridge().Parse(args)
	if err != nil {
		return nil, "", err
	}
	return ops, rest[0], nil
}

// checkURL accepts what agyconf's server_url accepts: an absolute http or
// https URL with a host.
func checkURL(u string) error { return secretargs.CheckURL(u) }

// validHeaderText: no control character but tab, which is what a header
// value can carry (a line break would end the header, or start another).
func validHeaderText(s string) bool { return secretargs.ValidHeaderText(s) }

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
