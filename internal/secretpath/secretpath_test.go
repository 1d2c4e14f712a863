package secretpath

import (
	"errors"
	"strings"
	"testing"
)

func linux(xdg string, uid int) Env {
	return Env{GOOS: "linux", UID: uid, Getenv: func(k string) string {
		if k == "XDG_RUNTIME_DIR" {
			return xdg
		}
		return ""
	}}
}

func darwin(temp string, err error) Env {
	return Env{GOOS: "darwin", Getenv: func(string) string { return "/ignored/on/darwin/for/%r" },
		DarwinTempDir: func() (string, error) { return temp, err }}
}

// The paths sops-nix and agenix hand out, as their Home Manager modules
// write them, and what each is on a Linux and a darwin machine.
func TestExpand(t *testing.T) {
	const getconf = "/nix/store/0000000000000000000000000000000-getconf-glibc-2.40/bin/getconf"
	cases := []struct {
		path         string
		linux, mac   string // "" = refused
		linuxFallbak string // with XDG_RUNTIME_DIR unset, uid 1000
	}{
		{"/run/secrets/github", "/run/secrets/github", "/run/secrets/github", "/run/secrets/github"},
		{"%r/secrets/github", "/run/user/1000/secrets/github", "/var/folders/xy/T/secrets/github", "/run/user/1000/secrets/github"},
		{"%r/100%%/x", "/run/user/1000/100%/x", "/var/folders/xy/T/100%/x", "/run/user/1000/100%/x"},
		{"${XDG_RUNTIME_DIR}/agenix/github", "/run/user/1000/agenix/github", "/ignored/on/darwin/for/%r/agenix/github", "/run/user/1000/agenix/github"},
		{"$(" + getconf + " DARWIN_USER_TEMP_DIR)/agenix/github", "", "/var/folders/xy/T/agenix/github", ""},
		{"$(getconf DARWIN_USER_TEMP_DIR)/agenix/github", "", "/var/folders/xy/T/agenix/github", ""},
	}
	for _, c := range cases {
		if err := Check(c.path); err != nil {
			t.Errorf("Check(%q): %v", c.path, err)
		}
		for _, run := range []struct {
			env  Env
			want string
		}{{linux("/run/user/1000", 7), c.linux}, {darwin("/var/folders/xy/T", nil), c.mac}, {linux("", 1000), c.linuxFallbak}} {
			got, err := Expand(c.path, run.env)
			switch {
			case run.want == "" && err == nil:
				t.Errorf("Expand(%q) on %s = %q, want a refusal", c.path, run.env.GOOS, got)
			case run.want != "" && err != nil:
				t.Errorf("Expand(%q) on %s: %v", c.path, run.env.GOOS, err)
			case got != run.want:
				t.Errorf("Expand(%q) on %s = %q, want %q", c.path, run.env.GOOS, got, run.want)
			}
		}
	}
}

func TestRefused(t *testing.T) {
	for _, p := range []string{
		"", "run/secrets/x", "./x", "/run/../x", "/run/secrets/", "/", "/a//b",
		"%r", "%r/", "%r/../x", "%r/a/../../x", "%r//x", "%r/100%", "%r/a%b",
		"%h/x", "%t/x", "${HOME}/x", "$XDG_RUNTIME_DIR/x", "${XDG_RUNTIME_DIR}", "${XDG_RUNTIME_DIR}/",
		"${XDG_RUNTIME_DIR}/${X}/y", "${XDG_RUNTIME_DIR}/../etc/shadow",
		"$(rm -rf / DARWIN_USER_TEMP_DIR)/x", "$(/bin/sh DARWIN_USER_TEMP_DIR)/x", "$(getconf DARWIN_USER_TEMP_DIR)",
		"$(/x/getconf;rm /bin/getconf DARWIN_USER_TEMP_DIR)/x", "$(getconf PATH)/x",
		"/run/secrets/a\x00b",
	} {
		if err := Check(p); err == nil {
			t.Errorf("Check(%q) accepted it", p)
		}
		if HasPlaceholder(p) && Check(p) == nil {
			t.Errorf("HasPlaceholder(%q) on a refused path", p)
		}
	}
}

func TestExpandFailures(t *testing.T) {
	if _, err := Expand("%r/x", darwin("", errors.New("no getconf"))); err == nil || !strings.Contains(err.Error(), "no getconf") {
		t.Errorf("a failing getconf: %v", err)
	}
	if _, err := Expand("%r/x", darwin("relative/T", nil)); err == nil {
		t.Error("a relative runtime folder was accepted")
	}
	if _, err := Expand("%r/x", Env{GOOS: "darwin"}); err == nil {
		t.Error("darwin without a way to ask for the temp folder was accepted")
	}
	if _, err := Expand("${XDG_RUNTIME_DIR}/x", linux("relative", 1)); err == nil {
		t.Error("a relative XDG_RUNTIME_DIR was accepted")
	}
}

func TestHasPlaceholder(t *testing.T) {
	for p, want := range map[string]bool{
		"/run/secrets/x": false, "%r/x": true, "${XDG_RUNTIME_DIR}/agenix/x": true,
		"$(getconf DARWIN_USER_TEMP_DIR)/agenix/x": true, "relative": false,
	} {
		if got := HasPlaceholder(p); got != want {
			t.Errorf("HasPlaceholder(%q) = %v, want %v", p, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"/run/x", "%r/x", "%r/%%", "${XDG_RUNTIME_DIR}/a", "$(getconf DARWIN_USER_TEMP_DIR)/a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		parsed, err := Parse(p)
		if err != nil {
			return
		}
		// Whatever is accepted expands below its base, never above it.
		got, err := Expand(p, linux("/run/user/1", 1))
		if err != nil {
			if parsed.Kind != DarwinTemp {
				t.Fatalf("Expand(%q) on linux: %v", p, err)
			}
			return
		}
		if parsed.Kind != Absolute && !strings.HasPrefix(got, "/run/user/1/") {
			t.Fatalf("Expand(%q) = %q, outside the runtime folder", p, got)
		}
	})
}
