package importer

import (
	"github.com/agyconf/agyconf/internal/agy"
)

// userConfigFile reads what agyconf models of ~/.gemini/config/config.json,
// the file the CLI shares with Antigravity 2.0: plugin enablement (kept
// for the plugins imported after it) and the shared permission grants.
// Everything else in it is agy's own state (UI preferences, account
// state, settings it records), which render leaves as it is: each such
// key is listed as not imported, so the report says where it stays.
func (im *importer) userConfigFile() {
	p, ok := im.l.Path(agy.UserConfig)
	if !ok {
		return
	}
	root, ok := im.readObject(p, "user-config")
	if !ok {
		return
	}
	im.userConfigPath = p
	for _, k := range sortedKeys(root) {
		if k != "plugins" && k != "userSettings" {
			im.skip(p, k, "agy's and Antigravity's own record in this file (preferences, account state), which they rewrite: left in the file as it is; render never touches it")
		}
	}
	if v, has := root["plugins"]; has {
		plugins, ok := v.(map[string]any)
		if !ok {
			im.skip(p, "plugins", "is not an object")
		}
		for _, name := range sortedKeys(plugins) {
			entry, ok := plugins[name].(map[string]any)
			enabled, isBool := entry["enabled"].(bool)
			switch {
			case !ok || !isBool:
				im.skip(p, "plugins."+name, "is not an object with a boolean enabled")
			case len(entry) > 1:
				// agyconf owns a plugin's entry whole: one holding more
				// than agyconf writes stays agy's.
				im.skip(p, "plugins."+name, "holds more than enabled; agyconf would own the whole entry, so it is left to agy")
			default:
				im.enablement[name] = enabled
			}
		}
	}
	if us, has := root["userSettings"]; has {
		m, ok := us.(map[string]any)
		if !ok {
			im.skip(p, "userSettings", "is not an object")
			return
		}
		for _, k := range sortedKeys(m) {
			if k != "globalPermissionGrants" {
				im.skip(p, "userSettings."+k, "a setting agy and Antigravity 2.0 record themselves (autoExecutionPolicy, artifactReviewMode, …), which they rewrite: left in the file as it is; render never touches it")
			}
		}
		if g, has := m["globalPermissionGrants"]; has {
			im.cfg.SharedPermissions = im.permissionLists(p, "userSettings.globalPermissionGrants", g, im.cfg.Permissions)
		}
	}
}

// unclaimedEnablement lists the config.json entries of plugins no plugin
// folder imported: builtin plugins, marketplace installs elsewhere.
func (im *importer) unclaimedEnablement() {
	for _, name := range sortedKeys(im.enablement) {
		if !im.claimed[name] {
			im.skip(im.userConfigPath, "plugins."+name, "no plugin folder of this name is imported; its entry is left as it is")
		}
	}
}
