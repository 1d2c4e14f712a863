// Package schema embeds agyconf's JSON Schemas (2020-12): the schema of
// the input's JSON form, and, as they are added, the schemas of every
// document agyconf writes. The files are the source of truth; this package
// makes them available to the binary and applies them with
// santhosh-tekuri/jsonschema/v6 (guard.go keeps two of its defects out of
// the findings).
package schema

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed *.schema.json
var files embed.FS

// Input is the name of the schema of agyconf's own input (JSON syntax).
const Input = "agyconf"

// State is the name of the schema of agyconf's own state files.
const State = "state"

// StateV1 is the name of the schema of states written before version 2,
// read only to migrate them.
const StateV1 = "state-v1"

// StateV2 is the name of the schema of states written at version 2,
// before the list of what waits for a secret, read only to migrate them.

// StateV3 is the name of the schema of states written at version 3,
// before agyconf wrote subagents as folders, read only to migrate them.
const StateV3 = "state-v3"

// StateV4 is the name of the schema of states written at version 4,
// before agyconf recorded what letting go needs, read only to migrate
// them.
const StateV4 = "state-v4"

// StateV5 is the name of the schema of states written at version 5,
// before agyconf recorded the containers of shared files, read only to
// migrate them.
const StateV5 = "state-v5"
const StateV2 = "state-v2"

// Names lists the embedded schemas, sorted.
func Names() []string {
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		panic(err) // embedded: cannot fail
	}
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	sort.Strings(out)
	return out
}

// Source returns the text of the named schema.
func Source(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".schema.json")
	if err != nil {
		return nil, fmt.Errorf("no schema named %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return b, nil
}

// URL is the $id every schema is compiled under.
func URL(name string) string {
	return "https://raw.githubusercontent.com/agyconf/agyconf/main/schema/" + path.Clean(name) + ".schema.json"
}

// parse reads the named schema's source as the library reads a document:
// encoding/json with UseNumber, so numbers keep their literal, which the
// bounds and the messages use.
func parse(name string) (any, error) {
	src, err := Source(name)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("schema %s: data after the top-level value", name)
	}
	return doc, nil
}

// compileParsed compiles the named schema from its parsed source with
// jsonschema/v6: draft 2020-12 unless the schema says otherwise, formats
// asserted, and agyconf's format "int32" (what Go's encoding/json reads
// into an int32, agy's hook timeouts). The compiler keeps doc as it is, so
// it can still be read (docSchema.source).
func compileParsed(name string, doc any) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.RegisterFormat(&jsonschema.Format{Name: "int32", Validate: validateInt32})
	if err := c.AddResource(URL(name), doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	s, err := c.Compile(URL(name))
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return s, nil
}

// Example returns the first of the named schema's "examples": for a hook's
// stdin contract, a whole payload agy could send, which hook test starts
// from.
func Example(name string) (map[string]any, error) {
	src, err := Source(name)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Examples []map[string]any `json:"examples"`
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	if len(doc.Examples) == 0 {
		return nil, fmt.Errorf("schema %s has no example", name)
	}
	return doc.Examples[0], nil
}

// Properties lists the property names the named schema declares on the
// object schema at the JSON pointer ptr ("" for the root, "/$defs/server"
// for a definition), sorted: what agyconf knows of a document's members,
// against which lint reports the members it does not know.
func Properties(name, ptr string) ([]string, error) {
	src, err := Source(name)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(src, &v); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	if ptr != "" {
		for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			m, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("schema %s: no object at %s", name, ptr)
			}
			v = m[strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")]
		}
	}
	m, _ := v.(map[string]any)
	props, ok := m["properties"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema %s: no properties at %q", name, ptr)
	}
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, nil
}
