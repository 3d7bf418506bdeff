/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the sandbox's files share; not a public header.
 *
 *   translate.c  one policy entry -> grants
 *   build.c      subtree, per-domain union, ABI cut, the table blob
 *   apply.c      a table domain -> Landlock (also in the preload)
 *   launch.c     around COMMAND: the TIOCSTI filter, the table's memfd
 *                and copy, the report FIFO, HISTMAC_SANDBOX
 *   preload.c    libhistmac-sandbox.so
 */
#ifndef HISTMAC_SANDBOX_INTERNAL_H
#define HISTMAC_SANDBOX_INTERNAL_H

#include "histmac/sandbox.h"

/**
 * hm_sbx_exec_grants() - add to @x the grants executing @path (raw,
 * absolute) needs: execute and read on it and on its interpreters.
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_exec_grants(const char *root, const char *path,
		       struct hm_sbx_xlat *x);

#endif /* HISTMAC_SANDBOX_INTERNAL_H */
