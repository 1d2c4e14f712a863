package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apparentlymart/go-textseg/v15/textseg"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxNesting bounds how deeply a config file may nest. hclsyntax and
// hcl/json parse, and hcl evaluates, by recursive descent: about 13 KB of
// stack per level of parentheses, so 90,000 "(" (a 180 KB file) exhaust
// Go's 1 GB stack, which is a fatal error that no recover() catches. A
// real config nests a handful of levels (a block, an object, a list, a
// string, an interpolation, a function call); 128 leaves room for any of
// them and keeps the deepest parse and evaluation within a few megabytes
// of stack.
//
// A level is each bracket, brace (a block body or an object), parenthesis,
// string, heredoc, ${…} and %{…} around a token, each open %{if}/%{for}
// directive, and each operator (unary, binary, ?, ., or an index) chained
// before it in the same expression, since hcl builds a chain such as
// 1+1+…+1 or a[x][x]… as a tree as deep as the chain is long. In JSON each
// array and object counts, the outermost too, and each string one more,
// with its ${…} counted from there.
const MaxNesting = 128

// CheckNesting refuses data that nests deeper than MaxNesting, before a
// parser sees it: past the limit the parser itself may exhaust the stack.
// filename decides the syntax as in ParseBytes.
func CheckNesting(data []byte, filename string) hcl.Diagnostics {
	_, diags := nestLimits{depth: MaxNesting, window: 4 << 10}.check(data, filename, 0)
	return diags
}

// nestLimits are the knobs of the check: depth is the deepest level
// allowed, MaxNesting but in tests, and window how far past where
// quickNesting passed depth locate lexes first (the token walk passes it
// within a few bytes more).
type nestLimits struct{ depth, window int }

// check also returns, for a native file that passes without lexing, the
// offsets it may be cut at into pieces of about cutEvery bytes (none when
// cutEvery is 0).
func (l nestLimits) check(data []byte, filename string, cutEvery int) ([]int, hcl.Diagnostics) {
	if filepath.Ext(filename) == ".json" {
		return nil, l.checkJSON(filename, data)
	}
	root := frame{kind: kBody, newlineEnds: true}
	// The byte-level bound is enough for an ordinary config, so that it is
	// not lexed twice; the token walk runs only when it is not.
	n := &nesting{cutEvery: cutEvery}
	deepest, at, ok := quickNesting(n, data, root, l.depth)
	if ok && deepest <= l.depth {
		return n.cuts, nil
	}
	lex := func(src []byte) hclsyntax.Tokens {
		toks, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
		return toks
	}
	if tok := l.locate(data, at, lex, root); tok != nil {
		return nil, tooDeep(tok.Range)
	}
	return nil, nil
}

// locate returns the first token of src past l.depth, lexing prefixes of
// src that grow from from+l.window, so that a hostile file that nests deep
// near its start (8 MiB of "(" would be 8 million tokens, seconds and
// gigabytes) is refused after lexing a little of it. A prefix ends where
// hclsyntax's scanner is between two tokens in code (see cutAt), so its
// tokens are the file's own up to there, but for a last one of text or a
// comment, shortened, which cannot nest. Only /* … */ could leave the
// scanner undecided across any cut (it reads an unterminated one as / and
// *), so a prefix holding /* is not tried.
func (l nestLimits) locate(src []byte, from int, lex func([]byte) hclsyntax.Tokens, root frame) *hclsyntax.Token {
	comment := bytes.Index(src, []byte("/*"))
	for size := max(from, 0) + l.window; size < len(src); size *= 4 {
		cut := cutAt(src, size)
		if comment >= 0 && comment < cut {
			break
		}
		if cut <= 0 {
			continue
		}
		// The walk looks one token ahead (a { for, a %{ endif), which the
		// cut may have taken from the last token of the prefix.
		toks := lex(src[:cut])
		if i, _ := walkTokens(toks, root, l.depth); i >= 0 && nextToken(toks, i) != nil {
			return &toks[i]
		}
	}
	toks := lex(src)
	if i, _ := walkTokens(toks, root, l.depth); i >= 0 {
		return &toks[i]
	}
	return nil
}

