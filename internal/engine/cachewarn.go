package engine

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/config"
)

// cachedDiag is a warning as the cache keeps it: everything the text
// form prints (hcl's writer reads the severity, summary, detail and the
// two ranges, and the files for the snippet) and the machine mark the
// JSON form reads.
type cachedDiag struct {
	Summary string       `json:"summary"`
	Detail  string       `json:"detail,omitempty"`
	Subject *cachedRange `json:"subject,omitempty"`
	Context *cachedRange `json:"context,omitempty"`
	Machine bool         `json:"machine,omitempty"`
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

// encodeWarnings is what the cache records of a render's warnings. Only
// warnings: a render with errors records no cache.
func encodeWarnings(diags hcl.Diagnostics, configPath string) (json.RawMessage, error) {
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
		out = append(out, cachedDiag{Summary: d.Summary, Detail: d.Detail, Subject: rng(d.Subject), Context: rng(d.Context), Machine: m != nil && m.MachineDependent()})
	}
	return json.Marshal(out)
}

// decodeWarnings gives back what encodeWarnings recorded, its files named
// as a run of the config at configPath names them, and those files parsed
// for the snippets (the cache has just found every input unchanged).
// Anything it cannot read is a miss (ok false).
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
	named := map[string]bool{}
	rng := func(c *cachedRange) *hcl.Range {
		if c == nil {
			return nil
		}
		r := &hcl.Range{Filename: name(c), Start: c.Start, End: c.End}
		named[r.Filename] = true
		return r
	}
	for _, c := range cached {
		d := &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: c.Summary, Detail: c.Detail, Subject: rng(c.Subject), Context: rng(c.Context)}
		if c.Machine {
			d.Extra = MachineCheck{}
		}
		diags = append(diags, d)
	}
	// The snippets come from the config files, parsed as decoding parses
	// them (the line that names the enclosing block comes from the
	// syntax); a file decoding reads otherwise (a skill's source) has
	// none there either.
	configFiles, _ := config.ConfigFiles(configPath)
	p := config.NewParser()
	for _, f := range configFiles {
		if named[f] {
			p.ParseFile(f)
		}
	}
	return diags, p.Files(), true
}
