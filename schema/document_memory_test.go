package schema_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/schema"
)

// allocated returns the bytes f allocates, freed or not: a bound on it
// bounds the peak heap too, and it does not depend on when the garbage
// collector runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// nestedJSON is depth objects nested in one another, each with one key of
// keyLen characters, the innermost holding dup twice: {"k0xx…":{"k1xx…":
// … {"dup":1,"dup":2} …}}.
func nestedJSON(depth, keyLen int) []byte {
	var b strings.Builder
	for i := range depth {
		k := fmt.Sprintf("k%d", i)
		b.WriteString(`{"` + k + strings.Repeat("x", keyLen-len(k)) + `":`)
	}
	b.WriteString(`{"dup":1,"dup":2}` + strings.Repeat("}", depth))
	return []byte(b.String())
}

// nestedYAML is a skill whose frontmatter nests depth flow mappings, each
// with one explicit key of keyLen characters (an implicit key may not be
// longer than 1024).
func nestedYAML(depth, keyLen int) []byte {
	var b strings.Builder
	b.WriteString("---\ndescription: d\nx: ")
	for i := range depth {
		k := fmt.Sprintf("k%d", i)
		b.WriteString("{? " + k + strings.Repeat("x", keyLen-len(k)) + " : ")
	}
	b.WriteString("1" + strings.Repeat("}", depth) + "\nname: Not_Valid\n---\nbody\n")
	return []byte(b.String())
}

// TestHostileDocumentsBoundedMemory: a document in a user's folder or a
// cloned repository is validated with memory linear in its size, however
// deep it nests and however long its keys. Indexing every value by its
// whole JSON pointer took memory growing with depth² × key length: 4,000
// levels of 1,000-character keys (4 MB) ran out of memory at about 7 GB,
// and an alias in frontmatter indexed its anchor's whole subtree again.
//
// The bound is 20× the document's size in bytes allocated. The locators
// that indexed by pointer allocated about 1,000× in the JSON case (2 GB
// for its 2 MB), 60× in the frontmatter one and 780× with the aliases;
// these allocate about 9×, 11× and 14×, most of it encoding/json's and
// yaml.v3's own decoding (the frontmatter is parsed twice).
func TestHostileDocumentsBoundedMemory(t *testing.T) {
	v, err := schema.NewValidator("mcp_config", "skill-frontmatter")
	if err != nil {
		t.Fatal(err)
	}
	const factor = 20
	check := func(t *testing.T, data []byte, validate func() error) error {
		t.Helper()
		var verr error
		n := allocated(func() { verr = validate() })
		t.Logf("%d bytes: %d allocated (%.1f×)", len(data), n, float64(n)/float64(len(data)))
		if limit := uint64(factor * len(data)); n > limit {
			t.Errorf("validating %d bytes allocated %d, over %d× its size", len(data), n, factor)
		}
		return verr
	}
	findings := func(t *testing.T, err error) []schema.Finding {
		t.Helper()
		var de *schema.DocumentError
		if !errors.As(err, &de) {
			t.Fatalf("want a *DocumentError, got %v", err)
		}
		return de.Findings
	}

	t.Run("json", func(t *testing.T) {
		const depth, keyLen = 2000, 1000 // 2 MB
		data := nestedJSON(depth, keyLen)
		err := check(t, data, func() error { return v.ValidateJSON("mcp_config", data) })
		// The duplicate at the bottom is still located, and named by a
		// pointer shortened to schema.MaxPointerBytes: its first and last
		// segments, each cut to 64 bytes.
		var dup *schema.Finding
		for _, f := range findings(t, err) {
			if strings.HasPrefix(f.Message, "duplicate key") {
				dup = &f
			}
		}
		if dup == nil {
			t.Fatal("no duplicate-key finding")
		}
		wantCol := depth*(keyLen+4) + 10 // depth times {"key": then {"dup":1,
		if dup.Line != 1 || dup.Column != wantCol || !strings.HasSuffix(dup.Pointer, "/dup") || !strings.HasPrefix(dup.Pointer, "/k0xxx") || !strings.Contains(dup.Pointer, "/…/") ||
			len(dup.Pointer) > schema.MaxPointerBytes || !strings.Contains(dup.Message, "first at 1:"+fmt.Sprint(wantCol-8)) {
			t.Errorf("duplicate at %d:%d (pointer of %d bytes): %s; want 1:%d", dup.Line, dup.Column, len(dup.Pointer), dup.Message, wantCol)
		}
	})

	t.Run("frontmatter", func(t *testing.T) {
		data := nestedYAML(100, 20000) // 2 MB
		err := check(t, data, func() error { return v.ValidateMarkdown("skill-frontmatter", data) })
		fs := findings(t, err)
		if len(fs) != 1 || fs[0].Pointer != "/name" || fs[0].Line != 4 || fs[0].Column != 7 {
			t.Errorf("findings = %v, want the name on 4:7", fs)
		}
	})

	t.Run("frontmatter-aliases", func(t *testing.T) {
		// Each of the aliases stands for the anchor's two keys of 250,000
		// characters; the one finding is about the alias on the line after them.
		key := strings.Repeat("p", 250000)
		data := []byte("---\ndescription: d\na: &a {? " + key + " : {? " + key + "q : 1}}\nb: [" +
			strings.TrimSuffix(strings.Repeat("*a, ", 500), ", ") + "]\nname: *a\n---\n")
		err := check(t, data, func() error { return v.ValidateMarkdown("skill-frontmatter", data) })
		fs := findings(t, err)
		if len(fs) != 1 || fs[0].Pointer != "/name" || fs[0].Line != 5 || fs[0].Column != 7 {
			t.Errorf("findings = %v, want the name on 5:7", fs)
		}
	})
}

