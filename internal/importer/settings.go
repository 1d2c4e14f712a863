package importer

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/codec"
	"github.com/agyconf/agyconf/internal/config"
	"github.com/agyconf/agyconf/internal/model"
)

func (im *importer) settingsFile() {
	im.retiredFiles()
	p, ok := im.l.Path(agy.Settings)
	if !ok {
		return
	}
	// A missing file is no item (readFile).
	root, ok := im.readObject(p, "cli-settings")
	if !ok {
		return
	}
	file := &codec.SettingsFile{}
	for _, pr := range codec.Settings().Decode(root, file) {
		switch pr.Key {
		case "hooks":
			im.skip(p, pr.Key, "agy does not read hooks from settings.json; declare them in hooks.json (hook blocks)")
		default:
			im.skip(p, pr.Key, "%s", pr.Reason)
		}
	}
	if file.Permissions != nil {
		im.permissions(p, root["permissions"])
	}
	for _, k := range sortedKeys(file.Keys) {
		im.settingKey(p, k, root[k])
	}
}

// retiredFiles reports the files of kinds agyconf no longer writes: they
// are left as they are, and nothing of them is imported.
func (im *importer) retiredFiles() {
	for _, r := range agy.RetiredKinds() {
		// Products share paths: each one once, in order.
		seen := map[string]bool{}
		var paths []string
		for _, ps := range r.Places[agy.Scope(im.cfg.Agyconf.Scope)] {
			for _, p := range ps {
				if !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
			}
		}
		sort.Strings(paths)
		for _, p := range paths {
			if _, ok := im.readJSONOther(p, "cli-settings"); ok {
				im.skip(p, "", "left as it is: %s", r.Why)
			}
		}
	}
}

// settingKey imports one key of agy's table of settings when its value
// has the key's type (the decoder would refuse it otherwise). Other keys
// stay in the file, unowned: agy writes its own state there (auth,
// grants), which a config must not take over.
func (im *importer) settingKey(p, k string, v any) {
	sk, known := agy.SettingKeyOf(k)
	if !known {
		// A key agyconf does not know — agy's next setting, or another
		// tool's — is kept as written, unless the decoder would take it
		// for a misspelling of one it knows.
		if s := config.SettingSuggestion(k); s != "" {
			im.skip(p, k, "agyconf writes this key as %s (the CLI docs' spelling) and takes %s for a misspelling of it; left in the file as it is (write %s in a settings block to own it)", s, k, s)
			return
		}
		if !hclsyntax.ValidIdentifier(k) {
			im.skip(p, k, "not a name a settings block can hold (an identifier: letters, digits, _ and -); left in the file as it is")
			return
		}
		im.setting(p, k, v)
		return
	}
	if sk.AgyState {
		im.skip(p, k, "%s: a config does not take it over", sk.Summary)
		return
	}
	switch sk.Type {
	case agy.SettingEnum:
		s, isStr := v.(string)
		if !isStr || !contains(sk.Values, s) {
			im.skip(p, k, "%s is not one of %s; agy treats it as the default", jsonText(v), strings.Join(sk.Values, ", "))
			return
		}
		if f, newer := sk.NewerValues[s]; newer {
			im.needs(agy.BehaviourOf(f).Since)
		}
	case agy.SettingBool:
		if _, isBool := v.(bool); !isBool {
			im.skip(p, k, "is not a boolean")
			return
		}
	case agy.SettingString:
		if _, isStr := v.(string); !isStr {
			im.skip(p, k, "is not a string")
			return
		}
	case agy.SettingStringList:
		if _, ok := stringList(v); !ok {
			im.skip(p, k, "is not a list of strings")
			return
		}
	}
	im.setting(p, k, v)
}

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
	present := false
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
	// deny over ask over allow (sigil, CLI 1.2.0; rulesync): an entry in two lists
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
		// An empty list is a member too: written back as it was.
		switch list {
		case "deny":
			perms.Deny = []string{}
		case "ask":
			perms.Ask = []string{}
		default:
			perms.Allow = []string{}
		}
		present = true
		for i, e := range xs {
			u := fmt.Sprintf("%s.%s[%d]", unit, list, i)
			perm, valid := agy.ParsePermission(e)
			pattern, isPattern := perm.Pattern()
			switch {
			case !valid:
				im.skip(p, u, "%q is not action or action(target) with a known action", e)
				continue
			case strings.HasPrefix(seen[e], "the CLI"):
				im.skip(p, u, "%q is also in %s; the CLI merges both files, so it is kept there only", e, seen[e])
				continue
			case perm.ZeroCommandWords():
				im.skip(p, u, "%q names no command: agy 1.1.11 and newer match it against nothing, older builds against every command", e)
				continue
			case isPattern && !compiles(pattern):
				im.skip(p, u, "the pattern of %q does not compile as a regular expression", e)
				continue
			case seen[e] != "":
				im.skip(p, u, "%q is also in %s, which agy applies first; kept there only", e, seen[e])
				continue
			}
			seen[e] = list
			if isPattern {
				im.needs(agy.BehaviourOf(agy.RegexCommandRules).Since)
			}
			if r, deprecated := perm.Replacement(); deprecated {
				im.conv(p, u, "kept as it is; %s rules are deprecated (render warns): %q is what agy asks for instead", perm.Action, r.String())
			}
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
	if !present {
		return nil
	}
	return perms
}

func compiles(pattern string) bool {
	_, err := regexp.Compile(pattern)
	return err == nil
}
