package confine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// pathFuncs are the calls that touch the filesystem by path. Outside this
// package each one must be on the allowlist below; everything under a
// render root goes through a Root instead.
var pathFuncs = map[string]map[string]bool{
	"os": set("Open", "OpenFile", "Create", "ReadFile", "WriteFile", "Mkdir", "MkdirAll", "MkdirTemp",
		"CreateTemp", "Remove", "RemoveAll", "Rename", "Stat", "Lstat", "Readlink", "ReadDir", "Chmod",
		"Chown", "Lchown", "Chtimes", "Symlink", "Link", "Truncate", "DirFS", "OpenRoot", "OpenInRoot", "Chdir"),
	"path/filepath":                 set("EvalSymlinks", "Walk", "WalkDir", "Glob"),
	"github.com/google/renameio/v2": nil, // every function
	"github.com/gofrs/flock":        set("New"),
}

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// allowed lists, by "file function call", every path call outside this
// package, and why it may go by path. The files a user names — configs,
// file() and secret_file() arguments, skill sources, the trees validate,
// import and hook test read, the outputs of fmt, init and import — may be
// anywhere (Home Manager puts them in /nix/store) and are not below a
// render root; agyhook is a separate program that agy runs, with its own
// state folder and no root.
var allowed = map[string]string{
	// The config loader: paths the user names on the command line or in
	// the config.
	"internal/config/parser.go ConfigFiles os.Stat":                   "the config path the user names",
	"internal/config/parser.go ConfigFiles os.ReadDir":                "the config folder the user names (a listing cannot block)",
	"internal/config/parser.go ParseFile os.Stat":                     "a config file, sized before its bounded read",
	"internal/config/decode.go LoadConfig os.Stat":                    "the config path the user names",
	"internal/config/helpers.go isFile os.Stat":                       "whether a path the config names is a file",
	"internal/config/inputs.go statSum os.Stat":                       "a secret file, by stat only: it is never read while decoding",
	"internal/config/funcs.go confinedPath filepath.EvalSymlinks":     "file() stays inside the config folder, also through links",
	"internal/config/skillsource.go readSkillFolder filepath.WalkDir": "a skill's source folder the config names; each file is then read bounded",
	// The CLI: roots, configs and outputs named on the command line.
	"internal/engine/open.go RenderRoot os.Stat":        "the render root itself, before it is opened as a Root",
	"internal/cli/render.go identity os.Stat":           "agyconf's own executable, for the cache key",
	"internal/engine/open.go claimsUnnamed os.Stat":     "whether the config a state last rendered from still exists",
	"internal/cli/validate.go defaultConfig os.Stat":    "whether the default config exists",
	"internal/cli/validate.go configHere os.Stat":       "whether the working folder holds a config (agyconf.hcl, agyconf.json, agyconf/), to name it when there is no default one",
	"internal/engine/cachewarn.go configBase os.Stat":   "whether the config path the user names is a file or a folder, to name its files as decoding does",
	"internal/apply/apply.go hmSwitch os.Lstat":         "whether the Home Manager generation about to be linked (in the store, outside the root) links a path; nothing of it is read",
	"internal/engine/secrets.go statExpanded os.Stat":   "whether a secret file exists yet (exec mode) or could be read (validate, which never reads one), at its expanded runtime path",
	"internal/cli/fmt.go fmtFiles os.Stat":              "the config path fmt is given",
	"internal/cli/fmt.go fmtFiles os.ReadDir":           "the config folder fmt is given",
	"internal/cli/fmt.go fmtFile filepath.EvalSymlinks": "fmt rewrites where a link points, not the link",
	"internal/cli/fmt.go fmtFile os.Stat":               "the mode of the file fmt rewrites",
	"internal/cli/hooktest.go hooksFromConfig os.Stat":  "whether the folder a handler would run in exists",
	"internal/cli/hooktest.go runHandler os.MkdirTemp":  "an empty folder for a handler whose own does not exist yet",
	"internal/cli/hooktest.go runHandler os.RemoveAll":  "that empty folder, afterwards",
	// doctor: paths agy reports beside paths the plan writes.
	"internal/doctor/compare.go Resolve filepath.EvalSymlinks": "where a path agy reports and a path the plan writes lead, to compare them (nothing is read)",
	// validate PATH: the trees the user names, wherever they are; each
	// file is read bounded (readLimited).
	"internal/lint/lookpath.go listNames os.OpenFile":         "the names in a folder of PATH, to find the programs hooks and servers name (validate PATH's machine-dependent rules; nothing is read)",
	"internal/lint/lookpath.go search os.Stat":                "whether a program found on PATH is an executable, as exec.LookPath checks",
	"internal/lint/paths.go search os.Stat":                   "a PATH validate is given",
	"internal/lint/paths.go walk os.ReadDir":                  "the tree under a PATH validate is given (the walk follows no link to a folder below it)",
	"internal/lint/paths.go discover filepath.EvalSymlinks":   "where the folder validate walks is, its links resolved, for mayFollow (nothing is read)",
	"internal/lint/paths.go mayFollow filepath.EvalSymlinks":  "where a link to a file validate would read through leads, to refuse one out of a workspace or a plugin (nothing is read)",
	"internal/trust/trust.go canonical filepath.EvalSymlinks": "where a workspace folder and a trusted folder agy recorded lead, to compare them (nothing is read)",
	"internal/lint/check.go pluginHooksRoot os.Lstat":         "whether a plugin validate reads has a hooks/hooks.json beside its root hooks.json (existence only, nothing read)",
	"internal/lint/paths.go Files os.Lstat":                   "whether a plugin has a root hooks.json beside its hooks/hooks.json (existence only; the file is read through readLimited)",
	"internal/lint/check.go readLimited os.Readlink":          "the target a link validate could not read through names, for its message (nothing is read)",
	"internal/lint/paths.go fileIsPluginDir os.Stat":          "whether a folder validate walks is a plugin",
	"internal/lint/check.go newChecker os.Stat":               "whether the absolute program a hook or MCP server runs exists and is executable here (a stat, never a read)",
	"internal/lint/markdown.go includeRoots os.Lstat":         "whether a folder above a rule validate reads is a git work tree (existence only, nothing read)",
	"internal/lint/markdown.go missingIncludes os.Stat":       "whether the file a rule's @path include names exists (validate PATH's machine-dependent rule; existence only, nothing read)",
	// import: the tree --root names is read through a Root opened there
	// (importer/tree.go); --out is opened as a Root.
	"internal/cli/import.go runImport os.Stat":     "whether --out is a folder, and holds a config already",
	"internal/importer/tree.go stat os.Stat":       "in global scope only (Options.FollowLinksOut), a name through a link out of the user's own home (or one that dangles), which the Root refused",
	"internal/importer/tree.go readDir os.ReadDir": "in global scope only (Options.FollowLinksOut), a folder through a link out of the user's own home, once stat said it is a folder",
	// agyhook: a separate program agy runs as a hook, standard library
	// only (cmd/agyhook's deps test), with its own state folder and no
	// render root; its reads of what agy sends are bounded and
	// non-blocking there (execenv_unix.go, payload.go).
	"internal/agyhook/": "agyhook's own program, state folder and logs",
	// Only tests import it: the scripts' exit-code records in $WORK.
	"internal/clitest/": "the test scripts' own files",
	// Only tests import it: the scratch home the tests run in.
	"internal/testhome/": "the scratch home it makes, lists and removes",
	// A benchmark's floor, never part of agyconf: it must not share
	// agyconf's writer, or the floor would move with it.
	"scripts/floor/": "scripts/bench.sh's floor program, writing a benchmark's scratch tree",
	// The same for the benchmark's timer: it writes its one figure where
	// bench.sh says, and is never part of agyconf either.
	"scripts/measure/": "scripts/bench.sh's timer, writing one run's figures to the benchmark's scratch file",
	"scripts/agyrace/": "a measurement: an agy stand-in writing its own scratch tree in a temporary folder, as agy writes its files",
}

