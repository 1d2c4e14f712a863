package jsonmerge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Canonical returns raw, one JSON value, in a form that depends only on what
// it means to a JSON reader and not on how it was written, so that agyconf
// can hash a unit's value and recognise it in a file someone reformatted:
//
//   - no whitespace;
//   - object members sorted by decoded name, comparing UTF-8 bytes (which
//     is code point order);
//   - strings, names included, decoded and rewritten with only the escapes
//     JSON requires: \" \\ \b \f \n \r \t, and \u00XX for other control
//     characters; everything else, "/" and non-ASCII included, literal;
//   - numbers exactly as written, since 1.0 and 1 may mean different things
//     to agy and agyconf does not decide that for it;
//   - array items in order.
//
// raw is read as strictly as Parse reads a document, but any kind of value
// may be at the top.
func Canonical(raw json.RawMessage) ([]byte, error) {
	n, _, err := parseOne(raw, false, Syntax{})
	if err != nil {
		return nil, fmt.Errorf("canonical form: %w", err)
	}
	return n.appendCanonical(nil), nil
}

func (n *node) appendCanonical(b []byte) []byte {
	switch n.kind {
	case kindObject:
		members := slices.SortedFunc(slices.Values(n.entries), func(x, y *entry) int { return strings.Compare(x.name, y.name) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.name)
			b = append(b, ':')
			b = m.val.appendCanonical(b)
		}
		return append(b, '}')
	case kindArray:
		b = append(b, '[')
		for i, item := range n.entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = item.val.appendCanonical(b)
		}
		return append(b, ']')
	case kindString:
		return appendString(b, n.str)
	}
	return append(b, n.raw...)
}
