package config

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ThinNav is the navigation thinFiles leaves in place of a native-syntax
// file's tree, for the fuzz oracle that compares the two.
func ThinNav(f *hcl.File) any { return newBlockNav(f.Body.(*hclsyntax.Body)) }

// ParseInPieces parses a native file as ParseBytes does, with pieces of
// about every bytes instead of pieceSize, so that the fuzz oracle can
// compare piecewise and whole parses of small inputs. ok is false when the
// nesting check refuses data (ParseBytes never parses it).
func ParseInPieces(data []byte, filename string, every int) (f *hcl.File, diags hcl.Diagnostics, ok bool) {
	cuts, diags := nestLimits{depth: MaxNesting, window: 4 << 10}.check(data, filename, every)
	if diags.HasErrors() {
		return nil, nil, false
	}
	f, diags = parsePieces(data, filename, cuts)
	return f, diags, true
}
