package apply

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzManagedBlock: for any user file without agyconf's markers and any
// block, splicing the block in and extracting it gives the block back,
// splicing again replaces it in place, and removing it restores the
// user's text.
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
			block = append(block, '\n') // render always ends a block with a newline
		}
		once := spliceBlock(user, block)
		got, ok, err := extractBlock(once)
		// A block is compared with LF line endings, however it was given.
		if want := bytes.ReplaceAll(block, []byte("\r\n"), []byte("\n")); err != nil || !ok || !bytes.Equal(got, want) {
			t.Fatalf("extract(splice) = %q, %v, %v; want %q", got, ok, err, want)
		}
		twice := spliceBlock(once, block)
		if !bytes.Equal(once, twice) {
			t.Fatalf("splicing the same block again changed the file:\n%q\n%q", once, twice)
		}
		restored := removeBlock(once)
		want := user
		if len(user) > 0 && !bytes.HasSuffix(user, []byte("\n")) {
			want = append(append([]byte(nil), user...), '\n') // splice ended the user's last line
		}
		if !bytes.Equal(restored, want) && strings.TrimRight(string(restored), "\n") != strings.TrimRight(string(want), "\n") {
			t.Fatalf("remove(splice(user)) = %q; want %q", restored, want)
		}
	})
}
