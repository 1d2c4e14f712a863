package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// pieceSize is about how many bytes of a native file are parsed at a time.
// hclsyntax lexes a whole file into one slice of tokens before parsing it:
// about 100 bytes of token per byte of config, so 190 MB of allocations
// and a peak of 100 MB live for a 1.5 MB config of 10,000 servers. Parsed
// in pieces of 64 KiB, the tokens of one piece at a time are alive
// (docs/benchmarks.md).
const pieceSize = 64 << 10

// parsePieces parses a native file as hclsyntax.ParseConfig does, piece by
// piece between the cuts: offsets where a top-level block or object ends a
// line (nestLimits.check), so that each piece is whole top-level items and
// starts a line. The pieces' bodies together are the file's body: the
// same attributes and blocks with the same ranges, since each piece is
// parsed from the position it starts at. Should any piece have anything
// to report, or two pieces set the same top-level argument, the file is
// parsed whole instead, so that every diagnostic is exactly hclsyntax's.
func parsePieces(data []byte, filename string, cuts []int) (*hcl.File, hcl.Diagnostics) {
	whole := func() (*hcl.File, hcl.Diagnostics) { return hclsyntax.ParseConfig(data, filename, hcl.InitialPos) }
	if len(cuts) == 0 {
		return whole()
	}
	// Empty, not nil, as hclsyntax makes them.
	body := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, Blocks: hclsyntax.Blocks{}}
	start, pos := 0, hcl.InitialPos
	for i := 0; i <= len(cuts); i++ {
		end := len(data)
		if i < len(cuts) {
			end = cuts[i]
		}
		f, diags := hclsyntax.ParseConfig(data[start:end], filename, pos)
		if len(diags) > 0 {
			return whole()
		}
		piece := f.Body.(*hclsyntax.Body)
		for name, attr := range piece.Attributes {
			if _, twice := body.Attributes[name]; twice {
				return whole()
			}
			body.Attributes[name] = attr
		}
		body.Blocks = append(body.Blocks, piece.Blocks...)
		if i == 0 {
			body.SrcRange = piece.SrcRange
		}
		body.SrcRange = hcl.RangeBetween(body.SrcRange, piece.SrcRange)
		body.EndRange = piece.EndRange
		pos = advance(pos, data[start:end])
		start = end
	}
	return &hcl.File{Body: body, Bytes: data, Nav: newBlockNav(body)}, nil
}

// advance is the position after text that starts at pos: each piece starts
// a line, so only the lines and the byte offset move.
func advance(pos hcl.Pos, text []byte) hcl.Pos {
	for _, b := range text {
		if b == '\n' {
			pos.Line++
		}
	}
	return hcl.Pos{Line: pos.Line, Column: 1, Byte: pos.Byte + len(text)}
}
