package schema

import "github.com/agyconf/agyconf/internal/agy"

// HookContract returns the names of the schemas of a hook event's stdin
// payload and of the stdout agy honours for it: each event of agy's table
// has its two, hook-stdin-<event>.schema.json and
// hook-stdout-<event>.schema.json (a test checks that every one exists).
// event is spelled as in hooks.json; only the canonical spelling is known,
// and any other name gives "", "".
func HookContract(event string) (stdin, stdout string) {
	e, ok := agy.EventNamed(event)
	if !ok {
		return "", ""
	}
	return e.StdinSchema(), e.StdoutSchema()
}
