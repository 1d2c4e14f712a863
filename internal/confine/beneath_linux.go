package confine

import "golang.org/x/sys/unix"

// oPath opens a name only to name it (O_PATH).
const oPath = unix.O_PATH

// haveOpenat2: the fast paths can be tried here.
const haveOpenat2 = true

// openat2Beneath opens name below the folder dirfd in one openat2 that
// the kernel refuses at any symbolic link, the last segment included
// (RESOLVE_NO_SYMLINKS), and at anything outside the folder
// (RESOLVE_BENEATH): for a name with no link in it, what the walk finds,
// without an lstat of each segment and an open of each folder on the way.
// With O_PATH|O_NOFOLLOW in flags a last segment that is a link is
// opened itself; O_PATH opens nothing for reading (a FIFO or a device is
// not opened).
func openat2Beneath(dirfd int, name string, flags int) (int, error) {
	return unix.Openat2(dirfd, name, &unix.OpenHow{
		Flags:   uint64(flags | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
}
