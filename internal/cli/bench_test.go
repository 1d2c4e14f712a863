package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchConfig writes a global config with n MCP servers, n/5 skills
// and n/10 hooks: at n = 1000, the 1,000 + 200 + 100 of the render target
// (docs/benchmarks.md; scripts/bench.sh compares with cp -r).
func writeBenchConfig(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	b.WriteString("agyconf {\n  scope = \"global\"\n}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "mcp_server \"srv-%05d\" {\n  command = \"server-%d\"\n  args    = [\"--port\", \"%d\", \"--verbose\"]\n}\n", i, i, 8000+i)
	}
	for i := 0; i < n/5; i++ {
		fmt.Fprintf(&b, "skill \"skill-%05d\" {\n  description = \"Skill number %d\"\n  body        = \"Step one.\\nStep two.\\nStep three for skill %d.\\n\"\n}\n", i, i, i)
	}
	for i := 0; i < n/10; i++ {
		fmt.Fprintf(&b, "hook \"hook-%05d\" {\n  pre_tool_use {\n    matcher = \"run_command\"\n    command = \"/usr/local/bin/check-%d\"\n    timeout = 5\n  }\n  stop {\n    command = \"/usr/local/bin/stop-%d\"\n  }\n}\n", i, i, i)
	}
	path := filepath.Join(tb.TempDir(), "agyconf.hcl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkRenderFresh runs the whole `agyconf render` — decode, render,
// schema checks, writes, state — into a fresh root each iteration.
func BenchmarkRenderFresh(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			cfg := writeBenchConfig(b, n)
			roots := b.TempDir()
			i := 0
			for b.Loop() {
				root := filepath.Join(roots, fmt.Sprint(i))
				i++
				if err := os.Mkdir(root, 0o755); err != nil {
					b.Fatal(err)
				}
				if code := Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("render exited %d", code)
				}
			}
		})
	}
}

// BenchmarkRenderIntoExisting is BenchmarkRenderFresh into roots whose
// mcp_config.json already holds a server of the user's: every server is
// then an entry merged into that file, the way most users start. Its
// growth from 1,000 to 4,000 entries should be about BenchmarkRenderFresh's
// (a walk of the whole document per entry made it 20 times).
func BenchmarkRenderIntoExisting(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			cfg := writeBenchConfig(b, n)
			roots := b.TempDir()
			i := 0
			for b.Loop() {
				root := filepath.Join(roots, fmt.Sprint(i))
				i++
				dir := filepath.Join(root, ".gemini", "config")
				if err := os.MkdirAll(dir, 0o755); err != nil {
					b.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "mcp_config.json"), []byte("{\n  // the user's own\n  \"mcpServers\": {\"mine\": {\"command\": \"/bin/true\"}}\n}\n"), 0o644); err != nil {
					b.Fatal(err)
				}
				if code := Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, io.Discard, io.Discard); code != 0 {
					b.Fatalf("render exited %d", code)
				}
			}
		})
	}
}

// BenchmarkRenderNoop renders into a root that is already up to date: the
// cost of a render that finds nothing to do.
func BenchmarkRenderNoop(b *testing.B) {
	cfg := writeBenchConfig(b, 1000)
	root := b.TempDir()
	if code := Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("render exited %d", code)
	}
	for b.Loop() {
		if code := Main([]string{"agyconf", "render", "--config", cfg, "--root", root}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("render exited %d", code)
		}
	}
}
