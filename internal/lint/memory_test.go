package lint_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/schema"
)

// TestHostileDocumentBoundedMemory: linting a file from a user's folder
// or a cloned repository takes memory linear in its size, however deep it
// nests and however long its keys. The locator indexed every value by its
// whole JSON pointer, memory growing with depth² × key length: 4,000
// levels of 1,000-character keys (4 MB) ran out of memory at about 7 GB.
//
// The bound is 20× the file's size in bytes allocated, schema validation
// included. The locators that indexed by pointer (this package's and
// schema's) allocated about 2,000× for this 2 MB file, 4 GB; these
// allocate about 9×.
func TestHostileDocumentBoundedMemory(t *testing.T) {
	const depth, keyLen, factor = 2000, 1000, 20
	var b strings.Builder
	b.WriteString(`{"mcpServers":{"s":{"env":`)
	for i := range depth {
		k := fmt.Sprintf("k%d", i)
		b.WriteString(`{"` + k + strings.Repeat("x", keyLen-len(k)) + `":`)
	}
	b.WriteString(`"v"` + strings.Repeat("}", depth) + `,"command":"./run"}}}`)
	data := []byte(b.String())

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fs, err := lint.Document("mcp_config.json", "mcp_config", data, lint.DocumentOptions{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	n := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes: %d allocated (%.1f×)", len(data), n, float64(n)/float64(len(data)))
	if limit := uint64(factor * len(data)); n > limit {
		t.Errorf("linting %d bytes allocated %d, over %d× its size", len(data), n, factor)
	}
	// The command after the deep part is still found, on its column.
	col := bytes.Index(data, []byte(`"./run"`)) + 1
	found := false
	for _, f := range fs {
		if f.Rule == "mcp/relative-command" {
			found = true
			if f.Line != 1 || f.Column != col || f.Pointer != "/mcpServers/s/command" {
				t.Errorf("%s at %d:%d %s, want 1:%d /mcpServers/s/command", f.Rule, f.Line, f.Column, f.Pointer, col)
			}
		}
	}
	if !found {
		t.Errorf("no mcp/relative-command finding in %v", fs)
	}
}

// BenchmarkDocumentMCPConfig lints a realistic 1 MB mcp_config.json, as
// validate does a file: schema, then the rules the schema cannot express.
func BenchmarkDocumentMCPConfig(b *testing.B) {
	data := mcpConfig(1 << 20)
	if fs, err := lint.Document("mcp_config.json", "mcp_config", data, lint.DocumentOptions{}); err != nil || len(fs) != 0 {
		b.Fatal(fs, err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lint.Document("mcp_config.json", "mcp_config", data, lint.DocumentOptions{}); err != nil {
			b.Fatal(err)
		}
	}
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

// TestManyFindingsBounded: one 100 KB server name and 200,000 unknown keys
// (2.4 MB) gave as many findings, each with a 100 KB pointer, and ran out
// of memory. validate lists at most MaxFindings a file and one that counts
// the rest, with pointers of at most schema.MaxPointerBytes.
func TestManyFindingsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"mcpServers":{"` + strings.Repeat("n", 100_000) + `":{"command":"./x"`)
	for i := range 200_000 {
		fmt.Fprintf(&b, `,"u%d":1`, i)
	}
	b.WriteString("}}}\n")
	fs, err := lint.Document("mcp_config.json", "mcp_config", []byte(b.String()), lint.DocumentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != lint.MaxFindings+1 || fs[len(fs)-1].Rule != "json/more-findings" && !slices.ContainsFunc(fs, func(f lint.Finding) bool { return f.Rule == "json/more-findings" }) {
		t.Fatalf("%d findings, want %d and one json/more-findings", len(fs), lint.MaxFindings+1)
	}
	for _, f := range fs {
		if len(f.Pointer) > schema.MaxPointerBytes {
			t.Fatalf("a pointer of %d bytes: %.100s", len(f.Pointer), f.Pointer)
		}
	}
}
