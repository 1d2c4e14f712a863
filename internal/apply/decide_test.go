package apply

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var updateTable = flag.Bool("update", false, "rewrite testdata/decide.golden")

// allFacts enumerates every consistent combination of facts and flags.
func allFacts() []struct {
	f  Facts
	fl Flags
} {
	var out []struct {
		f  Facts
		fl Flags
	}
	b := []bool{false, true}
	for _, desired := range b {
		for _, live := range b {
			for _, upToDate := range b {
				for _, same := range b {
					for _, owned := range b {
						for _, elsewhere := range []string{"", "other"} {
							for _, ours := range b {
								for _, origin := range []Origin{"", OriginCreated, OriginFound, OriginAdopted, OriginForced, OriginUnknown} {
									for _, hasOrig := range b {
										for _, dflt := range b {
											for _, link := range []string{"", "hm", "hm-goes", "outside"} {
												for _, force := range b {
													for _, adopt := range b {
														f := Facts{Desired: desired, Live: live, UpToDate: upToDate, SameContent: same, Owned: owned,
															Elsewhere: elsewhere, Ours: ours, Origin: origin, HasOriginal: hasOrig, Default: dflt,
															HMLink: link == "hm" || link == "hm-goes", HMLinkGoes: link == "hm-goes", OutsideLink: link == "outside"}
														if !consistent(f) {
															continue
														}
														out = append(out, struct {
															f  Facts
															fl Flags
														}{f, Flags{Force: force, Adopt: adopt}})
													}
												}
											}
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	return out
}

// consistent rules out facts that cannot be observed together.
func consistent(f Facts) bool {
	switch {
	case f.UpToDate && !f.SameContent, (f.UpToDate || f.SameContent) && !f.Live:
		return false
	case f.Ours && (!f.Owned || !f.Live):
		return false
	case f.Owned && f.Elsewhere != "":
		return false
	case f.Owned == (f.Origin == "") && !(f.Elsewhere != "" && f.Origin != ""):
		// An owned unit has an origin; an unowned one none, unless the
		// other instance's is shown.
		return false
	case f.HasOriginal && f.Origin == "":
		return false
	case (f.HMLink || f.OutsideLink) && (!f.Live || f.UpToDate || f.SameContent || f.Ours):
		// A link at the target is never up to date and is not read.
		return false
	case f.HMLinkGoes && (!f.HMLink || !f.Desired):
		// Only the preflight asks, and only of wanted units.
		return false
	case !f.Desired && (f.Elsewhere != "" || !f.Owned || f.HMLink || f.OutsideLink || f.UpToDate || f.SameContent || f.Default):
		// Stale units are this instance's, decided on whether they are
		// still what agyconf wrote.
		return false
	}
	return true
}

func (f Facts) String() string {
	var parts []string
	add := func(on bool, s string) {
		if on {
			parts = append(parts, s)
		}
	}
	add(f.Desired, "wanted")
	add(!f.Desired, "stale")
	add(f.Live, "live")
	add(f.UpToDate, "up-to-date")
	add(f.SameContent, "same")
	add(f.Owned, "owned")
	add(f.Elsewhere != "", "elsewhere")
	add(f.Ours, "ours")
	if f.Origin != "" {
		parts = append(parts, "origin="+string(f.Origin))
	}
	add(f.HasOriginal, "has-original")
	add(f.Default, "default")
	add(f.HMLink, "hm-link")
	add(f.HMLinkGoes, "goes")
	add(f.OutsideLink, "outside-link")
	return strings.Join(parts, " ")
}

func (d Decision) String() string {
	s := string(d.Action)
	for _, x := range []struct {
		on   bool
		name string
	}{{d.Write, "write"}, {d.Restore, "restore"}, {d.Remove, "remove"}, {d.Backup, "backup"}, {d.Forget, "forget"}} {
		if x.on {
			s += " +" + x.name
		}
	}
	if d.Origin != "" {
		s += " origin=" + string(d.Origin)
	}
	return s
}

// TestDecisionTable is the ownership decision as a truth table: every
// consistent combination of facts and flags, and what is done. The golden
// file is the table to review when a rule changes; the invariants are the
// promises that hold in every row.
func TestDecisionTable(t *testing.T) {
	var b strings.Builder
	for _, c := range allFacts() {
		d := decideUnit(c.f, c.fl)
		flags := ""
		if c.fl.Force {
			flags += " --force"
		}
		if c.fl.Adopt {
			flags += " --adopt"
		}
		fmt.Fprintf(&b, "%s%s -> %s\n", c.f, flags, d)

		// A decision the flags made says what a plain render refuses.
		if plain := decideUnit(c.f, Flags{}); (plain.Action == Conflict && d.Action != Conflict) != (d.Refused != "") || (d.Refused != "" && d.Refused != plain.Reason) {
			t.Errorf("%s%s: refused %q, without the flags %s %q", c.f, flags, d.Refused, plain.Action, plain.Reason)
		}

		// Nothing of the user's is ever lost.
		switch {
		case d.Remove && (c.f.Desired || !c.f.Ours || (c.f.Origin != OriginCreated && c.f.Origin != "")):
			t.Errorf("%s: removes what agyconf did not create, or what was edited: %s", c.f, d)
		case (d.Write || d.Restore) && c.f.Live && !c.f.HMLinkGoes && !c.f.Ours && !d.Backup && !c.f.UpToDate:
			t.Errorf("%s%s: overwrites what agyconf did not write without a backup: %s", c.f, flags, d)
		case d.Action == Conflict && (d.Write || d.Remove || d.Restore || d.Forget || d.Backup):
			t.Errorf("%s: a conflict that does something: %s", c.f, d)
		case d.Action == Conflict && !strings.Contains(d.Reason, "agyconf render") && !strings.Contains(d.Reason, "Home Manager"):
			t.Errorf("%s: a conflict whose reason does not end with the way out: %q", c.f, d.Reason)
		case d.Restore && !c.f.HasOriginal:
			t.Errorf("%s: restores without a backup: %s", c.f, d)
		case !c.f.Desired && !c.f.Ours && c.f.Live && (d.Write || d.Remove || d.Restore):
			t.Errorf("%s: touches an edit agyconf no longer wants: %s", c.f, d)
		case !c.f.Desired && !c.f.Ours && c.f.Live && d.Forget && !((c.f.Origin == OriginFound || c.f.Origin == OriginUnknown) && !c.f.HasOriginal):
			// Only what agyconf never wrote over may be forgotten edited:
			// it was the user's all along.
			t.Errorf("%s: forgets an edit of what agyconf wrote: %s", c.f, d)
		case d.Action == Keep && (c.f.Origin == OriginFound || c.f.Origin == OriginUnknown) && !c.f.HasOriginal:
			t.Errorf("%s: says agyconf wrote what it only found: %s", c.f, d)
		case c.f.Default && !c.f.Owned && c.f.Desired && d.Action == Unchanged && !d.Forget:
			t.Errorf("%s: records as agyconf's a value someone else set: %s", c.f, d)
		case c.f.Desired && !c.f.Live && !d.Write && d.Action != Conflict:
			t.Errorf("%s: leaves a wanted unit absent: %s", c.f, d)
		case c.f.Elsewhere != "" && c.f.Desired && d.Action != Conflict:
			t.Errorf("%s: takes another instance's unit: %s", c.f, d)
		case (c.f.HMLink || c.f.OutsideLink) && !c.f.HMLinkGoes && !c.fl.Adopt && d.Action != Conflict:
			t.Errorf("%s: replaces a link without --adopt: %s", c.f, d)
		case c.f.HMLinkGoes && c.f.Elsewhere == "" && (d.Action == Conflict || d.Backup):
			// Home Manager removes that link before the render: the
			// preflight must not refuse, nor back up, what will be gone.
			t.Errorf("%s%s: counts a link Home Manager removes: %s", c.f, flags, d)
		}
	}
	got := b.String()
	const golden = "testdata/decide.golden"
	if *updateTable {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./internal/apply -run TestDecisionTable -update writes it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("the decision table changed (-golden +now; -update rewrites it after review):\n%s", d)
	}
}
