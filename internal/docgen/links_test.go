package docgen

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// externalDocs are docs/… names the tree quotes from other projects'
// repositories, not agyconf's: agy's changelog and settings page.
var externalDocs = map[string]bool{
	"docs/changelog.md":         true, // google-antigravity/antigravity-cli's
	"docs/docs-cli-settings.md": true, // the agy CLI docs' settings page
}

var (
	// docRef is a docs/NAME.md (or the man page) named in any text, with
	// an #anchor and a quoted section that may follow: (docs/cli.md,
	// "Exit codes"), docs/nix.md#turning-it-off. Not a longer path's
	// tail (project/docs/inside.md, ../../docs/x.md).
	docRef = regexp.MustCompile(`(^|[^A-Za-z0-9_./-])(docs/[a-z0-9-]+\.(?:md|1))(#[A-Za-z0-9_-]+)?`)
	// quotedSection follows a reference: `, "Section"`, ` ("Section"`,
	// `), "Section"` or a markdown link's `](…) ("Section"`, quotes
	// escaped or not (Go strings, JSON).
	quotedSection = regexp.MustCompile(`^(?:\]\([^)\s]*\))?\)?(?:, | \()\\?"([^"\\\n]{1,80})\\?"`)
	// mdLink is a markdown link's target: [text](target).
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// heading is a markdown heading line; anchorTag an explicit anchor.
	heading   = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	anchorTag = regexp.MustCompile(`<a id="([^"]+)"></a>`)
	fence     = regexp.MustCompile("(?ms)^```.*?^```")
)

// slug is the anchor GitHub gives a heading: lowercase, letters, digits,
// "-" and "_" kept, each space a "-", everything else dropped.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// page is what a markdown file offers to links: its anchors and the text
// of its headings (code spans' backticks dropped).
type page struct {
	anchors  map[string]bool
	headings []string
}

func readPage(path string, cache map[string]*page) *page {
	if p, ok := cache[path]; ok {
		return p
	}
	data, err := os.ReadFile(path)
	if err != nil {
		cache[path] = nil
		return nil
	}
	text := fence.ReplaceAllString(string(data), "")
	p := &page{anchors: map[string]bool{}}
	seen := map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(text, -1) {
		title := m[1]
		p.headings = append(p.headings, strings.ReplaceAll(title, "`", ""))
		s := slug(title)
		if n := seen[s]; n > 0 {
			p.anchors[s+"-"+strconv.Itoa(n)] = true
		} else {
			p.anchors[s] = true
		}
		seen[s]++
	}
	for _, m := range anchorTag.FindAllStringSubmatch(string(data), -1) {
		p.anchors[m[1]] = true
	}
	cache[path] = p
	return p
}

// hasSection reports whether a page has a heading that starts with name,
// in any case.
func (p *page) hasSection(name string) bool {
	name = strings.ToLower(strings.ReplaceAll(name, "`", ""))
	for _, h := range p.headings {
		if strings.HasPrefix(strings.ToLower(h), name) {
			return true
		}
	}
	return false
}

// TestDocLinks: every page of docs/ (and the man page) that anything in
// the repository names — a message, a help text, a schema description, a
// comment, a template, a doc — exists, with the #anchor and the quoted
// section ("Exit codes") it names; and every relative link of every
// markdown file leads to a file there, and to an anchor of that page.
// Pages are renamed and merged; a message that names one must follow.
func TestDocLinks(t *testing.T) {
	cache := map[string]*page{}
	refs := 0
	checked := walkShippedText(t, "links_test.go", func(p, text string) {
		rel, _ := filepath.Rel(repoRoot, p)
		lineOf := func(i int) int { return 1 + strings.Count(text[:i], "\n") }

		for _, m := range docRef.FindAllStringSubmatchIndex(text, -1) {
			name := text[m[4]:m[5]]
			if externalDocs[name] {
				continue
			}
			refs++
			target := filepath.Join(repoRoot, name)
			pg := readPage(target, cache)
			if pg == nil {
				t.Errorf("%s:%d names %s, which does not exist", rel, lineOf(m[4]), name)
				continue
			}
			if m[6] >= 0 {
				if a := text[m[6]+1 : m[7]]; !pg.anchors[a] {
					t.Errorf("%s:%d names %s#%s, an anchor %s does not have", rel, lineOf(m[4]), name, a, name)
				}
			}
			if s := quotedSection.FindStringSubmatch(text[m[1]:min(len(text), m[1]+200)]); s != nil && strings.HasSuffix(name, ".md") {
				if !pg.hasSection(s[1]) {
					t.Errorf("%s:%d names %s, %q: no heading of %s starts so", rel, lineOf(m[4]), name, s[1], name)
				}
			}
		}

		if filepath.Ext(p) != ".md" {
			return
		}
		body := fence.ReplaceAllString(text, "")
		for _, m := range mdLink.FindAllStringSubmatch(body, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(link, "#")
			target := p
			if file != "" {
				target = filepath.Join(filepath.Dir(p), file)
				if _, err := os.Stat(target); err != nil {
					t.Errorf("%s links to %s, which does not exist", rel, link)
					continue
				}
			}
			refs++
			if anchor == "" {
				continue
			}
			pg := readPage(target, cache)
			if pg == nil || !pg.anchors[anchor] {
				t.Errorf("%s links to %s: no such anchor", rel, link)
			}
		}
	})
	if checked < 500 || refs < 200 {
		t.Fatalf("only %d files and %d references checked: the walk is broken", checked, refs)
	}
}

func TestSlug(t *testing.T) {
	for title, want := range map[string]string{
		"Where agy reads a plugin's hooks":                           "where-agy-reads-a-plugins-hooks",
		"`harness \"mempalace\"`: MemPalace's memory in Antigravity": "harness-mempalace-memPalaces-memory-in-antigravity",
		"Servers from `programs.mcp` and `programs.antigravity-cli`": "servers-from-programsmcp-and-programsantigravity-cli",
		"Linting live trees (`validate PATH…`) and hook tests":       "linting-live-trees-validate-path-and-hook-tests",
		"exec-env: secrets for local MCP servers":                    "exec-env-secrets-for-local-mcp-servers",
		"Rolling back to a generation from before agyconf":           "rolling-back-to-a-generation-from-before-agyconf",
	} {
		if got := slug(title); got != strings.ToLower(want) {
			t.Errorf("slug(%q) = %q, want %q", title, got, strings.ToLower(want))
		}
	}
}

// walkShippedText calls fn with the path and text of every file of the
// repository a user gets that can name a doc or cite a source: sources,
// schemas, docs, the man page, templates, examples, golden outputs and
// scripts (hidden folders and vendor/ left out), except the test named
// self, which names what it looks for. It returns how many it read.
func walkShippedText(t *testing.T, self string, fn func(path, text string)) int {
	t.Helper()
	checked := 0
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".go", ".json", ".md", ".hcl", ".nix", ".txtar", ".1", ".sh", ".tmpl", ".txt", ".report", ".golden", ".yml", ".yaml":
		default:
			if filepath.Base(p) != "run" {
				return nil
			}
		}
		if d.Name() == self {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		checked++
		fn(p, string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return checked
}
