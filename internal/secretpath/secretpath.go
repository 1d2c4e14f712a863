// Package secretpath reads the paths of secret files as secret managers
// write them: absolute, or starting with a placeholder for the user's
// runtime folder that only the machine reading the secret can resolve.
//
// sops-nix and agenix decrypt a user's secrets into that folder, and their
// Home Manager modules hand out paths that name it symbolically: sops-nix
// "%r/<name>" (%r: $XDG_RUNTIME_DIR on Linux, `getconf
// DARWIN_USER_TEMP_DIR` on darwin; "%%" is a literal "%"), agenix
// "${XDG_RUNTIME_DIR}/agenix/<name>" on Linux and "$(<store
// path>/bin/getconf DARWIN_USER_TEMP_DIR)/agenix/<name>" on darwin. Such a
// path is kept as written everywhere agyconf carries it (the model, the
// rendered exec-env arguments, the state) and expanded only where the
// secret is read, on the machine and in the session that reads it: never
// while a Nix build evaluates, which knows neither.
//
// Only the standard library: agyhook exec-env uses it (cmd/agyhook's
// dependency test).
package secretpath

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"runtime"
	"strconv"
	"strings"
)

// Placeholder prefixes, each followed by "/" and a clean relative path.
const (
	// SopsRuntime is sops-nix's %r.
	SopsRuntime = "%r"
	// XDGRuntime is agenix's Linux default, as its module writes it.
	XDGRuntime = "${XDG_RUNTIME_DIR}"
	// darwinTemp opens agenix's darwin default: "$(" then the getconf
	// executable, then darwinTempArg.
	darwinTempOpen = "$("
	darwinTempArg  = " DARWIN_USER_TEMP_DIR)"
)

// Kind says what a path's first segment is.
type Kind int

const (
	// Absolute: an ordinary absolute path.
	Absolute Kind = iota
	// Runtime: %r, the runtime folder (sops-nix).
	Runtime
	// XDG: ${XDG_RUNTIME_DIR} (agenix on Linux).
	XDG
	// DarwinTemp: $(… getconf DARWIN_USER_TEMP_DIR) (agenix on darwin).
	DarwinTemp
)

// Parsed is a secret path split into its placeholder and the clean
// relative rest ("" for an absolute path, whose Rest is the whole path).
type Parsed struct {
	Kind Kind
	// Rest is the path after the placeholder and its "/", or the whole
	// path when Kind is Absolute.
	Rest string
}

// Parse checks a secret path: a clean absolute path, or one of the
// placeholders followed by "/" and a clean relative path. %% stands for a
// literal % in a %r path, as sops-nix reads it; no other placeholder is
// recognised, so "${HOME}/x" or "%r" in the middle of a path is refused
// rather than read as a file of that name.
func Parse(p string) (Parsed, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return Parsed{}, errors.New("the path contains a NUL byte")
	}
	kind, rest, ok := split(p)
	if !ok {
		return Parsed{}, fmt.Errorf("needs a clean absolute path such as \"/run/secrets/github\", or one starting with %s/, %s/ or $(…/getconf DARWIN_USER_TEMP_DIR)/ (the runtime folder sops-nix and agenix decrypt into), got %s", SopsRuntime, XDGRuntime, strconv.Quote(p))
	}
	if kind == Absolute {
		if !path.IsAbs(rest) || path.Clean(rest) != rest || rest == "/" {
			return Parsed{}, fmt.Errorf("needs a clean absolute path such as \"/run/secrets/github\" (no empty, \".\" or \"..\" segment, no trailing \"/\"), got %s", strconv.Quote(p))
		}
		return Parsed{Kind: kind, Rest: rest}, nil
	}
	literal := rest
	if kind == Runtime {
		// sops-nix replaces %r anywhere and reads %% as %; agyconf takes
		// %r only at the start, so a % elsewhere must be written %%.
		var err error
		if literal, err = unescapePercent(rest); err != nil {
			return Parsed{}, fmt.Errorf("%v in %s", err, strconv.Quote(p))
		}
	} else if strings.ContainsAny(rest, "$") {
		return Parsed{}, fmt.Errorf("only the first segment of %s may be a placeholder", strconv.Quote(p))
	}
	if literal == "" || path.IsAbs(literal) || path.Clean(literal) != literal || literal == "." || literal == ".." || strings.HasPrefix(literal, "../") {
		return Parsed{}, fmt.Errorf("needs a clean path below the runtime folder after %s (no empty, \".\" or \"..\" segment, no trailing \"/\"), got %s", prefixOf(kind, p), strconv.Quote(p))
	}
	return Parsed{Kind: kind, Rest: literal}, nil
}

// Check is Parse for callers that only need to know the path is usable.
func Check(p string) error {
	_, err := Parse(p)
	return err
}

