// Package render turns a model into the documents Antigravity reads. It is
// a pure function of the model and the layout: it reads no file, looks
// nothing up on the machine and never writes, so the same input gives the
// same documents anywhere.
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/model"
)

// Kind says how a document's bytes relate to the file on disk.
type Kind int

const (
	// Whole documents are the entire file.
	Whole Kind = iota
	// ManagedBlock documents are the text between agyconf's marker lines
	// inside a file that is otherwise the user's (the global GEMINI.md,
	// a workspace's .antigravityignore).
	ManagedBlock
)

// Modes agyconf writes. Fixed, so output does not depend on the umask.
const (
	ModeFile       fs.FileMode = 0o644
	ModeExecutable fs.FileMode = 0o755
	// ModeSecret is used for every document that holds a secret or an
	// inline credential: env, headers and oauth values.
	ModeSecret fs.FileMode = 0o600
)

// Document is one file agyconf wants on disk.
type Document struct {
	// Path is relative to the render root, with forward slashes.
	Path string
	Kind Kind
	// Block is the comment syntax of a ManagedBlock document's marker
	// lines (its kind's, in internal/agy's table).
	Block agy.BlockSyntax
	Mode  fs.FileMode
	// Schema names the embedded schema the document (JSON) or its
	// frontmatter (markdown) must satisfy; "" for copied files.
	Schema string
	// JSON is the value of a JSON document: maps, slices, strings, bools,
	// numbers, and model.Str for strings that may hold secrets.
	JSON any
	// Text is the content of every other document.
	Text []byte
	// Merge is set for a JSON file agyconf shares with the user and with
	// agy: agyconf owns entries of it, not the file. Nil means agyconf owns
	// the whole file.
	Merge *Merge
	// Origin is the block the document comes from, for diagnostics about
	// its path; the zero range for a document several blocks share.
	Origin hcl.Range
	// Origins locate the parts of a shared JSON document: the block each
	// entry (and each hook handler) comes from, by JSON pointer.
	Origins Origins
}

// Origins maps JSON pointers of a document to the blocks that wrote them.
type Origins map[string]hcl.Range

// add records that the value at the pointer made of segs comes from rng.
func (o Origins) add(rng hcl.Range, segs ...string) {
	if o != nil && rng.Filename != "" {
		o[Pointer(segs...)] = rng
	}
}

// Pointer is the RFC 6901 pointer of the segments.
func Pointer(segs ...string) string {
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		if strings.ContainsAny(s, "~/") {
			s = strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
		}
		b.WriteString(s)
	}
	return b.String()
}

// OriginOf is the block that wrote the value at ptr: the one recorded for
// the longest prefix of ptr, else the document's own origin; the zero
// range when nothing is known.
func (d *Document) OriginOf(ptr string) hcl.Range {
	for p := ptr; ; {
		if rng, ok := d.Origins[p]; ok {
			return rng
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return d.Origin
		}
		p = p[:i]
	}
}

// Merge names the entries agyconf owns in a shared JSON file. Everything
// else in the file — other entries, other keys, their order — is left as
// it is.
type Merge struct {
	// Parent is the object whose members agyconf owns one by one: nil for
	// the root (named hooks, settings keys), ["mcpServers"] for servers.
	Parent []string
	// Items are string arrays whose items agyconf owns one by one, without
	// owning the array: permission lists, where agy adds grants itself.
	Items [][]string
	// Defaults are members agy rewrites itself (the CLI's model): agyconf
	// writes them when absent and never fights over them.
	Defaults []string
}

// AgyFieldsUnder lists the members agy sets itself in each entry under
// parent: a server's "disabled", which `agy mcp disable` writes. Where
// the config does not set one, agy's value is kept, and is not an edit.
// It is a fact of where the entry lives, so that an entry the config no
// longer has (clean, a server dropped) is judged by it as well as one the
// config still declares.
func AgyFieldsUnder(parent []string) []string {
	if len(parent) == 1 && parent[0] == "mcpServers" {
		return []string{"disabled"}
	}
	return nil
}

// SecretReader returns the content of a secret file. Render never calls
// one; writers pass the real reader, everything else a redacting one.
type SecretReader func(path string) (string, error)

// Redact is the SecretReader for every output a person or a log may see.
func Redact(string) (string, error) { return "<secret>", nil }

// Bytes returns the document's content with secrets resolved by read.
func (d *Document) Bytes(read SecretReader) ([]byte, error) {
	if d.JSON == nil {
		return d.Text, nil
	}
	v, err := resolve(d.JSON, read)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Path, err)
	}
	return EncodeJSON(v)
}

// Decoded returns what the document's text, as Bytes writes it, decodes
// to through encoding/json with UseNumber: map[string]any, []any, string,
// json.Number, bool, nil. It builds the value without writing the text,
// and says whether it could: a leaf the encoder writes its own way (a
// float, any type but string, bool, the integers and json.RawMessage), a
// json.RawMessage other than the one encoding/json writes for its value,
// or a string or key that is not valid UTF-8, which the encoder changes,
// and the caller reads Bytes instead (TestDecodedIsTheTextsValue). A
// document that is not JSON is not decoded.
func (d *Document) Decoded(read SecretReader) (v any, ok bool, err error) {
	if d.JSON == nil {
		return nil, false, nil
	}
	resolved, err := resolve(d.JSON, read)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", d.Path, err)
	}
	v, ok = decoded(resolved)
	return v, ok, nil
}

