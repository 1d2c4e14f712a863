package schema

import "github.com/santhosh-tekuri/jsonschema/v6"

// Compile compiles the named schema as a Validator does, for the tests
// that ask the library directly.
func Compile(name string) (*jsonschema.Schema, error) {
	doc, err := parse(name)
	if err != nil {
		return nil, err
	}
	return compileParsed(name, doc)
}