// cutAt returns an offset at most size, and not far below it, at which a
// token of hclsyntax's scanner in code ends and no longer one can: after
// ( ) [ ] { } , ? or ;, which are whole tokens; before a space or a tab,
// which no token but spaces, text and comments holds; between two !, the
// first of which is then no !=; or between two - of a run that does not
// end an identifier or a number. In text and comments any cut leaves a
// shorter text or comment token. It returns 0 if it finds none.
func cutAt(src []byte, size int) int {
	for c := size; c > 0 && c > size-4096; c-- {
		prev, next := src[c-1], src[c]
		switch {
		case bytes.IndexByte([]byte("()[]{},?;"), prev) >= 0, next == ' ', next == '\t',
			prev == '!' && next == '!':
			return c
		case prev == '-' && next == '-':
			r := c - 1
			for r > 0 && src[r-1] == '-' {
				r--
			}
			if r == 0 || !(isIdentByte(src[r-1]) || src[r-1] >= utf8.RuneSelf) {
				return c
			}
		}
	}
	return 0
}

func tooDeep(rng hcl.Range) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Nesting too deep",
		Detail: fmt.Sprintf("This is nested more than %d levels deep, the most agyconf reads: each bracket, brace, parenthesis, block, string, ${…} and %%{…} around it counts as a level, and so does each operator chained before it in the same expression. "+
			"A config nests a handful of levels; flatten this value or split it into several.", MaxNesting),
		Subject: &rng,
	}}
}

// frameKind is what opened a level of nesting.
type frameKind uint8

const (
	kBody     frameKind = iota // a native file's top level
	kTemplate                  // a JSON string, read as a template
	kBrace                     // a block body or an object constructor
	kBrack                     // a tuple, a for expression or an index
	kParen                     // parentheses or a function call's arguments
	kQuote                     // a quoted string
	kHeredoc                   // a heredoc
	kInterp                    // ${ … }
	kControl                   // %{ … }
)

// frame is one open level. The level of what it holds is its own level,
// plus the operators chained so far in the current expression, plus the
// directives open in it (template frames).
type frame struct {
	kind        frameKind
	level       int
	ops         int
	dirs        int
	newlineEnds bool // a newline ends an expression here: bodies, objects
	// directive is what a %{…} does to the template it is in once it
	// closes: +1 for if and for, -1 for endif and endfor.
	directive int
	open      int // walkTokens: index of the opening token

	// quickNesting's heredoc state: the closing marker, where the current
	// line started, and whether a ${ or %{ started on it (then it is not
	// the marker line, as in hclsyntax's scanner).
	marker    []byte
	lineStart int
	midline   bool
}

// nesting is the stack of open frames and the deepest level seen.
type nesting struct {
	stack []frame
	max   int
	// cutEvery, when not 0, has quickNesting record in cuts where a
	// top-level block or object ends a line at least cutEvery bytes past
	// the last cut: the places ParseBytes may split a native file at to
	// parse it in pieces (see parsePieces).
	cutEvery int
	cuts     []int
}

// reset empties n down to root, keeping its stack's memory: the JSON check
// runs one scan per string.
func (n *nesting) reset(root frame) {
	n.stack = append(n.stack[:0], root)
	n.max = root.level
}

func (n *nesting) top() *frame { return &n.stack[len(n.stack)-1] }

func (n *nesting) see(level int) int {
	if level > n.max {
		n.max = level
	}
	return level
}

// push opens a frame one level inside the current expression and returns
// its level.
func (n *nesting) push(k frameKind, open int) int {
	t := n.top()
	level := t.level + t.ops + t.dirs + 1
	n.stack = append(n.stack, frame{kind: k, level: level, newlineEnds: k == kBrace, open: open})
	return n.see(level)
}

// pushControl opens a %{…} that does d to the template once closed. An
// else, endif or endfor belongs to the directive it continues or closes,
// so it sits at that directive's level rather than inside it.
func (n *nesting) pushControl(d, open int) int {
	t := n.top()
	level := t.level + t.dirs + 1
	if d <= 0 && t.dirs > 0 {
		level--
	}
	n.stack = append(n.stack, frame{kind: kControl, level: level, directive: d, open: open})
	return n.see(level)
}

// pop closes the top frame if it is of kind k. A closer that matches
// nothing is ignored, so that the count can only be too high: the parser
// reports the mismatch.
func (n *nesting) pop(k frameKind) (frame, bool) {
	if len(n.stack) == 1 || n.top().kind != k {
		return frame{}, false
	}
	f := *n.top()
	n.stack = n.stack[:len(n.stack)-1]
	return f, true
}

