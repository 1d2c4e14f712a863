package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// nestCase builds prefix + open×n + mid + close×n + suffix: n levels of one
// construct that makes hcl's parser or evaluator recurse. refuse is the
// smallest n refused (worked out by hand from the rules of MaxNesting, so
// that the test checks them rather than the code), and tok the text, in
// the last open, of the token the error points at.
type nestCase struct {
	name                             string
	ext                              string
	prefix, open, mid, close, suffix string
	refuse                           int
	tok                              string
	valid                            bool // n = refuse-1 decodes without any diagnostic
}

func (c nestCase) src(n int) []byte {
	return []byte(c.prefix + strings.Repeat(c.open, n) + c.mid + strings.Repeat(c.close, n) + c.suffix)
}

// at is the offset of the token the error must point at, and its position
// (every case is ASCII, so a column is a byte).
func (c nestCase) at() (int, hcl.Pos) {
	off := len(c.prefix) + (c.refuse-1)*len(c.open) + strings.Index(c.open, c.tok)
	src := c.src(c.refuse)[:off]
	line := 1 + bytes.Count(src, []byte("\n"))
	col := off - bytes.LastIndexByte(src, '\n')
	return off, hcl.Pos{Line: line, Column: col, Byte: off}
}

// In native syntax k's value sits in the settings block, level 1, so its
// first level is 2: 127 parentheses fit, the 128th is refused. In JSON the
// root object is level 1 and settings 2, so k's value starts at 3 and a
// string adds one more before its ${.
const (
	hclK  = "settings {\n  k = "
	hclE  = "\n}\n"
	jsonK = `{"settings": {"k": `
	jsonE = `}}`
	jsonS = `{"settings": {"k": "`
	jsonT = `"}}`
)

