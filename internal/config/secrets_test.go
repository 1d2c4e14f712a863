package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agyconf/agyconf/internal/model"
)

func TestSplitSecrets(t *testing.T) {
	tok := secretTokenFor("/run/secrets/a")
	for _, tc := range []struct {
		in   string
		want model.Str
	}{
		{"", model.Str{{Text: ""}}},
		{"plain", model.Str{{Text: "plain"}}},
		{tok, model.Str{{SecretFile: "/run/secrets/a"}}},
		{"Bearer " + tok, model.Str{{Text: "Bearer "}, {SecretFile: "/run/secrets/a"}}},
		{tok + ":" + secretTokenFor("/b"), model.Str{{SecretFile: "/run/secrets/a"}, {Text: ":"}, {SecretFile: "/b"}}},
	} {
		if diff := cmp.Diff(tc.want, splitSecrets(tc.in)); diff != "" {
			t.Errorf("splitSecrets(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}
