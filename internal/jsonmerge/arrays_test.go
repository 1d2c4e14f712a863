package jsonmerge

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArrayStrings(t *testing.T) {
	d := mustParse(t, `{"p":{"allow":["command(git *)","caf\u00e9",""],"mixed":["a",1],"empty":[],"obj":{}},"s":"x"}`)
	tests := []struct {
		name    string
		path    []string
		want    []string
		wantErr string
		target  error
	}{
		{"strings, decoded", []string{"p", "allow"}, []string{"command(git *)", "café", ""}, "", nil},
		{"empty", []string{"p", "empty"}, []string{}, "", nil},
		{"absent reads as empty", []string{"p", "deny"}, nil, "", nil},
		{"absent parent", []string{"q", "allow"}, nil, "", nil},
		{"not only strings", []string{"p", "mixed"}, nil, "/p/mixed/1 is a number, not a string", ErrNotString},
		{"an object", []string{"p", "obj"}, nil, "/p/obj is an object, not an array", ErrNotArray},
		{"a string", []string{"s"}, nil, "/s is a string, not an array", ErrNotArray},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := d.ArrayStrings(tt.path...)
			if tt.wantErr != "" {
				if err == nil {
					t.Fatalf("ArrayStrings = %q, want error", got)
				}
				if diff := cmp.Diff(tt.wantErr, err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				if !errors.Is(err, tt.target) {
					t.Errorf("errors.Is(%v, %v) is false", err, tt.target)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAddString(t *testing.T) {
	tests := []struct {
		name string
		in   string
		item string
		path []string
		want string // compact
	}{
		{"append", `{"p":{"allow":["a","b"]}}`, "c", []string{"p", "allow"}, `{"p":{"allow":["a","b","c"]}}`},
		{"array created", `{"p":{"deny":[]}}`, "c", []string{"p", "allow"}, `{"p":{"deny":[],"allow":["c"]}}`},
		{"objects and array created", `{"x":1}`, "command(git *)", []string{"permissions", "allow"}, `{"x":1,"permissions":{"allow":["command(git *)"]}}`},
		{"into an empty array", `{"a":[ ]}`, "x", []string{"a"}, `{"a":["x"]}`},
		{"other items kept as written", `{"a":[1.0,{"z":1,"y":2},"\u00e9",null]}`, "x", []string{"a"}, `{"a":[1.0,{"z":1,"y":2},"\u00e9",null,"x"]}`},
		{"written with only the escapes JSON needs", `{}`, "a\"\\\n\t\x01</é>&", []string{"a"}, `{"a":["a\"\\\n\t\u0001</é>&"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.in)
			if err := d.AddString(tt.item, tt.path...); err != nil {
				t.Fatalf("AddString: %v", err)
			}
			if diff := cmp.Diff(tt.want, compact(t, d.Bytes())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// Adding again changes nothing.
			before := d.Bytes()
			if err := d.AddString(tt.item, tt.path...); err != nil {
				t.Fatalf("AddString again: %v", err)
			}
			if diff := cmp.Diff(string(before), string(d.Bytes())); diff != "" {
				t.Errorf("adding twice (-once +twice):\n%s", diff)
			}
		})
	}
}

// TestAddStringPresentTouchesNothing: when the item is already there, even
// spelled differently, the document keeps its source text, down to the
// whitespace Get reports.
func TestAddStringPresentTouchesNothing(t *testing.T) {
	const in = `{"p": {"allow": [ "caf\u00e9", 1 ]}}`
	d := mustParse(t, in)
	if err := d.AddString("café", "p", "allow"); err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Get(); string(got) != in {
		t.Errorf("Get() = %s, want the source text %s", got, in)
	}
}

func TestAddStringErrors(t *testing.T) {
	const in = `{"p":{"allow":"x","n":null},"s":1}`
	tests := []struct {
		name   string
		item   string
		path   []string
		want   string
		target error
	}{
		{"not an array", "a", []string{"p", "allow"}, `add "a" to /p/allow: /p/allow is a string, not an array`, ErrNotArray},
		{"null is not an array", "a", []string{"p", "n"}, `add "a" to /p/n: /p/n is null, not an array`, ErrNotArray},
		{"through a non-object", "a", []string{"s", "allow"}, `add "a" to /s/allow: /s is a number, not an object`, ErrNotObject},
		{"empty path", "a", nil, `add "a": empty path; the top level is an object, not an array`, nil},
		{"item not UTF-8", "\xff", []string{"p", "x"}, `add "\xff" to /p/x: the item is not valid UTF-8`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, in)
			err := d.AddString(tt.item, tt.path...)
			if err == nil {
				t.Fatal("AddString succeeded")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if tt.target != nil && !errors.Is(err, tt.target) {
				t.Errorf("errors.Is(%v, %v) is false", err, tt.target)
			}
			if got, _ := d.Get(); string(got) != in {
				t.Errorf("a failed AddString changed the document: %s", got)
			}
		})
	}
}

func TestRemoveString(t *testing.T) {
	tests := []struct {
		name string
		in   string
		item string
		path []string
		ok   bool
		want string // compact
	}{
		{"middle", `{"a":["x","y","z"]}`, "y", []string{"a"}, true, `{"a":["x","z"]}`},
		{"every copy", `{"a":["y","x","y"]}`, "y", []string{"a"}, true, `{"a":["x"]}`},
		{"array stays when emptied", `{"a":["y"],"b":1}`, "y", []string{"a"}, true, `{"a":[],"b":1}`},
		{"matched decoded", `{"a":["caf\u00e9","x"]}`, "café", []string{"a"}, true, `{"a":["x"]}`},
		{"other items kept as written", `{"a":[1.0,"y",{"b":2,"a":1}]}`, "y", []string{"a"}, true, `{"a":[1.0,{"b":2,"a":1}]}`},
		{"nested", `{"p":{"allow":["a","b"]},"q":0}`, "a", []string{"p", "allow"}, true, `{"p":{"allow":["b"]},"q":0}`},
		{"not there", `{"a":["x"]}`, "y", []string{"a"}, false, `{"a":["x"]}`},
		{"a number is not the string", `{"a":[1]}`, "1", []string{"a"}, false, `{"a":[1]}`},
		{"absent", `{}`, "y", []string{"a"}, false, `{}`},
		{"not an array", `{"a":"y"}`, "y", []string{"a"}, false, `{"a":"y"}`},
		{"root", `{"a":"y"}`, "y", nil, false, `{"a":"y"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := mustParse(t, tt.in)
			if got := d.RemoveString(tt.item, tt.path...); got != tt.ok {
				t.Errorf("RemoveString = %v, want %v", got, tt.ok)
			}
			if diff := cmp.Diff(tt.want, compact(t, d.Bytes())); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !tt.ok {
				if got, _ := d.Get(); string(got) != tt.in {
					t.Errorf("RemoveString of nothing lost the source text: %s", got)
				}
			}
		})
	}
}