// cut records the start of the line after a top-level closing brace that
// ends at end, if the brace ends its line and the piece since the last
// cut is long enough.
func (n *nesting) cut(data []byte, end int) {
	switch {
	case end < len(data) && data[end] == '\n':
		end++
	case end+1 < len(data) && data[end] == '\r' && data[end+1] == '\n':
		end += 2
	default:
		return
	}
	last := 0
	if len(n.cuts) > 0 {
		last = n.cuts[len(n.cuts)-1]
	}
	if end-last >= n.cutEvery && end < len(data) {
		n.cuts = append(n.cuts, end)
	}
}

// op counts an operator chained in the current expression.
func (n *nesting) op() int {
	t := n.top()
	t.ops++
	return n.see(t.level + t.ops + t.dirs)
}

// directive applies a closed %{…} to the template it is in and returns
// the level of what follows it.
func (n *nesting) directive(d int) int {
	t := n.top()
	t.dirs += d
	if t.dirs < 0 {
		t.dirs = 0
	}
	return n.see(t.level + t.dirs)
}

// directiveOf says what a template directive keyword does to the nesting.
func directiveOf(kw []byte) int {
	switch string(kw) {
	case "endif", "endfor":
		return -1
	case "else":
		return 0
	}
	// if, for, and anything the parser will refuse: counting it is safe.
	return 1
}

// walkTokens follows hclsyntax's own tokens and returns the index of the
// first token whose level exceeds limit (-1 if none does) and the deepest
// level seen up to there. Its levels are the ones MaxNesting defines,
// which quickNesting only bounds, and it is what locates the error.
func walkTokens(toks hclsyntax.Tokens, root frame, limit int) (int, int) {
	n := &nesting{}
	n.reset(root)
	var prev hclsyntax.TokenType // the previous significant token
	for i := range toks {
		tok := &toks[i]
		t := n.top()
		switch tok.Type {
		case hclsyntax.TokenNewline:
			if t.newlineEnds {
				t.ops = 0
			}
			continue
		case hclsyntax.TokenComment:
			// A # or // comment swallows the newline that ends it; the
			// parser sees that newline.
			if t.newlineEnds && bytes.HasSuffix(tok.Bytes, []byte("\n")) {
				t.ops = 0
			}
			continue
		}
		level := 0
		switch tok.Type {
		case hclsyntax.TokenOBrace:
			level = n.push(kBrace, i)
			if next := nextToken(toks, i); next != nil && next.Type == hclsyntax.TokenIdent && string(next.Bytes) == "for" {
				// An object for expression ignores newlines, as hclsyntax's
				// parseObjectCons does.
				n.top().newlineEnds = false
			}
		case hclsyntax.TokenOBrack:
			if endsOperand(prev) {
				// An index: hcl nests each non-constant one around the
				// expression before it, and a [*] splat recurses.
				if level = n.op(); level > limit {
					return i, n.max
				}
			}
			level = n.push(kBrack, i)
		case hclsyntax.TokenOParen:
			level = n.push(kParen, i)
		case hclsyntax.TokenOQuote:
			level = n.push(kQuote, i)
		case hclsyntax.TokenOHeredoc:
			level = n.push(kHeredoc, i)
		case hclsyntax.TokenTemplateInterp:
			level = n.push(kInterp, i)
		case hclsyntax.TokenTemplateControl:
			d := 1 // if, for, and whatever the parser will refuse
			if next := nextToken(toks, i); next != nil && next.Type == hclsyntax.TokenIdent {
				d = directiveOf(next.Bytes)
			}
			level = n.pushControl(d, i)
		case hclsyntax.TokenCBrace:
			n.pop(kBrace)
		case hclsyntax.TokenCBrack:
			n.pop(kBrack)
		case hclsyntax.TokenCParen:
			n.pop(kParen)
		case hclsyntax.TokenCQuote:
			n.pop(kQuote)
		case hclsyntax.TokenCHeredoc:
			n.pop(kHeredoc)
		case hclsyntax.TokenTemplateSeqEnd:
			if _, ok := n.pop(kInterp); ok {
				break
			}
			if f, ok := n.pop(kControl); ok {
				if level = n.directive(f.directive); level > limit {
					return f.open, n.max
				}
			}
		case hclsyntax.TokenComma:
			t.ops = 0
		case hclsyntax.TokenPlus, hclsyntax.TokenMinus, hclsyntax.TokenStar, hclsyntax.TokenSlash, hclsyntax.TokenPercent,
			hclsyntax.TokenEqualOp, hclsyntax.TokenNotEqual, hclsyntax.TokenLessThan, hclsyntax.TokenLessThanEq,
			hclsyntax.TokenGreaterThan, hclsyntax.TokenGreaterThanEq, hclsyntax.TokenAnd, hclsyntax.TokenOr,
			hclsyntax.TokenBang, hclsyntax.TokenQuestion, hclsyntax.TokenDot:
			level = n.op()
		}
		if level > limit {
			return i, n.max
		}
		prev = tok.Type
	}
	return -1, n.max
}