var nestCases = []nestCase{
	{name: "parentheses", ext: ".hcl", prefix: hclK, open: "(", mid: "1", close: ")", suffix: hclE, refuse: 128, tok: "(", valid: true},
	{name: "brackets", ext: ".hcl", prefix: hclK, open: "[", mid: "1", close: "]", suffix: hclE, refuse: 128, tok: "[", valid: true},
	{name: "objects", ext: ".hcl", prefix: hclK, open: "{a = ", mid: "1", close: "}", suffix: hclE, refuse: 128, tok: "{", valid: true},
	{name: "calls", ext: ".hcl", prefix: hclK, open: "abspath(", mid: "1", close: ")", suffix: hclE, refuse: 128, tok: "(", valid: true},
	// A quote and a ${ are two levels.
	{name: "interpolations", ext: ".hcl", prefix: hclK, open: `"${`, mid: "1", close: `}"`, suffix: hclE, refuse: 64, tok: "${", valid: true},
	// The quote is level 2; the k-th %{if} is level k+2.
	{name: "if-directives", ext: ".hcl", prefix: hclK + `"`, open: "%{if true}", mid: "x", close: "%{endif}", suffix: `"` + hclE, refuse: 127, tok: "%{", valid: true},
	// for's collection [1] after "in" counts as an index, so its [ is two
	// levels inside the %{.
	{name: "for-directives", ext: ".hcl", prefix: hclK + `"`, open: "%{for x in [1]}", mid: "x", close: "%{endfor}", suffix: `"` + hclE, refuse: 125, tok: "[", valid: false}, // a loop: refused as one (loops.go)
	{name: "heredocs", ext: ".hcl", prefix: hclK, open: "<<EOT\n${", mid: "1", close: "}\nEOT\n", suffix: "}\n", refuse: 64, tok: "${", valid: true},
	// Operators: the k-th is level k+1.
	{name: "not", ext: ".hcl", prefix: hclK, open: "!", mid: "true", suffix: hclE, refuse: 128, tok: "!", valid: true},
	{name: "negation", ext: ".hcl", prefix: hclK, open: "- ", mid: "1", suffix: hclE, refuse: 128, tok: "-", valid: true},
	{name: "conditional-false", ext: ".hcl", prefix: hclK, open: "true ? 1 : ", mid: "1", suffix: hclE, refuse: 128, tok: "?", valid: true},
	{name: "conditional-true", ext: ".hcl", prefix: hclK, open: "true ? ", mid: "1", close: " : 1", suffix: hclE, refuse: 128, tok: "?", valid: true},
	{name: "sum", ext: ".hcl", prefix: hclK, open: "1 + ", mid: "1", suffix: hclE, refuse: 128, tok: "+", valid: true},
	{name: "and", ext: ".hcl", prefix: hclK, open: "true && ", mid: "true", suffix: hclE, refuse: 128, tok: "&&", valid: true},
	{name: "attributes", ext: ".hcl", prefix: hclK + "{a = 1}", open: ".a", suffix: hclE, refuse: 128, tok: "."},
	// An index is an operator and a bracket: the k-th [ is level k+2.
	{name: "indexes", ext: ".hcl", prefix: hclK + "[1]", open: "[0]", suffix: hclE, refuse: 127, tok: "["},
	// [*] adds its * inside the bracket.
	{name: "splats", ext: ".hcl", prefix: hclK + "[1]", open: "[*]", suffix: hclE, refuse: 126, tok: "*"},
	// The collection [1] after "in" counts as an index: two levels a for.
	{name: "for-expressions", ext: ".hcl", prefix: hclK, open: "[for x in [1] : ", mid: "x", close: "]", suffix: hclE, refuse: 64, tok: "[1", valid: false}, // a loop: refused as one (loops.go)
	// At the top level a block is level 1.
	{name: "blocks", ext: ".hcl", open: "b {\n", close: "}\n", refuse: 129, tok: "{"},

	{name: "arrays", ext: ".json", prefix: jsonK, open: "[", mid: "1", close: "]", suffix: jsonE, refuse: 127, tok: "[", valid: true},
	// The k-th object is level k+2 and its key k+3.
	{name: "objects", ext: ".json", prefix: jsonK, open: `{"a": `, mid: "1", close: "}", suffix: jsonE, refuse: 126, tok: `"a"`, valid: true},
	// The string is level 3; then ${ and " alternate.
	{name: "interpolations", ext: ".json", prefix: jsonS, open: `${\"`, mid: "1", close: `\"}`, suffix: jsonT, refuse: 63, tok: `\"`, valid: true},
	{name: "parentheses", ext: ".json", prefix: jsonS + "${", open: "(", mid: "1", close: ")", suffix: "}" + jsonT, refuse: 125, tok: "(", valid: true},
	{name: "not", ext: ".json", prefix: jsonS + "${", open: "!", mid: "true", suffix: "}" + jsonT, refuse: 125, tok: "!", valid: true},
	{name: "conditional", ext: ".json", prefix: jsonS + "${", open: "true ? 1 : ", mid: "1", suffix: "}" + jsonT, refuse: 125, tok: "?", valid: true},
	{name: "sum", ext: ".json", prefix: jsonS + "${", open: "1 + ", mid: "1", suffix: "}" + jsonT, refuse: 125, tok: "+", valid: true},
	{name: "if-directives", ext: ".json", prefix: jsonS, open: "%{if true}", mid: "x", close: "%{endif}", suffix: jsonT, refuse: 126, tok: "%{", valid: true},
	{name: "heredocs", ext: ".json", prefix: jsonS + "${", open: `<<EOT\n${`, mid: "1", close: `}\nEOT\n`, suffix: "}" + jsonT, refuse: 63, tok: "<<", valid: true},
	// A key of an object value is a template too: the string is level 4.
	{name: "keys", ext: ".json", prefix: jsonK + `{"${`, open: "(", mid: "1", close: ")", suffix: `}": 1}` + jsonE, refuse: 124, tok: "(", valid: true},
	// An escape can spell ${: \u0024{ is ${ once JSON has read the string.
	{name: "escaped-interpolations", ext: ".json", prefix: jsonS, open: `\u0024{\"`, mid: "1", close: `\"}`, suffix: jsonT, refuse: 63, tok: `\"`, valid: true},
}

func parseNested(t *testing.T, c nestCase, data []byte) hcl.Diagnostics {
	t.Helper()
	filename := filepath.Join(t.TempDir(), "nest"+c.ext)
	f, diags := NewParser().ParseBytes(data, filename)
	if diags.HasErrors() {
		return diags
	}
	_, ddiags := Decode([]hcl.Body{f.Body})
	return append(diags, ddiags...)
}

