package apply

// The ownership decision, for a whole file and for one entry of a shared
// file alike: one pure function of what was observed and the flags, so
// that it is written once and tested as a truth table
// (decide_test.go, testdata/decide.golden).

// Origin is how agyconf came to own a file or an entry. It decides what
// happens when agyconf lets go of it (the config drops it, or clean): only
// what agyconf created is removed; everything else is given back.
type Origin string

const (
	// OriginCreated: agyconf wrote it where there was nothing.
	OriginCreated Origin = "created"
	// OriginFound: it was already there, identical to what the config wants;
	// agyconf recorded it without writing. Left in place when released,
	// or, if agyconf changed it since, restored to what was found.
	OriginFound Origin = "found"
	// OriginAdopted: it was there and different; --adopt overwrote it after a
	// backup, which is restored when released.
	OriginAdopted Origin = "adopted"
	// OriginForced: someone edited it after agyconf wrote it; --force
	// overwrote the edit after a backup, which is restored when released.
	OriginForced Origin = "forced"
	// OriginUnknown: recorded by a state of version 1, which did not say. Such
	// a unit is treated like a found one: never removed, only released.
	OriginUnknown Origin = "unknown"
)

// Facts are what Decide needs to know about one unit.
type Facts struct {
	// Desired: the plan wants it.
	Desired bool
	// Live: it exists on disk (the entry in its file, or the file).
	Live bool
	// UpToDate: what is on disk is exactly what a render would write.
	UpToDate bool
	// SameContent: what is on disk hashes like what the plan wants (only
	// formatting, a mode or — in a unit agyconf owns — a secret's value
	// differ). A unit agyconf does not own whose credential differs from
	// the config's is not the same content: taking it is an --adopt.
	SameContent bool
	// Owned: this instance's state records it.
	Owned bool
	// Elsewhere names another instance whose state records it.
	Elsewhere string
	// Ours: what is on disk hashes like something agyconf recorded as
	// written or being written; false when someone edited it since.
	Ours bool
	// Origin is how agyconf came to own it (when Owned).
	Origin Origin
	// HasOriginal: a backup of what was there before agyconf exists.
	HasOriginal bool
	// Default: agy rewrites it itself; agyconf owns it only as a default
	// (written while absent or still agyconf's, never fought over).
	Default bool
	// HMLink: it is a link into a Home Manager generation. OutsideLink: a
	// link out of the root that is not read.
	HMLink, OutsideLink bool
	// HMLinkGoes: that link belongs to the generation Home Manager's
	// linkGeneration is about to replace, and the new one does not link
	// the path, so it is gone by the time the render runs: the module's
	// preflight (render --dry-run --after-hm-link) decides as the render
	// will, never counting it as a conflict.
	HMLinkGoes bool
}

// Flags are the user's say in a decision.
type Flags struct {
	// Force overwrites what was edited since agyconf wrote it; Adopt
	// takes over what agyconf did not write. Both back up first. (Taking
	// over another instance's units is done before deciding: its state is
	// merged into this one's, see TakeOver.)
	Force, Adopt bool
}

// Decision is what to do with one unit.
type Decision struct {
	Action Action
	// Write: put the planned content in place. Restore: put the original
	// (the backup of what was there before agyconf) back instead.
	Write, Restore bool
	// Remove the file or entry.
	Remove bool
	// Backup what is on disk first: it is content agyconf did not write,
	// about to be overwritten.
	Backup bool
	// Forget the unit: the state no longer records it.
	Forget bool
	// Origin to record from now on ("" keeps the one recorded).
	Origin Origin
	Reason string
	// Refused is, for a decision the flags made, the conflict a render
	// without them refuses: its reason (diff shows what render --force
	// --adopt would write, and says what a plain render refuses).
	Refused string
}

// Reasons, each ending with what resolves it.
const (
	reasonNotOurs     = "exists and was not written by agyconf; move it aside, write it into the config as it is, or run agyconf render --adopt (the original is backed up)"
	reasonEdited      = "was edited since agyconf wrote it; move the edit into the config, delete it to get agyconf's version back, or run agyconf render --force (the edit is backed up)"
	reasonKeptEdited  = "is no longer in the config, but was edited since agyconf wrote it; left as it is: delete it if it is no longer wanted, or declare it again in the config as it is now"
	reasonDefaultAgy  = "differs from the config, but agy set it since agyconf wrote it; agyconf only sets it where it is absent or still its own: delete it to get the config's value"
	reasonReleased    = "was there before agyconf, as the config wanted it; left in place"
	reasonUnknown     = "was recorded by an older agyconf, which did not say whether it created it; left in place (delete it yourself if it is agyconf's)"
	reasonNoOriginal  = "was there before agyconf, but its backup is gone; left as agyconf last wrote it"
	reasonRestored    = "is given back as it was before agyconf took it over"
	reasonGivenBack   = "already holds what was there before agyconf took it over (given back by a render cut short); left as it is"
	reasonOtherPrefix = "belongs to the config instance "
	reasonOtherSuffix = " rendering into the same root; one entry, one owner: drop it from one of the configs, or take over everything that instance owns with agyconf render --take-over "
)

