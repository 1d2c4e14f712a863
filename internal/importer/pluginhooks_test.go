package importer

import (
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// TestImportPluginHooks: a plugin's hooks are imported from whichever of
// the files agy builds read them from holds them (agy.PluginHooks), once
// when both hold the same (what agyconf writes), the other file named
// when render adds it, the root's when the two differ, with the other
// reported: render would replace it.
func TestImportPluginHooks(t *testing.T) {
	const hooks = `{"audit": {"enabled": true, "Stop": [{"type": "command", "command": "/usr/local/bin/stop", "timeout": 30}]}}`
	const other = `{"other": {"enabled": true, "Stop": [{"type": "command", "command": "/usr/local/bin/other", "timeout": 30}]}}`
	const claude = `{"description": "Claude Code's", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}}`
	root := t.TempDir()
	plugin := func(name string, files map[string]string) {
		plant(t, root, ".gemini/config/plugins/"+name+"/plugin.json", `{"name": "`+name+`"}`)
		for f, data := range files {
			plant(t, root, ".gemini/config/plugins/"+name+"/"+f, data)
		}
	}
	plugin("both", map[string]string{"hooks.json": hooks, "hooks/hooks.json": hooks})
	plugin("root", map[string]string{"hooks.json": hooks})
	plugin("sub", map[string]string{"hooks/hooks.json": hooks})
	plugin("differ", map[string]string{"hooks.json": hooks, "hooks/hooks.json": other})
	plugin("claude", map[string]string{"hooks.json": hooks, "hooks/hooks.json": claude})
	res, err := Import(Options{Root: root, Scope: model.ScopeGlobal, Product: model.ProductCLI})
	if err != nil {
		t.Fatal(err)
	}
	const p = ".gemini/config/plugins/"
	const why = "agy builds disagree on which of a plugin's hooks.json and hooks/hooks.json they read its hooks from, and agyconf writes the same hooks to each (docs/agy-facts.md, \"Where agy reads a plugin's hooks\")"
	checkItems(t, res,
		"converted: "+p+"root/hooks.json: written to "+p+"root/hooks/hooks.json as well: "+why,
		"converted: "+p+"sub/hooks/hooks.json: written to "+p+"sub/hooks.json as well: "+why,
		"not imported: "+p+"differ/hooks/hooks.json: differs from "+p+"differ/hooks.json, whose hooks are imported: "+why+", so render replaces this file — a conflict until it is moved, or render runs with --adopt, which backs it up",
		"not imported: "+p+"claude/hooks/hooks.json: differs from "+p+"claude/hooks.json, whose hooks are imported: "+why+", so render replaces this file — a conflict until it is moved, or render runs with --adopt, which backs it up",
	)
	for _, it := range res.Items {
		if it.Path == p+"both/hooks.json" || it.Path == p+"both/hooks/hooks.json" {
			t.Errorf("the same hooks in both files are reported: %s", it)
		}
	}
	for _, pl := range res.Config.Plugins {
		if len(pl.Hooks) != 1 || pl.Hooks[0].Name != "audit" {
			t.Errorf("plugin %s: hooks %+v, want audit alone", pl.Name, pl.Hooks)
		}
	}
}
