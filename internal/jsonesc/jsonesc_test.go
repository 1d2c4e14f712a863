package jsonesc

import (
	"encoding/json"
	"strings"
	"testing"
)

// Escaping n times and decoding n times gives the text back, and the
// escaped form is what a JSON string's content must be.
func TestRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", `a"b\c`, "new\nline\ttab", "<&>", "é ünï", "\x01\x1f"} {
		for n := 0; n <= 3; n++ {
			got, err := String(s, n)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				var d string
				if err := json.Unmarshal([]byte(`"`+got+`"`), &d); err != nil {
					t.Fatalf("%q escaped %d times: level %d does not decode: %v", s, n, i, err)
				}
				got = d
			}
			if got != s {
				t.Errorf("%q escaped %d times and decoded: %q", s, n, got)
			}
		}
	}
	if got, _ := String(`a"b`, 2); got != `a\\\"b` {
		t.Errorf("twice: %s", got)
	}
	if _, err := String("x", MaxTimes+1); err == nil {
		t.Error("more than MaxTimes levels")
	}
	if _, err := String(strings.Repeat(`\`, MaxLen/4), 3); err == nil || strings.Contains(err.Error(), `\`) {
		t.Errorf("a value past MaxLen: %v", err)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(`a"b\c`, 2)
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n & 3
		got, err := String(s, n)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			var d string
			if err := json.Unmarshal([]byte(`"`+got+`"`), &d); err != nil {
				t.Fatalf("does not decode: %v", err)
			}
			got = d
		}
		// encoding/json replaces invalid UTF-8 with U+FFFD.
		var want string
		if b, err := json.Marshal(s); err == nil {
			_ = json.Unmarshal(b, &want)
		}
		if n > 0 && got != want {
			t.Fatalf("%q: got %q", s, got)
		}
	})
}