// decideUnit is the ownership decision for one unit.
func decideUnit(f Facts, fl Flags) Decision {
	if !f.Desired {
		return decideStaleUnit(f)
	}
	d := decideWanted(f, fl)
	if fl != (Flags{}) && d.Action != Conflict {
		if plain := decideWanted(f, Flags{}); plain.Action == Conflict {
			d.Refused = plain.Reason
		}
	}
	return d
}

func decideWanted(f Facts, fl Flags) Decision {
	if f.HMLinkGoes {
		// Home Manager removes its link first: the render writes into an
		// empty place, as after any deletion.
		f.Live, f.HMLink = false, false
	}
	switch {
	case f.HMLink && !fl.Adopt:
		return Decision{Action: Conflict, Reason: hmLinkReason}
	case f.OutsideLink && !fl.Adopt:
		return Decision{Action: Conflict, Reason: "is a link out of the render root, which agyconf neither reads nor writes through: replace the link by the file it points to, or run agyconf render --adopt to replace it by agyconf's file (what it points to is left as it is)"}
	case !f.Owned && f.Elsewhere != "":
		return Decision{Action: Conflict, Reason: reasonOtherPrefix + quote(f.Elsewhere) + reasonOtherSuffix + f.Elsewhere}
	}
	if f.OutsideLink || f.HMLink {
		// --adopt: the link is replaced by agyconf's file; the link is what
		// is backed up.
		if !f.Owned {
			return Decision{Action: Adopt, Write: true, Backup: f.Live, Origin: OriginAdopted}
		}
		return Decision{Action: Update, Write: true, Backup: f.Live}
	}
	switch {
	case !f.Live && f.Owned:
		return Decision{Action: Recreate, Write: true}
	case !f.Live:
		return Decision{Action: Create, Write: true, Origin: OriginCreated}
	case f.Default && f.Owned && !f.UpToDate && f.Ours:
		// Still agyconf's value: the config changed. A value that was
		// found keeps what was found, to be given back.
		return Decision{Action: Update, Write: true, Backup: firstChange(f)}
	case f.Default && !f.UpToDate:
		// Someone else's value: agy owns it from now on, and agyconf
		// records nothing of it (letting go leaves it as it is).
		return Decision{Action: Unchanged, Forget: true, Reason: reasonDefaultAgy}
	case f.UpToDate && !f.Owned:
		return Decision{Action: Found, Origin: OriginFound}
	case f.UpToDate:
		return Decision{Action: Unchanged}
	case f.SameContent && !f.Owned:
		// The same content, formatted or moded otherwise: recorded as
		// found, and rewritten — after a backup of what was found.
		return Decision{Action: Found, Write: true, Backup: true, Origin: OriginFound}
	case f.SameContent:
		// Formatting, a mode or a secret's value differs.
		return Decision{Action: Update, Write: true, Backup: !f.Ours || firstChange(f)}
	case !f.Owned && fl.Adopt:
		return Decision{Action: Adopt, Write: true, Backup: true, Origin: OriginAdopted}
	case !f.Owned:
		return Decision{Action: Conflict, Reason: reasonNotOurs}
	case !f.Ours && fl.Force:
		return Decision{Action: Update, Write: true, Backup: true, Origin: OriginForced}
	case !f.Ours:
		return Decision{Action: Conflict, Reason: reasonEdited}
	}
	// Agyconf's own, unchanged since it wrote it: a routine update. A
	// found unit changed for the first time keeps what was found.
	return Decision{Action: Update, Write: true, Backup: firstChange(f)}
}

// firstChange: a found unit that agyconf is about to change for the first
// time; what was found must be kept, to be given back.
func firstChange(f Facts) bool {
	return (f.Origin == OriginFound || f.Origin == OriginUnknown) && !f.HasOriginal
}

func decideStaleUnit(f Facts) Decision {
	switch {
	case !f.Owned:
		return Decision{Action: Unchanged} // never agyconf's: never touched
	case !f.Live:
		return Decision{Action: Prune, Forget: true} // gone: only the state forgets it
	case !f.Ours && (f.Origin == OriginFound || f.Origin == OriginUnknown) && !f.HasOriginal:
		// Found and never written over: the user's whatever it holds
		// now, left as it is.
		return Decision{Action: Release, Forget: true, Reason: releasedReason(f.Origin)}
	case !f.Ours:
		return Decision{Action: Keep, Reason: reasonKeptEdited}
	}
	switch f.Origin {
	case OriginCreated, "":
		return Decision{Action: Prune, Remove: true, Forget: true}
	case OriginFound, OriginUnknown:
		if !f.HasOriginal {
			return Decision{Action: Release, Forget: true, Reason: releasedReason(f.Origin)}
		}
	}
	if f.HasOriginal {
		return Decision{Action: Restore, Restore: true, Forget: true, Reason: reasonRestored}
	}
	return Decision{Action: Release, Forget: true, Reason: reasonNoOriginal}
}

// releasedReason says why a unit agyconf found is left as it is.
func releasedReason(o Origin) string {
	if o == OriginUnknown {
		return reasonUnknown
	}
	return reasonReleased
}

func quote(s string) string { return `"` + s + `"` }
