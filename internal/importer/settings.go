package importer

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/model"
)

func (im *importer) settingsFile() {
	p, ok := im.l.Path(agy.Settings)
	if !ok {
		if p, ok = im.l.Path(agy.IDESettings); !ok {
			return
		}
	}
	// A missing file is no item (readFile).
	doc, ok := im.readJSON(p, "cli-settings")
	if !ok {
		return
	}
	root, ok := doc.(map[string]any)
	if !ok {
		im.skip(p, "", "the top level is not an object")
		return
	}
	for _, k := range sortedKeys(root) {
		v := root[k]
		switch {
		case k == "permissions":
			im.permissions(p, v)
		case k == "hooks":
			im.skip(p, k, "agy does not read hooks from settings.json; declare them in hooks.json (hook blocks)")
		case len(enumValues(k)) > 0:
			s, isStr := v.(string)
			if values := enumValues(k); !isStr || !contains(values, s) {
				im.skip(p, k, "%s is not one of %s; agy treats it as the default", jsonText(v), strings.Join(values, ", "))
				continue
			}
			im.setting(p, k, v)
		case k == "enableTerminalSandbox" || k == "allowNonWorkspaceAccess":
			if _, isBool := v.(bool); !isBool {
				im.skip(p, k, "is not a boolean")
				continue
			}
			im.setting(p, k, v)
		case k == "model":
			if _, isStr := v.(string); !isStr {
				im.skip(p, k, "is not a string")
				continue
			}
			im.setting(p, k, v)
		case k == "trustedWorkspaces":
			if _, ok := stringList(v); !ok {
				im.skip(p, k, "is not a list of strings")
				continue
			}
			im.setting(p, k, v)
		case knownSetting(k):
			im.setting(p, k, v)
		default:
			im.skip(p, k, "a settings key the input language does not know; agyconf leaves it in the file as it is (add it to a settings block by hand to own it)")
		}
	}
}

// enumValues and knownSetting ask the decoder's table, so that import and
// the input language agree on every settings key.
func enumValues(k string) []string { v, _ := config.SettingValues(k); return v }

func knownSetting(k string) bool { _, ok := config.SettingValues(k); return ok }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func (im *importer) setting(p, k string, v any) {
	raw, err := json.Marshal(v)
	if err != nil {
		im.skip(p, k, "cannot be written: %v", err)
		return
	}
	if im.cfg.Settings == nil {
		im.cfg.Settings = map[string]*model.Setting{}
	}
	im.cfg.Settings[k] = &model.Setting{Value: raw}
}

func (im *importer) permissions(p string, v any) {
	if perms := im.permissionLists(p, "permissions", v, nil); perms != nil {
		im.cfg.Permissions = perms
	}
}

// permissionLists imports allow, ask and deny lists found at unit in file
// p. An entry also in other (the CLI's own lists, when these are the
// grants shared with Antigravity 2.0) is left out: the CLI merges both
// files, and the input language takes an entry once.
func (im *importer) permissionLists(p, unit string, v any, other *model.Permissions) *model.Permissions {
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(p, unit, "is not an object")
		return nil
	}
	perms := &model.Permissions{}
	seen := map[string]string{}
	if other != nil {
		for _, l := range []struct {
			name string
			xs   []string
		}{{"deny", other.Deny}, {"ask", other.Ask}, {"allow", other.Allow}} {
			for _, e := range l.xs {
				seen[e] = "the CLI's settings.json permissions." + l.name
			}
		}
	}
	// deny over ask over allow (reference §10): an entry in two lists
	// is kept where agy applies it.
	for _, list := range []string{"deny", "ask", "allow"} {
		x, has := m[list]
		if !has {
			continue
		}
		xs, ok := stringList(x)
		if !ok {
			im.skip(p, unit+"."+list, "is not a list of strings")
			continue
		}
		if len(xs) == 0 {
			im.conv(p, unit+"."+list, "an empty list is left out")
		}
		for i, e := range xs {
			u := fmt.Sprintf("%s.%s[%d]", unit, list, i)
			switch {
			case !config.ValidPermission(e):
				im.skip(p, u, "%q is not action or action(target) with a known action", e)
				continue
			case strings.HasPrefix(seen[e], "the CLI"):
				im.skip(p, u, "%q is also in %s; the CLI merges both files, so it is kept there only", e, seen[e])
				continue
			case seen[e] != "":
				im.skip(p, u, "%q is also in %s, which agy applies first; kept there only", e, seen[e])
				continue
			}
			seen[e] = list
			switch list {
			case "deny":
				perms.Deny = append(perms.Deny, e)
			case "ask":
				perms.Ask = append(perms.Ask, e)
			default:
				perms.Allow = append(perms.Allow, e)
			}
		}
	}
	for _, k := range sortedKeys(m) {
		if k != "allow" && k != "ask" && k != "deny" {
			im.skip(p, unit+"."+k, "not a permission list (allow, ask, deny)")
		}
	}
	if len(perms.Allow)+len(perms.Ask)+len(perms.Deny) == 0 {
		return nil
	}
	return perms
}
