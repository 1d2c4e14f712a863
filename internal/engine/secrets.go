package engine

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/agyconf/agyconf/internal/confine"
	"github.com/agyconf/agyconf/internal/render"
	"github.com/agyconf/agyconf/internal/rulebook"
	"github.com/agyconf/agyconf/internal/secretpath"
)

// machineCheck marks a diagnostic about this machine rather than the
// config, of the rule named (rulebook): validate --config, which judges
// the config, reports it as a warning, --strict counts it.
func machineCheck(rule string) rulebook.Tag { return rulebook.Tag{Rule: rule, Machine: true} }

// Secrets checks, where the config calls secret_file(), each secret that
// must be delivered: an inline secret (written into a file) is read now,
// so a missing or unreadable one is found at its secret_file() call before
// anything is written; an exec secret (read by agyhook exec-env when agy
// starts the server) only has to exist eventually, because sops-nix and
// agenix often decrypt after activation, so a missing one warns. With
// strict unset (validate --config) the inline ones are only stat'ed, not
// read; an unreadable one is the same error, so validate says what render
// will do. Messages never hold a value.
//
// The values read come back, so a render reads each file once.
func (c *Config) Secrets(strict bool) (map[string]string, hcl.Diagnostics) {
	values, _, diags := c.secrets(strict, false)
	return values, diags
}

// PendingSecrets is Secrets for a render that must not fail on a secret
// not decrypted yet (render --defer-secrets, the Home Manager module's
// activation and its re-render when the file appears) and for status: an
// inline secret that cannot be read is a warning, and comes back in
// pending, by path, with why; the entries that need it are left as they
// are until it can be read (apply.Options.Pending).
func (c *Config) PendingSecrets() (values, pending map[string]string, diags hcl.Diagnostics) {
	return c.secrets(true, true)
}

func (c *Config) secrets(strict, deferUnreadable bool) (map[string]string, map[string]string, hcl.Diagnostics) {
	values := map[string]string{}
	pending := map[string]string{}
	if c.Plan == nil || c.Model == nil {
		return values, pending, nil
	}
	inline := map[string]bool{}
	for _, d := range c.Plan.Documents {
		for _, p := range d.SecretFiles() {
			inline[p] = true
		}
	}
	var diags hcl.Diagnostics
	seen := map[string]bool{} // each file is checked, and reported, at its first call
	for _, ref := range c.Model.SecretRefs {
		if seen[ref.Path] {
			continue
		}
		seen[ref.Path] = true
		rng := ref.Range
		if inline[ref.Path] {
			var err error
			if strict {
				var v string
				if v, err = ReadSecret(ref.Path); err == nil {
					values[ref.Path] = v
				}
			} else {
				err = statSecret(ref.Path)
			}
			if err != nil {
				d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Secret unreadable",
					Detail:  fmt.Sprintf("%v. This secret is written into the rendered file (secret_mode \"inline\"), so it must be readable now; nothing was written.", err),
					Subject: &rng, Extra: machineCheck("")}
				switch {
				case !strict:
					// validate: the verdict render will give, located.
					d.Detail = fmt.Sprintf("%v. This secret is written into the rendered file (secret_mode \"inline\"), so agyconf render refuses until it is readable (validate --offline judges the config without this machine).", err)
				case deferUnreadable:
					d.Severity, d.Summary = hcl.DiagWarning, rulebook.Line("secret/pending", fmt.Sprintf("the secret %s cannot be read yet", ref.Path))
					d.Detail = fmt.Sprintf("%v. The entries this secret is written into keep what they hold, and new ones are left out, until it can be read (pending); the rest is rendered.", err)
					d.Extra = machineCheck("secret/pending")
					pending[ref.Path] = err.Error()
				}
				diags = append(diags, d)
			}
			continue
		}
		if _, err := statExpanded(ref.Path); err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: rulebook.Line("secret/missing", fmt.Sprintf("the secret %s does not exist here", ref.Path)),
				Detail:  fmt.Sprintf("%s does not exist yet. It is read when agy starts the server (secret_mode \"exec\": by agyhook exec-env, or by agyhook-bridge for a remote server), so rendering goes on; the server fails to start until the file exists (sops-nix and agenix often decrypt after activation).", ref.Path),
				Subject: &rng, Extra: machineCheck("secret/missing")})
		}
	}
	return values, pending, diags
}

// statExpanded stats a secret file where it is in this session: a path
// naming the runtime folder (%r/…, ${XDG_RUNTIME_DIR}/…) is expanded here,
// where the secret is read, never earlier.
func statExpanded(path string) (os.FileInfo, error) {
	full, err := secretpath.Expand(path, secretpath.Host())
	if err != nil {
		return nil, err
	}
	return os.Stat(full)
}

// statSecret checks that a secret file could be read, without reading it.
func statSecret(path string) error {
	st, err := statExpanded(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &confine.NotRegularError{Path: path, Mode: st.Mode()}
	}
	if st.Size() > maxSecretSize {
		return fmt.Errorf("%s is larger than %d KiB, too large for a secret", path, maxSecretSize>>10)
	}
	return nil
}

// SecretsFrom reads secrets from those already read, else from their files.
func SecretsFrom(values map[string]string) render.SecretReader {
	return func(path string) (string, error) {
		if v, ok := values[path]; ok {
			return v, nil
		}
		return ReadSecret(path)
	}
}

// ReadSecret reads a secret file, without the one line ending such files
// usually end with (a token with a newline breaks a header).
func ReadSecret(path string) (string, error) {
	full, err := secretpath.Expand(path, secretpath.Host())
	if err != nil {
		return "", err
	}
	// A secret is a token or a key: a FIFO or a device would block or
	// never end, and a huge file is not one. Both are refused at once.
	data, err := confine.ReadFile(full, maxSecretSize)
	var tl *confine.TooLargeError
	if errors.As(err, &tl) {
		return "", fmt.Errorf("%s is larger than %d KiB, too large for a secret", path, maxSecretSize>>10)
	}
	if err != nil {
		return "", err
	}
	s := strings.TrimSuffix(string(data), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// maxSecretSize bounds a secret file, the same bound agyhook exec-env
// applies.
const maxSecretSize = 1 << 20
