/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * procfs.h (lib) - reading a process's /proc files (lib/procfs.c): what the
 * enforcer's process table and the sandbox's domain of its caller both
 * read.  Nothing here is cached; a process that left reads as -ESRCH.
 */
#ifndef HISTMAC_PROCFS_H
#define HISTMAC_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The fields of /proc/PID/stat that are used. */
struct hm_procfs_stat {
	char state;		/* R, S, D, Z, X, ... */
	int64_t ppid;
	uint64_t start;		/* start time, clock ticks after boot */
};

/**
 * hm_procfs_read() - a small /proc file into @buf, NUL-terminated (one
 * read: what does not fit in @cap - 1 bytes is left out).
 * Returns: the bytes read, or -ESRCH (the file, so the process, is gone)
 * or another -errno.
 */
ssize_t hm_procfs_read(const char *path, char *buf, size_t cap);

/**
 * hm_procfs_parse_stat() - the fields of one /proc/PID/stat line.  The
 * program name (comm, in parentheses) may hold any byte, ')' and spaces
 * too: the fields are counted after its last ')'.
 * Returns: 0, or -EINVAL when the line has fewer than 22 fields.
 */
int hm_procfs_parse_stat(const char *line, struct hm_procfs_stat *st);

/**
 * hm_procfs_stat() - /proc/@pid/stat, parsed.
 * Returns: 0, -ESRCH (gone), -EINVAL, or -errno.
 */
int hm_procfs_stat(int32_t pid, struct hm_procfs_stat *st);

/**
 * hm_procfs_status() - /proc/@pid/status into @buf (4096 bytes hold it).
 * Returns: the bytes read, -ESRCH (gone), or -errno.
 */
ssize_t hm_procfs_status(int32_t pid, char *buf, size_t cap);

/**
 * hm_procfs_field() - the value of the line "NAME:\tVALUE" in a status
 * file read by hm_procfs_status(): a pointer to VALUE inside @status.
 * Returns: NULL when no line is named @name.
 */
const char *hm_procfs_field(const char *status, const char *name);

/**
 * hm_procfs_cmdline() - the argument words of @pid (0: this process),
 * NUL-separated, into @buf (NUL-terminated; a longer line is cut).
 * Returns: its length, 0 for a process without one (a kernel thread, a
 * zombie), -ESRCH (gone), or -errno.
 */
ssize_t hm_procfs_cmdline(int32_t pid, char *buf, size_t cap);

/**
 * hm_procfs_exe() - the path /proc/@pid/exe links to, into @buf
 * (NUL-terminated).  The link is what the process says it runs: a
 * process may change it (prctl PR_SET_MM), so it names, it does not
 * prove (the enforcer checks it against the mappings).
 * Returns: its length, -ESRCH (gone, or no program: a kernel thread),
 * -ENAMETOOLONG, or -errno.
 */
ssize_t hm_procfs_exe(int32_t pid, char *buf, size_t cap);

#endif /* HISTMAC_PROCFS_H */