// TestNestingLimit checks, for every construct that recurses, that
// MaxNesting levels decode and one more is refused at the token that
// passes the limit, with nothing else reported.
func TestNestingLimit(t *testing.T) {
	for _, c := range nestCases {
		t.Run(c.ext[1:]+"/"+c.name, func(t *testing.T) {
			for _, d := range parseNested(t, c, c.src(c.refuse-1)) {
				if d.Summary == "Nesting too deep" || c.valid {
					t.Errorf("%d levels: %s", c.refuse-1, diagString(d))
				}
			}
			_, want := c.at()
			diags := parseNested(t, c, c.src(c.refuse))
			if len(diags) != 1 || diags[0].Summary != "Nesting too deep" || diags[0].Subject.Start != want {
				t.Fatalf("%d levels: want one %q at %d:%d (byte %d), got %v", c.refuse, "Nesting too deep", want.Line, want.Column, want.Byte, diags)
			}
			if !strings.Contains(diags[0].Detail, "128 levels") {
				t.Errorf("detail does not name the limit: %s", diags[0].Detail)
			}
		})
	}
}

// TestNestingHuge feeds the inputs that used to end in "fatal error: stack
// overflow" (a 180 KB file of parentheses, 200,000 nested JSON arrays,
// 100,000 ${ in one JSON string, long operator chains) through ParseBytes
// and Decode in this process: each must come back, quickly, with the
// error at the token that passed the limit.
func TestNestingHuge(t *testing.T) {
	huge := map[string]int{
		"hcl/parentheses":       90000,
		"hcl/brackets":          200000,
		"hcl/interpolations":    100000,
		"hcl/if-directives":     200000,
		"hcl/heredocs":          100000,
		"hcl/not":               1000000,
		"hcl/conditional-false": 200000,
		"hcl/sum":               1000000,
		"hcl/splats":            200000,
		"hcl/blocks":            200000,
		"json/arrays":           200000,
		"json/objects":          200000,
		"json/interpolations":   100000,
		"json/not":              1000000,
		"json/keys":             200000,
	}
	for _, c := range nestCases {
		name := c.ext[1:] + "/" + c.name
		n, ok := huge[name]
		if !ok {
			continue
		}
		delete(huge, name)
		t.Run(name, func(t *testing.T) {
			data := c.src(n)
			start := time.Now()
			diags := parseNested(t, c, data)
			t.Logf("%d levels, %d bytes: %v (BenchmarkDepthScan measures; a hang is the test timeout's)", n, len(data), time.Since(start))
			_, want := c.at()
			if len(diags) != 1 || diags[0].Summary != "Nesting too deep" || diags[0].Subject.Start != want {
				t.Fatalf("want one %q at %d:%d, got %v", "Nesting too deep", want.Line, want.Column, diags)
			}
		})
	}
	for name := range huge {
		t.Errorf("no case %s", name)
	}
}

// TestNestingBound checks, on the cases and on ordinary inputs, that the
// byte-level bound never says less than the token walk it stands in for.
func TestNestingBound(t *testing.T) {
	var inputs [][]byte
	for _, c := range nestCases {
		if c.ext == ".hcl" {
			inputs = append(inputs, c.src(c.refuse-1), c.src(c.refuse))
		}
	}
	for _, s := range hclBoundSeeds {
		inputs = append(inputs, []byte(s))
	}
	for _, data := range inputs {
		checkBound(t, data)
	}
}

