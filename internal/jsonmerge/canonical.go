package jsonmerge

import (
	"bytes"
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

// EncodingJSONForm is what encoding/json writes for the value it decodes
// raw to — a Decoder with UseNumber, then an Encoder with HTML escaping
// off —, found without building that value. It is how agyconf's state
// hashes what it owns (apply's redactedHash), so it must stay exactly
// that: FuzzEncodingJSONForm holds it to encoding/json.
//
// ok is false when raw is not JSON as Canonical reads it: a Decoder may
// still read it (it stops after the first value, lets a later duplicate
// name win, reads invalid UTF-8 as U+FFFD), so then decode it instead.
func EncodingJSONForm(raw []byte) (form []byte, ok bool) {
	canon, err := Canonical(raw)
	if err != nil {
		return nil, false
	}
	return EncodingJSONFormOf(canon), true
}

// EncodingJSONFormOf is EncodingJSONForm of a text whose Canonical form is
// canon: the two differ only in that encoding/json escapes U+2028 and
// U+2029 (\u2028, \u2029), which can only be in strings, and writes a
// newline after the value.
func EncodingJSONFormOf(canon []byte) []byte {
	form := canon
	if bytes.Contains(canon, []byte{0xe2, 0x80}) { // the two's first bytes
		form = bytes.ReplaceAll(form, []byte("\u2028"), []byte(`\u2028`))
		form = bytes.ReplaceAll(form, []byte("\u2029"), []byte(`\u2029`))
	}
	return append(form[:len(form):len(form)], '\n')
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
