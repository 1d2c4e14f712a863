package agyhook

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const canary = "CANARY-s3cr3t-value"

func TestValidEnvName(t *testing.T) {
	for _, s := range []string{"A", "_", "a", "TOKEN", "_x9", "Api_Key_2"} {
		if !validEnvName(s) {
			t.Errorf("%q refused", s)
		}
	}
	for _, s := range []string{"", "9A", "A-B", "A B", "A.B", "Ä", "A=B", "A\x00", "$A"} {
		if validEnvName(s) {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestParseExecEnv(t *testing.T) {
	ops, cmd, err := parseExecEnv([]string{
		"--env", "AUTH=Bearer ", "--env-file", "AUTH=/run/secrets/x",
		"--env", "EMPTY=", "--env", "EQ=a=b", "--", "srv", "--env", "X=1", "--",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []envOp{
		{Name: "AUTH", Text: "Bearer "},
		{Name: "AUTH", Path: "/run/secrets/x", File: true},
		{Name: "EMPTY"},
		{Name: "EQ", Text: "a=b"},
	}
	if len(ops) != len(want) {
		t.Fatalf("ops %+v", ops)
	}
	for i := range want {
		if ops[i] != want[i] {
			t.Errorf("op %d: %+v, want %+v", i, ops[i], want[i])
		}
	}
	// Everything after the first -- is the command's, flags included.
	if strings.Join(cmd, " ") != "srv --env X=1 --" {
		t.Errorf("cmd %q", cmd)
	}
	if _, cmd, err := parseExecEnv([]string{"--", "/bin/true"}); err != nil || len(cmd) != 1 {
		t.Errorf("no flags: %q %v", cmd, err)
	}

	for _, c := range []struct {
		args []string
		want string // in the message
	}{
		{nil, "missing --"},
		{[]string{"--env", "A=1"}, "missing --"},
		{[]string{"--"}, "no command after --"},
		{[]string{"--env", "A=1", "--"}, "no command after --"},
		{[]string{"--", ""}, "empty command"},
		{[]string{"--env"}, "--env needs an argument"},
		{[]string{"--env-file"}, "--env-file needs an argument"},
		{[]string{"--env", canary, "--", "x"}, "--env needs VAR=TEXT"},
		{[]string{"--env-file", canary, "--", "x"}, "--env-file needs VAR=PATH"},
		{[]string{"--env", "9BAD=" + canary, "--", "x"}, `invalid variable name "9BAD"`},
		{[]string{"--env", "=" + canary, "--", "x"}, `invalid variable name ""`},
		{[]string{"--env-file", "A-B=/x", "--", "x"}, `invalid variable name "A-B"`},
		{[]string{"--env-file", "TOKEN=secrets/x", "--", "x"}, `--env-file TOKEN: path "secrets/x" is not absolute`},
		{[]string{"--env-file", "TOKEN=", "--", "x"}, `--env-file TOKEN: path "" is not absolute`},
		{[]string{"--env", "A=x\x00" + canary, "--", "x"}, "--env A: the text contains a NUL byte"},
		{[]string{"--env=A=" + canary, "--", "x"}, `unknown flag "--env"`},
		{[]string{"-e", "A=1", "--", "x"}, `unknown flag "-e"`},
		{[]string{"--bogus=" + canary, "--", "x"}, `unknown flag "--bogus"`},
		{[]string{"srv", "arg"}, "argument 1 is not a flag"},
		{[]string{"--env", "A=1", canary, "--", "x"}, "argument 3 is not a flag"},
	} {
		_, _, err := parseExecEnv(c.args)
		var ee *execError
		if !errors.As(err, &ee) || ee.code != execUsage {
			t.Errorf("%q: %v, want a usage error", c.args, err)
			continue
		}
		if !strings.Contains(ee.msg, c.want) {
			t.Errorf("%q: %q, want %q in it", c.args, ee.msg, c.want)
		}
		if strings.Contains(ee.msg, canary) || strings.Contains(ee.msg, "s3cr3t") {
			t.Errorf("%q: message shows the value: %q", c.args, ee.msg)
		}
	}
}

func TestBuildExecEnv(t *testing.T) {
	files := map[string]string{"/s/tok": "tok-value", "/s/b": "B", "/s/empty": ""}
	var reads []string
	read := func(p string) (string, error) {
		reads = append(reads, p)
		v, ok := files[p]
		if !ok {
			return "", os.ErrNotExist
		}
		return v, nil
	}
	environ := []string{"PATH=/bin", "AUTH=inherited", "KEEP=1", "X=old", "AUTH=dup", "NOEQ", "E="}
	plan, err := buildExecEnv([]string{
		"--env", "AUTH=Bearer ", "--env-file", "AUTH=/s/tok",
		"--env", "X=a", "--env-file", "X=/s/b", "--env", "X=c",
		"--env-file", "NEW=/s/empty",
		"--", "srv", "arg 1",
	}, environ, read)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"PATH=/bin", "KEEP=1", "NOEQ", "E=", "AUTH=Bearer tok-value", "X=aBc", "NEW="}
	if strings.Join(plan.Env, "\n") != strings.Join(want, "\n") {
		t.Errorf("env\n%q\nwant\n%q", plan.Env, want)
	}
	if strings.Join(plan.Argv, "|") != "srv|arg 1" {
		t.Errorf("argv %q", plan.Argv)
	}
	if strings.Join(reads, " ") != "/s/tok /s/b /s/empty" {
		t.Errorf("reads %q", reads)
	}

	// A file error is a runtime failure naming VAR and path.
	_, err = buildExecEnv([]string{"--env", "T=" + canary, "--env-file", "T=/s/missing", "--", "x"}, nil, read)
	var ee *execError
	if !errors.As(err, &ee) || ee.code != execFailed {
		t.Fatalf("missing file: %v", err)
	}
	if !strings.Contains(ee.msg, "T=/s/missing") || strings.Contains(ee.msg, canary) {
		t.Errorf("missing file: %q", ee.msg)
	}
	// A usage error stops before any file is read.
	reads = nil
	if _, err := buildExecEnv([]string{"--env-file", "T=/s/tok", "--bogus"}, nil, read); err == nil || len(reads) != 0 {
		t.Errorf("usage error after reads %q: %v", reads, err)
	}
}

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadSecretFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ data, want string }{
		{"tok", "tok"},
		{"tok\n", "tok"},
		{"tok\r\n", "tok"},
		{"tok\n\n", "tok\n"},
		{"tok\r", "tok"}, // as agyconf's inline rule (readSecret)
		{"a\nb\n", "a\nb"},
		{" tok \t\n", " tok \t"},
		{"", ""},
		{"\n", ""},
	} {
		p := writeFile(t, dir, "s", []byte(c.data))
		got, err := readSecretFile(p)
		if err != nil || got != c.want {
			t.Errorf("%q: %q %v, want %q", c.data, got, err, c.want)
		}
	}

	exact := writeFile(t, dir, "exact", []byte(strings.Repeat("x", MaxSecretFile-1)+"\n"))
	if got, err := readSecretFile(exact); err != nil || len(got) != MaxSecretFile-1 {
		t.Errorf("1 MiB: %d %v", len(got), err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(exact, link); err != nil {
		t.Fatal(err)
	}
	if got, err := readSecretFile(link); err != nil || len(got) != MaxSecretFile-1 {
		t.Errorf("symlink to a file: %d %v", len(got), err)
	}
	dirLink := filepath.Join(dir, "dirlink")
	if err := os.Symlink(dir, dirLink); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, path, want string
	}{
		{"oversize", writeFile(t, dir, "big", []byte(strings.Repeat("x", MaxSecretFile)+"\n")), "larger than 1048576 bytes"},
		{"NUL", writeFile(t, dir, "nul", []byte(canary+"\x00x")), "NUL byte"},
		{"directory", dir, "not a regular file (a directory)"},
		{"symlink to a directory", dirLink, "not a regular file (a directory)"},
		{"missing", filepath.Join(dir, "missing"), "no such file"},
		{"dangling symlink", mkSymlink(t, filepath.Join(dir, "missing"), filepath.Join(dir, "dangling")), "no such file"},
	} {
		got, err := readSecretFile(c.path)
		if err == nil || got != "" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q %v, want %q", c.name, got, err, c.want)
			continue
		}
		// The caller prints the path; the error holds neither it nor content.
		if strings.Contains(err.Error(), c.path) || strings.Contains(err.Error(), canary) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		p := writeFile(t, dir, "unreadable", []byte(canary))
		if err := os.Chmod(p, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := readSecretFile(p); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Errorf("unreadable: %v", err)
		}
	}
}

func mkSymlink(t *testing.T, target, link string) string {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	return link
}

func TestLookPathIn(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(a, "tool"), []byte("#!/bin/sh\n"), 0o644); err != nil { // not executable
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(a, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	sep := string(filepath.ListSeparator)
	if p, err := lookPathIn("tool", a+sep+b); err != nil || p != filepath.Join(b, "tool") {
		t.Errorf("tool: %q %v", p, err)
	}
	if p, err := lookPathIn("tool", a+"/"+sep+b+"/"); err != nil || p != filepath.Join(b, "tool") {
		t.Errorf("trailing slashes: %q %v", p, err)
	}
	if p, err := lookPathIn("sub", a); err == nil {
		t.Errorf("directory found: %q", p)
	}
	if p, err := lookPathIn("tool", a); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("non-executable found: %q %v", p, err)
	}
	if p, err := lookPathIn("tool", ""); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("empty PATH: %q %v", p, err)
	}
	// Relative entries ("" is the current directory) are never searched.
	t.Chdir(b)
	if p, err := lookPathIn("tool", sep+"."+sep+"rel"); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("relative entries: %q %v", p, err)
	}
	for _, name := range []string{"./tool", "/no/such/x", "rel/x"} {
		if p, err := lookPathIn(name, a); err != nil || p != name {
			t.Errorf("%q: %q %v", name, p, err)
		}
	}
}

