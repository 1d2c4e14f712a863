package schema_test

import (
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/schema"
)

// hookContractSchemas are the schemas of hook processes' stdin and stdout
// (the IDE's bundled hooks.md, probed by dotai, firstmate and sigil), two per event of agy's table. They describe no
// file, so they have no fixture folder under testdata/documents: the
// examples are inline below, plus the generic ones genericHookCases
// derives for every contract.
var hookContractSchemas = func() map[string]bool {
	out := map[string]bool{}
	for _, n := range schema.Names() {
		if strings.HasPrefix(n, "hook-stdin-") || strings.HasPrefix(n, "hook-stdout-") {
			out[n] = true
		}
	}
	return out
}()

// hookCase is one example: a document, whether it is valid, and for an
// invalid one the pointer and a part of the message of one finding.
type hookCase struct {
	schema, name, doc string
	valid             bool
	pointer, part     string
}

const (
	preToolUseStdin = `{
  "conversationId": "3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77",
  "workspacePaths": ["/home/me/src/project"],
  "transcriptPath": "/home/me/.gemini/antigravity-cli/brain/3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77/.system_generated/logs/transcript_full.jsonl",
  "artifactDirectoryPath": "/home/me/.gemini/antigravity-cli/brain/3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77",
  "modelName": "gemini-3-pro",
  "stepIdx": 4,
  "toolCall": {
    "name": "run_command",
    "args": {
      "CommandLine": "go test ./...",
      "Cwd": "/home/me/src/project",
      "WaitMsBeforeAsync": 500,
      "BypassSandbox": false,
      "toolAction": "Running tests",
      "toolSummary": "go test"
    }
  }
}`
	preInvocationStdin = `{
  "conversationId": "3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77",
  "workspacePaths": [],
  "transcriptPath": "/home/me/.gemini/antigravity-cli/brain/3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77/.system_generated/logs/transcript_full.jsonl",
  "artifactDirectoryPath": "/home/me/.gemini/antigravity-cli/brain/3f1c2a9e-7b1d-4c61-9a43-0d6a1e5b2c77",
  "modelName": "gemini-3-pro",
  "invocationNum": 0,
  "initialNumSteps": 1
}`
)