// FuzzNesting checks the nesting check against the plain walk over all of
// hclsyntax's tokens that it stands for, at small limits so that short
// inputs pass them: the byte-level bound must never say less than the
// tokens, and the check (which may lex only a prefix) must refuse exactly
// what the whole file's tokens refuse, at the same token; in native
// syntax and in template mode, as HCL reads a JSON string. JSON input
// must merely never panic.
//
//	go test -run='^$' -fuzz='^FuzzNesting$' -fuzztime=3m ./internal/config/
func FuzzNesting(f *testing.F) {
	for _, s := range hclBoundSeeds {
		f.Add([]byte(s), uint8(3), uint8(5))
	}
	for _, c := range nestCases {
		f.Add(c.src(6), uint8(4), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, depth, window uint8) {
		l := nestLimits{depth: 1 + int(depth%16), window: 1 + int(window)}
		l.check(data, "fuzz.json", 0)
		if !utf8.Valid(data) || bytes.HasPrefix(data, utf8BOM) {
			return // checkBytes refuses these before
		}
		if bytes.HasPrefix(data, []byte(`"`)) && !bytes.HasSuffix(data, []byte(" ")) && bytes.IndexFunc(data, func(r rune) bool { return r < 0x20 }) < 0 {
			// data as a JSON string token (which starts with its quote and
			// holds no control byte): decoded as encoding/json does.
			var s string
			err := json.Unmarshal(data, &s)
			if got, ok := jsonStringContent(data); ok != (err == nil) || ok && string(got) != s {
				t.Fatalf("jsonStringContent = %q, %v; encoding/json: %q, %v", got, ok, s, err)
			}
		}
		for _, mode := range []struct {
			root frame
			lex  func([]byte, string, hcl.Pos) (hclsyntax.Tokens, hcl.Diagnostics)
		}{
			{frame{kind: kBody, newlineEnds: true}, hclsyntax.LexConfig},
			{frame{kind: kTemplate, level: 1}, hclsyntax.LexTemplate},
		} {
			toks, _ := mode.lex(data, "fuzz.hcl", hcl.InitialPos)
			if quick, _, ok := quickNesting(&nesting{}, data, mode.root, math.MaxInt); ok {
				if _, exact := walkTokens(toks, mode.root, math.MaxInt); quick < exact {
					t.Fatalf("quickNesting says %d, the tokens %d", quick, exact)
				}
			}
			var want, got *hclsyntax.Token
			if i, _ := walkTokens(toks, mode.root, l.depth); i >= 0 {
				want = &toks[i]
			}
			if max, at, ok := quickNesting(&nesting{}, data, mode.root, l.depth); !ok || max > l.depth {
				got = l.locate(data, at, func(src []byte) hclsyntax.Tokens {
					toks, _ := mode.lex(src, "fuzz.hcl", hcl.InitialPos)
					return toks
				}, mode.root)
			}
			switch {
			case want == nil && got != nil:
				t.Fatalf("refused at %v, but the whole file's tokens never pass %d", got.Range, l.depth)
			case want != nil && got == nil:
				t.Fatalf("accepted, but the whole file's tokens pass %d at %v", l.depth, want.Range)
			case want != nil && got.Range != want.Range:
				t.Fatalf("refused at %v, but the whole file's tokens pass %d at %v", got.Range, l.depth, want.Range)
			}
		}
	})
}

// checkBound fails t if quickNesting accepts data with a lower level than
// walkTokens finds.
func checkBound(t *testing.T, data []byte) {
	t.Helper()
	root := frame{kind: kBody, newlineEnds: true}
	quick, _, ok := quickNesting(&nesting{}, data, root, math.MaxInt)
	if !ok {
		return
	}
	toks, _ := hclsyntax.LexConfig(data, "bound.hcl", hcl.InitialPos)
	if _, exact := walkTokens(toks, root, math.MaxInt); quick < exact {
		t.Errorf("quickNesting says %d, the tokens %d, for %q", quick, exact, clipBytes(data))
	}
}