// execCall is one in-process run of exec-env with a fake Exec: what it
// was given and what it recorded.
type execCall struct {
	path       string
	argv, env  []string
	calls      int
	fail       error
	stdout     string
	stderr     string
	code       int
	environ    []string
	noExecHook bool
}

func runExecEnv(t *testing.T, c *execCall, args ...string) {
	t.Helper()
	f := newFixture(t)
	env := f.env()
	env.Environ = func() []string { return c.environ }
	if !c.noExecHook {
		env.Exec = func(path string, argv, envv []string) error {
			c.calls++
			c.path, c.argv, c.env = path, argv, envv
			return c.fail
		}
	}
	c.stdout, c.stderr, c.code = f.runEnv(env, "stdin is not read", append([]string{"exec-env"}, args...)...)
}

func TestExecEnvMain(t *testing.T) {
	dir := t.TempDir()
	bin := t.TempDir()
	srv := filepath.Join(bin, "srv")
	if err := os.WriteFile(srv, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tok := writeFile(t, dir, "tok", []byte("tok-value\n"))
	other := writeFile(t, dir, "other", []byte(canary+"\n"))

	c := &execCall{environ: []string{"PATH=/nonexistent", "HOME=/h", "X=old"}}
	runExecEnv(t, c, "--env", "PATH="+bin, "--env-file", "TOKEN="+tok, "--env", "X=a", "--env", "X=b", "--", "srv", "--stdio")
	if c.code != 0 || c.stdout != "" || c.stderr != "" || c.calls != 1 {
		t.Fatalf("code %d out %q err %q calls %d", c.code, c.stdout, c.stderr, c.calls)
	}
	// PATH resolution uses the new PATH, not the inherited one.
	if c.path != srv || strings.Join(c.argv, " ") != "srv --stdio" {
		t.Errorf("exec %q %q", c.path, c.argv)
	}
	if got := strings.Join(c.env, " "); got != "HOME=/h PATH="+bin+" TOKEN=tok-value X=ab" {
		t.Errorf("env %q", got)
	}

	// A command with a slash is executed as given, whatever PATH says.
	c = &execCall{}
	runExecEnv(t, c, "--", srv)
	if c.code != 0 || c.path != srv || len(c.env) != 0 {
		t.Errorf("absolute: %d %q %q", c.code, c.path, c.env)
	}

	for _, tc := range []struct {
		name  string
		args  []string
		code  int
		want  []string // in stderr
		fail  error
		nohok bool
	}{
		{"missing file", []string{"--env-file", "OTHER=" + other, "--env-file", "TOKEN=" + filepath.Join(dir, "missing"), "--", srv}, 1,
			[]string{"TOKEN=" + filepath.Join(dir, "missing"), "no such file"}, nil, false},
		{"directory", []string{"--env-file", "TOKEN=" + dir, "--", srv}, 1, []string{"TOKEN=" + dir, "not a regular file"}, nil, false},
		{"relative", []string{"--env-file", "TOKEN=tok", "--", srv}, 2, []string{"TOKEN", `"tok" is not absolute`, "usage: agyhook exec-env"}, nil, false},
		{"unknown flag", []string{"--bogus", "--", srv}, 2, []string{`unknown flag "--bogus"`, "usage: agyhook exec-env"}, nil, false},
		{"no command", []string{"--env", "A=1", "--"}, 2, []string{"no command after --", "usage"}, nil, false},
		{"help", []string{"--help"}, 2, []string{"usage: agyhook exec-env"}, nil, false},
		{"not on PATH", []string{"--env-file", "OTHER=" + other, "--env", "PATH=" + dir, "--", "srv"}, 1, []string{`command "srv" not found on PATH`}, nil, false},
		{"exec fails", []string{"--env-file", "OTHER=" + other, "--", srv}, 1, []string{"exec " + srv + ": permission denied"}, os.ErrPermission, false},
		{"no exec", []string{"--env-file", "OTHER=" + other, "--", srv}, 1, []string{"exec " + srv + ": no exec"}, nil, true},
	} {
		c := &execCall{fail: tc.fail, noExecHook: tc.nohok}
		runExecEnv(t, c, tc.args...)
		if c.code != tc.code || c.stdout != "" {
			t.Errorf("%s: code %d stdout %q, want %d", tc.name, c.code, c.stdout, tc.code)
		}
		if strings.Count(c.stderr, "\n") != 1 || !strings.HasSuffix(c.stderr, "\n") {
			t.Errorf("%s: not one line: %q", tc.name, c.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(c.stderr, w) {
				t.Errorf("%s: stderr %q, want %q", tc.name, c.stderr, w)
			}
		}
		if strings.Contains(c.stderr, canary) {
			t.Errorf("%s: stderr shows a secret: %q", tc.name, c.stderr)
		}
		if tc.fail == nil && c.calls != 0 {
			t.Errorf("%s: exec called", tc.name)
		}
	}
}

// FuzzExecEnvArgs: any argument list either is refused with a message
// that holds no file content, or gives a command and an environment of
// VAR=value strings without NUL, mentioned VARs once each.
func FuzzExecEnvArgs(f *testing.F) {
	for _, s := range []string{
		"", "--", "--\x00srv", "--env\x00A=1\x00--\x00srv",
		"--env\x00AUTH=Bearer \x00--env-file\x00AUTH=/s\x00--\x00srv\x00--env",
		"--env-file\x00A=rel\x00--\x00x", "--bogus=1", "--env\x00=x\x00--\x00x",
	} {
		f.Add(s, "v\n")
	}
	f.Fuzz(func(t *testing.T, joined, content string) {
		args := strings.Split(joined, "\x00")
		read := func(p string) (string, error) {
			if strings.Contains(content, "!") || strings.Contains(p, "\n") {
				return "", errors.New("unreadable")
			}
			return canary, nil
		}
		plan, err := buildExecEnv(args, []string{"A=inherited", "PATH=/bin"}, read)
		if err != nil {
			var ee *execError
			if !errors.As(err, &ee) || (ee.code != execUsage && ee.code != execFailed) {
				t.Fatalf("%q: %v", args, err)
			}
			if strings.Contains(ee.msg, canary) || strings.Contains(ee.msg, "\n") {
				t.Fatalf("%q: %q", args, ee.msg)
			}
			return
		}
		if len(plan.Argv) == 0 || plan.Argv[0] == "" {
			t.Fatalf("%q: argv %q", args, plan.Argv)
		}
		seen := map[string]bool{}
		for _, kv := range plan.Env {
			k, _, ok := strings.Cut(kv, "=")
			if !ok || seen[k] || strings.IndexByte(kv, 0) >= 0 {
				t.Fatalf("%q: env %q", args, plan.Env)
			}
			seen[k] = true
		}
	})
}

// TestExecEnvRuntimePaths: a secret path naming the runtime folder, as
// sops-nix (%r/…) and agenix (${XDG_RUNTIME_DIR}/…) write it, is read in
// the runtime folder of the environment agy started the server with.
func TestExecEnvRuntimePaths(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("%r is the darwin user temp folder there (internal/secretpath's tests cover it)")
	}
	var reads []string
	read := func(p string) (string, error) { reads = append(reads, p); return "v", nil }
	environ := []string{"XDG_RUNTIME_DIR=/run/user/4242", "PATH=/bin"}
	plan, err := buildExecEnv([]string{
		"--env-file", "A=%r/secrets/a", "--env-file", "B=${XDG_RUNTIME_DIR}/agenix/b",
		"--env-file-json", "C=1:%r/100%%", "--", "srv",
	}, environ, read)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(reads, " "), "/run/user/4242/secrets/a /run/user/4242/agenix/b /run/user/4242/100%"; got != want {
		t.Errorf("reads %q, want %q", got, want)
	}
	if envValue(plan.Env, "A") != "v" || envValue(plan.Env, "B") != "v" {
		t.Errorf("env %q", plan.Env)
	}
	// The darwin form is refused elsewhere, at run time, naming VAR.
	_, err = buildExecEnv([]string{"--env-file", "D=$(getconf DARWIN_USER_TEMP_DIR)/agenix/d", "--", "srv"}, environ, read)
	var ee *execError
	if !errors.As(err, &ee) || ee.code != execFailed || !strings.Contains(ee.msg, "D=") {
		t.Errorf("darwin form on %s: %v", runtime.GOOS, err)
	}
	// Any other placeholder is a usage error, found before any read.
	reads = nil
	for _, p := range []string{"%h/x", "${HOME}/x", "%r/../x"} {
		if _, err := buildExecEnv([]string{"--env-file", "E=" + p, "--", "srv"}, environ, read); !errors.As(err, &ee) || ee.code != execUsage {
			t.Errorf("%s: %v", p, err)
		}
	}
	if len(reads) != 0 {
		t.Errorf("read %q", reads)
	}
}
