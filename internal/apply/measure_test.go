package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/render"
)

// TestRedactedHashIsDecodedHash: the fast path of redactedHash, which
// hashes jsonmerge's EncodingJSONForm, gives every hash the decoding gives,
// and a text it cannot read goes the decoding's way (the states on disk
// were written with these hashes).
func TestRedactedHashIsDecodedHash(t *testing.T) {
	for _, raw := range []string{
		`{"command":"npx","args":["-y","@x/y"],"env":{"B":"2","A":"1"}}`,
		"{\n  \"disabled\": true,\n  \"command\": \"<a&b>\u2028\"\n}",
		`[1.0,1e3,-0,{"z":null,"a":false}]`,
		`"\ud800\u00e9\/"`,
		`{"a":1,"a":2}`,    // a duplicate: the last wins
		"\"\xff\"",         // invalid UTF-8: U+FFFD
		`{"a":1} trailing`, // a Decoder reads the first value only
	} {
		got, gerr := redactedHash([]byte(raw), nil)
		want, werr := decodedHash([]byte(raw), nil)
		if got != want || (gerr == nil) != (werr == nil) {
			t.Errorf("%q: redactedHash %q, %v; decodedHash %q, %v", raw, got, gerr, want, werr)
		}
	}
	if _, err := redactedHash([]byte(`{"a":`), nil); err == nil {
		t.Error("a truncated text hashed")
	}
}

