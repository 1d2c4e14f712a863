package schema

import "github.com/santhosh-tekuri/jsonschema/v6"

// CompileWithLibrary compiles the named schema with jsonschema/v6, the
// oracle of the tests (library_test.go).
func CompileWithLibrary(name string) (*jsonschema.Schema, error) {
	s, _, err := libraryCompile(name)
	return s, err
}

// CompileForEvaluator compiles the named schema as the binary does when a
// document fails it.
func CompileForEvaluator(name string) error {
	doc, err := parse(name)
	if err != nil {
		return err
	}
	_, err = compileNodes(URL(name), doc)
	return err
}
