package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/lint"
)

func write(t *testing.T, root, rel, content string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const badHooks = "{\"enabled\": true}\n"

// TestDiscovery checks which files a folder walk lints, that agyconf's
// state and cache are skipped, and that single files are recognised by
// name.
func TestDiscovery(t *testing.T) {
	root := t.TempDir()
	for _, rel := range []string{
		".gemini/config/hooks.json",
		".gemini/antigravity/mcp_config.json",
		".gemini/config/plugins/p/hooks.json",
		"ws/.agents/hooks.json",
		"ws/_agent/hooks.json",
		"ws/sub/.agent/plugins/q/hooks.json",
		"ws/.agents/settings.json", // not read: settings/not-read, whatever it holds
	} {
		write(t, root, rel, badHooks)
	}
	for _, rel := range []string{
		".local/state/agyconf/hooks.json",
		"ws/.agyconf/hooks.json",
		"ws/hooks.json",                   // not in a customization root
		"ws/docs/rules/x.md",              // not in a customization root
		".gemini/config/hooks/hooks.json", // plugins read only the root file
		"ws/docs/settings.json",           // not in a customization root
		".gemini/antigravity-cli/builtin/skills/x/SKILL.md",
	} {
		write(t, root, rel, "not linted")
	}
	fs, err := lint.Paths([]string{root}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, f := range fs {
		rel, _ := filepath.Rel(root, f.File)
		files[filepath.ToSlash(rel)] = true
	}
	want := []string{".gemini/antigravity/mcp_config.json", ".gemini/config/hooks.json", ".gemini/config/plugins/p/hooks.json", "ws/.agents/hooks.json", "ws/.agents/settings.json", "ws/_agent/hooks.json", "ws/sub/.agent/plugins/q/hooks.json"}
	for _, w := range want {
		if !files[w] {
			t.Errorf("no finding for %s", w)
		}
	}
	if len(files) != len(want) {
		t.Errorf("linted %v, want %v", files, want)
	}

	// A root given directly, with a relative path: findings keep it.
	t.Chdir(filepath.Join(root, "ws"))
	fs, err = lint.Paths([]string{".agents"}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 || fs[0].File != filepath.Join(".agents", "hooks.json") {
		t.Errorf("findings for .agents: %+v", fs)
	}

	// Overlapping paths (a workspace, a plugin in it, one of its files):
	// each file is checked and reported once.
	write(t, root, "ws/.agents/plugins/q/plugin.json", `{"name": "q"}`)
	once, err := lint.Paths([]string{"."}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	twice, err := lint.Paths([]string{".", ".agents", ".agents/plugins/q", filepath.Join(root, "ws", ".agents", "hooks.json")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(twice) != len(once) {
		t.Errorf("overlapping paths: %d findings, want %d (each file once): %+v", len(twice), len(once), twice)
	}

	// Single files by name.
	p := write(t, root, "loose/settings.json", `{"permissions": {"allow": ["bogus("]}}`)
	fs, err = lint.Paths([]string{p}, lint.Options{})
	if err != nil || len(fs) != 1 || fs[0].Rule != "settings/permission-entry" {
		t.Errorf("settings.json as a file: %+v, %v", fs, err)
	}
	p = write(t, root, "loose/rules/r.md", "---\ntrigger: sometimes\n---\n")
	fs, err = lint.Paths([]string{p}, lint.Options{})
	if err != nil || len(fs) != 1 || fs[0].Rule != "rule/trigger" {
		t.Errorf("a rule as a file: %+v, %v", fs, err)
	}
	p = write(t, root, "loose/hooks.json", badHooks)
	fs, err = lint.Paths([]string{p}, lint.Options{})
	if err != nil || len(fs) != 1 || fs[0].Rule != "hooks/top-level-enabled" || fs[0].File != p {
		t.Errorf("hooks.json as a file: %+v, %v", fs, err)
	}
	p = write(t, root, "loose/notes.txt", "x")
	if _, err := lint.Paths([]string{p}, lint.Options{}); err == nil || !strings.Contains(err.Error(), "not a file Antigravity reads") {
		t.Errorf("an unknown file: %v", err)
	}
	if _, err := lint.Paths([]string{filepath.Join(root, "missing")}, lint.Options{}); err == nil {
		t.Error("a missing path: no error")
	}
}

// TestDiscoveryLinks: a folder validate is given may be a link to one
// (Home Manager links whole folders), and is walked; no link to a folder
// below it is followed; a plugin.json that is a link to a file within the
// walked folder makes a plugin, and is read; one to a folder or to
// nothing makes none; one to a file outside the walked folder stops the
// walk with an error naming it.
func TestDiscoveryLinks(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	write(t, real, ".gemini/config/hooks.json", badHooks)
	write(t, root, "elsewhere/hooks.json", badHooks)
	if err := os.Symlink(filepath.Join(root, "elsewhere"), filepath.Join(real, ".gemini", "config", "linked")); err != nil {
		t.Fatal(err)
	}
	// A plugin's hooks.json is read in a folder whose plugin.json links to
	// a file of the walked folder.
	manifest := write(t, root, "ws/manifests/manifest.json", `{"name": "p"}`)
	dir := filepath.Join(root, "ws", "plugins", "file")
	write(t, dir, "hooks.json", badHooks)
	if err := os.Symlink(manifest, filepath.Join(dir, "plugin.json")); err != nil {
		t.Fatal(err)
	}
	// A plugin.json linked to a folder or to nothing makes no plugin, as
	// agy sees it: nothing there is read. One linked to a file outside the
	// walked folder makes a plugin whose manifest is not read through the
	// link: an error naming it.
	outside := write(t, root, "manifest.json", `{"name": "p"}`)
	for name, target := range map[string]string{"folder": root, "dangling": filepath.Join(root, "nowhere"), "outside": outside} {
		bad := filepath.Join(root, "bad-"+name)
		write(t, bad, "plugins/p/hooks.json", badHooks)
		link := filepath.Join(bad, "plugins", "p", "plugin.json")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		fs, err := lint.Paths([]string{bad}, lint.Options{})
		switch {
		case name != "outside" && (err != nil || len(fs) != 0):
			t.Errorf("plugin.json linked to %s: %v, %v; want no plugin, nothing read", name, fs, err)
		case name == "outside" && (err == nil || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "outside")):
			t.Errorf("plugin.json linked outside: %v, want an error naming it", err)
		}
	}
	// Another casing is what the filesystem says: a plugin where it is
	// case-insensitive, none where it is not.
	casing := filepath.Join(root, "ws", "plugins", "casing")
	write(t, casing, "hooks.json", badHooks)
	write(t, casing, "Plugin.json", `{"name": "c"}`)
	_, err := os.Stat(filepath.Join(casing, "plugin.json"))
	foldsCase := err == nil
	link := filepath.Join(root, "home", ".gemini")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(real, ".gemini"), link); err != nil {
		t.Fatal(err)
	}
	files := func(p string) []string {
		t.Helper()
		fs, err := lint.Paths([]string{p}, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range fs {
			rel, _ := filepath.Rel(root, f.File)
			if len(out) == 0 || out[len(out)-1] != filepath.ToSlash(rel) {
				out = append(out, filepath.ToSlash(rel))
			}
		}
		return out
	}
	if got := files(link); len(got) != 1 || got[0] != "home/.gemini/config/hooks.json" {
		t.Errorf("a linked .gemini: linted %v, want home/.gemini/config/hooks.json alone", got)
	}
	want := []string{"ws/plugins/file/hooks.json"}
	if foldsCase {
		want = []string{"ws/plugins/casing/hooks.json", "ws/plugins/file/hooks.json"}
	}
	if got := files(filepath.Join(root, "ws")); !slices.Equal(got, want) {
		t.Errorf("plugins by a linked plugin.json, and by another casing: linted %v, want %v", got, want)
	}
}
