// Package trust reads agy's own record of the workspace folders it
// trusts (agy.WorkspaceTrust): in a folder it has not trusted, agy loads
// none of the workspace's files, so a workspace render warns.
package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonmerge"
	"github.com/agyconf/agyconf/internal/rulebook"
)

// maxRecord bounds the settings file read: agy's are kilobytes.
const maxRecord = 16 << 20

// Check reports whether agy trusts the workspace folder dir, by the record
// under home: dir, or a folder above it, listed in trustedWorkspaces. known
// is false when there is no record to read (no settings file: agy never
// ran as this user, or never asked), and err says why a record that is
// there cannot be read.
func Check(home, dir string) (trusted, known bool, err error) {
	t := agy.WorkspaceTrust()
	record := filepath.Join(home, filepath.FromSlash(t.File))
	data, err := confine.ReadFile(record, maxRecord)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil {
		return false, false, err
	}
	tree, err := jsonmerge.Read(data, jsonmerge.AgySyntax("cli-settings"))
	if err != nil {
		return false, false, fmt.Errorf("%s: %w", record, err)
	}
	top, _ := tree.Value().(map[string]any)
	list, _ := top[t.Key].([]any)
	want := canonical(dir)
	for _, x := range list {
		s, ok := x.(string)
		if !ok || s == "" {
			continue
		}
		got := canonical(s)
		if want == got || strings.HasPrefix(want, strings.TrimSuffix(got, string(filepath.Separator))+string(filepath.Separator)) {
			return true, true, nil
		}
	}
	return false, true, nil
}

// canonical is a folder's absolute path, its links resolved where they
// can be (agy records the folder it was started in).
func canonical(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	}
	return filepath.Clean(p)
}

// Diagnostic is the warning for a workspace agy does not trust, or nil:
// about this machine (rulebook's workspace/untrusted), and about no place
// in the config.
func Diagnostic(home, dir string) *hcl.Diagnostic {
	trusted, known, err := Check(home, dir)
	t := agy.WorkspaceTrust()
	switch {
	case err != nil:
		return &hcl.Diagnostic{Severity: hcl.DiagWarning,
			Summary: rulebook.Line("workspace/untrusted", fmt.Sprintf("cannot read agy's record of trusted folders (%v)", err)),
			Detail:  fmt.Sprintf("Whether agy trusts %s is unknown: %s.", dir, t.Summary),
			Extra:   rulebook.Tag{Rule: "workspace/untrusted", Machine: true}}
	case !known || trusted:
		return nil
	}
	return &hcl.Diagnostic{Severity: hcl.DiagWarning,
		Summary: rulebook.Line("workspace/untrusted", fmt.Sprintf("agy does not trust %s (not in %s of ~/%s)", dir, t.Key, t.File)),
		Detail:  fmt.Sprintf("%s; %s.", strings.ToUpper(t.Summary[:1])+t.Summary[1:], t.HowTo),
		Extra:   rulebook.Tag{Rule: "workspace/untrusted", Machine: true}}
}
