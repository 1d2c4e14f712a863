package engine

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// cachedDiag is a warning as the cache keeps it: everything the text
// form prints (hcl's writer reads the severity, summary, detail and the
// two ranges, and of the subject's file its bytes for the snippet and the
// block around the subject, "in hook "fmt"", from the syntax) and the
// machine mark the JSON form reads. Keeping the block's name spares a run
// the cache answers parsing the config again (40 ms for 1,000 servers).
type cachedDiag struct {
	Summary string       `json:"summary"`
	Detail  string       `json:"detail,omitempty"`
	Subject *cachedRange `json:"subject,omitempty"`
	Context *cachedRange `json:"context,omitempty"`
	Machine bool         `json:"machine,omitempty"`
	// Rule is the id of the rule the warning reports.
	Rule string `json:"rule,omitempty"`
	// Snippet: the run showed the subject's source; In is the block it
	// named around it.
	Snippet bool   `json:"snippet,omitempty"`
	In      string `json:"in,omitempty"`
}

// cachedRange is a range whose file is named relative to the config (its
// folder, or the folder of a config file) when it lies there, so that a
// run naming the config another way (an absolute path, another working
// folder) prints it as that run names it, as a run that decodes would.
type cachedRange struct {
	File     string  `json:"file"`
	InConfig bool    `json:"in_config,omitempty"`
	Start    hcl.Pos `json:"start"`
	End      hcl.Pos `json:"end"`
}

// configBase is the folder a config's files are named under: the config
// itself when it is a folder, else the folder of the file.
func configBase(path string) (base string, isFile bool) {
	if st, err := os.Stat(path); err == nil && !st.IsDir() {
		return filepath.Dir(path), true
	}
	return path, false
}

// encodeWarnings is what the cache records of a render's warnings, files
// being what the render printed them with. Only warnings: a render with
// errors records no cache.
func encodeWarnings(diags hcl.Diagnostics, files map[string]*hcl.File, configPath string) (json.RawMessage, error) {
	if len(diags) == 0 {
		return nil, nil
	}
	base, _ := configBase(configPath)
	absBase, err := filepath.Abs(base)
	if err != nil {
		return nil, err
	}
	rng := func(r *hcl.Range) *cachedRange {
		if r == nil {
			return nil
		}
		c := &cachedRange{File: r.Filename, Start: r.Start, End: r.End}
		if abs, err := filepath.Abs(r.Filename); err == nil {
			c.File = abs
			if rel, err := filepath.Rel(absBase, abs); err == nil && filepath.IsLocal(rel) {
				c.File, c.InConfig = filepath.ToSlash(rel), true
			}
		}
		return c
	}
	out := make([]cachedDiag, 0, len(diags))
	for _, d := range diags {
		m, _ := d.Extra.(interface{ MachineDependent() bool })
		c := cachedDiag{Summary: d.Summary, Detail: d.Detail, Subject: rng(d.Subject), Context: rng(d.Context), Machine: m != nil && m.MachineDependent(), Rule: rulebook.IDOf(d)}
		if d.Subject != nil {
			if f := files[d.Subject.Filename]; f != nil && f.Bytes != nil {
				c.Snippet = true
				if nav, ok := f.Nav.(contextStringer); ok {
					c.In = nav.ContextString(d.Subject.Start.Byte)
				}
			}
		}
		out = append(out, c)
	}
	return json.Marshal(out)
}

// contextStringer is what hcl's text writer asks a file's navigation for
// the block around a place.
type contextStringer interface{ ContextString(offset int) string }

// blocksAt answers the writer's question from the cache: the block the
// render named at each offset.
type blocksAt map[int]string

func (b blocksAt) ContextString(offset int) string { return b[offset] }

// decodeWarnings gives back what encodeWarnings recorded, its files named
// as a run of the config at configPath names them, and those files for the
// snippets (the cache has just found every input unchanged). Anything it
// cannot read is a miss (ok false).
func decodeWarnings(data json.RawMessage, configPath string) (diags hcl.Diagnostics, files map[string]*hcl.File, ok bool) {
	if len(data) == 0 {
		return nil, nil, true
	}
	var cached []cachedDiag
	if json.Unmarshal(data, &cached) != nil {
		return nil, nil, false
	}
	base, isFile := configBase(configPath)
	name := func(c *cachedRange) string {
		if !c.InConfig {
			return c.File
		}
		rel := filepath.FromSlash(c.File)
		if isFile && rel == filepath.Base(configPath) {
			return configPath // the config file, named as given
		}
		return filepath.Join(base, rel)
	}
	rng := func(c *cachedRange) *hcl.Range {
		if c == nil {
			return nil
		}
		return &hcl.Range{Filename: name(c), Start: c.Start, End: c.End}
	}
	files = map[string]*hcl.File{}
	for _, c := range cached {
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: c.Summary, Detail: c.Detail, Subject: rng(c.Subject), Context: rng(c.Context)}
		if c.Machine || c.Rule != "" {
			d.Extra = rulebook.Tag{Rule: c.Rule, Machine: c.Machine}
		}
		diags = append(diags, d)
		if !c.Snippet || d.Subject == nil {
			continue
		}
		// The file's bytes for the snippet (a file gone since gets none),
		// and the block around the subject as the render named it.
		f, seen := files[d.Subject.Filename]
		if !seen {
			f = &hcl.File{Nav: blocksAt{}}
			if data, err := confine.ReadFile(d.Subject.Filename, config.MaxFileSize); err == nil {
				f.Bytes = data
			}
			files[d.Subject.Filename] = f
		}
		f.Nav.(blocksAt)[d.Subject.Start.Byte] = c.In
	}
	for n, f := range files {
		if f.Bytes == nil {
			delete(files, n)
		}
	}
	return diags, files, true
}
