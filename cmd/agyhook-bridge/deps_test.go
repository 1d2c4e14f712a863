package main_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps keeps agyhook-bridge's supply chain to the MCP Go SDK and what
// it brings: the module paths allowed beside the standard library and
// agyconf's own standard-library-only packages. A new module here is a
// decision, not an accident (docs/design.md, "agyhook and its bridge").
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	own := map[string]bool{
		"github.com/agyconf/agyconf/cmd/agyhook-bridge":  true,
		"github.com/agyconf/agyconf/internal/agyhook":    true,
		"github.com/agyconf/agyconf/internal/jsonesc":    true,
		"github.com/agyconf/agyconf/internal/secretargs": true,
		"github.com/agyconf/agyconf/internal/mcpbridge":  true,
		"github.com/agyconf/agyconf/internal/secretpath": true,
	}
	modules := []string{
		"github.com/modelcontextprotocol/go-sdk/",
		// The SDK's own dependencies.
		"github.com/google/jsonschema-go/",
		"github.com/segmentio/asm/",
		"github.com/segmentio/encoding/",
		"github.com/yosida95/uritemplate/",
		"golang.org/x/oauth2",
		"golang.org/x/sync/",
		"golang.org/x/sys/",
		"golang.org/x/time/",
	}
	sdk := false
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		if std == "true" || own[path] {
			continue
		}
		if strings.HasPrefix(path, "github.com/modelcontextprotocol/go-sdk/mcp") {
			sdk = true
		}
		ok := false
		for _, m := range modules {
			ok = ok || strings.HasPrefix(path, m)
		}
		if !ok {
			t.Errorf("agyhook-bridge depends on %s", path)
		}
	}
	if !sdk {
		t.Errorf("go list did not list the SDK: %s", out)
	}
}
