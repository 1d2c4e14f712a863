package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestInputs: decoding records every file, folder listing, variable and
// secret file it depended on, and a change to any one of them is seen
// without decoding again.
func TestInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	secret := filepath.Join(dir, "secret")
	write("secret", "s1")
	write("cfg/body.md", "Body.")
	write("cfg/skills/x/SKILL.md", "---\ndescription: X\n---\nDo x.\n")
	write("cfg/main.hcl", `
rule "r" {
  body = file("body.md")
}
skill "x" {
  source = "skills/x"
}
mcp_server "m" {
  command = env("AGYCONF_TEST_INPUT_CMD", "m")
  env     = { T = secret_file("`+secret+`") }
}
`)
	t.Setenv("AGYCONF_TEST_INPUT_CMD", "one")
	load := func() bool {
		t.Helper()
		cfg, diags := NewParser().LoadConfig(filepath.Join(dir, "cfg"))
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		if !InputsUnchanged(cfg.Inputs) {
			t.Fatalf("inputs changed right after decoding: %+v", cfg.Inputs)
		}
		kinds := map[string]int{}
		for _, in := range cfg.Inputs {
			kinds[in.Kind]++
		}
		for _, k := range []string{"file", "dir", "tree", "env", "stat"} {
			if kinds[k] == 0 {
				t.Errorf("no %s input recorded: %+v", k, cfg.Inputs)
			}
		}
		return true
	}
	for _, tc := range []struct {
		name   string
		change func()
	}{
		{"config file", func() { write("cfg/main.hcl", "# changed\n"+mustRead(t, filepath.Join(dir, "cfg/main.hcl"))) }},
		{"file()", func() { write("cfg/body.md", "Other body.") }},
		{"skill source", func() { write("cfg/skills/x/notes.txt", "new file") }},
		{"env()", func() { t.Setenv("AGYCONF_TEST_INPUT_CMD", "two") }},
		{"secret file", func() { time.Sleep(10 * time.Millisecond); write("secret", "s2-rotated") }},
		{"config folder", func() { write("cfg/more.hcl", "") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			load()
			cfg, _ := NewParser().LoadConfig(filepath.Join(dir, "cfg"))
			tc.change()
			if InputsUnchanged(cfg.Inputs) {
				t.Errorf("a changed %s went unnoticed", tc.name)
			}
			os.Remove(filepath.Join(dir, "cfg/more.hcl"))
		})
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
