package agy

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TestIgnoreMarkersInSchema: the input schema refuses agyconf's marker
// lines as ignore patterns by spelling them out; they must be these.
func TestIgnoreMarkersInSchema(t *testing.T) {
	src, err := os.ReadFile("../../schema/agyconf.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Defs struct {
			IgnorePattern struct {
				Not struct {
					AnyOf []struct {
						Enum []string `json:"enum"`
					} `json:"anyOf"`
				} `json:"not"`
			} `json:"ignorePattern"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(src, &s); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range s.Defs.IgnorePattern.Not.AnyOf {
		got = append(got, a.Enum...)
	}
	begin, end := BlockHashComment.Markers()
	if want := []string{begin, end}; !slices.Equal(got, want) {
		t.Errorf("schema refuses %q as marker lines; the markers are %q", got, want)
	}
}

func TestIgnoreLineProblem(t *testing.T) {
	begin, end := BlockHashComment.Markers()
	for line, bad := range map[string]bool{
		"dist/": false, "!keep.log": false, "# a comment": false, `\#hash`: false, "é/": false,
		"": true, "  ": true, "a\nb": true, "a\rb": true, "a\x00b": true, "\xff": true, begin: true, end: true,
	} {
		if got := IgnoreLineProblem(line) != ""; got != bad {
			t.Errorf("IgnoreLineProblem(%q) refuses = %v, want %v", line, got, bad)
		}
	}
}