var hookCases = []hookCase{
	// stdin: PreToolUse
	{schema: "hook-stdin-pre-tool-use", name: "run_command PascalCase args", doc: preToolUseStdin, valid: true},
	{schema: "hook-stdin-pre-tool-use", name: "write_to_file and an unknown arg", valid: true,
		doc: `{"conversationId":"c","stepIdx":0,"toolCall":{"name":"write_to_file","args":{"TargetFile":"/tmp/x","CodeContent":"hi","Overwrite":true,"Description":"d","SomeNewArg":{"x":1}}}}`},
	{schema: "hook-stdin-pre-tool-use", name: "a field agy adds later", valid: true,
		doc: `{"conversationId":"c","toolCall":{"name":"view_file","args":{"AbsolutePath":"/x"}},"newField":1}`},
	{schema: "hook-stdin-pre-tool-use", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":42,"toolCall":{"name":"run_command"}}`},
	{schema: "hook-stdin-pre-tool-use", name: "no toolCall", pointer: "", part: "toolCall",
		doc: `{"conversationId":"c","stepIdx":1}`},
	{schema: "hook-stdin-pre-tool-use", name: "CommandLine not a string", pointer: "/toolCall/args/CommandLine", part: "want string",
		doc: `{"conversationId":"c","toolCall":{"name":"run_command","args":{"CommandLine":["ls"]}}}`},
	{schema: "hook-stdin-pre-tool-use", name: "negative stepIdx", pointer: "/stepIdx", part: "minimum",
		doc: `{"conversationId":"c","stepIdx":-1,"toolCall":{"name":"run_command"}}`},

	// stdin: PostToolUse
	{schema: "hook-stdin-post-tool-use", name: "null toolCall", valid: true,
		doc: `{"conversationId":"c","workspacePaths":[],"stepIdx":5,"toolCall":null,"error":""}`},
	{schema: "hook-stdin-post-tool-use", name: "toolCall and error", valid: true,
		doc: `{"conversationId":"c","stepIdx":5,"toolCall":{"name":"run_command","args":{"CommandLine":"false"}},"error":"exit status 1"}`},
	{schema: "hook-stdin-post-tool-use", name: "error not a string", pointer: "/error", part: "want string",
		doc: `{"conversationId":"c","error":true}`},
	{schema: "hook-stdin-post-tool-use", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":null}`},

	// stdin: PreInvocation
	{schema: "hook-stdin-pre-invocation", name: "first call, invocationNum 0", doc: preInvocationStdin, valid: true},
	{schema: "hook-stdin-pre-invocation", name: "invocationNum -1", pointer: "/invocationNum", part: "minimum",
		doc: `{"conversationId":"c","invocationNum":-1,"initialNumSteps":1}`},
	{schema: "hook-stdin-pre-invocation", name: "invocationNum a fraction", pointer: "/invocationNum", part: "want integer",
		doc: `{"conversationId":"c","invocationNum":0.5}`},
	{schema: "hook-stdin-pre-invocation", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":["c"],"invocationNum":0}`},

	// stdin: PostInvocation
	{schema: "hook-stdin-post-invocation", name: "fixture fields", valid: true,
		doc: `{"conversationId":"c","invocationNum":0,"modelName":"m"}`},
	{schema: "hook-stdin-post-invocation", name: "invocationNum -1", pointer: "/invocationNum", part: "minimum",
		doc: `{"conversationId":"c","invocationNum":-1}`},
	{schema: "hook-stdin-post-invocation", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":1}`},

	// stdin: Stop
	{schema: "hook-stdin-stop", name: "agent ended on its own", valid: true,
		doc: `{"conversationId":"c","workspacePaths":["/w"],"modelName":"m","executionNum":0,"terminationReason":"NO_TOOL_CALL","error":"","fullyIdle":true}`},
	{schema: "hook-stdin-stop", name: "documented lower-case reason", valid: true,
		doc: `{"conversationId":"c","terminationReason":"max_steps_exceeded","fullyIdle":false}`},
	{schema: "hook-stdin-stop", name: "fullyIdle a string", pointer: "/fullyIdle", part: "want boolean",
		doc: `{"conversationId":"c","fullyIdle":"true"}`},
	{schema: "hook-stdin-stop", name: "no fullyIdle", pointer: "", part: "fullyIdle",
		doc: `{"conversationId":"c","executionNum":0}`},
	{schema: "hook-stdin-stop", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":false,"fullyIdle":true}`},

	// stdin: SessionStart
	{schema: "hook-stdin-session-start", name: "common fields", valid: true,
		doc: `{"conversationId":"c","workspacePaths":["/w"],"transcriptPath":"/t","artifactDirectoryPath":"/a","modelName":"m","source":"startup"}`},
	{schema: "hook-stdin-session-start", name: "workspacePaths not an array", pointer: "/workspacePaths", part: "want array",
		doc: `{"conversationId":"c","workspacePaths":"/w"}`},
	{schema: "hook-stdin-session-start", name: "non-string conversationId", pointer: "/conversationId", part: "want string",
		doc: `{"conversationId":{}}`},
	{schema: "hook-stdin-session-start", name: "no conversationId", pointer: "", part: "conversationId",
		doc: `{"modelName":"m"}`},

	// stdout: PreToolUse
	{schema: "hook-stdout-pre-tool-use", name: "deny with reason", valid: true, doc: `{"decision":"deny","reason":"rm -rf is not allowed here"}`},
	{schema: "hook-stdout-pre-tool-use", name: "ask", valid: true, doc: `{"decision":"ask"}`},
	{schema: "hook-stdout-pre-tool-use", name: "deny_unless_prior_grant", valid: true, doc: `{"decision":"deny_unless_prior_grant","reason":"r"}`},
	{schema: "hook-stdout-pre-tool-use", name: "legacy deny", valid: true, doc: `{"allow_tool":false,"deny_reason":"no"}`},
	{schema: "hook-stdout-pre-tool-use", name: "overwrite", valid: true, doc: `{"decision":"allow","overwrite":{"CommandLine":"ls"}}`},
	{schema: "hook-stdout-pre-tool-use", name: "permissionOverrides", valid: true, doc: `{"decision":"ask","reason":"r","permissionOverrides":["command(npm test)"]}`},
	{schema: "hook-stdout-pre-tool-use", name: "permissionOverrides not strings", pointer: "/permissionOverrides/0", part: "want string",
		doc: `{"decision":"allow","permissionOverrides":[{"command":"npm test"}]}`},
	{schema: "hook-stdout-pre-tool-use", name: "overwrite not an object", pointer: "/overwrite", part: "want object",
		doc: `{"decision":"allow","overwrite":"ls"}`},
	{schema: "hook-stdout-pre-tool-use", name: "no decision", pointer: "", part: "decision",
		doc: `{"reason":"r"}`},
	{schema: "hook-stdout-pre-tool-use", name: "empty decision", pointer: "/decision", part: "must be one of",
		doc: `{"decision":""}`},
	{schema: "hook-stdout-pre-tool-use", name: "decision block", pointer: "/decision", part: "must be one of",
		doc: `{"decision":"block","reason":"r"}`},
	{schema: "hook-stdout-pre-tool-use", name: "unknown top-level key", pointer: "/continue", part: `key "continue" is not allowed`,
		doc: `{"decision":"allow","continue":true}`},
	{schema: "hook-stdout-pre-tool-use", name: "allow_tool a string", pointer: "/allow_tool", part: "want boolean",
		doc: `{"allow_tool":"false"}`},

	// stdout: PostToolUse
	{schema: "hook-stdout-post-tool-use", name: "decision is not honoured", pointer: "/decision", part: `key "decision" is not allowed`,
		doc: `{"decision":"deny"}`},
	{schema: "hook-stdout-post-tool-use", name: "unknown top-level key", pointer: "/continue", part: `key "continue" is not allowed`,
		doc: `{"continue":true}`},

	// stdout: PreInvocation
	{schema: "hook-stdout-pre-invocation", name: "ephemeral message", valid: true, doc: `{"injectSteps":[{"ephemeralMessage":"remember the plan"}]}`},
	{schema: "hook-stdout-pre-invocation", name: "empty injectSteps", valid: true, doc: `{"injectSteps":[]}`},
	{schema: "hook-stdout-pre-invocation", name: "every step kind", valid: true,
		doc: `{"injectSteps":[{"userMessage":"u"},{"systemMessage":{"systemMessage":"s","metadata":{"user_markdown":"m"}}}],"terminationBehavior":""}`},
	{schema: "hook-stdout-pre-invocation", name: "toolCall step", pointer: "/injectSteps/0/toolCall", part: "toolCall steps do not work",
		doc: `{"injectSteps":[{"toolCall":{"name":"run_command","args":{}}}]}`},
	{schema: "hook-stdout-pre-invocation", name: "two kinds in one step", pointer: "/injectSteps/0", part: "maxProperties",
		doc: `{"injectSteps":[{"ephemeralMessage":"a","userMessage":"b"}]}`},
	{schema: "hook-stdout-pre-invocation", name: "empty step", pointer: "/injectSteps/0", part: "minProperties",
		doc: `{"injectSteps":[{}]}`},
	{schema: "hook-stdout-pre-invocation", name: "unknown top-level key", pointer: "/systemMessage", part: `key "systemMessage" is not allowed`,
		doc: `{"systemMessage":"s"}`},
	{schema: "hook-stdout-pre-invocation", name: "decision is not honoured", pointer: "/decision", part: `key "decision" is not allowed`,
		doc: `{"decision":"deny"}`},

	// stdout: PostInvocation
	{schema: "hook-stdout-post-invocation", name: "force_continue", valid: true, doc: `{"injectSteps":[{"ephemeralMessage":"keep going"}],"terminationBehavior":"force_continue"}`},
	{schema: "hook-stdout-post-invocation", name: "terminate", valid: true, doc: `{"injectSteps":[],"terminationBehavior":"terminate"}`},
	{schema: "hook-stdout-post-invocation", name: "unknown terminationBehavior", pointer: "/terminationBehavior", part: "must be one of",
		doc: `{"terminationBehavior":"stop"}`},
	{schema: "hook-stdout-post-invocation", name: "toolCall step", pointer: "/injectSteps/1/toolCall", part: "toolCall steps do not work",
		doc: `{"injectSteps":[{"ephemeralMessage":"a"},{"toolCall":{}}]}`},
	{schema: "hook-stdout-post-invocation", name: "unknown top-level key", pointer: "/continue", part: `key "continue" is not allowed`,
		doc: `{"continue":true}`},

	// stdout: Stop
	{schema: "hook-stdout-stop", name: "continue (valid; hook-test flags it)", valid: true, doc: `{"decision":"continue","reason":"the tests still fail; fix them"}`},
	{schema: "hook-stdout-stop", name: "allow", valid: true, doc: `{"decision":"allow"}`},
	{schema: "hook-stdout-stop", name: "decision block", pointer: "/decision", part: "must be one of",
		doc: `{"decision":"block","reason":"r"}`},
	{schema: "hook-stdout-stop", name: "unknown top-level key", pointer: "/continue", part: `key "continue" is not allowed`,
		doc: `{"continue":true}`},

	// stdout: SessionStart
	{schema: "hook-stdout-session-start", name: "ephemeral message", valid: true, doc: `{"injectSteps":[{"ephemeralMessage":"project context"}]}`},
	{schema: "hook-stdout-session-start", name: "terminationBehavior not honoured", pointer: "/terminationBehavior", part: `key "terminationBehavior" is not allowed`,
		doc: `{"terminationBehavior":"force_continue"}`},
	{schema: "hook-stdout-session-start", name: "toolCall step", pointer: "/injectSteps/0/toolCall", part: "toolCall steps do not work",
		doc: `{"injectSteps":[{"toolCall":{}}]}`},
	{schema: "hook-stdout-session-start", name: "systemMessage a bare string", pointer: "/injectSteps/0/systemMessage", part: "want object",
		doc: `{"injectSteps":[{"systemMessage":"s"}]}`},
}

func hookContractNames() []string {
	var names []string
	for n := range hookContractSchemas {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// genericHookCases are what every contract is checked with, whatever its
// event: a stdin contract accepts its own example (hook test sends it) and
// refuses it with a conversationId that is not a string; a stdout contract
// is closed, so it refuses a field agy does not honour.
func genericHookCases(t *testing.T) []hookCase {
	var out []hookCase
	for _, n := range hookContractNames() {
		if strings.HasPrefix(n, "hook-stdout-") {
			out = append(out, hookCase{schema: n, name: "generic: a field agy does not honour", doc: `{"notHonoured": true}`, pointer: "/notHonoured", part: "not allowed"})
			continue
		}
		ex, err := schema.Example(n)
		if err != nil {
			t.Fatalf("%s: %v (a stdin contract carries an example payload, which hook test sends)", n, err)
		}
		good, _ := json.Marshal(ex)
		ex["conversationId"] = 5
		bad, _ := json.Marshal(ex)
		out = append(out,
			hookCase{schema: n, name: "generic: its own example", doc: string(good), valid: true},
			hookCase{schema: n, name: "generic: conversationId a number", doc: string(bad), pointer: "/conversationId", part: "string"})
	}
	return out
}

func TestHookContractExamples(t *testing.T) {
	v, err := schema.NewValidator(hookContractNames()...)
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string][2]int{}
	for _, c := range append(append([]hookCase(nil), hookCases...), genericHookCases(t)...) {
		t.Run(c.schema+"/"+c.name, func(t *testing.T) {
			if !hookContractSchemas[c.schema] {
				t.Fatalf("%s is not a hook contract schema", c.schema)
			}
			err := v.ValidateJSON(c.schema, []byte(c.doc))
			if c.valid {
				if err != nil {
					t.Errorf("want valid, got %v", err)
				}
				return
			}
			var de *schema.DocumentError
			if !errors.As(err, &de) {
				t.Fatalf("want findings, got %v", err)
			}
			for _, f := range de.Findings {
				if f.Pointer == c.pointer && strings.Contains(f.Message, c.part) {
					return
				}
			}
			t.Errorf("no finding at %q containing %q; got %v", c.pointer, c.part, err)
		})
		n := covered[c.schema]
		if c.valid {
			n[0]++
		} else {
			n[1]++
		}
		covered[c.schema] = n
	}
	for _, name := range hookContractNames() {
		if n := covered[name]; n[1] == 0 || n[0] == 0 && strings.HasPrefix(name, "hook-stdin-") {
			t.Errorf("%s: want valid and invalid examples, have %d and %d", name, n[0], n[1])
		}
	}
}

// TestHookStdoutEmpty: {} asks for nothing and is valid output for every
// event but PreToolUse, whose answer needs a decision (the IDE's bundled
// docs mark it required, and builds differ on what they do without one).
func TestHookStdoutEmpty(t *testing.T) {
	for _, ev := range agy.EventNames() {
		_, stdout := schema.HookContract(string(ev))
		err := schema.ValidateJSON(stdout, []byte(`{}`))
		switch {
		case ev == agy.PreToolUse && err == nil:
			t.Errorf("%s: {} is valid, want a decision required", ev)
		case ev != agy.PreToolUse && err != nil:
			t.Errorf("%s: {}: %v", ev, err)
		}
	}
}

func TestHookContract(t *testing.T) {
	seen := map[string]bool{}
	for _, ev := range agy.EventNames() {
		stdin, stdout := schema.HookContract(string(ev))
		for _, n := range []string{stdin, stdout} {
			if !hookContractSchemas[n] {
				t.Errorf("HookContract(%s) names %q, not a hook contract schema", ev, n)
			}
			if _, err := schema.Source(n); err != nil {
				t.Errorf("HookContract(%s): %v", ev, err)
			}
			seen[n] = true
		}
		if !strings.HasPrefix(stdin, "hook-stdin-") || !strings.HasPrefix(stdout, "hook-stdout-") {
			t.Errorf("HookContract(%s) = %q, %q", ev, stdin, stdout)
		}
	}
	if len(seen) != len(hookContractSchemas) {
		t.Errorf("HookContract names %d schemas, want all %d hook contracts", len(seen), len(hookContractSchemas))
	}
	for _, ev := range []string{"", "pretooluse", "SessionEnd", "hooks"} {
		if a, b := schema.HookContract(ev); a != "" || b != "" {
			t.Errorf("HookContract(%q) = %q, %q, want empty", ev, a, b)
		}
	}
}

// TestHookContractSchemasDescribed: the header and a description on
// every property, as for the document schemas; stdout schemas are closed
// (unknown fields may fail the tool: Gobby) and stdin schemas
// open (agy adds fields between releases).
func TestHookContractSchemasDescribed(t *testing.T) {
	for _, name := range hookContractNames() {
		checkDescribed(t, name)
		src, err := schema.Source(name)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(src, &doc); err != nil {
			t.Fatal(err)
		}
		ap, set := doc["additionalProperties"]
		switch {
		case strings.HasPrefix(name, "hook-stdout-") && ap != false:
			t.Errorf("%s: additionalProperties is %v, want false", name, ap)
		case strings.HasPrefix(name, "hook-stdin-") && set:
			t.Errorf("%s: additionalProperties is set, want stdin open", name)
		}
	}
}
