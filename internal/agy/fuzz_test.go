package agy

import (
	"regexp"
	"testing"
)

// FuzzPermission: any entry either parses, prints back as itself, matches
// the schemas' pattern and answers every question about it without a
// panic, or is refused by both the parser and the pattern.
func FuzzPermission(f *testing.F) {
	for _, s := range []string{
		"command(git *)", "read_file", "command(time)", "command(())", "command(# x)", "command(FOO=1 make)",
		"command(regex:^a(b|c)$)", "unsandboxed(x)", "command(\"a\" 'b)", "command(a\nb)", "mcp(s/*)", "command()",
	} {
		f.Add(s)
	}
	pat := regexp.MustCompile(PermissionPattern())
	f.Fuzz(func(t *testing.T, entry string) {
		p, ok := ParsePermission(entry)
		if ok != pat.MatchString(entry) {
			t.Fatalf("ParsePermission %v, PermissionPattern %v on %q", ok, !ok, entry)
		}
		if !ok {
			return
		}
		if p.String() != entry {
			t.Fatalf("%q prints as %q", entry, p.String())
		}
		_ = p.ZeroCommandWords()
		_ = p.RegexLookalike()
		_ = p.DeprecationAdvice("deny")
		if r, deprecated := p.Replacement(); deprecated {
			if _, ok := ParsePermission(r.String()); !ok {
				t.Fatalf("the replacement %q of %q does not parse", r, entry)
			}
		}
	})
}
