package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/rulebook"
)

func TestSplitSecrets(t *testing.T) {
	tok := secretTokenFor("/run/secrets/a", 0)
	for _, tc := range []struct {
		in   string
		want model.Str
	}{
		{"", model.Str{{Text: ""}}},
		{"plain", model.Str{{Text: "plain"}}},
		{tok, model.Str{{SecretFile: "/run/secrets/a"}}},
		{"Bearer " + tok, model.Str{{Text: "Bearer "}, {SecretFile: "/run/secrets/a"}}},
		{tok + ":" + secretTokenFor("/b", 0), model.Str{{SecretFile: "/run/secrets/a"}, {Text: ":"}, {SecretFile: "/b"}}},
		{secretTokenFor("/b", 3), model.Str{{SecretFile: "/b", JSONEscape: 3}}},
	} {
		if diff := cmp.Diff(tc.want, splitSecrets(tc.in)); diff != "" {
			t.Errorf("splitSecrets(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestSecretFileFunc shows that secret_file() never reads the file (the
// paths do not exist) and that its mark survives templates, jsonencode()
// and other expressions, so the model knows exactly which parts of a
// string are secret.
func TestSecretFileFunc(t *testing.T) {
	secret := func(p string) model.Part { return model.Part{SecretFile: p} }
	escaped := func(p string, n int) model.Part { return model.Part{SecretFile: p, JSONEscape: n} }
	lit := func(s string) model.Part { return model.Part{Text: s} }
	runFuncCases(t, t.TempDir(), []funcCase{
		{name: "alone", expr: `secret_file("/run/secrets/t")`, want: model.Str{secret("/run/secrets/t")}},
		{name: "template", expr: `"Bearer ${secret_file("/run/secrets/t")}"`, want: model.Str{lit("Bearer "), secret("/run/secrets/t")}},
		{name: "two", expr: `"${secret_file("/a")}:${secret_file("/b")}!"`, want: model.Str{secret("/a"), lit(":"), secret("/b"), lit("!")}},
		{name: "odd-path", expr: `secret_file("/run/secrets/my token ü@@")`, want: model.Str{secret("/run/secrets/my token ü@@")}},
		{name: "jsonencode-object", expr: `jsonencode({token = secret_file("/run/secrets/t"), user = "me"})`, want: model.Str{lit(`{"token":"`), escaped("/run/secrets/t", 1), lit(`","user":"me"}`)}},
		{name: "jsonencode-list", expr: `jsonencode(["a", "x${secret_file("/x")}"])`, want: model.Str{lit(`["a","x`), escaped("/x", 1), lit(`"]`)}},
		{name: "jsonencode-twice", expr: `jsonencode({outer = jsonencode({t = secret_file("/t")})})`, want: model.Str{lit(`{"outer":"{\"t\":\"`), escaped("/t", 2), lit(`\"}"}`)}},
		{name: "jsonencode-too-deep", expr: strings.Repeat("jsonencode(", jsonesc.MaxTimes+1) + `secret_file("/t")` + strings.Repeat(")", jsonesc.MaxTimes+1), err: "inside more than 16 jsonencode() calls"},
		{name: "conditional", expr: `true ? secret_file("/a") : "none"`, want: model.Str{secret("/a")}},
		{name: "relative", expr: `secret_file("run/secrets/t")`, err: "needs a clean absolute path"},
		{name: "unclean", expr: `secret_file("/run/secrets/../t")`, err: "needs a clean absolute path"},
		{name: "nested", expr: `secret_file(secret_file("/a"))`, err: "cannot be used as a path"},
		{name: "workspace", scope: model.ScopeWorkspace, expr: `secret_file("/run/secrets/t")`, err: "secret_file() is not allowed in workspace scope"},
	})
}

// TestSecretMarksWholeValues covers values that are not written element by
// element, which the decoder evaluates whole and splits afterwards: the
// marks must stay on the right elements.
func TestSecretMarksWholeValues(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "agyconf.hcl")
	src := `
mcp_server "local" {
  command     = "x"
  secret_mode = "inline"
  args        = true ? ["plain", secret_file("/run/secrets/a"), "--flag"] : []
}
mcp_server "remote" {
  server_url = "https://example.com/mcp"
  headers = {
    Authorization = "Basic ${jsonencode({ u = "me", p = secret_file("/run/secrets/p") })}"
  }
  oauth {
    client_id     = "id"
    client_secret = "${secret_file("/run/secrets/c")}"
  }
}
`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, diags := load(t, path)
	warned := false
	for _, d := range diags {
		if d.Severity == hcl.DiagWarning && rulebook.IDOf(d) == "mcp/oauth-secret-inline" {
			warned = true // agy's OAuth keeps the client secret in the file
			continue
		}
		t.Error(diagString(d))
	}
	if !warned {
		t.Error("no warning that the OAuth client secret is inline")
	}
	if cfg == nil {
		t.FailNow()
	}
	local, remote := cfg.MCPServers[0], cfg.MCPServers[1]
	if remote.SecretMode != model.SecretInline {
		t.Errorf("a server with agy's OAuth has secret_mode %q, want inline", remote.SecretMode)
	}
	wantArgs := []model.Str{{{Text: "plain"}}, {{SecretFile: "/run/secrets/a"}}, {{Text: "--flag"}}}
	if diff := cmp.Diff(wantArgs, local.Args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	auth := remote.Headers["Authorization"]
	wantAuth := model.Str{{Text: `Basic {"p":"`}, {SecretFile: "/run/secrets/p", JSONEscape: 1}, {Text: `","u":"me"}`}}
	if diff := cmp.Diff(wantAuth, auth); diff != "" {
		t.Errorf("Authorization (-want +got):\n%s", diff)
	}
	if got, want := auth.Redacted("<secret>"), `Basic {"p":"<secret>","u":"me"}`; got != want {
		t.Errorf("Redacted: got %q, want %q", got, want)
	}
	if _, ok := auth.Literal(); ok {
		t.Error("Literal reports a string with a secret as literal")
	}
	if diff := cmp.Diff(model.Str{{SecretFile: "/run/secrets/c"}}, remote.OAuth.ClientSecret); diff != "" {
		t.Errorf("client_secret (-want +got):\n%s", diff)
	}
}
