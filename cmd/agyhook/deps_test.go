package main_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStdlibOnly keeps agyhook's start-up cheap and its supply chain
// empty: nothing outside the standard library, internal/agyhook,
// internal/jsonesc, internal/secretargs and internal/secretpath (each
// standard-library-only itself: go list -deps lists what they import too).
func TestStdlibOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"github.com/agyconf/agyconf/cmd/agyhook":         true,
		"github.com/agyconf/agyconf/internal/agyhook":    true,
		"github.com/agyconf/agyconf/internal/jsonesc":    true,
		"github.com/agyconf/agyconf/internal/secretargs": true,
		"github.com/agyconf/agyconf/internal/secretpath": true,
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		n++
		if std != "true" && !allowed[path] {
			t.Errorf("cmd/agyhook depends on %s", path)
		}
	}
	if n < 10 {
		t.Errorf("go list gave %d packages: %s", n, out)
	}
}
