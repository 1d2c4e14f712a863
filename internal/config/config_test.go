package config

import (
	"flag"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/model"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the decoder's output")

// load decodes the config at path with a fresh parser.
func load(t *testing.T, path string) (*model.Config, hcl.Diagnostics) {
	t.Helper()
	return NewParser().LoadConfig(path)
}

// diagString is a one-line rendering of a diagnostic for failure messages.
func diagString(d *hcl.Diagnostic) string {
	sev := "ERROR"
	if d.Severity == hcl.DiagWarning {
		sev = "WARNING"
	}
	if d.Subject == nil {
		return sev + " (no subject): " + d.Summary + ": " + d.Detail
	}
	return d.Subject.String() + ": " + sev + ": " + d.Summary + ": " + d.Detail
}
