package trust

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/rulebook"
)

func TestCheck(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	sub := filepath.Join(ws, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, known, err := Check(home, ws); known || err != nil {
		t.Errorf("no record: known %v, %v", known, err)
	}
	if d := Diagnostic(home, ws); d != nil {
		t.Errorf("no record, yet a warning: %s", d.Summary)
	}
	record := filepath.Join(home, ".gemini", "antigravity-cli", "settings.json")
	if err := os.MkdirAll(filepath.Dir(record), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(record, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"trustedWorkspaces": ["/elsewhere", 3]}`)
	if trusted, known, err := Check(home, ws); trusted || !known || err != nil {
		t.Errorf("not listed: trusted %v, known %v, %v", trusted, known, err)
	}
	d := Diagnostic(home, ws)
	if d == nil || d.Severity != hcl.DiagWarning || d.Subject != nil || rulebook.IDOf(d) != "workspace/untrusted" ||
		!strings.Contains(d.Summary, "agy does not trust "+ws) || !strings.Contains(d.Summary, " — start agy there once and accept its trust prompt") ||
		!strings.Contains(d.Detail, "trustedWorkspaces") {
		t.Errorf("warning: %#v", d)
	} else if m, ok := d.Extra.(interface{ MachineDependent() bool }); !ok || !m.MachineDependent() {
		t.Error("the trust warning is not about this machine")
	}
	write(`{"trustedWorkspaces": ["` + ws + `/"]}`)
	for _, d := range []string{ws, sub} {
		if trusted, _, _ := Check(home, d); !trusted {
			t.Errorf("%s: listed (or below a listed folder), not trusted", d)
		}
	}
	if trusted, _, _ := Check(home, ws+"-other"); trusted {
		t.Error("a folder whose name starts like a trusted one is trusted")
	}
	// Through a link: agy records the folder it was started in.
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(ws, link); err != nil {
		t.Fatal(err)
	}
	if trusted, _, _ := Check(home, link); !trusted {
		t.Error("a link to a trusted folder is not trusted")
	}
	write(`{"trustedWorkspaces": [`)
	if _, _, err := Check(home, ws); err == nil {
		t.Error("a record that does not parse: no error")
	}
}