func clipBytes(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// hclBoundSeeds are inputs where a byte-level reading could go wrong: what
// looks like code inside strings, heredocs and comments, and the escapes
// of ${ and %{.
var hclBoundSeeds = []string{
	"a = \"$${(((((\" + (1)\n",
	"a = \"\\${x}((((\"\n",
	"a = \"$$${ ((( }\"\n",
	"a = <<EOT\n  EOT(((\n EOT \n",
	"a = <<-EOT\n${x}EOT\nEOT\nb = (((1)))\n",
	"a = <<EOT\r\n((((\r\nEOT\r\n",
	"a = [ # ))))\n 1 ]\n",
	"a = [ /* ]]]] */ [[[1]]] ]\n",
	"a = {for k, v in {} : k => 1 +\n 1 +\n 1}\n",
	"a = { # c\n for k, v in {} : k => 1 +\n 1}\n",
	"a = \"%{ if true }${ \"%{ for x in [1] }${x}%{ endfor }\" }%{ endif }\"\n",
	"a = \"%{~ /* c */ endif ~}\"\n",
	"a = x ? y : z ? 1 : 2\nb = !!!!x\n",
	"a = a.b.c[0][x][*].d\n",
	"a = \"${ { b = \"}\" } }\"\n",
	"a = \"unterminated\nb = ((((((\n",
	"a = <<EOT\n${ <<X\n}}}\nX\n}\nEOT\n",
	"a = 1 +\n\n# c\n-2\n",
	"a = ~}\n",
	"a = \"${ ~} ((((\"\n",
}

// BenchmarkDepthScan measures the nesting check on a realistic 1.5 MB
// config (1,000 MCP servers, 200 skills, 100 hooks) in both syntaxes: the
// check alone (the byte-level fast path, and the token walk it saves),
// parsing without it, and ParseBytes, which is both.
func BenchmarkDepthScan(b *testing.B) {
	hclSrc, jsonSrc := benchConfig()
	for _, tc := range []struct {
		name string
		src  []byte
	}{{"hcl", hclSrc}, {"json", jsonSrc}} {
		filename := "bench." + tc.name
		if diags := CheckNesting(tc.src, filename); diags.HasErrors() {
			b.Fatal(diags)
		}
		b.Run(tc.name+"/scan", func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				CheckNesting(tc.src, filename)
			}
		})
		if tc.name == "hcl" {
			b.Run(tc.name+"/scan-tokens", func(b *testing.B) {
				b.SetBytes(int64(len(tc.src)))
				for b.Loop() {
					toks, _ := hclsyntax.LexConfig(tc.src, filename, hcl.InitialPos)
					walkTokens(toks, frame{kind: kBody, newlineEnds: true}, MaxNesting)
				}
			})
		}
		b.Run(tc.name+"/parse-without-scan", func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				p := NewParser()
				if tc.name == "json" {
					p.p.ParseJSON(tc.src, filename)
				} else {
					p.p.ParseHCL(tc.src, filename)
				}
			}
		})
		b.Run(tc.name+"/parse-with-scan", func(b *testing.B) {
			b.SetBytes(int64(len(tc.src)))
			for b.Loop() {
				if _, diags := NewParser().ParseBytes(tc.src, filename); diags.HasErrors() {
					b.Fatal(diags)
				}
			}
		})
	}
}

