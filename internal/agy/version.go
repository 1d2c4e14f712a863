package agy

import (
	"fmt"
	"strconv"
	"strings"
)

// Version is a release of the agy CLI, MAJOR.MINOR.PATCH. The zero
// Version is "unknown": for agyconf { agy_version }, a build that might be
// any; for a fact, one that holds on every build known.
type Version struct{ Major, Minor, Patch int }

// V is a Version, for the tables.
func V(major, minor, patch int) Version { return Version{major, minor, patch} }

// ParseVersion reads "1.2.3": three decimal numbers without leading zeros.
func ParseVersion(s string) (Version, bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return Version{}, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" || (len(p) > 1 && p[0] == '0') || len(p) > 6 {
			return Version{}, false
		}
		v, err := strconv.Atoi(p)
		if err != nil {
			return Version{}, false
		}
		n[i] = v
	}
	return Version{n[0], n[1], n[2]}, true
}

// Known reports whether v names a release.
func (v Version) Known() bool { return v != Version{} }

// AtLeast reports whether v is o or newer. An unknown v is older than
// every known release: nothing is assumed of a build nobody named.
func (v Version) AtLeast(o Version) bool {
	if v.Major != o.Major {
		return v.Major > o.Major
	}
	if v.Minor != o.Minor {
		return v.Minor > o.Minor
	}
	return v.Patch >= o.Patch
}

func (v Version) String() string {
	if !v.Known() {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch)
}
