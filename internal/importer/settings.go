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
	m, ok := v.(map[string]any)
	if !ok {
		im.skip(p, "permissions", "is not an object")
		return
	}
	perms := &model.Permissions{}
	seen := map[string]string{}
	// deny over ask over allow (reference §10): an entry in two lists
	// is kept where agy applies it.
	for _, list := range []string{"deny", "ask", "allow"} {
		x, has := m[list]
		if !has {
			continue
		}
		xs, ok := stringList(x)
		if !ok {
			im.skip(p, "permissions."+list, "is not a list of strings")
			continue
		}
		if len(xs) == 0 {
			im.conv(p, "permissions."+list, "an empty list is left out")
		}
		for i, e := range xs {
			unit := fmt.Sprintf("permissions.%s[%d]", list, i)
			switch {
			case !config.ValidPermission(e):
				im.skip(p, unit, "%q is not action or action(target) with a known action", e)
				continue
			case seen[e] != "":
				im.skip(p, unit, "%q is also in %s, which agy applies first; kept there only", e, seen[e])
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
			im.skip(p, "permissions."+k, "not a permission list (allow, ask, deny)")
		}
	}
	if len(perms.Allow)+len(perms.Ask)+len(perms.Deny) > 0 {
		im.cfg.Permissions = perms
	}
}