// nextToken returns the first token after toks[i] that the parser does not
// skip inside brackets (a newline or a comment), or nil at the end.
func nextToken(toks hclsyntax.Tokens, i int) *hclsyntax.Token {
	for j := i + 1; j < len(toks); j++ {
		switch toks[j].Type {
		case hclsyntax.TokenNewline, hclsyntax.TokenComment:
		case hclsyntax.TokenEOF:
			return nil
		default:
			return &toks[j]
		}
	}
	return nil
}

// endsOperand reports whether a token of type t can end an operand, so
// that a [ after it is an index rather than a tuple.
func endsOperand(t hclsyntax.TokenType) bool {
	switch t {
	case hclsyntax.TokenIdent, hclsyntax.TokenNumberLit, hclsyntax.TokenCParen, hclsyntax.TokenCBrack,
		hclsyntax.TokenCBrace, hclsyntax.TokenCQuote, hclsyntax.TokenCHeredoc, hclsyntax.TokenStar:
		return true
	}
	return false
}

// quickNesting bounds from above, byte by byte, the deepest level
// walkTokens would find, about twenty times faster than hclsyntax's lexer.
// It follows the lexer's states (code, quoted string, heredoc, template,
// comments) and counts every operator byte and every [ as an operator, so
// it can only count too high; on anything it does not model exactly (a
// closer that does not match, a byte hcl refuses, a lone CR, an
// unterminated /*, a non-ASCII byte outside text) it gives up with ok
// false, and the caller walks the real tokens instead. It stops once the
// level passes limit, and at is then the offset where it did.
func quickNesting(n *nesting, data []byte, root frame, limit int) (deepest, at int, ok bool) {
	n.reset(root)
	i := 0
	for i < len(data) {
		t := n.top()
		b := data[i]
		switch t.kind {
		case kQuote, kHeredoc, kTemplate:
			switch {
			case (b == '$' || b == '%') && i+1 < len(data) && data[i+1] == '{':
				k := kInterp
				if b == '%' {
					k = kControl
				}
				t.midline = true
				i += 2
				if i < len(data) && data[i] == '~' {
					i++
				}
				level := 0
				if k == kControl {
					level = n.pushControl(quickDirective(data, i), 0)
				} else {
					level = n.push(kInterp, 0)
				}
				if level > limit {
					return n.max, i, true
				}
			case (b == '$' || b == '%') && i+2 < len(data) && data[i+1] == b && data[i+2] == '{':
				i += 3 // $${ and %%{ are literal
			case b == '"' && t.kind == kQuote:
				n.pop(kQuote)
				i++
			case b == '\\' && t.kind == kQuote:
				i++
				if i < len(data) && data[i] != '\n' && data[i] != '\r' {
					i++ // an escape: the byte after the backslash is text
				}
			case b == '\r' && (i+1 >= len(data) || data[i+1] != '\n'):
				return n.max, -1, false
			case b == '\n' && t.kind == kHeredoc:
				if !t.midline && bytes.Equal(bytes.TrimSpace(data[t.lineStart:i+1]), t.marker) {
					// The marker line: the newline after it is code again.
					n.pop(kHeredoc)
					if i > 0 && data[i-1] == '\r' {
						i--
					}
					continue
				}
				t.midline = false
				t.lineStart = i + 1
				i++
			default:
				i++
			}
			continue
		}

		// Code: a body, the inside of brackets, ${…} or %{…}.
		switch {
		case b == ' ' || b == '\t':
			i++
		case b == '\n':
			if t.newlineEnds {
				t.ops = 0
			}
			i++
		case b == '\r':
			if i+1 >= len(data) || data[i+1] != '\n' {
				return n.max, -1, false
			}
			i++
		case isIdentByte(b):
			i++
			for i < len(data) && isIdentByte(data[i]) {
				i++
			}
		case b == '#' || b == '/' && i+1 < len(data) && data[i+1] == '/':
			// To the end of the line; the newline itself is handled above.
			if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(data)
			}
		case b == '/' && i+1 < len(data) && data[i+1] == '*':
			j := bytes.Index(data[i+2:], []byte("*/"))
			if j < 0 {
				return n.max, -1, false
			}
			i += 2 + j + 2
		case b == '"':
			if n.push(kQuote, 0) > limit {
				return n.max, i, true
			}
			i++
		case b == '<' && i+1 < len(data) && data[i+1] == '<':
			marker, next, state := readHeredocStart(data, i)
			if state == heredocUnsure {
				return n.max, -1, false
			}
			if state == heredocNone {
				if n.op() > limit {
					return n.max, i, true
				}
				i++
				break
			}
			if n.push(kHeredoc, 0) > limit {
				return n.max, i, true
			}
			h := n.top()
			h.marker, h.lineStart = marker, next
			i = next
		case b == '{':
			if n.push(kBrace, 0) > limit {
				return n.max, i, true
			}
			if quickFor(data, i+1) {
				n.top().newlineEnds = false
			}
			i++
		case b == '[':
			if n.op() > limit || n.push(kBrack, 0) > limit {
				return n.max, i, true
			}
			i++
		case b == '(':
			if n.push(kParen, 0) > limit {
				return n.max, i, true
			}
			i++
		case b == ')' || b == ']':
			k := kParen
			if b == ']' {
				k = kBrack
			}
			if _, ok := n.pop(k); !ok {
				return n.max, -1, false
			}
			i++
		case b == '}' || b == '~' && i+1 < len(data) && data[i+1] == '}':
			closed := false
			if _, ok := n.pop(kInterp); ok {
				closed = true
			} else if f, ok := n.pop(kControl); ok {
				closed = true
				if n.directive(f.directive) > limit {
					return n.max, i, true
				}
			} else if b == '}' {
				_, closed = n.pop(kBrace)
				if closed && n.cutEvery > 0 && len(n.stack) == 1 && n.stack[0].kind == kBody {
					n.cut(data, i+1)
				}
			}
			if !closed {
				return n.max, -1, false
			}
			if b == '~' {
				i++
			}
			i++
		case b == ',':
			t.ops = 0
			i++
		case b == '=':
			if i+1 < len(data) && data[i+1] == '=' {
				if n.op() > limit {
					return n.max, i, true
				}
				i++
			}
			i++
		case b == ':':
			i++
		case isOperatorByte(b):
			if n.op() > limit {
				return n.max, i, true
			}
			i++
		default:
			// $, \, ;, ', `, ^, a lone ~, a control byte, non-ASCII:
			// hcl refuses them in code, or they would need Unicode rules.
			return n.max, -1, false
		}
	}
	return n.max, -1, true
}

func isIdentByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_'
}

func isOperatorByte(b byte) bool {
	switch b {
	case '!', '+', '-', '*', '/', '%', '<', '>', '?', '.', '&', '|':
		return true
	}
	return false
}

const (
	heredocNone   = iota // not a heredoc: << is two operators
	heredocOpens         // a heredoc
	heredocUnsure        // a marker with non-ASCII letters, or a lone CR
)

// readHeredocStart reads <<ID or <<-ID and its newline at data[i:], as
// hclsyntax's scanner does, and returns the marker and where the heredoc's
// first line starts.
func readHeredocStart(data []byte, i int) ([]byte, int, int) {
	j := i + 2
	if j < len(data) && data[j] == '-' {
		j++
	}
	start := j
	if j >= len(data) || !(isIdentByte(data[j]) && !('0' <= data[j] && data[j] <= '9')) {
		if j < len(data) && data[j] >= utf8.RuneSelf {
			return nil, 0, heredocUnsure
		}
		return nil, 0, heredocNone
	}
	for j < len(data) && (isIdentByte(data[j]) || data[j] == '-') {
		j++
	}
	marker := data[start:j]
	switch {
	case j < len(data) && data[j] >= utf8.RuneSelf:
		return nil, 0, heredocUnsure
	case j < len(data) && data[j] == '\n':
		return marker, j + 1, heredocOpens
	case j+1 < len(data) && data[j] == '\r' && data[j+1] == '\n':
		return marker, j + 2, heredocOpens
	case j < len(data) && data[j] == '\r':
		return nil, 0, heredocUnsure
	}
	return nil, 0, heredocNone
}

