package jsonmerge

import (
	"fmt"
	"slices"
	"unicode/utf8"
)

// The string-list operations serve lists such as
// {"permissions":{"allow":["command(git *)"]}}, where agyconf owns single
// items and the user owns the rest. Items are compared decoded, so "\u00e9"
// in the file matches "é" from agyconf.
//
// Only ArrayStrings refuses an array holding other things, because it could
// not return them. AddString and RemoveString never need to interpret other
// items, so they leave them where they are, exactly as written.

// ArrayStrings returns the strings of the array at path: nil and no error
// when path names nothing, so an absent list reads as empty.
func (d *Doc) ArrayStrings(path ...string) ([]string, error) {
	n := d.find(path)
	if n == nil {
		return nil, nil
	}
	if n.kind != kindArray {
		return nil, fmt.Errorf("%s is %s, %w", pointer(path), n.kind, ErrNotArray)
	}
	items := make([]string, len(n.entries))
	for i, e := range n.entries {
		if e.val.kind != kindString {
			return nil, fmt.Errorf("%s/%d is %s, %w", pointer(path), i, e.val.kind, ErrNotString)
		}
		items[i] = e.val.str
	}
	return items, nil
}

// AddString appends item to the array at path unless an equal string is
// already in it, creating the array, and any objects missing on the way, if
// needed. The new item is written with only the escapes JSON requires, laid
// out like the items beside it.
func (d *Doc) AddString(item string, path ...string) error {
	if len(path) == 0 {
		return fmt.Errorf("add %q: empty path; the top level is an object, not an array", item)
	}
	if !utf8.ValidString(item) {
		return fmt.Errorf("add %q to %s: the item is not valid UTF-8", item, pointer(path))
	}
	// path holds the array; the array holds the item.
	if len(path)+1 > maxDepth {
		return fmt.Errorf("add %q to %s: the document would nest deeper than %d objects and arrays", item, pointer(path), maxDepth)
	}
	s := &node{kind: kindString, raw: appendString(nil, item), str: item, clean: true}
	chain := d.chain(path)
	if chain == nil {
		// Created with the objects missing on the way, as Set creates them.
		arr := &node{kind: kindArray, entries: []*entry{{val: s}}}
		if err := d.put(path, arr); err != nil {
			return fmt.Errorf("add %q to %s: %w", item, pointer(path), err)
		}
		return nil
	}
	n := chain[len(chain)-1]
	if n.kind != kindArray {
		return fmt.Errorf("add %q to %s: %s is %s, %w", item, pointer(path), pointer(path), n.kind, ErrNotArray)
	}
	if slices.ContainsFunc(n.entries, func(e *entry) bool { return e.val.kind == kindString && e.val.str == item }) {
		return nil
	}
	e := d.newEntry(n)
	e.val = s
	n.entries = append(n.entries, e)
	touch(chain)
	return nil
}

// RemoveString removes every item of the array at path equal to item, with
// the comments that belong to it, and reports whether there was one. The
// array stays, even when emptied: whether an empty list should go is the
// caller's decision. Nothing at path, or something other than an array,
// holds no such item, so that is false.
func (d *Doc) RemoveString(item string, path ...string) bool {
	chain := d.chain(path)
	if chain == nil {
		return false
	}
	n := chain[len(chain)-1]
	if n.kind != kindArray {
		return false
	}
	removed := false
	for i := 0; i < len(n.entries); {
		if v := n.entries[i].val; v.kind == kindString && v.str == item {
			n.remove(i)
			removed = true
			continue
		}
		i++
	}
	if removed {
		touch(chain)
	}
	return removed
}
