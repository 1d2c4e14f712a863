package config

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// thinFiles replaces every native-syntax file the parser holds by its
// bytes and an index of its top-level blocks, once decoding is done: what
// printing a diagnostic needs (the snippet, and the "in mcp_server "x""
// context line), without the syntax tree, which is a third of the heap of
// a large render and otherwise lives until the process ends.
//
// JSON files keep their tree: HCL's JSON navigation names the path into
// the object, which takes the tree to compute.
func (p *Parser) thinFiles() {
	for name, f := range p.p.Files() {
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		p.p.AddFile(name, &hcl.File{Bytes: f.Bytes, Nav: newBlockNav(body)})
	}
}

// blockNav answers what hclsyntax's navigation answers — which top-level
// block holds an offset, as its header and its definition range — from a
// list of the blocks' ranges.
type blockNav []navBlock

type navBlock struct {
	rng, defRange hcl.Range
	header        string
}

func newBlockNav(body *hclsyntax.Body) blockNav {
	nav := make(blockNav, 0, len(body.Blocks))
	for _, b := range body.Blocks {
		var h strings.Builder
		h.WriteString(b.Type)
		for _, label := range b.Labels {
			// %q, as hclsyntax's navigation writes it.
			h.WriteString(" ")
			h.WriteString(strconv.Quote(label))
		}
		nav = append(nav, navBlock{rng: b.Range(), defRange: b.DefRange(), header: h.String()})
	}
	return nav
}

func (n blockNav) find(offset int) *navBlock {
	for i := range n {
		if n[i].rng.ContainsOffset(offset) {
			return &n[i]
		}
	}
	return nil
}

// ContextString is the header of the top-level block holding offset, or "".
func (n blockNav) ContextString(offset int) string {
	if b := n.find(offset); b != nil {
		return b.header
	}
	return ""
}

// ContextDefRange is the definition range of the top-level block holding
// offset, or the zero range.
func (n blockNav) ContextDefRange(offset int) hcl.Range {
	if b := n.find(offset); b != nil {
		return b.defRange
	}
	return hcl.Range{}
}
