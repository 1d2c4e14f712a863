package jsonmerge

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
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
	return n.appendCanonical(nil, false), nil
}

// EncodingJSONForm is what encoding/json writes for the value it decodes
// raw to — a Decoder with UseNumber, then an Encoder with HTML escaping
// off —, found without building that value: Canonical's form with U+2028
// and U+2029 escaped (\u2028, \u2029) and a newline after. It is how
// agyconf's state hashes what it owns (apply's redactedHash), so it must
// stay exactly that: FuzzEncodingJSONForm holds it to encoding/json.
//
// ok is false when raw is not JSON as Canonical reads it: a Decoder may
// still read it (it stops after the first value, lets a later duplicate
// name win, reads invalid UTF-8 as U+FFFD), so then decode it instead.
func EncodingJSONForm(raw []byte) (form []byte, ok bool) {
	n, _, err := parseOne(raw, false, Syntax{})
	if err != nil {
		return nil, false
	}
	return append(n.appendCanonical(make([]byte, 0, len(raw)+1), true), '\n'), true
}

// appendCanonical appends n's canonical form; lineSeps escapes U+2028 and
// U+2029 in strings, as encoding/json does.
func (n *node) appendCanonical(b []byte, lineSeps bool) []byte {
	switch n.kind {
	case kindObject:
		members := slices.SortedFunc(slices.Values(n.entries), func(x, y *entry) int { return strings.Compare(x.name, y.name) })
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalString(b, m.name, lineSeps)
			b = append(b, ':')
			b = m.val.appendCanonical(b, lineSeps)
		}
		return append(b, '}')
	case kindArray:
		b = append(b, '[')
		for i, item := range n.entries {
			if i > 0 {
				b = append(b, ',')
			}
			b = item.val.appendCanonical(b, lineSeps)
		}
		return append(b, ']')
	case kindString:
		return appendCanonicalString(b, n.str, lineSeps)
	}
	return append(b, n.raw...)
}

// appendCanonicalString is appendString, with U+2028 and U+2029 escaped
// when lineSeps is set.
func appendCanonicalString(b []byte, s string, lineSeps bool) []byte {
	if !lineSeps || !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029") {
		return appendString(b, s)
	}
	start := len(b)
	b = appendString(b, s)
	out := b[:start]
	for _, r := range string(b[start:]) {
		switch r {
		case '\u2028':
			out = append(out, `\u2028`...)
		case '\u2029':
			out = append(out, `\u2029`...)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return out
}