// HasPlaceholder reports whether p starts with a runtime placeholder.
func HasPlaceholder(p string) bool {
	kind, _, ok := split(p)
	return ok && kind != Absolute
}

// split recognises the first segment of p.
func split(p string) (Kind, string, bool) {
	switch {
	case strings.HasPrefix(p, SopsRuntime+"/"):
		return Runtime, p[len(SopsRuntime)+1:], true
	case strings.HasPrefix(p, XDGRuntime+"/"):
		return XDG, p[len(XDGRuntime)+1:], true
	case strings.HasPrefix(p, darwinTempOpen):
		end := strings.Index(p, darwinTempArg+"/")
		if end < 0 {
			return 0, "", false
		}
		exe := p[len(darwinTempOpen):end]
		// The getconf agenix names: a bare name or an absolute path to a
		// program called getconf. It is never run: agyconf asks the
		// system's own getconf.
		if exe != "getconf" && !(path.IsAbs(exe) && path.Base(exe) == "getconf" && !strings.ContainsAny(exe, " \t\n$`\\\"'")) {
			return 0, "", false
		}
		return DarwinTemp, p[end+len(darwinTempArg)+1:], true
	case strings.HasPrefix(p, "/"):
		return Absolute, p, true
	}
	return 0, "", false
}

func prefixOf(k Kind, p string) string {
	switch k {
	case Runtime:
		return SopsRuntime
	case XDG:
		return XDGRuntime
	case DarwinTemp:
		return p[:strings.Index(p, darwinTempArg)+len(darwinTempArg)]
	}
	return ""
}

// unescapePercent reads %% as %, refusing any other %.
func unescapePercent(s string) (string, error) {
	if !strings.Contains(s, "%") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		return "", errors.New("a % that is not %% after the first segment")
	}
	return b.String(), nil
}

// Env is what expanding a placeholder needs from the machine: no package
// state, so tests give their own.
type Env struct {
	// GOOS decides what %r is: runtime.GOOS for the host.
	GOOS string
	// Getenv reads the environment: os.Getenv for the host.
	Getenv func(string) string
	// UID is the user's id, for Linux's fallback runtime folder.
	UID int
	// DarwinTempDir asks the system for DARWIN_USER_TEMP_DIR.
	DarwinTempDir func() (string, error)
}

// Host is the Env of the running process.
func Host() Env {
	return Env{GOOS: runtime.GOOS, Getenv: os.Getenv, UID: os.Getuid(), DarwinTempDir: darwinTempDir}
}

// darwinTempDir runs the system's getconf, as sops-nix does: the getconf
// a path names (a store path agenix wrote) is never executed.
func darwinTempDir() (string, error) {
	out, err := exec.Command("/usr/bin/getconf", "DARWIN_USER_TEMP_DIR").Output()
	if err != nil {
		return "", fmt.Errorf("/usr/bin/getconf DARWIN_USER_TEMP_DIR: %w", err)
	}
	return strings.TrimSuffix(strings.TrimSpace(string(out)), "/"), nil
}

// Expand resolves a secret path on this machine: an absolute path is
// returned as is; %r is $XDG_RUNTIME_DIR (else /run/user/UID, as Home
// Manager falls back) on Linux and the darwin user temp folder on darwin;
// ${XDG_RUNTIME_DIR} is that variable, with the same fallback; the
// getconf form is the darwin user temp folder, and refused elsewhere.
// Errors name the placeholder, never a value.
func Expand(p string, env Env) (string, error) {
	parsed, err := Parse(p)
	if err != nil {
		return "", err
	}
	if parsed.Kind == Absolute {
		return parsed.Rest, nil
	}
	var base string
	switch {
	case parsed.Kind == DarwinTemp && env.GOOS != "darwin":
		return "", fmt.Errorf("%s names the darwin user temp folder, and this is %s", strconv.Quote(p), env.GOOS)
	case parsed.Kind == DarwinTemp, parsed.Kind == Runtime && env.GOOS == "darwin":
		if env.DarwinTempDir == nil {
			return "", fmt.Errorf("cannot ask for DARWIN_USER_TEMP_DIR here")
		}
		if base, err = env.DarwinTempDir(); err != nil {
			return "", err
		}
	default:
		base = xdgRuntime(env)
	}
	if !path.IsAbs(base) {
		return "", fmt.Errorf("the runtime folder for %s is %s, not an absolute path", strconv.Quote(p), strconv.Quote(base))
	}
	return path.Join(base, parsed.Rest), nil
}

// xdgRuntime is $XDG_RUNTIME_DIR, else systemd-logind's /run/user/UID
// (what Home Manager's own activation falls back to when a system service
// runs it without a session).
func xdgRuntime(env Env) string {
	if env.Getenv != nil {
		if v := env.Getenv("XDG_RUNTIME_DIR"); v != "" {
			return v
		}
	}
	return "/run/user/" + strconv.Itoa(env.UID)
}
