package schema

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// jsonschema/v6 is the oracle the evaluator is held to:
// the binary does not link it (evaluate.go says why), the tests do.

// newLibraryCompiler is a compiler set as the evaluator reads schemas:
// draft 2020-12 unless a schema says otherwise, formats asserted, and
// agyconf's format int32.
func newLibraryCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.RegisterFormat(&jsonschema.Format{Name: "int32", Validate: validateInt32})
	return c
}

// libraryCompile compiles the named embedded schema with the library, and
// returns its source as parse reads it.
func libraryCompile(name string) (*jsonschema.Schema, any, error) {
	doc, err := parse(name)
	if err != nil {
		return nil, nil, err
	}
	s, err := libraryCompileDoc(name, doc)
	return s, doc, err
}

// libraryCompileDoc compiles a schema document published as the named
// schema.
func libraryCompileDoc(name string, doc any) (*jsonschema.Schema, error) {
	c := newLibraryCompiler()
	if err := c.AddResource(URL(name), doc); err != nil {
		return nil, fmt.Errorf("schema %s: %w", name, err)
	}
	return c.Compile(URL(name))
}

// fromLibrary turns the library's validation error into the evaluator's
// tree: the same error kinds, the same shape.
func fromLibrary(err error) *failure {
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return &failure{kind: libraryError{err}}
	}
	var conv func(e *jsonschema.ValidationError) *failure
	conv = func(e *jsonschema.ValidationError) *failure {
		f := &failure{schemaURL: e.SchemaURL, loc: slices.Clone(e.InstanceLocation), kind: e.ErrorKind}
		for _, c := range e.Causes {
			f.causes = append(f.causes, conv(c))
		}
		return f
	}
	return conv(ve)
}

// libraryError is an error of the library's that is not a validation
// failure; no tree the evaluator builds holds one.
type libraryError struct{ err error }

func (e libraryError) LocalizedString(*message.Printer) string {
	return "library error: " + e.err.Error()
}

// canonical spells a tree of failures so that two trees are equal when
// they say the same things: causes in a fixed order (the library lists an
// object's in map order), an additionalProperties failure's names sorted.
// A propertyNames failure's location is spelled by its length only: the
// library stores it without copying it, and a later sibling overwrites it
// (evaluate.go).
func canonical(f *failure) string {
	if f == nil {
		return "valid"
	}
	return canonicalAt(f, message.NewPrinter(language.English), "")
}

func canonicalAt(f *failure, p *message.Printer, indent string) string {
	var msg string
	switch x := f.kind.(type) {
	case *kind.AdditionalProperties:
		names := slices.Sorted(slices.Values(x.Properties))
		msg = (&kind.AdditionalProperties{Properties: names}).LocalizedString(p)
	case *kind.Reference:
		msg = x.Keyword + " " + x.URL
	default:
		msg = f.kind.LocalizedString(p)
	}
	loc := fmt.Sprintf("%q", f.loc)
	if _, ok := f.kind.(*kind.PropertyNames); ok {
		loc = fmt.Sprintf("(%d segments)", len(f.loc))
	}
	causes := make([]string, len(f.causes))
	for i, c := range f.causes {
		causes[i] = canonicalAt(c, p, indent+"  ")
	}
	sort.Strings(causes)
	return fmt.Sprintf("%s%T %q at %s by %s\n", indent, f.kind, msg, loc, f.schemaURL) + strings.Join(causes, "")
}
