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

// extractBlock returns the text between the marker lines, and whether the
// file has a block. Markers out of order or repeated are an error: agyconf
// will not guess which part is its own.
func extractBlock(file []byte) ([]byte, bool, error) {
	b, e, ok, err := blockBounds(file)
	if err != nil || !ok {
		return nil, ok, err
	}
	return file[b:e], true, nil
}

// blockBounds returns the byte range of the block's content: from the line
// after the begin marker to the start of the end marker's line.
func blockBounds(file []byte) (start, end int, ok bool, err error) {
	bi := indexLine(file, blockBegin)
	ei := indexLine(file, blockEnd)
	switch {
	case bi < 0 && ei < 0:
		return 0, 0, false, nil
	case bi < 0 || ei < 0 || ei < bi:
		return 0, 0, false, fmt.Errorf("agyconf's marker lines are incomplete or out of order; restore or remove both %q and %q", blockBegin, blockEnd)
	}
	if indexLine(file[bi+1:], blockBegin) >= 0 || indexLine(file[ei+1:], blockEnd) >= 0 {
		return 0, 0, false, fmt.Errorf("agyconf's marker lines appear more than once; keep one block")
	}
	// The begin marker is a whole line before the end marker, so its
	// newline is there.
	return bi + len(blockBegin) + 1, ei, true, nil
}

// indexLine returns the offset of a line exactly equal to line, or -1.
func indexLine(file []byte, line string) int {
	for off := 0; off < len(file); {
		i := bytes.Index(file[off:], []byte(line))
		if i < 0 {
			return -1
		}
		at := off + i
		startOK := at == 0 || file[at-1] == '\n'
		after := at + len(line)
		endOK := after == len(file) || file[after] == '\n'
		if startOK && endOK {
			return at
		}
		off = at + 1
	}
	return -1
}

// spliceBlock returns file with its managed block set to block: replaced
// in place when present, appended after a blank line when not. Everything
// outside the markers stays byte for byte as the user wrote it.
func spliceBlock(file, block []byte) []byte {
	wrapped := make([]byte, 0, len(block)+len(blockBegin)+len(blockEnd)+2)
	wrapped = append(wrapped, blockBegin...)
	wrapped = append(wrapped, '\n')
	wrapped = append(wrapped, block...)
	wrapped = append(wrapped, blockEnd...)
	wrapped = append(wrapped, '\n')
	s, e, ok, err := blockBounds(file)
	if err == nil && ok {
		out := append([]byte(nil), file[:s-len(blockBegin)-1]...)
		out = append(out, wrapped...)
		return append(out, file[e+len(blockEnd)+min(1, len(file)-e-len(blockEnd)):]...)
	}
	if len(file) == 0 {
		return wrapped
	}
	out := append([]byte(nil), file...)
	if !bytes.HasSuffix(out, []byte("\n")) {
		out = append(out, '\n')
	}
	out = append(out, '\n')
	return append(out, wrapped...)
}

// removeBlock returns file without its managed block and marker lines.
func removeBlock(file []byte) []byte {
	s, e, ok, err := blockBounds(file)
	if err != nil || !ok {
		return file
	}
	out := append([]byte(nil), file[:s-len(blockBegin)-1]...)
	if bytes.HasSuffix(out, []byte("\n\n")) {
		// Drop the blank line spliceBlock puts before a block it appends.
		out = out[:len(out)-1]
	}
	return append(out, file[e+len(blockEnd)+min(1, len(file)-e-len(blockEnd)):]...)
}
