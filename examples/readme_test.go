package examples_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeFirstCommands are the README's first lines, the two commands a
// newcomer runs on a fresh clone: CI runs the second as its test step
// (.ci/run), and TestExamples renders examples/global, which the first
// renders into a scratch home, as its tree expected/ says.
var readmeFirstCommands = []string{
	`go run ./cmd/agyconf render --config examples/global --root "$(mktemp -d)"`,
	`go test ./...`,
}

// readmeBlocks are the fenced blocks of README.md, by language, in order.
func readmeBlocks(t *testing.T) (string, map[string][]string) {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string][]string{}
	for _, m := range regexp.MustCompile("(?ms)^```([a-z]*)\n(.*?)^```").FindAllStringSubmatch(string(data), -1) {
		blocks[m[1]] = append(blocks[m[1]], m[2])
	}
	return string(data), blocks
}

// TestReadmeFirstCommands: the README opens with the two commands, and
// nothing else, and the config the first renders is an example here.
func TestReadmeFirstCommands(t *testing.T) {
	readme, blocks := readmeBlocks(t)
	if len(blocks["sh"]) == 0 || !strings.HasPrefix(readme, "# agyconf\n\n```sh\n") {
		t.Fatal("README.md does not open with a ```sh block after its title")
	}
	var cmds []string
	for _, line := range strings.Split(strings.TrimSpace(blocks["sh"][0]), "\n") {
		cmds = append(cmds, strings.TrimSpace(regexp.MustCompile(`\s+#.*$`).ReplaceAllString(line, "")))
	}
	if strings.Join(cmds, "\n") != strings.Join(readmeFirstCommands, "\n") {
		t.Errorf("README.md's first commands are\n%s\nwant\n%s", strings.Join(cmds, "\n"), strings.Join(readmeFirstCommands, "\n"))
	}
	if len(configFiles(t, "global")) == 0 {
		t.Error("examples/global, which the README's first command renders, holds no config")
	}
	run, err := os.ReadFile("../.ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(run), "\n"+readmeFirstCommands[1]+"\n") {
		t.Errorf(".ci/run does not run the README's test command, %s", readmeFirstCommands[1])
	}
}

// TestReadmeExample: the README's example config, its first ```hcl block,
// is valid (judged alone, as CI would: no secret file, no home) and
// renders, with the server and the rule the text says it writes.
func TestReadmeExample(t *testing.T) {
	_, blocks := readmeBlocks(t)
	if len(blocks["hcl"]) == 0 {
		t.Fatal("README.md has no ```hcl example")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "agyconf.hcl")
	if err := os.WriteFile(cfg, []byte(blocks["hcl"][0]), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := agyconf("validate", "--offline", "--config", cfg); code != 0 {
		t.Fatalf("validate --offline of the README's example: exit %d\n%s%s", code, out, errOut)
	}
	root := filepath.Join(dir, "home")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := agyconf("render", "--config", cfg, "--root", root)
	if code != 0 {
		t.Fatalf("render of the README's example: exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"create    .gemini/GEMINI.md\n", "create    .gemini/config/mcp_config.json mcpServers.github\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the README's example does not render %q:\n%s", want, out)
		}
	}
	mcp, err := os.ReadFile(filepath.Join(root, ".gemini", "config", "mcp_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mcp), `"exec-env"`) {
		t.Errorf("the README says agyhook reads the token when agy starts the server; mcp_config.json:\n%s", mcp)
	}
}
