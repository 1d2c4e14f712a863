package render

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	fmreader "github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/templates"
)

// FuzzFrontmatterRoundTrip: what the markdown writer produces for any
// field values — the frontmatter render writes for skills, rules, agents
// and workflows — is read back by the frontmatter package, the reader
// validate, lint and agy's own loaders rely on, as the same values: a
// string stays that string (never a bool, number, date or null), a list
// stays the list, a bool stays the bool, and the body comes back after one
// blank line with exactly one trailing newline.
func FuzzFrontmatterRoundTrip(f *testing.F) {
	for _, s := range [][4]string{
		{"pdf-tools", "Extracts text from PDFs.", "read_file|command(git *)", "Body.\n"},
		{"yes", "1.0", "*.go,*.md", "---\nnot frontmatter\n---\n"},
		{"null", "~", "", ""},
		{"a: b", "- item\n---\nmore", "x|y: z|#c", "\n\n\nbody\n\n"},
		{"'quoted'", "\"double\" and \\ back", "|", "# Title\r\n"},
		{" lead", "trail ", "\t", "\u2028\u0085"},
		{"2024-01-01", "0x1F", "on|off|NO", "---"},
		// Once panics: yaml.v3's Node.Encode re-parsed its own output and
		// refused a tab opening a multi-line value, and a list item
		// opening with a newline.
		{"0", "\tx\ny", "0", "0"},
		{"0", "0", "\n0", "0"},
	} {
		f.Add(s[0], s[1], s[2], s[3], true)
	}
	tmpl, err := templates.Parse()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, name, desc, list, body string, flag bool) {
		for _, v := range []string{name, desc, list, body} {
			// Each on its own: two halves of a rune are valid together.
			if !utf8.ValidString(v) {
				t.Skip("config values are UTF-8")
			}
		}
		items := strings.Split(list, "|")
		fm := frontmatter{{"name", name}, {"description", desc}, {"globs", list}, {"tools", items}, {"enabled", flag}}
		r := &renderer{tmpl: tmpl, plan: &Plan{}}
		r.markdown("x.md", "", fm, body)
		text := r.plan.Documents[0].Text

		fmText, gotBody, _, err := fmreader.Split(text)
		if err != nil {
			t.Fatalf("the written document does not split: %v\n%s", err, text)
		}
		if !bytes.HasPrefix(fmText, []byte(GeneratedMarkerLine+"\n")) {
			t.Fatalf("the frontmatter does not start with the generated marker:\n%s", fmText)
		}
		m, err := fmreader.Parse(fmText)
		if err != nil {
			t.Fatalf("the written frontmatter does not parse: %v\n%s", err, text)
		}
		wantTools := make([]any, len(items))
		for i, s := range items {
			wantTools[i] = s
		}
		want := map[string]any{"name": name, "description": desc, "globs": list, "tools": wantTools, "enabled": flag}
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("round trip:\n got %#v\nwant %#v\ndocument:\n%s", m, want, text)
		}
		if w := "\n" + strings.TrimRight(body, "\n") + "\n"; string(gotBody) != w {
			t.Fatalf("body: got %q, want %q", gotBody, w)
		}
	})
}
