package codec

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/agyconf/agyconf/internal/model"
)

// genValue is a value as the decoder splits one: texts merged, an empty
// text only as the whole value, secrets in any position and escape level.
func genValue(r *rand.Rand, header bool) model.Str {
	words := []string{"Bearer ", "a=b", "--", ":", `{"k":"`, `"}`, "${X}", "%r/x", "tab\t"}
	if !header {
		words = append(words, "two\nlines")
	}
	paths := []string{"/run/secrets/a", "%r/agenix/b", "${XDG_RUNTIME_DIR}/c", "/p=q:r"}
	var v model.Str
	for range r.IntN(5) {
		if r.IntN(2) == 0 {
			t := words[r.IntN(len(words))]
			if len(v) > 0 && v[len(v)-1].SecretFile == "" {
				v[len(v)-1].Text += t
			} else {
				v = append(v, model.Part{Text: t})
			}
			continue
		}
		v = append(v, model.Part{SecretFile: paths[r.IntN(len(paths))], JSONEscape: r.IntN(3)})
	}
	if len(v) == 0 {
		v = model.Str{{Text: ""}}
	}
	return v
}

// TestWrapRoundTrip: import reads back what render wrote, through both
// wrappings, over random values of every form.
func TestWrapRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 1))
	for range 3000 {
		env, headers := map[string]model.Str{}, map[string]model.Str{}
		for _, k := range []string{"A", "TOKEN", "_x"}[:r.IntN(4)] {
			env[k] = genValue(r, false)
		}
		for _, k := range []string{"Authorization", "X-Api-Key", "x-b"}[:r.IntN(4)] {
			headers[k] = genValue(r, true)
		}
		args := []model.Str{Lit("--port"), Lit("--")}[:r.IntN(3)]
		gotEnv, cmd, rest, err := ReadExecEnv(literals(ExecEnvArgs(env, "/usr/bin/srv", args)))
		if err != nil || cmd != "/usr/bin/srv" || len(rest) != len(args) || !reflect.DeepEqual(gotEnv, env) {
			t.Fatalf("exec-env: %v %q %q\n%+v\nwant %+v", err, cmd, rest, gotEnv, env)
		}
		gotHeaders, url, err := ReadBridge(literals(BridgeArgs(headers, "https://x.example.com/mcp")))
		if err != nil || url != "https://x.example.com/mcp" || !reflect.DeepEqual(gotHeaders, headers) {
			t.Fatalf("bridge: %v %q\n%+v\nwant %+v", err, url, gotHeaders, headers)
		}
	}
	// The bridge sends names that differ in case as one header.
	h, _, err := ReadBridge([]string{"--header", "X-A=1", "--header-file", "x-a=/s", "--", "https://x"})
	if err != nil || !reflect.DeepEqual(h, map[string]model.Str{"X-A": {{Text: "1"}, {SecretFile: "/s"}}}) {
		t.Errorf("%+v %v", h, err)
	}
}

func literals(xs []model.Str) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i], _ = x.Literal()
	}
	return out
}
