package config

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/agext/levenshtein"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = `"` + x + `"`
	}
	return strings.Join(q, ", ")
}

// Suggest is suggest, for the command line's own names (its flags): one
// rule for every "Did you mean".
func Suggest(s string, candidates []string) string { return suggest(s, candidates) }

// suggest returns the candidate closest to s, if one is close enough to be
// a likely misspelling (the same rule HCL uses for argument names), or a
// candidate that differs from s only in case.
func suggest(s string, candidates []string) string {
	for _, c := range candidates {
		if strings.EqualFold(c, s) {
			return c
		}
	}
	best, bestDist := "", 3
	for _, c := range candidates {
		if dist := levenshtein.Distance(s, c, nil); dist < bestDist {
			best, bestDist = c, dist
		}
	}
	return best
}

// jsonValue renders a cty value as compact JSON with sorted keys.
func jsonValue(v cty.Value) (json.RawMessage, error) {
	b, err := ctyjson.SimpleJSONValue{Value: v}.MarshalJSON()
	if err != nil {
		return nil, err
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return nil, err
	}
	return json.Marshal(x)
}
