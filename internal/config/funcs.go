package config

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/jsonesc"
	"github.com/agyconf/agyconf/internal/lazyre"
	"github.com/agyconf/agyconf/internal/model"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// MaxFileSize bounds every file agyconf reads while decoding: config files
// and file() arguments. A config is a few kilobytes; anything near this size
// is a mistake (a binary, a log) rather than configuration.
const MaxFileSize = 8 << 20

// secretMark marks a cty value that carries a secret_file() reference to
// path. HCL templates and functions keep marks, so "Bearer
// ${secret_file(…)}" stays marked with one mark per secret it holds.
type secretMark struct{ path string }

// The text secret_file() returns in place of the secret. The path is
// hex-encoded so that the token survives jsonencode() and templates
// unchanged and can never be confused with real text: a literal copy of it
// in the input carries no mark and is refused. jsonencode() adds or
// raises a ":jN" level inside each token it encodes, so that the value is
// escaped as many times as the text around it when it is substituted.
const (
	secretTokenPrefix = "@@agyconf:secret_file:"
	secretTokenSuffix = "@@"
)

var secretToken = lazyre.New(`@@agyconf:secret_file:([0-9a-f]*)(?::j([0-9]+))?@@`)

func secretTokenFor(path string, level int) string {
	t := secretTokenPrefix + hex.EncodeToString([]byte(path))
	if level > 0 {
		t += ":j" + strconv.Itoa(level)
	}
	return t + secretTokenSuffix
}

// escapedOnce raises the escape level of every secret token in s, the
// result of one jsonencode().
func escapedOnce(s string) (string, error) {
	deep := false
	out := secretToken().ReplaceAllStringFunc(s, func(tok string) string {
		m := secretToken().FindStringSubmatch(tok)
		path, _ := hex.DecodeString(m[1])
		level, _ := strconv.Atoi(m[2])
		if level >= jsonesc.MaxTimes {
			deep = true
		}
		return secretTokenFor(string(path), level+1)
	})
	if deep {
		return "", fmt.Errorf("a secret_file() inside more than %d jsonencode() calls; nest fewer", jsonesc.MaxTimes)
	}
	return out, nil
}

// splitSecrets turns a decoded string back into literal and secret parts.
func splitSecrets(s string) model.Str {
	var out model.Str
	last := 0
	for _, m := range secretToken().FindAllStringSubmatchIndex(s, -1) {
		if m[0] > last {
			out = append(out, model.Part{Text: s[last:m[0]]})
		}
		path, _ := hex.DecodeString(s[m[2]:m[3]])
		level := 0
		if m[4] >= 0 {
			level, _ = strconv.Atoi(s[m[4]:m[5]])
		}
		out = append(out, model.Part{SecretFile: string(path), JSONEscape: level})
		last = m[1]
	}
	if last < len(s) || len(out) == 0 {
		out = append(out, model.Part{Text: s[last:]})
	}
	return out
}

// notSecret refuses a secret reference where a plain path is needed: the
// secret would have to be read while decoding.
func notSecret(s string) error {
	if strings.Contains(s, secretTokenPrefix) {
		return errors.New("a secret_file() reference cannot be used as a path; secrets are only read when output is written")
	}
	return nil
}

// functions returns the functions available to expressions of one config
// file. baseDir is that file's folder: file() and abspath() resolve against
// it, never against the process's working directory, so the same input
// decodes the same wherever agyconf runs.
func functions(baseDir string, scope model.Scope, rec *recorder) map[string]function.Function {
	return map[string]function.Function{
		"abspath":     abspathFunc(baseDir, scope),
		"env":         envFunc(scope, rec),
		"file":        fileFunc(baseDir, scope, rec),
		"jsonencode":  jsonencodeFunc,
		"secret_file": secretFileFunc(scope, rec),
	}
}

// configDir returns the absolute folder of a config file, the base of its
// relative paths. It is absolute even when the config was named by a
// relative path, because abspath() and a skill's source promise absolute
// paths to the stages after decoding, which do not run in the same folder.
func configDir(filename string) string {
	dir := filepath.Dir(filename)
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}

// errWorkspace explains the one reason machine-specific functions are
// refused in workspace scope.
func errWorkspace(what string) error {
	return fmt.Errorf("%s is not allowed in workspace scope: a workspace's rendered tree is committed and checked with `agyconf render --check` on other machines, where this value would differ", what)
}

// jsonencodeFunc is cty's jsonencode, refusing numbers past maxExponent
// before printing them would take minutes.
var jsonencodeFunc = function.New(&function.Spec{
	Description: stdlib.JSONEncodeFunc.Description(),
	Params: []function.Parameter{{
		Name:             "val",
		Type:             cty.DynamicPseudoType,
		AllowDynamicType: true,
		AllowNull:        true,
	}},
	Type: function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if hugeNumber(args[0]) {
			return cty.NilVal, errors.New(errHugeNumber)
		}
		v, err := stdlib.JSONEncodeFunc.Call(args)
		if err != nil || !v.IsKnown() {
			return v, err
		}
		// Each jsonencode around another escapes the quotes and backslashes
		// of the one inside, doubling them: 30 nested calls on "x" would
		// take gigabytes. Bounding every result bounds the next one's input.
		s, marks := v.Unmark()
		if s.IsNull() {
			return v, nil
		}
		if len(s.AsString()) > MaxFileSize {
			return cty.NilVal, fmt.Errorf("the result would be %d bytes, more than the %d bytes a config file may hold; encode less, or nest fewer jsonencode() calls", len(s.AsString()), MaxFileSize)
		}
		if strings.Contains(s.AsString(), secretTokenPrefix) {
			// A secret inside is escaped once more when it is read.
			out, err := escapedOnce(s.AsString())
			if err != nil {
				return cty.NilVal, err
			}
			return cty.StringVal(out).WithMarks(marks), nil
		}
		return v, nil
	},
})

