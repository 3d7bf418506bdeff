/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel_names.h (analyzer) - the names the enforcer and the sandbox give
 * what the kernel shows them, exactly as the learner names them
 * (docs/PATHS.md): a path printed by /proc/self/fd, the program an exec
 * runs as a domain's execute entries call it, and the interpreter a program
 * names (analyzer/enforce.c, analyzer/interp.c).  No decision here
 * (decide.h).
 */
#ifndef HISTMAC_KERNEL_NAMES_H
#define HISTMAC_KERNEL_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The operations an open is judged by (bits of enum hm_file_op). */
#define HM_ENF_OPEN_OPS (1u << HM_FILE_READ | 1u << HM_FILE_WRITE |	\
			 1u << HM_FILE_APPEND | 1u << HM_FILE_TRUNCATE)

/*
 * hm_enf_path_name() - the TOMOYO name of a path the kernel printed
 * (readlink of /proc/self/fd/N: already absolute, symlinks resolved),
 * exactly as the learner names it (docs/PATHS.md; hm_object_name() on
 * this host's mounts): "/proc/<@pid>/x" as "proc:/self/x", other
 * "/proc/x" as "proc:/x", "securityfs:/x", "devpts:/N", ..., every byte
 * through hm_encode(), a trailing '/' on directories.
 * @raw, @len: the path bytes.
 * @pid: the process the access is for (its /proc entry is proc:/self).
 * @is_dir: the object is a directory.
 * @deleted: the object was unlinked: drop the " (deleted)" the kernel
 *	appended.
 * @out: a malloc()ed NUL-terminated name; caller frees with free().
 * Returns: the name's length, -EINVAL when @raw is not an absolute path
 * (pipe:[..], an object outside our root), -ENAMETOOLONG over
 * HM_MAX_WORD, or -ENOMEM.
 */
long hm_enf_path_name(const char *raw, size_t len, int64_t pid, bool is_dir,
		      bool deleted, char **out);

/**
 * hm_enf_exec_known() - the name @d's execute entries call the program
 * at real path @real by: an entry naming @real itself, or one whose
 * exec.realpath is @real (a program called through a symlink).  The
 * same names the decision on a judged exec finds, for an exec that was
 * not judged (outside the marks).
 * Returns: the entry's (literal) name, borrowed from the model, or NULL.
 */
const struct hm_name *hm_enf_exec_known(const struct hm_domain *d,
					const struct hm_name *real);

/**
 * hm_exec_interp() - the interpreter the program open at @fd names: the
 * first word of its "#!" line, or its ELF PT_INTERP (ld.so).  Reads with
 * pread(), so @fd's offset does not move (a fanotify event fd: reading it
 * raises no event).
 * @script: out: true when @fd is a "#!" script.
 * Returns: a malloc()ed path (caller frees with free()), or NULL when
 * there is none (a static ELF, not an executable, a read error, ENOMEM).
 */
char *hm_exec_interp(int fd, bool *script);

#endif /* HISTMAC_KERNEL_NAMES_H */