// skipBlank skips spaces, newlines and comments from data[i:] and returns
// the index of the next significant byte, or -1 when unsure.
func skipBlank(data []byte, i int) int {
	for i < len(data) {
		switch b := data[i]; {
		case b == ' ' || b == '\t' || b == '\n' || b == '\r':
			i++
		case b == '#' || b == '/' && i+1 < len(data) && data[i+1] == '/':
			j := bytes.IndexByte(data[i:], '\n')
			if j < 0 {
				return len(data)
			}
			i += j + 1
		case b == '/' && i+1 < len(data) && data[i+1] == '*':
			j := bytes.Index(data[i+2:], []byte("*/"))
			if j < 0 {
				return -1
			}
			i += 2 + j + 2
		default:
			return i
		}
	}
	return i
}

// word returns the ASCII identifier at data[i:], or nil when what follows
// it could still be part of an identifier (a non-ASCII letter).
func word(data []byte, i int) []byte {
	j := i
	for j < len(data) && (isIdentByte(data[j]) || data[j] == '-') {
		j++
	}
	if j < len(data) && data[j] >= utf8.RuneSelf {
		return nil
	}
	return data[i:j]
}

// quickFor reports whether the { before data[i:] may open a for
// expression, which ignores newlines. When unsure it says yes: ignoring
// newlines only keeps operators counted longer.
func quickFor(data []byte, i int) bool {
	j := skipBlank(data, i)
	if j < 0 || j >= len(data) {
		return j < 0
	}
	if data[j] >= utf8.RuneSelf {
		return true
	}
	w := word(data, j)
	return w == nil || string(w) == "for"
}

// quickDirective says what the %{ before data[i:] does once closed; when
// unsure, that it opens a directive, which can only count too high.
func quickDirective(data []byte, i int) int {
	j := skipBlank(data, i)
	if j < 0 || j >= len(data) {
		return 1
	}
	w := word(data, j)
	if w == nil {
		return 1
	}
	return directiveOf(w)
}

// checkJSON scans a JSON file as hcl/json's scanner does (its
// strings end where that scanner's do, grapheme clusters and all) and
// checks every string as the template HCL reads it as.
func (l nestLimits) checkJSON(filename string, data []byte) hcl.Diagnostics {
	var stack []byte
	var scratch nesting
	for i := 0; i < len(data); {
		switch b := data[i]; {
		case b == ' ' || b == '\n' || b == '\r' || b == '\t' || b == ',' || b == ':' || b == '=':
			i++
		case b == '{' || b == '[':
			stack = append(stack, b)
			if len(stack) > l.depth {
				return tooDeep(jsonRange(filename, data, i, i+1))
			}
			i++
		case b == '}' || b == ']':
			// A closer that matches nothing is ignored: the count can only
			// be too high, and the parser reports the mismatch.
			if len(stack) > 0 && stack[len(stack)-1] == b-2 { // '{'=='}'-2, '['==']'-2
				stack = stack[:len(stack)-1]
			}
			i++
		case b == '"':
			end := jsonStringEnd(data, i)
			if diags := l.checkJSONString(&scratch, filename, data, i, end, len(stack)+1); diags != nil {
				return diags
			}
			i = end
		case b == '-' || b == '+' || b == '.' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z':
			// A number or a keyword: nothing in it nests.
			i++
			for i < len(data) && (isIdentByte(data[i]) || data[i] == '-' || data[i] == '+' || data[i] == '.') {
				i++
			}
		default:
			// hcl/json's scanner stops at the first byte it cannot read,
			// so the parser never sees what follows.
			return nil
		}
	}
	return nil
}

// jsonStringEnd returns the end of the string token at data[i], where
// hcl/json's scanString ends it: after an unescaped quote, before a control
// byte, and stepping over whole grapheme clusters (so a prepended mark can
// take the quote after it into the string).
func jsonStringEnd(data []byte, i int) int {
	j := i + 1
	escaping := false
	for j < len(data) {
		b := data[j]
		switch {
		case b == '\\':
			escaping = !escaping
			j++
		case b == '"':
			j++
			if !escaping {
				return j
			}
			escaping = false
		case b < 0x20:
			return j
		case b < utf8.RuneSelf:
			// An ASCII byte starts a cluster that no quote, backslash or
			// control byte can continue.
			escaping = false
			j++
		default:
			adv, _, _ := textseg.ScanGraphemeClusters(data[j:], true)
			if adv <= 0 {
				adv = 1
			}
			escaping = false
			j += adv
		}
	}
	return j
}

