package factsgen

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/jsonmerge"
)

// settingDescription is a settings key's description in both schemas:
// what it does, its values, its version and its source.
func settingDescription(k agy.SettingKey, input bool) string {
	var b strings.Builder
	b.WriteString(capitalized(k.Summary))
	fmt.Fprintf(&b, " (%s).", k.Source)
	if k.Since.Known() {
		fmt.Fprintf(&b, " Read since agy %s; an older build keeps the key and ignores it.", k.Since)
	}
	for _, v := range sortedKeys(k.NewerValues) {
		f := agy.BehaviourOf(k.NewerValues[v])
		if input {
			fmt.Fprintf(&b, " ⚠ %q exists only in agy %s and newer, so the decoder refuses it unless agyconf.agy_version is %s or newer; the schema cannot see agy_version from here.", v, f.Since, f.Since)
		} else {
			fmt.Fprintf(&b, " %q exists only in agy %s and newer (agyconf validate --agy-version judges it).", v, f.Since)
		}
	}
	switch {
	case k.Type == agy.SettingEnum && input:
		b.WriteString(" agy treats an unknown value as the default, so one is refused.")
	case k.Type == agy.SettingEnum:
		b.WriteString(" agy treats an unknown value as the default.")
	}
	return b.String()
}

// capitalized is s with its first letter upper-case.
func capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// settingSchema is a settings key's schema: in the input language
// (input) or in the live settings.json.
func settingSchema(k agy.SettingKey, input bool) ordered {
	s := ordered{{"description", settingDescription(k, input)}}
	switch k.Type {
	case agy.SettingEnum:
		s = append(s, member{"enum", k.Values})
	case agy.SettingBool:
		s = append(s, member{"type", "boolean"})
	case agy.SettingString:
		s = append(s, member{"type", "string"})
	case agy.SettingStringList:
		items := ordered{{"description", "One item (a string)."}, {"type", "string"}}
		if input {
			// Text: numbers and bools are written as text.
			items = ordered{{"description", "One item: text (a number or a bool is written as text)."}, {"type", []string{"string", "number", "boolean"}}}
		}
		s = append(s, member{"type", "array"}, member{"items", items})
	case agy.SettingAny:
		if input {
			s = append(s, member{"$ref", "#/$defs/settingValue"})
		}
	}
	return s
}

// permissionEntrySchema describes one permission entry.
func permissionEntryDescription() string {
	var actions []string
	for _, a := range agy.PermissionActions() {
		actions = append(actions, a.Name)
	}
	regex := agy.BehaviourOf(agy.RegexCommandRules)
	zero := agy.PermissionChangeOf("zero-word-entries")
	unsandboxed := agy.PermissionChangeOf("unsandboxed-deprecated")
	return fmt.Sprintf("action or action(target), action one of %s; a bare action means any target (rulesync): \"command(git *)\", \"mcp(github/*)\", \"read_file\". "+
		"A command rule matches its text literally (agy %s); command(%sPATTERN) is a regular expression, read so only from agy %s (%s). "+
		"An entry with no command word (command(time), a comment, ()) matches nothing since agy %s and every command before (%s). "+
		"unsandboxed rules are deprecated since agy %s (%s).",
		strings.Join(actions, ", "), agy.PermissionChangeOf("literal-command-rules").Since, agy.RegexPrefix, regex.Since, regex.Source, zero.Since, zero.Source, unsandboxed.Since, unsandboxed.Source)
}

// patchSettingsKeys writes the input schema's settings keys and
// permission entry from agy's table.
func patchSettingsKeys(doc *jsonmerge.Doc) error {
	for _, k := range agy.SettingKeys() {
		if err := set(doc, settingSchema(k, true), "$defs", "settings", "properties", k.Key); err != nil {
			return err
		}
	}
	if err := set(doc, acpMethods(true), "$defs", "acp", "properties", "auth_type", "enum"); err != nil {
		return err
	}
	desc := permissionEntryDescription() + " The decoder refuses a regex: rule Go's RE2 cannot compile and an entry with no command word, and warns about unsandboxed rules and literal rules that read like patterns."
	for _, p := range []struct {
		value any
		path  []string
	}{
		{desc, []string{"$defs", "permissionEntry", "description"}},
		{agy.PermissionPattern(), []string{"$defs", "permissionEntry", "pattern"}},
	} {
		if err := set(doc, p.value, p.path...); err != nil {
			return err
		}
	}
	return nil
}

// patchCLISettings writes the live settings.json schema's keys and
// permission entries from agy's table.
func patchCLISettings(doc *jsonmerge.Doc) error {
	for _, k := range agy.SettingKeys() {
		if err := set(doc, settingSchema(k, false), "properties", k.Key); err != nil {
			return err
		}
	}
	for _, list := range []string{"allow", "ask", "deny"} {
		item := ordered{{"description", permissionEntryDescription()}, {"type", "string"}, {"pattern", agy.PermissionPattern()}}
		if err := set(doc, item, "properties", "permissions", "properties", list, "items"); err != nil {
			return err
		}
	}
	return nil
}

// acpMethods are the ACP server's sign-in methods: every one the server
// accepts (written), or only those agyconf writes.
func acpMethods(written bool) []string {
	var out []string
	for _, m := range agy.ACPAuthMethods() {
		if !written || !m.FormerName {
			out = append(out, m.Name)
		}
	}
	return out
}

// patchACPSettings writes the ACP settings schema's auth.type values.
func patchACPSettings(doc *jsonmerge.Doc) error {
	return set(doc, acpMethods(false), "properties", "auth", "properties", "type", "enum")
}
