// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * overlay.c - is a file seen through an overlay the object a record
 * named?  Audit's PATH record gives a file on an overlay the overlay's
 * own device (the one its directories show) and the file's inode number;
 * stat() of the file gives that number and a device per layer of the
 * overlay's making.  The two never agree whole, so on an overlay root
 * (live images, container roots) the record's object is at a name when
 * the name's directory is on the record's overlay and the file there has
 * the record's inode number (docs/PATHS.md "Overlays").  A lower file
 * copied up keeps its number where the overlay records where it came
 * from, as it does by default.  Only a failed identity check comes here.
 */
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "histmac/fs.h"

#define OVERLAYFS_MAGIC 0x794c7630

/* Is the directory of @path (up to @slash) on an overlay of device @dev? */
static bool dir_on(const char *path, const char *slash, dev_t dev)
{
	char dir[PATH_MAX];
	size_t n = (size_t)(slash - path);
	struct statfs fs;
	struct stat st;

	if (n >= sizeof(dir))
		return false;
	memcpy(dir, path, n);
	strcpy(dir + n, n ? "" : "/");
	return !stat(dir, &st) && st.st_dev == dev && !statfs(dir, &fs) &&
	       fs.f_type == OVERLAYFS_MAGIC;
}

bool hm_overlay_holds(const char *path, bool follow, uint32_t major,
		      uint32_t minor, uint64_t ino)
{
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || !dir_on(path, slash, makedev(major, minor)) ||
	    (follow ? stat : lstat)(path, &st) < 0 || st.st_ino != ino)
		return false;
	/* a directory shows the overlay's device itself */
	return !S_ISDIR(st.st_mode) || st.st_dev == makedev(major, minor);
}
