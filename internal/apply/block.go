package apply

import (
	"bytes"
	"fmt"

	"github.com/agyconf/agyconf/internal/agy"
)

// markers are the lines around the managed block of a file that is
// otherwise the user's, in the file's comment syntax (internal/agy's
// table): HTML comments in GEMINI.md, "#" lines in .antigravityignore.
type markers struct{ begin, end string }

func markersOf(s agy.BlockSyntax) markers {
	b, e := s.Markers()
	return markers{b, e}
}

// blockMarkers are the markers of a document; a managed block with no
// syntax named is markdown, the first kind agyconf wrote a block into.
func blockMarkers(s agy.BlockSyntax) markers {
	if s == "" {
		s = agy.BlockHTMLComment
	}
	return markersOf(s)
}

// A file may end its lines with LF or, converted by an editor or a
// checkout on Windows, CRLF: the markers are found either way, so a block
// is never written twice, and a block is compared with its line endings
// made LF, so a converted file is not an edit. A block agyconf writes into
// a file that uses CRLF uses CRLF too.

// extract returns the text between the marker lines, with LF line
// endings, and whether the file has a block. Markers out of order or
// repeated are an error: agyconf will not guess which part is its own.
func (m markers) extract(file []byte) ([]byte, bool, error) {
	b, e, ok, err := m.bounds(file)
	if err != nil || !ok {
		return nil, ok, err
	}
	return lf(file[b:e]), true, nil
}

// bounds returns the byte range of the block's content: from the line
// after the begin marker to the start of the end marker's line.
func (m markers) bounds(file []byte) (start, end int, ok bool, err error) {
	blockBegin, blockEnd := m.begin, m.end
	bi, bEnd := indexLine(file, blockBegin)
	ei, _ := indexLine(file, blockEnd)
	switch {
	case bi < 0 && ei < 0:
		return 0, 0, false, nil
	case bi < 0 || ei < 0 || ei < bi:
		return 0, 0, false, fmt.Errorf("agyconf's marker lines are incomplete or out of order; restore or remove both %q and %q", blockBegin, blockEnd)
	}
	if i, _ := indexLine(file[bi+1:], blockBegin); i >= 0 {
		return 0, 0, false, fmt.Errorf("agyconf's marker lines appear more than once; keep one block")
	}
	if i, _ := indexLine(file[ei+1:], blockEnd); i >= 0 {
		return 0, 0, false, fmt.Errorf("agyconf's marker lines appear more than once; keep one block")
	}
	// The begin marker is a whole line before the end marker, so its line
	// ending is there.
	return bi + len(blockBegin) + bEnd, ei, true, nil
}

// indexLine returns the offset of a line exactly equal to line (ended by
// LF, CRLF or the end of the file), or -1, and the length of its line
// ending.
func indexLine(file []byte, line string) (int, int) {
	for off := 0; off < len(file); {
		i := bytes.Index(file[off:], []byte(line))
		if i < 0 {
			return -1, 0
		}
		at := off + i
		startOK := at == 0 || file[at-1] == '\n'
		if n, endOK := lineEnding(file, at+len(line)); startOK && endOK {
			return at, n
		}
		off = at + 1
	}
	return -1, 0
}

// lineEnding reports whether a line ends at off, and the length of its
// ending: 1 for LF, 2 for CRLF, 0 at the end of the file.
func lineEnding(file []byte, off int) (int, bool) {
	switch {
	case off == len(file):
		return 0, true
	case file[off] == '\n':
		return 1, true
	case file[off] == '\r' && off+1 < len(file) && file[off+1] == '\n':
		return 2, true
	case file[off] == '\r' && off+1 == len(file):
		return 1, true
	}
	return 0, false
}

// crlf reports whether a file ends its lines with CRLF: its first line
// ending says.
func crlf(file []byte) bool {
	i := bytes.IndexByte(file, '\n')
	return i > 0 && file[i-1] == '\r'
}

// splice returns file with its managed block set to block (LF line
// endings): replaced in place when present, appended after a blank line
// when not. Everything outside the
// markers stays byte for byte as the user wrote it.
func (m markers) splice(file, block []byte) []byte {
	blockBegin, blockEnd := m.begin, m.end
	// In place, the block keeps the line endings its begin marker has;
	// appended, it takes the file's.
	block = lf(block)
	nl := "\n"
	if bi, n := indexLine(file, blockBegin); (bi >= 0 && n == 2) || (bi < 0 && crlf(file)) {
		nl = "\r\n"
		block = bytes.ReplaceAll(block, []byte("\n"), []byte("\r\n"))
	}
	wrapped := make([]byte, 0, len(block)+len(blockBegin)+len(blockEnd)+4)
	wrapped = append(wrapped, blockBegin...)
	wrapped = append(wrapped, nl...)
	wrapped = append(wrapped, block...)
	wrapped = append(wrapped, blockEnd...)
	wrapped = append(wrapped, nl...)
	_, e, ok, err := m.bounds(file)
	if err == nil && ok {
		bi, _ := indexLine(file, blockBegin)
		out := append([]byte(nil), file[:bi]...)
		out = append(out, wrapped...)
		n, _ := lineEnding(file, e+len(blockEnd))
		return append(out, file[e+len(blockEnd)+n:]...)
	}
	if len(file) == 0 {
		return wrapped
	}
	out := append([]byte(nil), file...)
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, nl...)
	}
	out = append(out, nl...)
	return append(out, wrapped...)
}

// remove returns file without its managed block and marker lines.
func (m markers) remove(file []byte) []byte {
	blockBegin, blockEnd := m.begin, m.end
	_, e, ok, err := m.bounds(file)
	if err != nil || !ok {
		return file
	}
	bi, _ := indexLine(file, blockBegin)
	out := append([]byte(nil), file[:bi]...)
	// Drop the blank line spliceBlock puts before a block it appends: a
	// line ending (LF or CRLF) right after another.
	switch {
	case bytes.HasSuffix(out, []byte("\n\r\n")):
		out = out[:len(out)-2]
	case bytes.HasSuffix(out, []byte("\n\n")):
		out = out[:len(out)-1]
	}
	n, _ := lineEnding(file, e+len(blockEnd))
	return append(out, file[e+len(blockEnd)+n:]...)
}

// lf is text with its line endings made LF — every CR right before an LF
// dropped, however many, so that lf(lf(b)) == lf(b) —: the form a block is
// compared and hashed in, whatever the file around it uses.
func lf(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '\r' {
			j := i
			for j < len(b) && b[j] == '\r' {
				j++
			}
			if j < len(b) && b[j] == '\n' {
				i = j - 1 // the CRs end a line: drop them
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}

// ManagedBlock returns the managed block of a file whose markers are of
// syntax s, with LF line endings, and whether the file has one, as a
// render reads it: import and validate judge a block by the same reading.
// outside is the file without the block, what is the user's.
func ManagedBlock(s agy.BlockSyntax, file []byte) (block, outside []byte, ok bool, err error) {
	m := blockMarkers(s)
	block, ok, err = m.extract(file)
	if err != nil || !ok {
		return nil, file, ok, err
	}
	return block, m.remove(file), true, nil
}
