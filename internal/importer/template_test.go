package importer

import (
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// TestTemplateOf: what no jsonencode() makes has no template, so that the
// wrapping holding it is imported as it stands (the printing of every
// form the decoder makes is TestImportRenderProperty's: its secret library
// goes through templateOf and the decoder).
func TestTemplateOf(t *testing.T) {
	s := func(path string, level int) model.Part { return model.Part{SecretFile: path, JSONEscape: level} }
	x := func(text string) model.Part { return model.Part{Text: text} }
	for _, c := range []struct {
		v    model.Str
		want string // "" for none
	}{
		{model.Str{s("/a", 0)}, `${secret_file("/a")}`},
		{model.Str{x("cost$"), s("/a", 0), x("%{y}")}, `cost${"$"}${secret_file("/a")}%%{y}`},
		{model.Str{x(`{"k":"`), s("/a", 1), x(`"}`)}, `{\"k\":${jsonencode(secret_file("/a"))}}`},
		{model.Str{x(`["a\`), s("/a", 1), x(`"]`)}, ""}, // a lone backslash before the secret
		{model.Str{x(`["a\\`), s("/a", 1), x(`"]`)}, `[${jsonencode("a\\${secret_file("/a")}")}]`},
		{model.Str{x(`"\/`), s("/a", 1), x(`"`)}, ""}, // an escape jsonencode() never writes
		{model.Str{s("/a", 1)}, ""},                   // no string literal around it
		{model.Str{x(`"`), s("/a", 0), s("/b", 1), x(`"`)}, ""},
		{model.Str{x(`"`), s("/b", 1), s("/a", 0), x(`"`)}, ""},
		{model.Str{x(`"`), s("/a", 2), x(`"`)}, ""}, // escaped twice inside one literal
		{model.Str{x(`"\"`), s("/a", 2), x(`\""`)}, `${jsonencode("${jsonencode(secret_file("/a"))}")}`},
	} {
		got, ok := templateOf(c.v)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("%+v: %q, want %q", c.v, got, c.want)
		}
	}
}
