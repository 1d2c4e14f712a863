package diagfmt

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestWriteTextPlaces: every located diagnostic of the text form is led
// by FILE:LINE:COLUMN (the column in characters), the snippet and detail
// follow as hcl writes them, colour or not; one without a place has no
// lead.
func TestWriteTextPlaces(t *testing.T) {
	src := []byte("hook \"é\" {\n  command = \"./a.sh\"\n}\n")
	f, diags := hclsyntax.ParseConfig(src, "cfg/agyconf.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	files := map[string]*hcl.File{"cfg/agyconf.hcl": f}
	at := hcl.Range{Filename: "cfg/agyconf.hcl", Start: hcl.Pos{Line: 2, Column: 3, Byte: 13}, End: hcl.Pos{Line: 2, Column: 10, Byte: 20}}
	in := hcl.Diagnostics{
		{Severity: hcl.DiagWarning, Summary: "Relative command", Detail: "Use an absolute path.", Subject: &at},
		{Severity: hcl.DiagError, Summary: "Nowhere", Detail: "No place."},
		{Severity: hcl.DiagError, Summary: "Missing file", Subject: &hcl.Range{Filename: "gone.hcl", Start: hcl.InitialPos, End: hcl.InitialPos}},
	}
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteText(&b, files, in, 100, color); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		plain := strings.NewReplacer("\x1b[31m", "", "\x1b[33m", "", "\x1b[0m", "", "\x1b[1;4m", "").Replace(out)
		for _, want := range []string{
			"cfg/agyconf.hcl:2:3: Warning: Relative command\n\n  on cfg/agyconf.hcl line 2, in hook \"é\":\n   2:   command = \"./a.sh\"\n",
			"\nError: Nowhere\n\nNo place.\n",
			"\ngone.hcl:1:1: Error: Missing file\n",
		} {
			if !strings.Contains(plain, want) {
				t.Errorf("color %v: no %q in\n%s", color, want, out)
			}
		}
		if got := strings.Count(plain, ": Warning: ") + strings.Count(plain, ": Error: "); got != 2 {
			t.Errorf("color %v: %d located leads, want 2:\n%s", color, got, out)
		}
	}
	if got := Place(hcl.Range{Filename: "x.json", Start: hcl.Pos{Line: 7, Column: 66}}); got != "x.json:7:66" {
		t.Errorf("Place = %q", got)
	}
}
