package agyhook

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/schema"
)

// FuzzHookStdin feeds arbitrary stdin to both hooks in-process, with fake
// processes, and checks the contract agy relies on: exit 0 and exactly one
// JSON object that the event's stdout schema accepts; the save hook never
// answers a decision. "@T@" in the input becomes the path of a real
// transcript, so seeds can reach the spawn path.
func FuzzHookStdin(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `null`, `[]`, `{"conversationId":"c"}`,
		`{"conversationId":"c1","fullyIdle":true,"transcriptPath":"@T@","workspacePaths":["/w/My-Proj"]}`,
		`{"conversationId":"c2","fullyIdle":true,"terminationReason":"ERROR","transcriptPath":"@T@"}`,
		`{"conversationId":"c3","invocationNum":0,"workspacePaths":["/w/x"]}`,
		`{"conversationId":"c4","invocationNum":"1"}`,
		`{"conversationId":"../x","fullyIdle":true,"transcriptPath":"/etc/../etc/passwd.json"}`,
		`{"conversationId":"c5","invocationNum":-1e400}`,
		"{\"conversationId\":\"c6\",\"fullyIdle\":true,\"transcriptPath\":\"@T@\"}\x00",
	} {
		f.Add([]byte(s))
	}
	fx := newFixture(f)
	tr := fx.transcript()
	v, err := schema.NewValidator("hook-stdout-stop", "hook-stdout-pre-invocation")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := string(bytes.ReplaceAll(data, []byte("@T@"), []byte(tr)))
		for _, c := range []struct {
			event string
			args  []string
		}{
			{"Stop", []string{"mempalace-save", "--interval", "1"}},
			{"PreInvocation", []string{"mempalace-wake"}},
		} {
			out, _, code := fx.run(in, c.args...)
			if code != 0 {
				t.Fatalf("%s: exit %d", c.args[0], code)
			}
			checkAnswer(t, v, c.event, out)
			if c.event == "Stop" && out != "{}\n" {
				t.Fatalf("save answered %q", out)
			}
		}
	})
}

// checkAnswer asserts that out is one JSON object and a newline, valid for
// the event's stdout schema, with no decision in a Stop answer.
func checkAnswer(t testing.TB, v *schema.Validator, event, out string) {
	t.Helper()
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Fatalf("%s: not one line: %q", event, out)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]json.RawMessage
	if err := dec.Decode(&obj); err != nil || obj == nil {
		t.Fatalf("%s: not a JSON object: %q (%v)", event, out, err)
	}
	if dec.More() {
		t.Fatalf("%s: more than one value: %q", event, out)
	}
	if _, ok := obj["decision"]; ok && event == "Stop" {
		t.Fatalf("Stop answer has a decision: %q", out)
	}
	_, stdoutSchema := schema.HookContract(event)
	if err := v.ValidateJSON(stdoutSchema, []byte(out)); err != nil {
		t.Fatalf("%s: %q: %v", event, out, err)
	}
}
