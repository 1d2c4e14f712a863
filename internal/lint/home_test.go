package lint_test

import (
	"testing"

	"github.com/agyconf/agyconf/internal/testhome"
)

// TestMain runs the tests with HOME and the XDG folders pointing at a
// scratch home (testhome): they exercise the linter, which expands ~ in commands and rule includes to the home, and must
// never read or write the user's.
func TestMain(m *testing.M) { testhome.Main(m) }
