package apply

import (
	"bytes"
	"fmt"
)

// The marker lines around the managed block of a file that is otherwise the
// user's (the global GEMINI.md). Markdown comments: invisible when rendered.
const (
	blockBegin = "<!-- BEGIN agyconf: managed block; edits here are overwritten by agyconf render -->"
	blockEnd   = "<!-- END agyconf -->"
)

// A file may end its lines with LF or, converted by an editor or a
// checkout on Windows, CRLF: the markers are found either way, so a block
// is never written twice, and a block is compared with its line endings
// made LF, so a converted file is not an edit. A block agyconf writes into
// a file that uses CRLF uses CRLF too.

// lfBlock is a block's text as it is compared and hashed: CRLF line
// endings made LF, whatever wrote them (a rule body may hold CRLF).
func lfBlock(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")) }

// extractBlock returns the text between the marker lines, with LF line
// endings, and whether the file has a block. Markers out of order or
// repeated are an error: agyconf will not guess which part is its own.
func extractBlock(file []byte) ([]byte, bool, error) {
	b, e, ok, err := blockBounds(file)
	if err != nil || !ok {
		return nil, ok, err
	}
	return lfBlock(file[b:e]), true, nil
}

// blockBounds returns the byte range of the block's content: from the line
// after the begin marker to the start of the end marker's line.
func blockBounds(file []byte) (start, end int, ok bool, err error) {
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

// spliceBlock returns file with its managed block set to block (LF line
// endings): replaced in place when present, appended after a blank line
// when not. Everything outside the
// markers stays byte for byte as the user wrote it.
func spliceBlock(file, block []byte) []byte {
	block = lfBlock(block)
	// In place, the block keeps the line endings its begin marker has;
	// appended, it takes the file's.
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
	_, e, ok, err := blockBounds(file)
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

// removeBlock returns file without its managed block and marker lines.
func removeBlock(file []byte) []byte {
	_, e, ok, err := blockBounds(file)
	if err != nil || !ok {
		return file
	}
	bi, _ := indexLine(file, blockBegin)
	out := append([]byte(nil), file[:bi]...)
	switch {
	case bytes.HasSuffix(out, []byte("\r\n\r\n")):
		// Drop the blank line spliceBlock puts before a block it appends.
		out = out[:len(out)-2]
	case bytes.HasSuffix(out, []byte("\n\n")):
		out = out[:len(out)-1]
	}
	n, _ := lineEnding(file, e+len(blockEnd))
	return append(out, file[e+len(blockEnd)+n:]...)
}
