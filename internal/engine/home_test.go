package engine

import (
	"testing"

	"github.com/agyconf/agyconf/internal/testhome"
)

// TestMain runs the tests with HOME and the XDG folders pointing at a
// scratch home (testhome): they exercise the engine, whose default render root in global scope is the home, and must
// never read or write the user's.
func TestMain(m *testing.M) { testhome.Main(m) }