// TestPathCallsConfined fails on a path call outside this package that is
// not on the allowlist, and on an allowlist entry no code needs any more.
func TestPathCallsConfined(t *testing.T) {
	moduleRoot := filepath.Join("..", "..")
	found := map[string][]string{}
	err := filepath.WalkDir(moduleRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(moduleRoot, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && rel != ".") || rel == "internal/confine" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		for _, call := range pathCalls(t, p) {
			key := rel + " " + call.fn + " " + call.name
			found[key] = append(found[key], call.pos)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range found {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if allowedPackage(k) {
			continue
		}
		if _, ok := allowed[k]; !ok {
			t.Errorf("%s: a path call outside internal/confine (%s); go through a confine.Root, or read with confine.ReadFile, or add it to the allowlist with the reason it may go by path", strings.Join(found[k], ", "), k)
		}
	}
	for k := range allowed {
		if strings.HasSuffix(k, "/") {
			if !anyIn(found, k) {
				t.Errorf("allowlist entry %q matches no call any more: remove it", k)
			}
			continue
		}
		if _, ok := found[k]; !ok {
			t.Errorf("allowlist entry %q matches no call any more: remove it", k)
		}
	}
	if len(found) == 0 {
		t.Fatal("found no path call at all: the walk is broken")
	}
}

// allowedPackage reports whether a call's file is in a package the
// allowlist names whole (an entry ending in "/").
func allowedPackage(key string) bool {
	for k := range allowed {
		if strings.HasSuffix(k, "/") && strings.HasPrefix(key, k) && !strings.Contains(key[len(k):strings.Index(key, " ")], "/") {
			return true
		}
	}
	return false
}

func anyIn(found map[string][]string, prefix string) bool {
	for k := range found {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

type pathCall struct{ fn, name, pos string }

// pathCalls lists the path calls of one file, with the function each is
// in ("" at package level).
func pathCalls(t *testing.T, file string) []pathCall {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string]string{} // local name -> import path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if strings.HasPrefix(name, "v") && strings.Contains(path, "/") {
			if _, err := strconv.Atoi(name[1:]); err == nil { // ".../v2": the package is the segment before
				parts := strings.Split(path, "/")
				name = parts[len(parts)-2]
			}
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	var out []pathCall
	for _, decl := range f.Decls {
		fn := ""
		if fd, ok := decl.(*ast.FuncDecl); ok {
			fn = fd.Name.Name
		}
		ast.Inspect(decl, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			funcs, known := pathFuncs[imports[id.Name]]
			if !known || (funcs != nil && !funcs[sel.Sel.Name]) {
				return true
			}
			out = append(out, pathCall{fn: fn, name: id.Name + "." + sel.Sel.Name, pos: fset.Position(sel.Pos()).String()})
			return true
		})
	}
	return out
}