// benchConfig generates the benchmark's config in native syntax and the
// same in JSON, about 1.5 MB each.
func benchConfig() ([]byte, []byte) {
	var h, j bytes.Buffer
	h.WriteString("agyconf {\n  scope = \"global\"\n}\n\n")
	j.WriteString("{\n  \"agyconf\": {\"scope\": \"global\"},\n  \"mcp_server\": {\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&h, `# Server %[1]d: the team's tools, reached over stdio.
mcp_server "server-%[1]d" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-%[1]d", "--port", %[2]d, "--verbose", "--log-file=/var/log/mcp/server-%[1]d.log", "--config=/home/user/.config/mcp/server-%[1]d/config.json", "--cache-dir=/home/user/.cache/mcp/server-%[1]d"]
  env = {
    GITHUB_TOKEN = secret_file("/run/secrets/github-%[1]d")
    HOME         = "/home/user"
    PATH         = "/usr/local/bin:/usr/bin:/bin"
    LOG_LEVEL    = "debug"
    API_URL      = "https://api.example.com/v2/teams/core/projects/%[1]d"
    HEADER       = "Bearer ${secret_file("/run/secrets/api-%[1]d")}"
    CACHE_DIR    = "/home/user/.cache/mcp/server-%[1]d"
    CONFIG_FILE  = "/home/user/.config/mcp/server-%[1]d/config.json"
    TIMEOUT      = "30s"
    REGION       = "europe-west1"
    PROJECT      = "core-platform-%[1]d"
    NODE_OPTIONS = "--max-old-space-size=4096 --enable-source-maps"
    HTTP_PROXY   = "http://proxy.internal.example.com:3128"
    HTTPS_PROXY  = "http://proxy.internal.example.com:3128"
    NO_PROXY     = "localhost,127.0.0.1,.internal.example.com"
    DATA_DIR     = "/home/user/.local/share/mcp/server-%[1]d/data"
  }
  disabled_tools = ["delete_repo", "force_push", "drop_table", "rewrite_history", "delete_branch", "merge_pull_request", "close_issue", "delete_release"]
}

`, i, 8000+i)
		sep := ","
		if i == 999 {
			sep = ""
		}
		fmt.Fprintf(&j, `    "server-%[1]d": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-%[1]d", "--port", %[2]d, "--verbose", "--log-file=/var/log/mcp/server-%[1]d.log", "--config=/home/user/.config/mcp/server-%[1]d/config.json", "--cache-dir=/home/user/.cache/mcp/server-%[1]d"],
      "env": {
        "GITHUB_TOKEN": "${secret_file(\"/run/secrets/github-%[1]d\")}",
        "HOME": "/home/user",
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LOG_LEVEL": "debug",
        "API_URL": "https://api.example.com/v2/teams/core/projects/%[1]d",
        "HEADER": "Bearer ${secret_file(\"/run/secrets/api-%[1]d\")}",
        "CACHE_DIR": "/home/user/.cache/mcp/server-%[1]d",
        "CONFIG_FILE": "/home/user/.config/mcp/server-%[1]d/config.json",
        "TIMEOUT": "30s",
        "REGION": "europe-west1",
        "PROJECT": "core-platform-%[1]d",
        "NODE_OPTIONS": "--max-old-space-size=4096 --enable-source-maps",
        "HTTP_PROXY": "http://proxy.internal.example.com:3128",
        "HTTPS_PROXY": "http://proxy.internal.example.com:3128",
        "NO_PROXY": "localhost,127.0.0.1,.internal.example.com",
        "DATA_DIR": "/home/user/.local/share/mcp/server-%[1]d/data"
      },
      "disabled_tools": ["delete_repo", "force_push", "drop_table", "rewrite_history", "delete_branch", "merge_pull_request", "close_issue", "delete_release"]
    }%[3]s
`, i, 8000+i, sep)
	}
	j.WriteString("  },\n  \"skill\": {\n")
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&h, `skill "skill-%[1]d" {
  description = "Skill number %[1]d: reviews a change and writes notes about it for the author."
  body        = <<-EOT
    Read the diff of the change carefully, then the tests that cover it.
    Check that every new function has a test, that errors say what to do,
    and that comments say why rather than what. Note %%%%{ if } markers.
    Write the notes in the style of the project, one paragraph per finding,
    and end with a one-line summary that the author can paste into the PR.
    Skill %[1]d keeps its notes under /home/user/notes/skill-%[1]d/.
    EOT
}

`, i)
		sep := ","
		if i == 199 {
			sep = ""
		}
		fmt.Fprintf(&j, `    "skill-%[1]d": {
      "description": "Skill number %[1]d: reviews a change and writes notes about it for the author.",
      "body": "Read the diff of the change carefully, then the tests that cover it.\nCheck that every new function has a test, that errors say what to do,\nand that comments say why rather than what. Note %%%%{ if } markers.\nWrite the notes in the style of the project, one paragraph per finding,\nand end with a one-line summary that the author can paste into the PR.\nSkill %[1]d keeps its notes under /home/user/notes/skill-%[1]d/.\n"
    }%[2]s
`, i, sep)
	}
	j.WriteString("  },\n  \"hook\": {\n")
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&h, `hook "hook-%[1]d" {
  pre_tool_use {
    matcher = "run_command|write_file|edit_file"
    handler {
      command = "./hooks/guard-%[1]d.sh --strict --log=/var/log/hooks/%[1]d.log"
      timeout = 10
    }
  }
  stop {
    command = "echo done %[1]d"
  }
}

`, i)
		sep := ","
		if i == 99 {
			sep = ""
		}
		fmt.Fprintf(&j, `    "hook-%[1]d": {
      "pre_tool_use": [{"matcher": "run_command|write_file|edit_file", "handler": [{"command": "./hooks/guard-%[1]d.sh --strict --log=/var/log/hooks/%[1]d.log", "timeout": 10}]}],
      "stop": {"command": "echo done %[1]d"}
    }%[2]s
`, i, sep)
	}
	j.WriteString("  }\n}\n")
	return h.Bytes(), j.Bytes()
}
