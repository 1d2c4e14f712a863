//go:build !linux

package confine

import "syscall"

// openat2Beneath needs Linux's openat2: elsewhere the walk answers.
// oPath is Linux's O_PATH, which nothing here opens with.
const oPath = 0

// haveOpenat2: no fast paths here, and no descriptor kept for them.
const haveOpenat2 = false

func openat2Beneath(int, string, int) (int, error) { return -1, syscall.ENOSYS }
