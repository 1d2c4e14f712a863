package examples_test

import (
	"testing"

	"github.com/agyconf/agyconf/internal/testhome"
)

// TestMain runs the tests with HOME and the XDG folders pointing at a
// scratch home (testhome): they exercise agyconf's CLI (cli.Main), whose default config, state and render root are in a home, and must
// never read or write the user's.
func TestMain(m *testing.M) { testhome.Main(m) }
