/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fs.h (lib) - small filesystem helpers of the library (lib/fs.c).
 */
#ifndef HISTMAC_FS_H
#define HISTMAC_FS_H

#include <sys/types.h>

/**
 * hm_mkdir_p() - create @dir and its missing parents with @mode (an
 * existing directory is fine).
 * Returns: 0 or the negative errno of the mkdir() that failed.
 */
int hm_mkdir_p(const char *dir, mode_t mode);

#endif /* HISTMAC_FS_H */
