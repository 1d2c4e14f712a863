package agyhook

import (
	"io"
	"strings"
	"testing"
)

// The in-process cost of the no-op paths, without process start-up;
// scripts/bench-agyhook.sh measures whole invocations.
func BenchmarkNoop(b *testing.B) {
	f := newFixture(b)
	stop := `{"conversationId":"bench","fullyIdle":true,"workspacePaths":["/w/p"],"terminationReason":"NO_TOOL_CALL"}`
	for _, c := range []struct {
		name, stdin string
		args        []string
	}{
		{"save-below-interval", stop, []string{"mempalace-save", "--interval", "1000000000"}},
		{"wake-invocation-5", `{"conversationId":"bench","invocationNum":5}`, []string{"mempalace-wake"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			env := f.env()
			for i := 0; i < b.N; i++ {
				Main(c.args, strings.NewReader(c.stdin), io.Discard, io.Discard, env)
			}
		})
	}
}