func envFunc(scope model.Scope, rec *recorder) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the value of an environment variable; an unset variable is an error unless a default is given.",
		Params:      []function.Parameter{{Name: "name", Type: cty.String}},
		VarParam:    &function.Parameter{Name: "default", Type: cty.String},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if scope == model.ScopeWorkspace {
				return cty.NilVal, errWorkspace("env()")
			}
			if len(args) > 2 {
				return cty.NilVal, errors.New("env() takes a name and at most one default value")
			}
			name := args[0].AsString()
			rec.add("env", name, envSum(name))
			if v, ok := os.LookupEnv(name); ok {
				return cty.StringVal(v), nil
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return cty.NilVal, fmt.Errorf("environment variable %q is not set; give a default as env(%q, \"…\") if that is expected", name, name)
		},
	})
}

func abspathFunc(baseDir string, scope model.Scope) function.Function {
	return function.New(&function.Spec{
		Description: "Returns a path made absolute against the folder of the config file that calls it.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if scope == model.ScopeWorkspace {
				return cty.NilVal, errWorkspace("abspath()")
			}
			p := args[0].AsString()
			if err := notSecret(p); err != nil {
				return cty.NilVal, err
			}
			if p == "" {
				return cty.NilVal, errors.New("path is empty")
			}
			if !filepath.IsAbs(p) {
				p = filepath.Join(baseDir, p)
			}
			return cty.StringVal(filepath.Clean(p)), nil
		},
	})
}

func fileFunc(baseDir string, scope model.Scope, rec *recorder) function.Function {
	return function.New(&function.Spec{
		Description: "Returns the contents of a UTF-8 file, relative to the config file's folder and confined to it unless the path is absolute.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			if err := notSecret(p); err != nil {
				return cty.NilVal, err
			}
			full, err := confinedPath(baseDir, p, scope)
			if err != nil {
				return cty.NilVal, err
			}
			data, err := readLimited(full)
			if err != nil {
				return cty.NilVal, err
			}
			rec.add("file", absPath(full), sumBytes(data))
			if !utf8.Valid(data) {
				return cty.NilVal, fmt.Errorf("%s is not valid UTF-8 text", p)
			}
			return cty.StringVal(string(data)), nil
		},
	})
}

// confinedPath resolves p against baseDir and refuses a relative path that
// leaves it, also through symbolic links: a config must not be able to read
// ~/.ssh by writing file("../../.ssh/id_ed25519"). An absolute path is an
// explicit choice and is allowed, except in workspace scope, where the file
// would not exist on the machines that check the committed tree.
func confinedPath(baseDir, p string, scope model.Scope) (string, error) {
	if p == "" {
		return "", errors.New("path is empty")
	}
	if filepath.IsAbs(p) {
		if scope == model.ScopeWorkspace {
			return "", errWorkspace("an absolute path")
		}
		return filepath.Clean(p), nil
	}
	full := filepath.Join(baseDir, p)
	if !within(baseDir, full) {
		return "", fmt.Errorf("%s is outside the config folder %s; relative paths must stay inside it (use an absolute path to read elsewhere)", p, baseDir)
	}
	realBase, err := filepath.EvalSymlinks(baseDir)
	if err != nil {
		return "", err
	}
	realFull, err := filepath.EvalSymlinks(full)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s does not exist (resolved against %s)", p, baseDir)
		}
		return "", err
	}
	if !within(realBase, realFull) {
		return "", fmt.Errorf("%s leads outside the config folder %s through a symbolic link", p, baseDir)
	}
	return full, nil
}

func within(base, p string) bool {
	rel, err := filepath.Rel(base, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readLimited reads a regular file of at most MaxFileSize bytes, without
// blocking: a FIFO or a device named by the config is refused at once.
func readLimited(path string) ([]byte, error) { return confine.ReadFile(path, MaxFileSize) }

func secretFileFunc(scope model.Scope, rec *recorder) function.Function {
	return function.New(&function.Spec{
		Description: "Refers to a file holding a secret. The file is read only when the output is written, never while decoding or validating, and its contents are redacted everywhere else.",
		Params:      []function.Parameter{{Name: "path", Type: cty.String}},
		Type:        function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if scope == model.ScopeWorkspace {
				return cty.NilVal, errors.New("secret_file() is not allowed in workspace scope: the rendered tree is committed, so the secret would be committed with it; keep secrets in a global config")
			}
			p := args[0].AsString()
			if err := notSecret(p); err != nil {
				return cty.NilVal, err
			}
			// A path sops-nix or agenix hands out may name the runtime
			// folder (%r/…, ${XDG_RUNTIME_DIR}/…): kept as written, and
			// expanded only where the secret is read.
			if err := secretpath.Check(p); err != nil {
				return cty.NilVal, fmt.Errorf("secret_file() %v", err)
			}
			rec.add("stat", p, statSum(p))
			return cty.StringVal(secretTokenFor(p, 0)).Mark(secretMark{path: p}), nil
		},
	})
}
