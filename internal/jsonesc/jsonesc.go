// Package jsonesc escapes text as the inside of a JSON string, as many
// times as jsonencode() calls were wrapped around it: a secret's value,
// read only when output is written, lands inside the string that
// jsonencode() produced while decoding and must be escaped as that
// string's literal parts were. It uses only the standard library, so that
// agyhook (which builds such values for exec-mode servers) may import it.
package jsonesc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// MaxTimes bounds the escape levels of one value: a config nests
// jsonencode() a few times at most, and each level can double the text.
const MaxTimes = 16

// MaxLen bounds an escaped value: the most agyconf writes into one file.
const MaxLen = 16 << 20

// String returns s escaped times times as the content of a JSON string
// (no surrounding quotes), the way encoding/json writes a string without
// HTML escaping. More than MaxTimes levels, or a result longer than
// MaxLen, is an error that quotes nothing of s.
func String(s string, times int) (string, error) {
	if times > MaxTimes {
		return "", fmt.Errorf("escaped %d times for the jsonencode() calls around it, more than %d", times, MaxTimes)
	}
	for i := 0; i < times; i++ {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s) // a string always encodes
		out := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if len(out)-2 > MaxLen {
			return "", fmt.Errorf("escaped for the jsonencode() calls around it, the value would be more than %d MiB", MaxLen>>20)
		}
		s = string(out[1 : len(out)-1])
	}
	return s, nil
}
