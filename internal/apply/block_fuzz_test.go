package apply

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
)

// FuzzManagedBlock: for any user file without agyconf's markers and any
// block, in every marker syntax, splicing the block in and extracting it
// gives the block back, splicing again replaces it in place, and removing
// it restores the user's text.
func FuzzManagedBlock(f *testing.F) {
	f.Add([]byte(""), []byte("## rule\n\nOne.\n"))
	f.Add([]byte("# Notes\n\nBe brief.\n"), []byte("x\n"))
	f.Add([]byte("no newline"), []byte(""))
	f.Add([]byte("a\n\n\n"), []byte("## a\n\n## b\n"))
	f.Fuzz(func(t *testing.T, user, block []byte) {
		if bytes.Contains(user, []byte("agyconf")) || bytes.Contains(block, []byte("agyconf")) {
			t.Skip("marker text is agyconf's own")
		}
		if len(block) > 0 && !bytes.HasSuffix(block, []byte("\n")) {
			block = append(bytes.Clone(block), '\n') // render always ends a block with a newline (a copy: the fuzzer owns its input)
		}
		for _, s := range []agy.BlockSyntax{agy.BlockHTMLComment, agy.BlockHashComment} {
			checkBlockRoundTrip(t, markersOf(s), user, block)
		}
	})
}

// checkBlockRoundTrip is FuzzManagedBlock's property for one syntax.
func checkBlockRoundTrip(t *testing.T, m markers, user, block []byte) {
	t.Helper()
	once := m.splice(user, block)
	// A block is read back with LF line endings, whatever it was
	// written with.
	got, ok, err := m.extract(once)
	if want := lf(block); err != nil || !ok || !bytes.Equal(got, want) {
		t.Fatalf("extract(splice) = %q, %v, %v; want %q", got, ok, err, want)
	}
	twice := m.splice(once, block)
	if !bytes.Equal(once, twice) {
		t.Fatalf("splicing the same block again changed the file:\n%q\n%q", once, twice)
	}
	restored := m.remove(once)
	want := user
	if len(user) > 0 && !bytes.HasSuffix(user, []byte("\n")) {
		// splice ended the user's last line, as the file ends lines
		nl := "\n"
		if crlf(user) {
			nl = "\r\n"
		}
		want = append(append([]byte(nil), user...), nl...)
	}
	if !bytes.Equal(restored, want) && strings.TrimRight(string(restored), "\n") != strings.TrimRight(string(want), "\n") {
		t.Fatalf("remove(splice(user)) = %q; want %q", restored, want)
	}
}

// The markdown markers, as most tests use them.
var (
	html                 = markersOf(agy.BlockHTMLComment)
	blockBegin, blockEnd = html.begin, html.end
)
