package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/agy"
	"github.com/agyconf/agyconf/internal/lint"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/render"
)

// TestCheckAsText: Check, which checks a JSON document as the value it
// holds and reads its text only when there are findings, reports what
// checking the text reports, document by document: documents with no
// findings, with findings the value shows, and with raw JSON whose text
// holds what its value does not (a repeated key, invalid UTF-8).
func TestCheckAsText(t *testing.T) {
	docs := []*render.Document{
		{Path: ".gemini/config/mcp_config.json", Schema: "mcp_config", JSON: map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": model.Str{{Text: "/bin/a"}}}}}},
		{Path: ".gemini/config/mcp_config.json", Schema: "mcp_config", JSON: map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": "./rel", "bogus": 1}}}},
		{Path: ".gemini/config/mcp_config.json", Schema: "mcp_config", JSON: map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": "/bin/a", "args": []any{json.RawMessage("\"\xff\"")}}}}},
		{Path: ".gemini/antigravity-cli/settings.json", Schema: "cli-settings", JSON: map[string]any{"futureKnob": json.RawMessage(`{"x":1,"x":2}`)}},
		{Path: ".gemini/antigravity-cli/settings.json", Schema: "cli-settings", JSON: map[string]any{"futureKnob": json.RawMessage(`{"x":1}`)}},
		{Path: ".gemini/config/hooks.json", Schema: "hooks", JSON: map[string]any{"h": map[string]any{"PreToolUse": []any{map[string]any{"matcher": "Bash", "hooks": []any{map[string]any{"type": "command", "command": "x"}}}}}}},
		{Path: ".gemini/config/hooks.json", Schema: "hooks", JSON: map[string]any{"enabled": true}},
	}
	for i, d := range docs {
		got := diagsText(Check(&render.Plan{Documents: []*render.Document{d}}, agy.Version{}))
		text, err := d.Bytes(render.Redact)
		if err != nil {
			t.Fatal(err)
		}
		findings, err := lint.NewDocumentChecker().Check(d.Path, d.Schema, text, lint.DocumentOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range findings {
			if !decoderReports(f.Rule) {
				want = append(want, fmt.Sprint(findingDiag(d, f)))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("document %d (%s): Check gives\n%v\nthe text gives\n%v", i, text, got, want)
		}
		if i == 2 || i == 3 {
			if len(want) == 0 {
				t.Errorf("document %d: the text check found nothing; the case tests nothing", i)
			}
		}
	}
}

func diagsText(ds hcl.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprint(d))
	}
	return out
}
