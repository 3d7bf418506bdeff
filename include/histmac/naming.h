/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * naming.h (lib) - the names TOMOYO gives objects and programs, one piece
 * of code for the collector (learn, check), the enforcer and the sandbox
 * (lib/naming.c; docs/PATHS.md).
 *
 * TOMOYO 2.6 (security/tomoyo/realpath.c) names an object by its path
 * from the namespace root, except on a file system whose root directory
 * cannot rename and which needs no block device: there the name is the
 * file system type, ':' and the path inside that file system
 * ("proc:/filesystems", "securityfs:/tomoyo/audit", "devpts:/0").  Which
 * file system a path is on comes from a table of mount points: this
 * host's (/proc/self/mountinfo) or, for a log of another host, the
 * well-known places those file systems are mounted.
 */
#ifndef HISTMAC_NAMING_H
#define HISTMAC_NAMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "histmac/sbuf.h"

struct hm_fs_table;

/**
 * hm_fs_table_known() - the well-known mount points of the file systems
 * TOMOYO names by type (/proc, /sys/kernel/security, /dev/pts, ...), for
 * names of another host.  Static; never fails.
 */
const struct hm_fs_table *hm_fs_table_known(void);

/**
 * hm_fs_table_host() - this host's mounts, read from /proc/self/mountinfo
 * once per process (thread-safe); hm_fs_table_known() when that cannot
 * be read.  Never freed.
 */
const struct hm_fs_table *hm_fs_table_host(void);

/**
 * hm_fs_table_parse() - a table from mountinfo text (tests, and the host
 * table).  Lines that do not parse are skipped.
 * @text: /proc/PID/mountinfo contents, NUL-terminated.
 * @out: the table; free with hm_fs_table_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_fs_table_parse(const char *text, struct hm_fs_table **out);
void hm_fs_table_free(struct hm_fs_table *t);

/**
 * hm_object_name() - TOMOYO's (raw, not yet encoded) name of the object
 * at @p: "fstype:/path-in-fs" on a file system named by type, with
 * "proc:/<@pid>/" and "proc:/self/" as "proc:/self/" (and /proc/net,
 * /proc/mounts, which are links to self/), else @p; a trailing '/' when
 * @is_dir.
 * @fs: the mount table.
 * @p, @len: an absolute path, symlinks already resolved ("" = "/").
 * @pid: the process (thread group) the access is for; 0 if unknown.
 * @is_dir: the object is a directory.
 * @out: reset, then the name.
 * Returns: 0 or -ENOMEM.
 */
int hm_object_name(const struct hm_fs_table *fs, const char *p, size_t len,
		   int64_t pid, bool is_dir, struct hm_sbuf *out);

/**
 * hm_object_path() - the other way: where the object TOMOYO names
 * "fstype:/path" is, on the mounts of @fs (the first mount of that type
 * holding the path): "securityfs:/tomoyo/audit" is
 * /sys/kernel/security/tomoyo/audit.  For the sandbox, which grants on
 * paths.
 * @name, @len: the (decoded) name.
 * @out: reset, then the absolute path (a directory's trailing '/' kept).
 * Returns: 0, -EINVAL (not "fstype:/..."), -ENOENT (no such mount) or
 * -ENOMEM.
 */
int hm_object_path(const struct hm_fs_table *fs, const char *name, size_t len,
		   struct hm_sbuf *out);

/**
 * hm_program_name() - the name TOMOYO gives a program it executes
 * (domain.c: tomoyo_realpath_nofollow() of the path passed to execve):
 * the directory part resolved through this host's files, the last
 * component kept as passed, even when it is a symlink.  A name on proc
 * (/proc/self/exe, /dev/fd/N) gives way to @real, as in the kernel.
 * @path: the absolute path passed to execve (relative ones: join first).
 * @real: the real path of what runs, or NULL.
 * @out: reset, then the (raw) name.
 * Returns: 0, -ENOENT when the directory cannot be resolved, or -ENOMEM.
 */
int hm_program_name(const char *path, const char *real, struct hm_sbuf *out);

#endif