// checkJSONString checks the string token data[start:end] at level level:
// HCL reads every JSON string as a template, so ${ ((…)) } in a string
// nests as deep as it would in native syntax.
func (l nestLimits) checkJSONString(scratch *nesting, filename string, data []byte, start, end, level int) hcl.Diagnostics {
	if level > l.depth {
		return tooDeep(jsonRange(filename, data, start, start+1))
	}
	raw := data[start:end]
	// Only ${ and %{ nest in a template; an escape can spell the brace.
	if bytes.IndexByte(raw, '{') < 0 && !bytes.Contains(raw, []byte(`\u`)) {
		return nil
	}
	content, ok := jsonStringContent(raw)
	if !ok {
		return nil // hcl/json refuses the string and never reads it as a template
	}
	root := frame{kind: kTemplate, level: level}
	deepest, at, fine := quickNesting(scratch, content, root, l.depth)
	if fine && deepest <= l.depth {
		return nil
	}
	lex := func(src []byte) hclsyntax.Tokens {
		toks, _ := hclsyntax.LexTemplate(src, filename, hcl.Pos{Line: 1, Column: 1, Byte: 0})
		return toks
	}
	tok := l.locate(content, at, lex, root)
	if tok == nil {
		return nil
	}
	from := start + jsonRawOffset(raw, tok.Range.Start.Byte)
	to := start + jsonRawOffset(raw, tok.Range.End.Byte)
	return tooDeep(jsonRange(filename, data, from, to))
}

// jsonStringContent decodes a JSON string token of valid UTF-8 as
// hcl/json does, with encoding/json, and reports whether that succeeds.
// Without a backslash the decoded string is the raw one, and valid if it
// holds no quote of its own (a control byte would have ended the token),
// which spares an allocation for almost every string.
func jsonStringContent(raw []byte) ([]byte, bool) {
	if bytes.IndexByte(raw, '\\') < 0 {
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || bytes.IndexByte(raw[1:len(raw)-1], '"') >= 0 {
			return nil, false
		}
		return raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// jsonRawOffset maps an offset into a JSON string's decoded content back
// to an offset into the string token raw, quote included.
func jsonRawOffset(raw []byte, off int) int {
	r, c := 1, 0
	for r < len(raw) && c < off {
		if raw[r] != '\\' || r+1 >= len(raw) {
			r++
			c++
			continue
		}
		if raw[r+1] != 'u' || r+6 > len(raw) {
			r += 2
			c++
			continue
		}
		ru := hex4(raw[r+2 : r+6])
		n := 6
		if utf16.IsSurrogate(ru) && r+12 <= len(raw) && raw[r+6] == '\\' && raw[r+7] == 'u' {
			if pair := utf16.DecodeRune(ru, hex4(raw[r+8:r+12])); pair != utf8.RuneError {
				ru, n = pair, 12
			}
		}
		if ru < 0 || utf16.IsSurrogate(ru) {
			ru = utf8.RuneError
		}
		r += n
		c += utf8.RuneLen(ru)
	}
	return r
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case '0' <= c && c <= '9':
			r = r*16 + rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r*16 + rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}

// jsonRange is the range of data[from:to] as hcl/json counts positions:
// columns by grapheme cluster, a tab as two, a CR as none.
func jsonRange(filename string, data []byte, from, to int) hcl.Range {
	return hcl.Range{Filename: filename, Start: jsonPos(data, from), End: jsonPos(data, to)}
}

func jsonPos(data []byte, off int) hcl.Pos {
	if off > len(data) {
		off = len(data)
	}
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	rest := data[bytes.LastIndexByte(data[:off], '\n')+1 : off]
	col := 1
	for len(rest) > 0 {
		adv, _, _ := textseg.ScanGraphemeClusters(rest, true)
		if adv <= 0 {
			adv = 1
		}
		switch rest[0] {
		case '\t':
			col += 2
		case '\r':
		default:
			col++
		}
		rest = rest[adv:]
	}
	return hcl.Pos{Line: line, Column: col, Byte: off}
}
