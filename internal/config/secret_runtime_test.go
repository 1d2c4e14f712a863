package config

import (
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// TestSecretFileRuntimePaths: the paths sops-nix and agenix hand out,
// which name the user's runtime folder, are taken as written (escaped in
// templates, so HCL's template syntax leaves them alone) and expanded
// only where the secret is read (internal/secretpath).
func TestSecretFileRuntimePaths(t *testing.T) {
	secret := func(p string) model.Str { return model.Str{{SecretFile: p}} }
	runFuncCases(t, t.TempDir(), []funcCase{
		{name: "sops-nix", expr: `secret_file("%r/secrets/github")`, want: secret("%r/secrets/github")},
		{name: "sops-nix percent", expr: `secret_file("%r/100%%")`, want: secret("%r/100%%")},
		{name: "agenix linux", expr: `secret_file("$${XDG_RUNTIME_DIR}/agenix/github")`, want: secret("${XDG_RUNTIME_DIR}/agenix/github")},
		{name: "agenix darwin", expr: `secret_file("$(/nix/store/0000-getconf/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/github")`, want: secret("$(/nix/store/0000-getconf/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/github")},
		{name: "in a template", expr: `"Bearer ${secret_file("%r/t")}"`, want: model.Str{{Text: "Bearer "}, {SecretFile: "%r/t"}}},
		{name: "other placeholder", expr: `secret_file("%h/t")`, err: "needs a clean absolute path"},
		{name: "escaping the runtime folder", expr: `secret_file("%r/../t")`, err: "needs a clean path below the runtime folder"},
		{name: "a command in the getconf form", expr: `secret_file("$(rm DARWIN_USER_TEMP_DIR)/t")`, err: "needs a clean absolute path"},
	})
}