// mcpConfig is a realistic mcp_config.json of about size bytes, indented
// as editors and agyconf write it: local servers with arguments and
// environments, remote ones with headers.
func mcpConfig(size int) []byte {
	servers := map[string]any{}
	for i := 0; ; i++ {
		name := fmt.Sprintf("server-%04d", i)
		if i%3 == 2 {
			servers[name] = map[string]any{
				"serverUrl": fmt.Sprintf("https://mcp%d.example.com/v1/sse", i),
				"headers": map[string]any{
					"Authorization": "Bearer ${MCP_TOKEN_" + fmt.Sprint(i) + "}",
					"X-Client":      "agyconf",
				},
				"disabledTools": []any{"delete_everything", "drop_table"},
			}
		} else {
			servers[name] = map[string]any{
				"command": "/usr/local/bin/mcp-server-" + fmt.Sprint(i),
				"args":    []any{"--stdio", "--root", "/home/me/src/projekt-ü", "--log-level", "info"},
				"env": map[string]any{
					"PATH":      "/usr/local/bin:/usr/bin:/bin",
					"LOG_LEVEL": "info",
					"HOME":      "/home/me",
				},
			}
		}
		if i%50 == 49 {
			data, _ := json.MarshalIndent(map[string]any{"mcpServers": servers}, "", "  ")
			if len(data) >= size {
				return data
			}
		}
	}
}

// BenchmarkValidateMCPConfig validates a realistic 1 MB mcp_config.json.
func BenchmarkValidateMCPConfig(b *testing.B) {
	data := mcpConfig(1 << 20)
	v, err := schema.NewValidator("mcp_config")
	if err != nil {
		b.Fatal(err)
	}
	if err := v.ValidateJSON("mcp_config", data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if err := v.ValidateJSON("mcp_config", data); err != nil {
			b.Fatal(err)
		}
	}
}

// manyUnknownKeys is an mcp_config.json with one server whose name is
// nameLen bytes long and whose oauth holds keys unknown keys: each is a
// finding under the long name. (oauth is closed; a server's own unknown
// keys pass the schema since the extra escape hatch, and lint warns.)
func manyUnknownKeys(nameLen, keys int) []byte {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{"` + strings.Repeat("n", nameLen) + `":{"serverUrl":"https://x","oauth":{"clientId":"c","u0":1`)
	for i := 1; i < keys; i++ {
		fmt.Fprintf(&b, `,"u%d":1`, i)
	}
	b.WriteString("}}}}\n")
	return []byte(b.String())
}

// TestManyFindingsBounded: a file with one 100 KB server name and 200,000
// unknown keys ran validate out of memory, each of its findings holding a
// 100 KB pointer. Findings are bounded per document (MaxFindings, then
// one that counts the rest) and so are the pointers they print
// (MaxPointerBytes); memory stays within 80× the file's size, most of it
// the reader's tree of 200,000 values and the validator's own work (it
// was over 200× with the pointers joined into keys, and unbounded before).
func TestManyFindingsBounded(t *testing.T) {
	data := manyUnknownKeys(100_000, 200_000) // 2.4 MB
	v, err := schema.NewValidator("mcp_config")
	if err != nil {
		t.Fatal(err)
	}
	var verr error
	n := allocated(func() { verr = v.ValidateJSON("mcp_config", data) })
	t.Logf("%d bytes: %d allocated (%.1f×)", len(data), n, float64(n)/float64(len(data)))
	if limit := uint64(80 * len(data)); n > limit {
		t.Errorf("validating %d bytes allocated %d, over 80× its size", len(data), n)
	}
	var de *schema.DocumentError
	if !errors.As(verr, &de) {
		t.Fatalf("want a *DocumentError, got %v", verr)
	}
	if len(de.Findings) != schema.MaxFindings+1 {
		t.Fatalf("%d findings, want %d and one counting the rest", len(de.Findings), schema.MaxFindings+1)
	}
	for _, f := range de.Findings {
		if len(f.Pointer) > schema.MaxPointerBytes || len(f.Message) > 2*schema.MaxPointerBytes {
			t.Fatalf("a finding of %d+%d bytes: %.200s", len(f.Pointer), len(f.Message), f)
		}
	}
	last := de.Findings[len(de.Findings)-1]
	if !strings.HasPrefix(last.Message, fmt.Sprintf("and %d more schema findings", 200_000-schema.MaxFindings)) {
		t.Errorf("last finding %q, want it to count the %d others", last.Message, 200_000-schema.MaxFindings)
	}
	// The first are the first in the document, located.
	if f := de.Findings[0]; f.Line != 1 || f.Column != 100_000+68 || !strings.HasSuffix(f.Pointer, "/oauth/u0") {
		t.Errorf("first finding %d:%d %.100s, want the key u0 at 1:%d", f.Line, f.Column, f.Pointer, 100_000+68)
	}
}
