package nix_test

// Tests of flake.nix and scripts/vendor-hash.sh. There is no nixpkgs here,
// so flake.nix's outputs are evaluated against a builtins-only stand-in
// (tests/nix/flake/fake-pkgs.nix, driven by tests/nix/flake/eval.nix) whose
// builders record their arguments: these tests check what the flake asks
// nixpkgs for, not that nixpkgs builds it.
//
// Without nix-instantiate (or go, nix for the vendor hash) the tests skip,
// unless CI is set: then they fail.

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

var flakeSystems = []string{"x86_64-linux", "aarch64-linux", "x86_64-darwin", "aarch64-darwin"}

// flakeSrcPaths is what the flake's src holds, relative to the repository.
var flakeSrcPaths = []string{"cmd", "go.mod", "go.sum", "internal", "schema", "templates"}

// flakeVersionVars are the -X targets, per binary, and the Go file that
// must declare each.
var flakeVersionVars = map[string]struct{ ldflag, file string }{
	"agyconf": {"github.com/agyconf/agyconf/internal/cli.version", "internal/cli/cli.go"},
	"agyhook": {"main.version", "cmd/agyhook/main.go"},
}

// flakeNeed skips the test when a tool is missing, or fails it under CI.
func flakeNeed(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not on PATH (required when CI is set)", tool)
			}
			how := "install it"
			if strings.HasPrefix(tool, "nix") {
				how = "install Nix (Debian: sudo apt-get install nix-bin; .ci/run does)"
			}
			t.Skipf("%s is not on PATH; to run this test: %s, then CI=true go test ./tests/nix/", tool, how)
		}
	}
}

func flakeRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "flake.nix")); err != nil {
		t.Fatalf("no flake.nix at the repository root: %v", err)
	}
	return root
}

