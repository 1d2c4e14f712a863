package agyhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// maxPayload bounds what is kept of stdin. agy's payloads are small, but a
// transcript-sized one must not exhaust memory; beyond this the rest is
// drained (so agy's write completes) and the payload is invalid.
const maxPayload = 64 << 20

var (
	errPayloadTooLarge = errors.New("payload larger than 64 MiB")
	errPayloadEmpty    = errors.New("empty payload")
)

// readPayload reads stdin to EOF. The error says why the payload cannot be
// used; data is nil then.
func readPayload(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, errPayloadEmpty
	}
	data, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("reading stdin: %w", err)
	}
	if len(data) > maxPayload {
		_, _ = io.Copy(io.Discard, r)
		return nil, errPayloadTooLarge
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errPayloadEmpty
	}
	return data, nil
}

// payload is the part of agy's hook stdin (the IDE's bundled hooks.md; firstmate and sigil's probes) these hooks
// use. agy writes protojson, which omits zero values: a missing
// invocationNum is 0 and a missing fullyIdle is false.
type payload struct {
	ConversationID    string    `json:"conversationId"`
	WorkspacePaths    []string  `json:"workspacePaths"`
	TranscriptPath    string    `json:"transcriptPath"`
	InvocationNum     nonNegInt `json:"invocationNum"`
	FullyIdle         bool      `json:"fullyIdle"`
	TerminationReason string    `json:"terminationReason"`
}

// parsePayload decodes one JSON object. Anything else — another JSON
// type, a field of the wrong type, trailing data — is invalid, so a hook
// never acts on a half-understood payload.
func parsePayload(data []byte) (payload, error) {
	var p payload
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return p, errors.New("payload is not a JSON object")
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return payload{}, fmt.Errorf("payload is not valid JSON: %w", err)
	}
	return p, nil
}

// nonNegInt reads a protojson integer: a number, or a decimal string (the
// int64 form). Negative values are clamped to 0, the sanitising MemPalace
// does; fractions and other types are errors.
type nonNegInt int64

func (n *nonNegInt) UnmarshalJSON(b []byte) error {
	s := string(b)
	if s == "null" {
		*n = 0
		return nil
	}
	if len(s) >= 2 && s[0] == '"' {
		var err error
		if s, err = strconv.Unquote(s); err != nil {
			return fmt.Errorf("integer string: %w", err)
		}
	}
	if v, err := strconv.ParseInt(s, 10, 64); err == nil {
		*n = nonNegInt(max(v, 0))
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Errorf("not an integer: %.20q", s)
	}
	switch {
	case f < 0:
		*n = 0
	case f >= math.MaxInt64:
		*n = math.MaxInt64
	default:
		*n = nonNegInt(f)
	}
	return nil
}

// validConversationID reports whether id may name state files. The id is
// part of file names behind a fixed prefix, so anything that could escape
// the state dir is refused rather than rewritten: two rewritten ids could
// share one counter.
func validConversationID(id string) bool {
	if len(id) < 1 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}
