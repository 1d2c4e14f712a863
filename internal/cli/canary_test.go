package cli

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSecretCanaries renders configs whose secrets are canaries and looks
// for them everywhere a value could leak: the output and errors of every
// command (text and JSON), diff, status, the state, backups, and every file
// left in the root after renders killed at random moments. An inline
// secret may appear in exactly one place, the 0600 mcp_config.json it is
// written to; an exec secret (read by agyhook exec-env, or by agyhook-bridge
// for a remote server, when agy starts the server) appears nowhere at all.
func TestSecretCanaries(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "home")
	secrets := filepath.Join(dir, "secrets")
	for _, d := range []string{root + "/.gemini/config", secrets} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	inline := []string{"canary-inline-7f3a9", "canary-header-<&>\"q\"", "canary-rotated-c0ffee", "canary-adopted-9b9b"}
	execOnly := "canary-exec-41d2"
	// Read by agyhook-bridge when agy starts the remote server: written
	// nowhere, like an exec-env secret.
	bridgeOnly := "canary-bridge-77aa"
	write := func(p, s string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(secrets, "token"), inline[0]+"\n", 0o600)
	write(filepath.Join(secrets, "header"), inline[1], 0o600)
	write(filepath.Join(secrets, "exec"), execOnly+"\n", 0o600)
	write(filepath.Join(secrets, "bridge"), bridgeOnly+"\n", 0o600)
	// Someone else's entries, kept whatever happens.
	write(filepath.Join(root, ".gemini/config/mcp_config.json"), `{"mcpServers": {"theirs": {"command": "theirs"}}}`, 0o644)

	cfg := filepath.Join(dir, "agyconf.hcl")
	writeCfg := func(extra string) {
		write(cfg, fmt.Sprintf(`agyconf {
  scope   = "global"
  product = "cli"
}
mcp_server "inline" {
  command     = "inline-mcp"
  env         = { TOKEN = secret_file(%[1]q), AUTH = "Bearer ${secret_file(%[1]q)}" }
  secret_mode = "inline"
}
mcp_server "remote" {
  server_url  = "https://mcp.example.com/mcp"
  headers     = { Authorization = secret_file(%[2]q) }
  secret_mode = "inline"
}
mcp_server "bridged" {
  server_url = "https://mcp.example.com/bridged"
  headers    = { Authorization = "Bearer ${secret_file(%[5]q)}" }
}
mcp_server "exec" {
  command = "exec-mcp"
  env     = { TOKEN = secret_file(%[3]q) }
}
%[4]s`, filepath.Join(secrets, "token"), filepath.Join(secrets, "header"), filepath.Join(secrets, "exec"), extra, filepath.Join(secrets, "bridge")), 0o644)
	}
	writeCfg("")

	var outputs bytes.Buffer
	run := func(want int, args ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := Main(append([]string{"agyconf"}, args...), &stdout, &stderr)
		fmt.Fprintf(&outputs, "$ agyconf %s\n%s%s", strings.Join(args, " "), stdout.String(), stderr.String())
		if code != want {
			t.Fatalf("agyconf %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
		}
	}
	base := []string{"--config", cfg, "--root", root}
	with := func(args ...string) []string { return append(args, base...) }

	run(0, with("render")...)
	run(0, with("render", "--check")...)
	run(0, with("render", "--check", "--format", "json")...)
	run(0, with("render", "--dry-run")...)
	run(0, with("diff")...)
	run(0, with("status")...)
	run(0, with("status", "--format", "json")...)
	run(0, "validate", "--config", cfg)
	run(0, "validate", "--config", cfg, "--diagnostics-format", "json")
	run(0, "validate", "--format", "json", root)
	run(0, "validate", "--format", "sarif", root)

	// A rotated secret: check, diff and the render that writes it.
	write(filepath.Join(secrets, "token"), inline[2]+"\n", 0o600)
	run(1, with("render", "--check")...)
	run(1, with("diff", "--exit-code")...)
	run(0, with("diff", "--format", "json")...)
	run(0, with("diff", "--stat")...)
	run(0, with("render")...)

	// An edit to agyconf's entry: refused with the entry named, then forced.
	mcp := filepath.Join(root, ".gemini/config/mcp_config.json")
	data, err := os.ReadFile(mcp)
	if err != nil {
		t.Fatal(err)
	}
	write(mcp, strings.Replace(string(data), `"inline-mcp"`, `"edited-mcp"`, 1), 0o600)
	run(3, with("render")...)
	run(1, with("render", "--check")...)
	run(0, with("diff")...)
	run(0, with("render", "--force")...)

	// The state and the backups are lost and the secret rotated: to
	// agyconf the entries are someone's, and differ from the config's in
	// a credential, which may be the user's own — a conflict; --adopt
	// backs them up before they are rewritten.
	state := filepath.Join(root, ".local/state/agyconf")
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(secrets, "token"), inline[3]+"\n", 0o600)
	run(3, with("render")...)
	run(0, with("render", "--adopt")...)
	backups := 0
	_ = filepath.WalkDir(filepath.Join(state, "backups"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			backups++
		}
		return nil
	})
	if backups == 0 {
		t.Fatal("no backup was made; the scan of backups would prove nothing")
	}

	// Renders killed at random moments, between two configs, then one that
	// finishes.
	if bin, err := exec.LookPath("agyconf"); err == nil { // testscript.Main put it on PATH
		rng := rand.New(rand.NewPCG(3, 4))
		for i := 0; i < 40; i++ {
			if i%2 == 0 {
				writeCfg(fmt.Sprintf("skill \"s%d\" {\n  description = \"d\"\n  body = \"b\"\n}\n", i))
			} else {
				writeCfg("")
			}
			cmd := exec.Command(bin, with("render")...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.IntN(40_000)) * time.Microsecond)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
		run(0, with("render")...)
	} else {
		t.Errorf("agyconf is not on PATH: %v", err)
	}

	all := append(append([]string{}, inline...), execOnly, bridgeOnly)
	for _, c := range all {
		if strings.Contains(outputs.String(), c) {
			t.Errorf("a command's output holds the secret %q:\n%s", c, outputs.String())
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if filepath.Dir(p) == secrets || p == cfg {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		for _, c := range all {
			if !bytes.Contains(data, []byte(c)) {
				continue
			}
			// The one place an inline secret belongs, the file it is
			// written to, mode 0600; never an exec one.
			if p == mcp && c != execOnly && c != bridgeOnly {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s holds a secret but is not mode 0600", rel)
				}
				continue
			}
			// With the state lost, the secret agyconf wrote before the
			// rotation is, to agyconf, a value it found in the file, and a
			// backup gives back what it found: it keeps that value, in a
			// 0600 file (SECURITY.md, "What is not protected").
			if c == inline[2] && filepath.Dir(filepath.Dir(p)) == state {
				if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
					t.Errorf("%s holds a secret but is not mode 0600", rel)
				}
				continue
			}
			t.Errorf("%s holds the secret %q", rel, c)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	final, _ := os.ReadFile(mcp)
	if !bytes.Contains(final, []byte(inline[3])) || !bytes.Contains(final, []byte(`"theirs"`)) {
		t.Errorf("the final mcp_config.json lacks the rotated secret or the foreign entry:\n%s", final)
	}
}