// TestWithMembersChangesNothing: leaving out the fields an entry's text
// cannot have as members changes nothing that stripFields and
// keepAgyFields return, over generated entries that have the field, spell
// it escaped, hold it as a value or nested deeper, or are not objects.
func TestWithMembersChangesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fields := []string{"disabled"}
	names := []string{"disabled", `disa\u0062led`, "command", "Disabled", "disabled ", `x\"disabled`, "args"}
	values := []string{`true`, `"disabled"`, `{"disabled":false}`, `["disabled"]`, `1`, `null`, `"a\\b"`}
	entry := func() string {
		switch r.IntN(8) {
		case 0:
			return values[r.IntN(len(values))]
		case 1:
			return `{"a":1} x`
		}
		var b bytes.Buffer
		b.WriteByte('{')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%s", names[r.IntN(len(names))], values[r.IntN(len(values))])
			if r.IntN(3) == 0 {
				b.Reset()
				fmt.Fprintf(&b, `{"%s":%s`, names[r.IntN(len(names))], values[r.IntN(len(values))])
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	checked := 0
	for range 20000 {
		live, want := json.RawMessage(entry()), json.RawMessage(entry())
		narrowed := withMembers(live, fields)
		if got, all := stripFields(live, narrowed, want), stripFields(live, fields, want); !bytes.Equal(got, all) {
			t.Fatalf("stripFields(%s, want %s): %s with %q, %s with %q", live, want, got, narrowed, all, fields)
		}
		gotOut, allOut := want, want
		if got, all := keepAgyFields(live, want, narrowed, &gotOut), keepAgyFields(live, want, fields, &allOut); !bytes.Equal(got, all) || !bytes.Equal(gotOut, allOut) {
			t.Fatalf("keepAgyFields(%s, %s): %s %s with %q, %s %s with %q", live, want, got, gotOut, narrowed, all, allOut, fields)
		}
		if len(narrowed) == 0 && json.Valid(live) {
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d valid entries the fields were left out of: the generator tests too little", checked)
	}
}

// measureEntryByDefinition is measureEntry as it was before it read each
// side once: every hash by redactedHash, every form by Canonical.
func measureEntryByDefinition(file string, u unit, resolved any, liveRaw json.RawMessage, present bool, owned *FileState) measured {
	m := measured{liveRaw: liveRaw, present: present}
	var err error
	if m.want, err = json.Marshal(valueAt(resolved, u.path)); err != nil {
		return measured{err: err}
	}
	redRaw, err := json.Marshal(u.redacted)
	if err != nil {
		return measured{err: err}
	}
	if m.wantHash, err = redactedHash(redRaw, nil); err != nil {
		return measured{err: err}
	}
	if !present {
		return m
	}
	ptrs := u.secrets
	if owned != nil {
		ptrs = append(append([]string(nil), ptrs...), owned.Secrets...)
	}
	agyFields := render.AgyFieldsUnder(u.path[:len(u.path)-1])
	liveRaw = keepAgyFields(liveRaw, m.want, agyFields, &m.want)
	if m.liveHash, err = decodedHash(stripFields(liveRaw, agyFields, redRaw), ptrs); err != nil {
		return measured{err: fmt.Errorf("%s %s: %w", file, pointer(u.path), err)}
	}
	a, _ := jsonmerge.Canonical(liveRaw)
	b, _ := jsonmerge.Canonical(m.want)
	m.upToDate = bytes.Equal(a, b)
	return m
}

// TestMeasureEntryAgrees: measureEntry, which reads each side once and
// hashes without decoding where it can, measures every generated entry as
// its definition does — with and without secrets, agy's own fields, live
// entries reformatted, commented (JSONC), escaped or holding U+2028.
func TestMeasureEntryAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pick := func(s ...string) string { return s[r.IntN(len(s))] }
	value := func() string {
		return pick(`"npx"`, `"a\u2028b"`, `"<x>&"`, `1.0`, `-0`, `1e400`, `true`, `null`, `["-y","x"]`, `{"B":"2","A":"1"}`, `"disabled"`, `"é\/"`)
	}
	object := func() string {
		var b bytes.Buffer
		b.WriteByte('{')
		for i := range r.IntN(4) {
			if i > 0 {
				b.WriteString(pick(",", " ,\n  "))
			}
			fmt.Fprintf(&b, `"%s":%s`, pick("command", "args", "env", "disabled", `disa\u0062led`, "url"), value())
		}
		b.WriteString(pick("}", " // c\n}", "\n}"))
		return b.String()
	}
	agreed, secrets, fields := 0, 0, 0
	for i := range 20000 {
		var want any
		if err := json.Unmarshal([]byte(object()), &want); err != nil {
			continue // a comment or a duplicate: the config's side is JSON
		}
		u := unit{path: []string{"mcpServers", "s"}, redacted: want}
		owned := (*FileState)(nil)
		if r.IntN(4) == 0 {
			if w, ok := want.(map[string]any); ok && len(w) > 0 {
				red := map[string]any{}
				for k, v := range w {
					red[k] = v
				}
				for k := range w {
					red[k] = render.Placeholder
					u.secrets = []string{"/" + k}
					break
				}
				u.redacted = red
				secrets++
			}
		}
		if r.IntN(4) == 0 {
			owned = &FileState{Secrets: []string{"/command"}}
		}
		resolved := map[string]any{"mcpServers": map[string]any{"s": want}}
		live := json.RawMessage(object())
		if r.IntN(5) == 0 {
			b, _ := json.Marshal(want)
			live = b // the entry exactly as agyconf writes it
		}
		if bytes.Contains(live, []byte("disabled")) {
			fields++
		}
		present := r.IntN(6) != 0
		got := measureEntry("f.json", u, resolved, live, present, owned)
		def := measureEntryByDefinition("f.json", u, resolved, live, present, owned)
		if fmt.Sprint(got.err) != fmt.Sprint(def.err) || !bytes.Equal(got.want, def.want) || got.wantHash != def.wantHash ||
			got.liveHash != def.liveHash || got.upToDate != def.upToDate || got.present != def.present || !bytes.Equal(got.liveRaw, def.liveRaw) {
			t.Fatalf("case %d: want %s, live %s (present %v, secrets %q, owned %v):\nmeasureEntry %+v\ndefinition   %+v", i, mustJSON(want), live, present, u.secrets, owned, got, def)
		}
		if def.upToDate {
			agreed++
		}
	}
	if agreed < 500 || secrets < 1000 || fields < 1000 {
		t.Fatalf("the generator tests too little: %d up to date, %d with secrets, %d naming agy's field", agreed, secrets, fields)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// openCounter is a confine.FS that counts the reads that open a file.
type openCounter struct {
	confine.FS
	opened []string
}

func (o *openCounter) ReadFile(name string, limit int64) ([]byte, fs.FileInfo, error) {
	o.opened = append(o.opened, name)
	return o.FS.ReadFile(name, limit)
}

// TestReadLiveNeverOpensWhatIsNotAFile: a FIFO, a folder or a socket where
// a file goes, or a link inside the root to one, is refused on what Lstat
// or Stat says, naming the path, and never opened: opening a FIFO, even
// without blocking, wakes a writer waiting on it. Decide reads every
// document's live file before deciding any, so this holds after an earlier
// document failed too.
func TestReadLiveNeverOpensWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	sock, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Skipf("a unix socket: %v", err)
	}
	defer sock.Close()
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{"fifo": "a named pipe (FIFO)", "folder": "a folder", "sock": "a socket"}
	for name, kind := range maps.Clone(kinds) {
		if err := os.Symlink(name, filepath.Join(dir, "link-to-"+name)); err != nil {
			t.Fatal(err)
		}
		kinds["link-to-"+name] = kind
	}
	root, err := confine.Open(dir, confine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fsys := &openCounter{FS: root}
	for name, kind := range kinds {
		_, err := readLive(fsys, name, false)
		want := fmt.Sprintf("%s exists and is %s, not a regular file", filepath.Join(dir, name), kind)
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("readLive(%s): %v, want %q…", name, err, want)
		}
	}
	if l, err := readLive(fsys, "file", false); err != nil || string(l.data) != "{}" {
		t.Errorf("readLive(file): %q, %v", l.data, err)
	}
	if !slices.Equal(fsys.opened, []string{"file"}) {
		t.Errorf("opened %q, want only the regular file", fsys.opened)
	}
}

// TestStaleErrorIsStable: of two stale files that cannot be read, Decide
// reports the same one every time (the state's files used to be visited
// in map order).
func TestStaleErrorIsStable(t *testing.T) {
	e := newEnv(t)
	st := &State{Files: map[string]*FileState{}}
	for _, name := range []string{"a.md", "b.md", "c.md", "d.md"} {
		if err := os.Mkdir(filepath.Join(e.root, name), 0o755); err != nil {
			t.Fatal(err)
		}
		st.Files[name] = &FileState{SHA256: "0"}
	}
	for range 20 {
		_, err := Decide(&render.Plan{}, st, e.options())
		if err == nil || !strings.Contains(err.Error(), filepath.Join(e.root, "a.md")+" exists") {
			t.Fatalf("Decide: %v, want the error of a.md", err)
		}
	}
}
