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
	items := make([]string, len(n.items))
	for i, item := range n.items {
		if item.kind != kindString {
			return nil, fmt.Errorf("%s/%d is %s, %w", pointer(path), i, item.kind, ErrNotString)
		}
		items[i] = item.str
	}
	return items, nil
}

// AddString appends item to the array at path unless an equal string is
// already in it, creating the array, and any objects missing on the way, if
// needed. The new item is written with only the escapes JSON requires.
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
	add := func(old *node) (*node, error) {
		s := &node{kind: kindString, raw: appendString(nil, item), str: item}
		if old == nil {
			return &node{kind: kindArray, items: []*node{s}}, nil
		}
		if old.kind != kindArray {
			return nil, fmt.Errorf("%s is %s, %w", pointer(path), old.kind, ErrNotArray)
		}
		if slices.ContainsFunc(old.items, func(n *node) bool { return n.kind == kindString && n.str == item }) {
			return old, nil
		}
		// A new node rather than an append to old: put relies on old being
		// unchanged unless it is replaced.
		return &node{kind: kindArray, items: append(slices.Clip(old.items), s)}, nil
	}
	if err := d.put(path, add); err != nil {
		return fmt.Errorf("add %q to %s: %w", item, pointer(path), err)
	}
	return nil
}

// RemoveString removes every item of the array at path equal to item, and
// reports whether there was one. The array stays, even when emptied: whether
// an empty list should go is the caller's decision. Nothing at path, or
// something other than an array, holds no such item, so that is false.
func (d *Doc) RemoveString(item string, path ...string) bool {
	chain := d.chain(path)
	if chain == nil {
		return false
	}
	n := chain[len(chain)-1]
	if n.kind != kindArray {
		return false
	}
	kept := slices.DeleteFunc(slices.Clone(n.items), func(n *node) bool { return n.kind == kindString && n.str == item })
	if len(kept) == len(n.items) {
		return false
	}
	n.items = kept
	touch(chain)
	return true
}