func flakeRun(t *testing.T, dir, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

// flakeEval runs tests/nix/flake/eval.nix. restrict-eval with -I root
// keeps the evaluation inside the repository, as a flake's would be;
// dummy:// means nothing is written to a store.
func flakeEval(t *testing.T, root string, extra ...string) (string, string, error) {
	t.Helper()
	args := []string{
		"--eval", "--strict", "--json",
		"--store", "dummy://",
		"--option", "restrict-eval", "true",
		"-I", root,
		filepath.Join(root, "tests", "nix", "flake", "eval.nix"),
		"--argstr", "root", root,
	}
	return flakeRun(t, root, "nix-instantiate", append(args, extra...)...)
}

type flakeRecord struct {
	Builder     string         `json:"_builder"`
	Set         string         `json:"_set"`
	Pname       string         `json:"pname"`
	Version     string         `json:"version"`
	SubPackages []string       `json:"subPackages"`
	Env         map[string]any `json:"env"`
	Ldflags     []string       `json:"ldflags"`
	VendorHash  string         `json:"vendorHash"`
	Meta        struct {
		Description string `json:"description"`
		Homepage    string `json:"homepage"`
		MainProgram string `json:"mainProgram"`
		License     struct {
			SpdxID string `json:"spdxId"`
		} `json:"license"`
	} `json:"meta"`
	Src struct {
		Type  string   `json:"_type"`
		Root  string   `json:"root"`
		Paths []string `json:"paths"`
	} `json:"src"`
	// runCommand
	Name    string `json:"name"`
	Command string `json:"command"`
	// mkShell
	Packages []string `json:"packages"`
}

type flakeSummary struct {
	Description string `json:"description"`
	Inputs      map[string]struct {
		URL string `json:"url"`
	} `json:"inputs"`
	OutputArgs        map[string]bool                   `json:"outputArgs"`
	OutputNames       []string                          `json:"outputNames"`
	Packages          map[string]map[string]flakeRecord `json:"packages"`
	Checks            map[string]map[string]flakeRecord `json:"checks"`
	DevShells         map[string]map[string]flakeRecord `json:"devShells"`
	Formatter         map[string]flakeRecord            `json:"formatter"`
	OverlayIsFunction bool                              `json:"overlayIsFunction"`
	Overlay           map[string]flakeRecord            `json:"overlay"`
	HomeManager       map[string]string                 `json:"homeManagerModules"`
	HomeModules       map[string]string                 `json:"homeModules"`
}

func flakeKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func TestFlakeParse(t *testing.T) {
	flakeNeed(t, "nix-instantiate")
	root := flakeRoot(t)
	for _, f := range []string{"flake.nix", "tests/nix/flake/fake-pkgs.nix", "tests/nix/flake/eval.nix"} {
		if _, stderr, err := flakeRun(t, root, "nix-instantiate", "--parse", "--store", "dummy://", f); err != nil {
			t.Errorf("nix-instantiate --parse %s: %v\n%s", f, err, stderr)
		}
	}
}

func TestFlakeOutputs(t *testing.T) {
	flakeNeed(t, "nix-instantiate")
	root := flakeRoot(t)
	if lic, err := os.ReadFile(filepath.Join(root, "LICENSE")); err != nil || !strings.HasPrefix(string(lic), "MIT License\n") {
		t.Errorf("meta.license says MIT, but LICENSE is not the MIT license (%v)", err)
	}

	stdout, stderr, err := flakeEval(t, root)
	if err != nil {
		t.Fatalf("evaluating flake.nix against the stand-in: %v\n%s", err, stderr)
	}
	var s flakeSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("decoding the evaluation: %v\n%s", err, stdout)
	}

	hashBytes, err := os.ReadFile(filepath.Join(root, "nix", "vendor-hash"))
	if err != nil {
		t.Fatal(err)
	}
	vendorHash := strings.TrimSuffix(string(hashBytes), "\n")
	if !regexp.MustCompile(`^sha256-[A-Za-z0-9+/]{43}=$`).MatchString(vendorHash) {
		t.Errorf("nix/vendor-hash is not one line holding an SRI sha256: %q", hashBytes)
	}

	flakeText, err := os.ReadFile(filepath.Join(root, "flake.nix"))
	if err != nil {
		t.Fatal(err)
	}
	for _, impure := range []string{"flake-utils", "currentSystem", "getEnv", "currentTime"} {
		if bytes.Contains(flakeText, []byte(impure)) {
			t.Errorf("flake.nix mentions %s", impure)
		}
	}

	t.Run("inputs", func(t *testing.T) {
		if got := flakeKeys(s.Inputs); !slices.Equal(got, []string{"nixpkgs"}) {
			t.Errorf("inputs = %v, want only nixpkgs", got)
		}
		if url := s.Inputs["nixpkgs"].URL; !strings.HasPrefix(url, "github:NixOS/nixpkgs/") {
			t.Errorf("inputs.nixpkgs.url = %q", url)
		}
		if got := flakeKeys(s.OutputArgs); !slices.Equal(got, []string{"nixpkgs", "self"}) {
			t.Errorf("outputs takes %v, want nixpkgs and self", got)
		}
		if s.Description == "" {
			t.Error("no description")
		}
		want := []string{"checks", "devShells", "formatter", "homeManagerModules", "homeModules", "overlays", "packages"}
		if !slices.Equal(s.OutputNames, want) {
			t.Errorf("outputs = %v, want %v", s.OutputNames, want)
		}
	})

	// checkPackage checks one buildGoModule call; set is the package set
	// whose builder must have made it.
	var version string
	checkPackage := func(t *testing.T, where string, p flakeRecord, pname, set string) {
		t.Helper()
		if p.Builder != "buildGoModule" || p.Set != set {
			t.Errorf("%s: built by %s of %s, want buildGoModule of %s", where, p.Builder, p.Set, set)
		}
		if p.Pname != pname {
			t.Errorf("%s: pname = %q, want %q", where, p.Pname, pname)
		}
		if p.Version == "" {
			t.Errorf("%s: no version", where)
		}
		if version == "" {
			version = p.Version
		} else if p.Version != version {
			t.Errorf("%s: version %q, elsewhere %q", where, p.Version, version)
		}
		want := []string{"cmd/" + pname}
		if pname == "agyhook" {
			// The MCP bridge ships with agyhook (docs/agyhook.md, "bridge").
			want = append(want, "cmd/agyhook-bridge")
		}
		if !slices.Equal(p.SubPackages, want) {
			t.Errorf("%s: subPackages = %v, want %v", where, p.SubPackages, want)
		}
		if cgo, ok := p.Env["CGO_ENABLED"]; !ok || cgo != float64(0) {
			t.Errorf("%s: env.CGO_ENABLED = %v (set %v), want 0", where, cgo, ok)
		}
		for _, f := range []string{"-s", "-w", "-X " + flakeVersionVars[pname].ldflag + "=" + p.Version} {
			if !slices.Contains(p.Ldflags, f) {
				t.Errorf("%s: ldflags %q lack %q", where, p.Ldflags, f)
			}
		}
		if p.VendorHash != vendorHash {
			t.Errorf("%s: vendorHash = %q, nix/vendor-hash has %q", where, p.VendorHash, vendorHash)
		}
		// The LICENSE file at the root is MIT.
		if p.Meta.MainProgram != pname || p.Meta.Description == "" || p.Meta.Homepage == "" || p.Meta.License.SpdxID != "MIT" {
			t.Errorf("%s: meta = %+v", where, p.Meta)
		}
		if p.Src.Type != "toSource" || p.Src.Root != root {
			t.Errorf("%s: src is %q rooted at %q, want lib.fileset.toSource at %s", where, p.Src.Type, p.Src.Root, root)
		}
		var rel []string
		for _, path := range p.Src.Paths {
			r, err := filepath.Rel(root, path)
			if err != nil || strings.HasPrefix(r, "..") {
				t.Errorf("%s: src holds %s, outside the repository", where, path)
				continue
			}
			rel = append(rel, r)
		}
		sort.Strings(rel)
		if !slices.Equal(rel, flakeSrcPaths) {
			t.Errorf("%s: src holds %v, want %v", where, rel, flakeSrcPaths)
		}
	}

	t.Run("packages", func(t *testing.T) {
		if got := flakeKeys(s.Packages); !slices.Equal(got, flakeKeys(flakeSet(flakeSystems))) {
			t.Errorf("packages has systems %v, want %v", got, flakeSystems)
		}
		for _, sys := range flakeSystems {
			ps := s.Packages[sys]
			if got := flakeKeys(ps); !slices.Equal(got, []string{"agyconf", "agyhook", "default"}) {
				t.Errorf("packages.%s = %v, want agyconf, agyhook, default", sys, got)
			}
			for _, name := range []string{"agyconf", "agyhook"} {
				checkPackage(t, "packages."+sys+"."+name, ps[name], name, "legacyPackages."+sys)
			}
			if ps["default"].Pname != "agyconf" {
				t.Errorf("packages.%s.default is %q, want agyconf", sys, ps["default"].Pname)
			}
		}
	})

	t.Run("version variables", func(t *testing.T) {
		// The -X targets must exist, or the linker silently ignores them.
		for name, v := range flakeVersionVars {
			src, err := os.ReadFile(filepath.Join(root, v.file))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if !regexp.MustCompile(`(?m)^var version\b`).Match(src) {
				t.Errorf("%s: %s declares no package-level `var version` for -X %s", name, v.file, v.ldflag)
			}
		}
	})

	t.Run("src matches vendor-hash.sh", func(t *testing.T) {
		script, err := os.ReadFile(filepath.Join(root, "scripts", "vendor-hash.sh"))
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?m)^SRC_PATHS=\(([^)]*)\)`).FindSubmatch(script)
		if m == nil {
			t.Fatal("scripts/vendor-hash.sh has no SRC_PATHS=(…) line")
		}
		paths := strings.Fields(string(m[1]))
		sort.Strings(paths)
		if !slices.Equal(paths, flakeSrcPaths) {
			t.Errorf("vendor-hash.sh vendors %v, the flake's src holds %v", paths, flakeSrcPaths)
		}
	})

	t.Run("src covers the Go build", func(t *testing.T) {
		// Every package directory of this module that the binaries need
		// (embedded files live in their package's directory) must be in
		// src. Without go, check at least the //go:embed directories.
		var dirs []string
		if _, err := exec.LookPath("go"); err == nil {
			out, stderr, err := flakeRun(t, root, "go", "list", "-e", "-deps",
				"-f", "{{if not .Standard}}{{.Dir}}{{end}}", "./cmd/agyconf", "./cmd/agyhook", "./cmd/agyhook-bridge")
			if err != nil {
				t.Fatalf("go list: %v\n%s", err, stderr)
			}
			dirs = strings.Fields(out)
		} else {
			dirs = flakeEmbedDirs(t, root)
		}
		for _, dir := range dirs {
			rel, err := filepath.Rel(root, dir)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue // a dependency in the module cache
			}
			top := strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
			if !slices.Contains(flakeSrcPaths, top) {
				t.Errorf("the build needs %s, which the flake's src leaves out", rel)
			}
		}
	})

	t.Run("overlay", func(t *testing.T) {
		if !s.OverlayIsFunction {
			t.Fatal("overlays.default is not a function")
		}
		for _, name := range []string{"agyconf", "agyhook"} {
			p, ok := s.Overlay[name]
			if !ok {
				t.Errorf("overlays.default adds no %s (adds %v)", name, flakeKeys(s.Overlay))
				continue
			}
			checkPackage(t, "overlay "+name, p, name, "final")
		}
	})

	t.Run("homeManagerModules", func(t *testing.T) {
		// Paths, so that importing one twice is harmless; their package
		// defaults are the module's own (tests/nix/hm_test.go).
		want := map[string]string{
			"default": filepath.Join(root, "module.nix"),
			"agyconf": filepath.Join(root, "nix", "module", "agyconf.nix"),
		}
		for name, outs := range map[string]map[string]string{"homeManagerModules": s.HomeManager, "homeModules": s.HomeModules} {
			if !reflect.DeepEqual(outs, want) {
				t.Errorf("%s = %v, want %v", name, outs, want)
			}
		}
	})

	t.Run("checks", func(t *testing.T) {
		for _, sys := range flakeSystems {
			cs := s.Checks[sys]
			for _, name := range []string{"agyconf", "agyhook"} {
				checkPackage(t, "checks."+sys+"."+name, cs[name], name, "legacyPackages."+sys)
			}
			v, ok := cs["validate-example"]
			if !ok {
				t.Errorf("checks.%s has no validate-example (has %v)", sys, flakeKeys(cs))
				continue
			}
			if v.Builder != "runCommand" || v.Set != "legacyPackages."+sys {
				t.Errorf("checks.%s.validate-example: built by %s of %s", sys, v.Builder, v.Set)
			}
			if !regexp.MustCompile(`agyconf validate --offline --config /nix/store/[0-9a-z]{32}-nix-json\n`).MatchString(v.Command) {
				t.Errorf("checks.%s.validate-example does not validate examples/nix-json:\n%s", sys, v.Command)
			}
			var inputs []string
			if nbi, ok := v.Env["nativeBuildInputs"].([]any); ok {
				for _, i := range nbi {
					if m, ok := i.(map[string]any); ok {
						inputs = append(inputs, m["pname"].(string)+" of "+m["_set"].(string))
					}
				}
			}
			if want := []string{"agyconf of legacyPackages." + sys}; !slices.Equal(inputs, want) {
				t.Errorf("checks.%s.validate-example: nativeBuildInputs = %v, want %v", sys, inputs, want)
			}
		}
	})

	t.Run("devShells and formatter", func(t *testing.T) {
		for _, sys := range flakeSystems {
			d, ok := s.DevShells[sys]["default"]
			if !ok || d.Builder != "mkShell" {
				t.Errorf("devShells.%s.default is not a mkShell", sys)
			}
			for _, p := range []string{"go", "gopls", "nixfmt"} {
				if !slices.Contains(d.Packages, p) {
					t.Errorf("devShells.%s.default lacks %s (has %v)", sys, p, d.Packages)
				}
			}
			if f := s.Formatter[sys]; f.Pname != "nixfmt" {
				t.Errorf("formatter.%s = %q, want nixfmt", sys, f.Pname)
			}
		}
	})
}

func flakeSet(xs []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// flakeEmbedDirs lists the directories of non-test Go files with a
// //go:embed directive, outside tests/.
func flakeEmbedDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "tests" || name == "vendor" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(src, []byte("//go:embed")) {
			dirs = append(dirs, filepath.Dir(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func TestVendorHashFresh(t *testing.T) {
	flakeNeed(t, "bash", "go", "nix")
	root := flakeRoot(t)
	stdout, stderr, err := flakeRun(t, root, "bash", filepath.Join(root, "scripts", "vendor-hash.sh"), "--check")
	// go mod vendor needs every module of every platform's files (a
	// Windows-only dependency included) in the module cache, offline;
	// go test downloads only this platform's. On a fresh machine that is
	// a missing prerequisite, like a missing tool; CI downloads them all
	// first (.ci/run: go mod download), so there it is a failure.
	if err != nil && os.Getenv("CI") == "" && strings.Contains(stderr, "module cache must hold every module") {
		t.Skipf("the module cache lacks modules go mod vendor needs; to run this check: go mod download && scripts/vendor-hash.sh --check")
	}
	if err != nil {
		t.Fatalf("scripts/vendor-hash.sh --check: %v\n%s%s", err, stdout, stderr)
	}
}

// TestFlakeNixEval evaluates the flake through Nix's flake machinery (pure
// evaluation, `self` made by Nix, the source copied the way `nix build`
// copies it) with nixpkgs overridden by the stand-in flake in
// tests/nix/flake. Everything goes to a throwaway local store; no flake.lock
// is written and nothing is fetched.
func TestFlakeNixEval(t *testing.T) {
	flakeNeed(t, "nix")
	root := flakeRoot(t)
	store := t.TempDir()
	t.Cleanup(func() {
		// Store paths are read-only; let TempDir's cleanup remove them.
		_ = filepath.WalkDir(store, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(path, 0o755)
			}
			return nil
		})
	})
	eval := func(attr, apply string, v any) {
		t.Helper()
		stdout, stderr, err := flakeRun(t, root, "nix",
			"--extra-experimental-features", "nix-command flakes",
			"eval", "--json",
			"--store", store,
			"--no-use-registries", "--no-write-lock-file",
			"--override-input", "nixpkgs", "path:"+filepath.Join(root, "tests", "nix", "flake"),
			"path:"+root+"#"+attr, "--apply", apply)
		if err != nil {
			t.Fatalf("nix eval .#%s: %v\n%s", attr, err, stderr)
		}
		if err := json.Unmarshal([]byte(stdout), v); err != nil {
			t.Fatalf("nix eval .#%s: %v\n%s", attr, err, stdout)
		}
	}

	type pkg struct {
		Pname, Version, VendorHash, Set string
		Src                             []string
	}
	var packages map[string]map[string]pkg
	eval("packages", `builtins.mapAttrs (_: builtins.mapAttrs (_: p: {
		Pname = p.pname; Version = p.version; VendorHash = p.vendorHash; Set = p._set;
		Src = map baseNameOf p.src.paths; }))`, &packages)
	hash, err := os.ReadFile(filepath.Join(root, "nix", "vendor-hash"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sys := range flakeSystems {
		for _, name := range []string{"agyconf", "agyhook", "default"} {
			p := packages[sys][name]
			want := name
			if name == "default" {
				want = "agyconf"
			}
			if p.Pname != want || p.Version == "" || p.Set != "legacyPackages."+sys {
				t.Errorf("packages.%s.%s = %+v", sys, name, p)
			}
			if p.VendorHash != strings.TrimSpace(string(hash)) {
				t.Errorf("packages.%s.%s: vendorHash %q, nix/vendor-hash has %q", sys, name, p.VendorHash, hash)
			}
			src := slices.Clone(p.Src)
			sort.Strings(src)
			if !slices.Equal(src, flakeSrcPaths) {
				t.Errorf("packages.%s.%s: src holds %v, want %v", sys, name, src, flakeSrcPaths)
			}
		}
	}

	var checks map[string][]string
	eval("checks", `builtins.mapAttrs (_: builtins.attrNames)`, &checks)
	for _, sys := range flakeSystems {
		if want := []string{"agyconf", "agyhook", "validate-example"}; !slices.Equal(checks[sys], want) {
			t.Errorf("checks.%s = %v, want %v", sys, checks[sys], want)
		}
	}

	for _, out := range []string{"homeManagerModules", "homeModules"} {
		var modules map[string]string
		eval(out, `builtins.mapAttrs (_: m: if builtins.isPath m then baseNameOf m else "not a path")`, &modules)
		if modules["default"] != "module.nix" || modules["agyconf"] != "agyconf.nix" || len(modules) != 2 {
			t.Errorf("%s: %v, want the paths module.nix and nix/module/agyconf.nix", out, modules)
		}
	}
}
