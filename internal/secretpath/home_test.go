package secretpath

import (
	"testing"

	"github.com/agyconf/agyconf/internal/testhome"
)

// TestMain runs the tests with HOME and the XDG folders pointing at a
// scratch home (testhome): paths expand to $XDG_RUNTIME_DIR, which must
// never be the user's.
func TestMain(m *testing.M) { testhome.Main(m) }
