/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs.h (lib) - small filesystem helpers of the library (lib/fs.c), and
 * the identity of a file on an overlay (lib/overlay.c).
 */
#ifndef HISTMAC_FS_H
#define HISTMAC_FS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * hm_mkdir_p() - create @dir and its missing parents with @mode (an
 * existing directory is fine).
 * Returns: 0 or the negative errno of the mkdir() that failed.
 */
int hm_mkdir_p(const char *dir, mode_t mode);

/**
 * hm_overlay_holds() - is the file at @path, on an overlay, the object a
 * PATH record names @major:@minor:@ino (the overlay's own device and the
 * file's inode number), though stat() shows it another device?  True when
 * @path's directory is on that overlay and the file there has that inode
 * number.  False off an overlay, and for every other answer
 * (lib/overlay.c).
 * @follow: stat() the last component (else lstat()).
 */
bool hm_overlay_holds(const char *path, bool follow, uint32_t major,
		      uint32_t minor, uint64_t ino);

#endif /* HISTMAC_FS_H */
