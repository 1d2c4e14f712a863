package schema_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/agyconf/agyconf/schema"
)

// FuzzValidateJSON: any bytes give either no error or findings that each
// carry a position inside the document; never a panic, and the same
// findings when validated again (the library's map order differs from run
// to run; guard.go).
func FuzzValidateJSON(f *testing.F) {
	v, err := schema.NewValidator("hooks", "mcp_config")
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		`{}`, `{"a":{"Stop":[{"command":"x","timeout":5}]}}`, "\xef\xbb\xbf{}", `{"a":1,"a":2}`,
		`{"mcpServers":{"s":{"command":"x","args":[1]}}}`, `{"a": [1,]}`, `// c` + "\n{}", `{"a": NaN}`,
		"\xef\xbb\xbf{\n  // c\n  \"mcpServers\": {\"s\": {\"command\": \"x\", /* y */ \"args\": [\"a\",],},},\n}", "{/* never closed",
		`{"a":{"SessionEnd":[]},"b":{"Bogus":1},"c":{"onStop":[]}}`,
		`{"a":{"Stop":[{"command":"x","timeout":1e99999999}]}}`, `{"mcpServers":{"s":{"command":"x","timeoutSeconds":-1e-99999999}}}`,
		`{"mcpServers":{"":{"command":"x"},"\u0001":{}},"x":{"":1}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, name := range []string{"hooks", "mcp_config"} {
			err := v.ValidateJSON(name, data)
			var de *schema.DocumentError
			if err == nil {
				continue
			}
			if !errors.As(err, &de) {
				t.Fatalf("%s: %T is not a *DocumentError: %v", name, err, err)
			}
			lines := 1
			for _, b := range data {
				if b == '\n' {
					lines++
				}
			}
			for _, fd := range de.Findings {
				if fd.Line < 1 || fd.Line > lines || fd.Column < 1 {
					t.Fatalf("%s: finding outside the document (%d lines): %+v", name, lines, fd)
				}
			}
			var again *schema.DocumentError
			if !errors.As(v.ValidateJSON(name, data), &again) || !slices.Equal(de.Findings, again.Findings) {
				t.Fatalf("%s: validated again, other findings:\n%v\n%v", name, de, again)
			}
		}
	})
}