// decoded is a resolved document's value as its encoded text decodes, in
// place; ok is false for what decoding would not give back as it is.
func decoded(v any) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		return x, utf8.ValidString(x)
	case int:
		return json.Number(strconv.Itoa(x)), true
	case int64:
		return json.Number(strconv.FormatInt(x, 10)), true
	case json.RawMessage:
		// The encoder copies it into the text as it is, so what only text
		// holds (a repeated key, invalid UTF-8, members out of order)
		// would be in the file and not in the value: it is decoded only
		// when it is what encoding/json writes for its own value.
		if !json.Valid(x) {
			return nil, false
		}
		dec := json.NewDecoder(bytes.NewReader(x))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		if again, err := json.Marshal(v); err != nil || !bytes.Equal(again, x) {
			return nil, false
		}
		return v, true
	case map[string]any:
		for k, e := range x {
			d, ok := decoded(e)
			if !ok || !utf8.ValidString(k) {
				return nil, false
			}
			x[k] = d
		}
		return x, true
	case []any:
		for i, e := range x {
			d, ok := decoded(e)
			if !ok {
				return nil, false
			}
			x[i] = d
		}
		return x, true
	}
	return nil, false
}

// resolve returns a copy of v with every model.Str replaced by its text,
// secrets read with read.
func resolve(v any, read SecretReader) (any, error) {
	return transform(v, func(s model.Str) (any, error) {
		var b bytes.Buffer
		for _, p := range s {
			if p.SecretFile == "" {
				b.WriteString(p.Text)
				continue
			}
			text, err := read(p.SecretFile)
			if err != nil {
				return nil, fmt.Errorf("reading secret: %w", err)
			}
			esc, err := jsonesc.String(text, p.JSONEscape)
			if err != nil {
				return nil, fmt.Errorf("secret %s: %w", p.SecretFile, err)
			}
			b.WriteString(esc)
		}
		return b.String(), nil
	})
}

// transform returns a copy of a document tree with every model.Str
// replaced by f's result.
func transform(v any, f func(model.Str) (any, error)) (any, error) {
	switch x := v.(type) {
	case model.Str:
		return f(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			r, err := transform(e, f)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			r, err := transform(e, f)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// EncodeJSON writes the form every JSON document uses: keys sorted
// (encoding/json sorts map keys), two-space indent, no HTML escaping, one
// trailing newline.
func EncodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Plan is every document one config renders to, sorted by path.
type Plan struct {
	Documents []*Document
}

func (p *Plan) add(d *Document) { p.Documents = append(p.Documents, d) }

// CaseCollision returns two documents whose paths differ only in case, or
// nil: on a case-insensitive filesystem (macOS, Windows, where a workspace
// may be checked out) they are one file, and each render would overwrite
// the other's.
func (p *Plan) CaseCollision() (first, second *Document) {
	seen := make(map[string]*Document, len(p.Documents))
	for _, d := range p.Documents {
		k := strings.ToLower(d.Path)
		if f, ok := seen[k]; ok && f.Path != d.Path {
			return f, d
		}
		seen[k] = d
	}
	return nil, nil
}

func (p *Plan) sort() {
	sort.Slice(p.Documents, func(i, j int) bool { return p.Documents[i].Path < p.Documents[j].Path })
}

// Placeholder replaces a whole string value that holds a secret wherever a
// document is hashed or shown.
const Placeholder = "<secret>"

// SecretPointers returns the JSON pointers (RFC 6901) of the string values
// that hold a secret, sorted.
func (d *Document) SecretPointers() []string {
	var out []string
	walkStrs(d.JSON, "", func(ptr string, s model.Str) {
		if s.HasSecret() {
			out = append(out, ptr)
		}
	})
	sort.Strings(out)
	return out
}

// SecretFiles returns the secret files the document's content reads,
// sorted and without repeats.
func (d *Document) SecretFiles() []string {
	seen := map[string]bool{}
	var out []string
	walkStrs(d.JSON, "", func(_ string, s model.Str) {
		for _, p := range s {
			if p.SecretFile != "" && !seen[p.SecretFile] {
				seen[p.SecretFile] = true
				out = append(out, p.SecretFile)
			}
		}
	})
	sort.Strings(out)
	return out
}

// walkStrs calls fn with the JSON pointer of every Str in v.
func walkStrs(v any, ptr string, fn func(ptr string, s model.Str)) {
	switch x := v.(type) {
	case model.Str:
		fn(ptr, x)
	case map[string]any:
		for k, e := range x {
			walkStrs(e, ptr+"/"+escapePointer(k), fn)
		}
	case []any:
		for i, e := range x {
			walkStrs(e, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	}
}

func escapePointer(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}

// Redacted returns the document's JSON value with every string that holds
// a secret replaced whole by Placeholder: the form that is hashed and
// shown.
func (d *Document) Redacted() any {
	v, _ := transform(d.JSON, func(s model.Str) (any, error) {
		if s.HasSecret() {
			return Placeholder, nil
		}
		lit, _ := s.Literal()
		return lit, nil
	})
	return v
}

// SecretStrs returns, by JSON pointer, every string of v (a document's
// value or part of one) that holds a secret, as its parts: what a backup
// needs to put the secret back where it took it out.
func SecretStrs(v any) map[string]model.Str {
	out := map[string]model.Str{}
	walkStrs(v, "", func(ptr string, s model.Str) {
		if s.HasSecret() {
			out[ptr] = s
		}
	})
	return out
}

// ResolveStr is a string's text with its secrets read by read.
func ResolveStr(s model.Str, read SecretReader) (string, error) {
	v, err := resolve(s, read)
	if err != nil {
		return "", err
	}
	return v.(string), nil
}
