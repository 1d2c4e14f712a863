// Package config decodes agyconf input — HCL native syntax and HCL's JSON
// syntax, through one schema — into a validated model.Config, reporting
// every problem as an hcl.Diagnostic with a source range.
package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// unreadable marks a diagnostic about input that could not be read at all
// (a missing path, a folder without config files, an unreadable file), as
// opposed to input that was read and found wrong.
type unreadable struct{}

// Unreadable reports whether diags say some input could not be read: a
// command then cannot run, which is a different exit code from findings.
func Unreadable(diags hcl.Diagnostics) bool {
	for _, d := range diags {
		if _, ok := d.Extra.(unreadable); ok {
			return true
		}
	}
	return false
}

// Parser loads config files and keeps every file it read, so that
// diagnostics can be printed with source snippets afterwards.
type Parser struct {
	p   *hclparse.Parser
	rec *recorder
}

// NewParser returns an empty Parser.
func NewParser() *Parser { return &Parser{p: hclparse.NewParser(), rec: newRecorder()} }

// Files returns every file loaded so far, for hcl.NewDiagnosticTextWriter.
func (p *Parser) Files() map[string]*hcl.File { return p.p.Files() }

// ConfigFiles lists the files a config path stands for: the file itself, or
// every *.hcl and *.json directly inside a directory, sorted by name so that
// the load order never depends on the filesystem.
func ConfigFiles(path string) ([]string, hcl.Diagnostics) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read config",
			Extra:    unreadable{},
			Detail:   fmt.Sprintf("%s: %s", path, unwrapPathError(err)),
		}}
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read config folder",
			Extra:    unreadable{},
			Detail:   fmt.Sprintf("%s: %s", path, unwrapPathError(err)),
		}}
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || strings.HasPrefix(name, ".") {
			continue
		}
		if ext := filepath.Ext(name); ext == ".hcl" || ext == ".json" {
			files = append(files, filepath.Join(path, name))
		}
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "No config files",
			Extra:    unreadable{},
			Detail:   fmt.Sprintf("The folder %s holds no *.hcl or *.json file.", path),
		}}
	}
	return files, nil
}

func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// ParseFile reads and parses one file: .json as HCL's JSON syntax, anything
// else as native syntax. Byte-level problems are reported before parsing
// with a precise position, because the parsers would describe them vaguely.
func (p *Parser) ParseFile(filename string) (*hcl.File, hcl.Diagnostics) {
	if st, err := os.Stat(filename); err == nil && st.Size() > MaxFileSize {
		return nil, tooLarge(filename, st.Size())
	}
	data, err := readLimited(filename)
	if err == nil {
		p.rec.add("file", absPath(filename), sumBytes(data))
	}
	if err != nil {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read config file",
			Extra:    unreadable{},
			Detail:   unwrapPathError(err).Error(),
			Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos},
		}}
	}
	return p.ParseBytes(data, filename)
}

// ParseBytes parses data as the file filename: .json as HCL's JSON syntax,
// anything else as native syntax. Like ParseFile it refuses, before
// parsing, what the parsers would report vaguely or not survive: a BOM,
// invalid UTF-8, more than MaxFileSize bytes, nesting past MaxNesting.
func (p *Parser) ParseBytes(data []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if len(data) > MaxFileSize {
		return nil, tooLarge(filename, int64(len(data)))
	}
	if diags := checkBytes(filename, data); diags.HasErrors() {
		return nil, diags
	}
	// Past MaxNesting the parser itself could exhaust the stack, a fatal
	// error: refuse such a file before it gets there.
	cuts, diags := nestLimits{depth: MaxNesting, window: 4 << 10}.check(data, filename, pieceSize)
	if diags.HasErrors() {
		return nil, diags
	}
	var f *hcl.File
	// Parsed here, not through hclparse's own Parse methods, which would
	// hand back a file of the same name read before instead of data.
	if filepath.Ext(filename) == ".json" {
		f, diags = hcljson.Parse(data, filename)
	} else {
		f, diags = parsePieces(data, filename, cuts)
	}
	if f != nil {
		p.p.AddFile(filename, f)
	}
	if f != nil && !diags.HasErrors() {
		diags = append(diags, noLoops(f, data, filename)...)
	}
	return f, diags
}

func tooLarge(filename string, size int64) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "File too large",
		Detail:   fmt.Sprintf("The file is %d bytes; the limit is %d bytes. A config this large is almost certainly not a config.", size, MaxFileSize),
		Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos},
	}}
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// checkBytes refuses a byte order mark and invalid UTF-8, naming the exact
// position. Antigravity itself drops a plugin.json that starts with a BOM,
// so agyconf refuses one in its own input rather than guess.
func checkBytes(filename string, data []byte) hcl.Diagnostics {
	if bytes.HasPrefix(data, utf8BOM) {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Byte order mark",
			Detail:   "The file starts with a UTF-8 byte order mark (EF BB BF). Save it as UTF-8 without a BOM.",
			Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.Pos{Line: 1, Column: 2, Byte: 3}},
		}}
	}
	if utf8.Valid(data) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			start := hcl.Pos{Line: line, Column: col, Byte: i}
			end := hcl.Pos{Line: line, Column: col + 1, Byte: i + 1}
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid UTF-8",
				Detail:   fmt.Sprintf("Byte 0x%02X at offset %d is not valid UTF-8. Config files must be UTF-8 text.", data[i], i),
				Subject:  &hcl.Range{Filename: filename, Start: start, End: end},
			}}
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += size
	}
	return nil
}
