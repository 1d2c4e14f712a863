package apply

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agyconf/agyconf/internal/render"
)

// Pending secrets: an inline secret whose file cannot be read yet (sops-nix
// and agenix decrypt after Home Manager's activation, or in a user service
// that has not run) does not fail render --defer-secrets. What needs it is
// left as it is: an entry or file agyconf already wrote keeps the value it
// holds, a new one is left out; the state lists them (State.Waiting) until
// a render can read the secret, and status shows them. Conflicts are still
// decided and refused: they do not depend on the secret's value.

// waitingFor lists, sorted, the pending secret files among paths.
func (o Options) waitingFor(paths []string) []string {
	if len(o.Pending) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if _, ok := o.Pending[p]; ok && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// waitingIn lists the pending secret files a value reads (an entry of a
// shared file).
func (o Options) waitingIn(v any) []string {
	if len(o.Pending) == 0 {
		return nil
	}
	return o.waitingFor((&render.Document{JSON: v}).SecretFiles())
}

// readOrPlaceholder reads secrets, putting the placeholder where one is
// pending: what is built with it decides, and is never written (a pending
// unit writes nothing).
func (o Options) readOrPlaceholder() render.SecretReader {
	if len(o.Pending) == 0 {
		return o.Secrets
	}
	return func(p string) (string, error) {
		if _, ok := o.Pending[p]; ok {
			return render.Placeholder, nil
		}
		if o.Secrets == nil {
			return "", fmt.Errorf("no secret reader")
		}
		return o.Secrets(p)
	}
}

// pendingDecision replaces the decision for a unit that needs a pending
// secret. A conflict stays a conflict. Anything else writes nothing: a
// unit agyconf wrote keeps what it holds, and its record; any other is
// left out and not taken.
func pendingDecision(d Decision, f Facts, waits []string) Decision {
	if d.Action == Conflict {
		return d
	}
	what := "left out until it can be read"
	if f.Owned && f.Live {
		what = "kept as agyconf last wrote it until it can be read"
	}
	return Decision{Action: Pending, Reason: fmt.Sprintf("waits for the secret %s, which cannot be read yet; %s (agyconf render then writes it)", strings.Join(waits, ", "), what)}
}

// markPending turns a change into a pending one: nothing written, the
// state's record of the unit left as it is.
func (c *Change) markPending(d Decision, waits []string) {
	c.Action, c.Reason, c.forget = d.Action, d.Reason, false
	c.state, c.data, c.remove, c.backup = nil, nil, false, nil
	c.waiting = waits
}
