package importer

import (
	"encoding/json"
	"sort"
	"strconv"
)

// extraMember imports one member agyconf does not know — of an MCP server
// entry or a subagent's frontmatter — into the block's extra = { … }, so
// that the tree renders back exactly: agy reads fields agyconf does not
// know yet. ptr is the member's JSON pointer in file, for the secrets an
// agyconf state records. A null, which extra cannot hold, is left out, and
// so is a member holding what looks like a credential: extra is written
// into a file other users may read and cannot carry secret_file(). byName
// also takes a string for one when its key says so (secrets.go's rule);
// plugin.json's metadata (author) is judged by value alone.
func (im *importer) extraMember(file, unit, ptr, key string, v any, byName bool) (json.RawMessage, bool) {
	if v == nil {
		im.skip(file, unit, "null, which extra = { … } cannot hold; leave the member out or set it by hand")
		return nil, false
	}
	if creds := im.extraCredentials(file, ptr, key, v, byName); len(creds) > 0 {
		im.values = append(im.values, creds...)
		im.skip(file, unit, "a member agyconf does not know, holding what looks like a credential: extra = { … } is written as given into a file other users may read, so it cannot carry one; pass the credential in env or headers with secret_file()")
		return nil, false
	}
	raw, err := json.Marshal(v)
	if err != nil {
		im.skip(file, unit, "cannot be written: %v", err)
		return nil, false
	}
	return raw, true
}

// extraCredentials lists the strings of v that are credentials by the
// import's rule (secrets.go): recorded so by a state, named so by their
// key, or shaped like one.
func (im *importer) extraCredentials(file, ptr, key string, v any, byName bool) []string {
	var out []string
	var walk func(ptr, key string, v any)
	walk = func(ptr, key string, v any) {
		switch x := v.(type) {
		case string:
			if x != "" && (im.state()[file][ptr] || (byName && keySays(key)) || valueSays(x)) {
				out = append(out, x)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(ptr+pointer(k), k, x[k])
			}
		case []any:
			for i, e := range x {
				walk(ptr+"/"+strconv.Itoa(i), key, e)
			}
		}
	}
	walk(ptr, key, v)
	return out
}
