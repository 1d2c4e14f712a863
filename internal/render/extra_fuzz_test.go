package render

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	fmreader "github.com/agyconf/agyconf/internal/frontmatter"
	"github.com/agyconf/agyconf/templates"
)

// FuzzFrontmatterExtra: an agent's extra = { … } — any JSON object, as the
// decoder's jsonValue gives it — written into the frontmatter reads back
// through the frontmatter package as the same JSON values: strings stay
// strings, numbers the same numbers, nesting as it was; and the keys
// agyconf wrote itself keep their values.
func FuzzFrontmatterExtra(f *testing.F) {
	for _, s := range []string{
		`{"effort":"high","temperature":0.2,"routing":{"prefer":["pro","flash"],"fallback":true}}`,
		`{"yes":"no","null":null,"1.0":"1.0","empty":{},"list":[],"~":"~"}`,
		`{"<<":{"a":1},"a: b":"- c","#x":"# y","x":"line\nbreak","big":12345678901234567890,"e":1e5}`,
		`{"name":"not this","description":"nor this","k":[{"deep":[[1,"2",false]]}]}`,
		`{"s":" lead","t":"trail ","tab":"\tx\ny","bom":"\ufeff","nel":"\u0085"}`,
	} {
		f.Add(s)
	}
	tmpl, err := templates.Parse()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			t.Skip("config values are UTF-8")
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(src), &obj); err != nil || obj == nil {
			t.Skip("extra is an object")
		}
		var want map[string]any
		if err := json.Unmarshal([]byte(src), &want); err != nil {
			t.Skip("a number beyond a float64, which the decoder refuses")
		}
		want["name"], want["description"] = "a", "d"
		fm := frontmatter{{"name", "a"}, {"description", "d"}}.withExtra(obj)
		r := &renderer{tmpl: tmpl, plan: &Plan{}}
		r.markdown("a.md", "", fm, "Body.")
		text := r.plan.Documents[0].Text
		fmText, _, _, err := fmreader.Split(text)
		if err != nil {
			t.Fatalf("the written document does not split: %v\n%s", err, text)
		}
		m, err := fmreader.Parse(fmText)
		if err != nil {
			t.Fatalf("the written frontmatter does not parse: %v\n%s", err, text)
		}
		// Compared as JSON: YAML reads 1 as an int, JSON as a float.
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("the frontmatter read back is not JSON: %v\n%s", err, text)
		}
		var got map[string]any
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round trip:\n got %#v\nwant %#v\ndocument:\n%s", got, want, text)
		}
	})
}
