package importer

import (
	"encoding/json"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/agyconf/agyconf/internal/model"
)

// A value read back from an agyhook wrapping (exec-env's variables,
// agyhook-bridge's headers) is its literal parts and secret files, as
// the decoder split the string the config's expression made. Printing it
// back means writing an expression that makes those parts again: text as
// text, a secret as ${secret_file("…")}, and a secret the wrapping
// escapes N times as the inside of a JSON string (--X-file-json N:PATH, a
// secret_file() that sat inside N jsonencode() calls) as a jsonencode()
// of the JSON string literal holding it, the text around it inside that
// literal unescaped once.

// tok is one byte of a value's text, or one of its secrets.
type tok struct {
	b      byte
	secret *model.Part
}

func flatten(s model.Str) []tok {
	var out []tok
	for i := range s {
		if s[i].SecretFile != "" {
			out = append(out, tok{secret: &s[i]})
			continue
		}
		for j := 0; j < len(s[i].Text); j++ {
			out = append(out, tok{b: s[i].Text[j]})
		}
	}
	return out
}

// templateOf is the inside of a quoted HCL template the decoder reads
// back as s; false when s holds a secret escaped as inside a JSON string
// that no JSON string literal in its text holds, which no jsonencode()
// can have made.
func templateOf(s model.Str) (string, bool) { return template(flatten(s)) }

// printable reports whether every value can be printed (templateOf).
func printable(values map[string]model.Str) bool {
	for _, v := range values {
		if _, ok := templateOf(v); !ok {
			return false
		}
	}
	return true
}

func template(ts []tok) (string, bool) {
	var b strings.Builder
	start := 0
	// text writes ts[start:end], escaped; before an interpolation, a
	// last "$" is written as one (${"$"}), since "$${" would read as a
	// literal "${".
	text := func(end int, beforeInterp bool) {
		var raw []byte
		for _, t := range ts[start:end] {
			raw = append(raw, t.b)
		}
		dollar := beforeInterp && len(raw) > 0 && raw[len(raw)-1] == '$'
		if dollar {
			raw = raw[:len(raw)-1]
		}
		b.WriteString(escapeTemplate(string(raw)))
		if dollar {
			b.WriteString(`${"$"}`)
		}
	}
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if t.secret == nil {
			continue
		}
		if t.secret.JSONEscape == 0 {
			text(i, true)
			b.WriteString("${secret_file(" + quote(t.secret.SecretFile) + ")}")
			start = i + 1
			continue
		}
		open := -1
		for j := i - 1; j >= start && open < 0; j-- {
			if ts[j].secret == nil && ts[j].b == '"' && !escapedAt(ts, j, start) {
				open = j
			}
		}
		end := -1
		for j := i + 1; j < len(ts) && end < 0; j++ {
			if ts[j].secret != nil && ts[j].secret.JSONEscape == 0 {
				return "", false // a raw secret inside a JSON string
			}
			if ts[j].secret == nil && ts[j].b == '"' && !escapedAt(ts, j, open+1) {
				end = j
			}
		}
		if open < 0 || end < 0 {
			return "", false
		}
		inner, ok := unescapeJSON(ts[open+1 : end])
		if !ok {
			return "", false
		}
		var expr string
		if len(inner) == 1 && inner[0].secret != nil && inner[0].secret.JSONEscape == 0 {
			expr = "secret_file(" + quote(inner[0].secret.SecretFile) + ")"
		} else {
			in, ok := template(inner)
			if !ok {
				return "", false
			}
			expr = `"` + in + `"`
		}
		text(open, true)
		b.WriteString("${jsonencode(" + expr + ")}")
		start = end + 1
		i = end
	}
	text(len(ts), false)
	return b.String(), true
}

// escapedAt reports whether the quote at j is escaped: an odd run of
// backslashes before it, not reaching below lo.
func escapedAt(ts []tok, j, lo int) bool {
	n := 0
	for k := j - 1; k >= lo && ts[k].secret == nil && ts[k].b == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// unescapeJSON reads the inside of a JSON string literal (its text runs
// unescaped, each secret one level less escaped), if jsonencode() writes
// each run back byte for byte: what the decoder makes of the printed
// expression is then exactly this value.
func unescapeJSON(ts []tok) ([]tok, bool) {
	var out []tok
	var run []byte
	flush := func() bool {
		if len(run) == 0 {
			return true
		}
		var u string
		if json.Unmarshal([]byte(`"`+string(run)+`"`), &u) != nil {
			return false
		}
		if enc, err := json.Marshal(u); err != nil || string(enc) != `"`+string(run)+`"` {
			return false // an escape jsonencode() does not write
		}
		for i := 0; i < len(u); i++ {
			out = append(out, tok{b: u[i]})
		}
		run = run[:0]
		return true
	}
	for _, t := range ts {
		if t.secret == nil {
			run = append(run, t.b)
			continue
		}
		if !flush() {
			return nil, false
		}
		p := *t.secret
		p.JSONEscape--
		out = append(out, tok{secret: &p})
	}
	if !flush() {
		return nil, false
	}
	return out, true
}

// escapeTemplate is s as the literal text of a quoted HCL template:
// quotes, backslashes and control characters escaped, "${" and "%{"
// doubled.
func escapeTemplate(s string) string {
	q := string(valueTokens(cty.StringVal(s)).Bytes())
	return q[1 : len(q)-1]
}

// quote is s as a quoted HCL string (a secret's path: "${" in it doubled).
func quote(s string) string { return string(valueTokens(cty.StringVal(s)).Bytes()) }
