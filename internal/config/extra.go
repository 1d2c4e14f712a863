package config

import (
	"encoding/json"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/codec"
)

// decodeExtra decodes an extra = { … } argument: members agyconf does not
// know yet, written into the rendered object as given (agy's next field,
// before the input language has it). A member agyconf writes itself is
// refused at its key, so that extra never overrides what the rest of the
// block says; a secret is refused at its value, since the object lands in
// a file any user may read.
func (d *decoder) decodeExtra(attr *hcl.Attribute, set codec.Set) map[string]json.RawMessage {
	ps, _ := d.pairs(attr)
	out := map[string]json.RawMessage{}
	for _, p := range ps {
		if strings.TrimSpace(p.key) == "" {
			d.errorf(p.keyRng, "Invalid key", "An extra member needs a name.")
			continue
		}
		if f, own := codec.OwnField(set, p.key); own {
			d.errorf(p.keyRng, "Known field in extra", "%q is a member of %s that agyconf writes itself, from %s: set that instead. extra only adds members agyconf does not know, and never overrides one it writes.", p.key, set, f.Arg)
			continue
		}
		if p.val.ContainsMarked() {
			d.errorf(p.valRng, "Secret not allowed here", "extra is written as given into a file other users may read, so secret_file() is refused there; a secret belongs in an mcp_server's env, headers or oauth.")
			continue
		}
		raw, err := jsonValue(p.val)
		if err != nil {
			d.errorf(p.valRng, "Invalid value", "The value cannot be written as JSON: %s.", err)
			continue
		}
		out[p.key] = raw
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
