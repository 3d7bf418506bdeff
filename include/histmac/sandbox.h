/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sandbox.h (sandbox) - a learned domain tree as Landlock rulesets
 * (docs/SANDBOX.md).
 *
 *   domain D --hm_sbx_table()--> for D and every domain below it: the
 *                                union of its subtree's grants, cut to
 *                                the kernel's ABI, and its exec edges,
 *                                as one blob (sandbox/table.h) that
 *                                histmac sandbox applies and passes to
 *                                libhistmac-sandbox.so
 *   the blob --hm_sbx_explain()--> what each entry became, on a FILE
 *   COMMAND --hm_sbx_run()--> confined to the blob's domain 0, its
 *                             supervisor relaying signals and what the
 *                             preload reports
 *
 * How one entry becomes grants (hm_sbx_translate()), the terminal
 * filter and the table's hand-over are the room's own
 * (sandbox/internal.h).
 */
#ifndef HISTMAC_SANDBOX_H
#define HISTMAC_SANDBOX_H

#include <limits.h>
#include <stdio.h>

#include "model.h"

/*
 * Why a grant allows more than its entry said.
 * X(enum suffix, word in --explain, explanation)
 */
#define HM_SBX_WIDENINGS(X)                                                   \
	X(PARENT, "parent", "the name is not checked: any name in the "     \
	  "directory")                                                       \
	X(PATTERN, "pattern", "a pattern is granted on its longest literal " \
	  "directory, everything beneath it")                                \
	X(MISSING, "missing", "the object does not exist yet: granted on "   \
	  "its nearest existing parent, everything beneath it")              \
	X(PROC, "proc", "proc:/self names another inode in every process: " \
	  "granted on /proc")                                                \
	X(ADDRESS, "address", "the address is not checked, only the port")  \
	X(CONDITION, "condition", "the condition is not checked")           \
	X(EXEC_READ, "exec-read", "execute needs read: the kernel reads the " \
	  "program (and its interpreter) it runs")                           \
	X(DIR, "dir", "reading a directory is granted on it and every "      \
	  "directory beneath it")                                            \
	X(REFER, "refer", "a move (rename, link) to another directory: "     \
	  "Landlock refuses one that gives the file a right it lacked, so "  \
	  "the source gets the file rights the destination has")

enum hm_sbx_widen {
#define X(e, w, s) HM_SBX_W_##e,
	HM_SBX_WIDENINGS(X)
#undef X
	HM_SBX_W_MAX
};

/*
 * Why (part of) an entry is not enforced.
 * X(enum suffix, explanation)
 */
#define HM_SBX_UNENFORCED(X)                                                  \
	X(NONE, "")                                                          \
	X(SOCKET, "Landlock restricts only TCP bind and connect, UDP bind, " \
	  "connect and send (ABI 10) and connecting to a pathname unix "    \
	  "socket (ABI 9): not raw sockets, listen, accept, recv, nor "     \
	  "unix sockets otherwise")                                          \
	X(ATTR, "Landlock does not restrict getattr, chmod, chown, chgrp")  \
	X(IOCTL, "ioctl is not restricted (Landlock's device ioctl right "  \
	  "is all or nothing per file)")                                     \
	X(CHROOT, "Landlock does not restrict chroot (it needs "            \
	  "CAP_SYS_CHROOT)")                                                 \
	X(MOUNT, "always denied: Landlock forbids mount changes in a "      \
	  "sandbox")                                                         \
	X(ENV, "misc env is not a kernel access")                           \
	X(NOT_PATH, "not a file system path")                               \
	X(GROUP, "an empty or unknown group")                               \
	X(SIGNAL, "signals are scoped all or nothing: with a signal entry " \
	  "in the subtree, signals are not restricted")                      \
	X(ABSTRACT, "abstract unix sockets are scoped all or nothing: with " \
	  "such an entry in the subtree, they are not restricted")

enum hm_sbx_unenforced {
#define X(e, s) HM_SBX_NE_##e,
	HM_SBX_UNENFORCED(X)
#undef X
	HM_SBX_NE_MAX
};

/* What hm_sbx_table() was asked to build. */
struct hm_sbx_opts {
	int abi;		/* the running kernel's Landlock ABI (>= 1) */
	const char *root;	/* as for hm_sbx_translate(); "" usually */
	const char *program;	/* raw path COMMAND is executed by: granted
				 * execute and read in the entry domain;
				 * may be NULL */
	const char *preload;	/* raw path of libhistmac-sandbox.so:
				 * granted read everywhere; may be NULL */
	const char *table_path;	/* the table's file (the preload's fallback
				 * when its descriptor was closed): granted
				 * read everywhere; may be NULL */
	const char *report_path; /* the FIFO the preload reports lost
				 * narrowing to: granted write everywhere;
				 * may be NULL */
	uint32_t max_ports;	/* a subtree allowing more ports than this
				 * for bind or connect leaves that right
				 * unrestricted; 0: 4096 */
	bool no_truncate;	/* do not handle fs.truncate: truncation is
				 * left to file permissions (--no-truncate) */
};

/* Counts over the entry domain's subtree (what --explain sums up). */
struct hm_sbx_summary {
	uint64_t domains;		/* in the subtree */
	uint64_t entries;		/* policy entries translated */
	uint64_t grants;		/* rules of the entry ruleset */
	uint64_t widened[HM_SBX_W_MAX];	/* entries with that widening; the
					 * build does not look at the file
					 * system, so [HM_SBX_W_MISSING] is
					 * 0 (--explain counts it) */
	uint64_t unenforced[HM_SBX_NE_MAX];
	uint64_t abi_unenforced;	/* entries with a right the ABI lacks */
	uint64_t truncate_unenforced;	/* entries granting fs.truncate,
					 * left to file permissions by
					 * no_truncate */
	uint64_t static_execs;		/* execute entries of static programs */
	uint64_t handled_fs, handled_net, scoped;
	bool ports_too_wide_bind, ports_too_wide_connect;
	bool ports_too_wide_udp;	/* ABI 10: UDP bind or connect/send */
};

/**
 * hm_sbx_table() - the rulesets for @root and every domain reachable from
 * it (children by name, and where its literal execute entries lead by the
 * exception policy), as one table blob (sandbox/table.h); @root is
 * domain 0.  A domain's ruleset is the union over its subtree.
 * @m: the policy (names are interned in it while computing transitions).
 * @blob, @size: malloc()ed table; caller frees with free().
 * @sum: counts for @root; may be NULL.
 * Returns: 0, -E2BIG (the table would pass 4 GiB), -ENOMEM.
 */
int hm_sbx_table(struct hm_model *m, const struct hm_domain *root,
		 const struct hm_sbx_opts *o, void **blob, size_t *size,
		 struct hm_sbx_summary *sum);

/**
 * hm_sbx_explain() - --explain's report on @f: each entry of @root's
 * subtree as policy text with the grants it becomes, their widenings
 * and what is not enforced; then the summary @s for @abi, the rights
 * moves add, and the set-id programs of table @blob (hm_sbx_table()).
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_explain(FILE *f, struct hm_model *m, const struct hm_domain *root,
		   const struct hm_sbx_summary *s, int abi, const void *blob);

/**
 * hm_sbx_explain_notes() - the lines --stats adds to the counts, on @f:
 * fs.truncate left to file permissions, the set-id programs of @blob.
 */
void hm_sbx_explain_notes(FILE *f, const struct hm_sbx_summary *s, int abi,
			  const void *blob);

/**
 * hm_sbx_enter_domain() - the domain name COMMAND runs in when executed
 * as @program (its raw absolute path, as passed to execve) from the
 * domain called @caller: TOMOYO's transition, exception policy included.
 * @out: malloc()ed name; caller frees with free().
 * Returns: 0, -EINVAL (@caller is not a domain name), -ENAMETOOLONG,
 * -ENOMEM.
 */
int hm_sbx_enter_domain(struct hm_model *m, const char *caller,
			const char *program, char **out);

/* ---------------------------------------------- COMMAND, the preload, files */

/* The newest Landlock ABI this code knows. */
#define HM_SBX_ABI_MAX	10

/** hm_sbx_abi() - the running kernel's Landlock ABI, or negative errno
 * (-ENOSYS not built in, -EOPNOTSUPP disabled at boot). */
int hm_sbx_abi(void);

/**
 * hm_sbx_program_path() - COMMAND's path as execve gets it from @cmd:
 * absolute, lexically clean; a bare name looked up in PATH as execvp()
 * would.  Whether it exists is not checked.
 * Returns: a malloc()ed path, NULL when not found or out of memory.
 */
char *hm_sbx_program_path(const char *cmd);

/**
 * hm_sbx_caller_domain() - the domain this process is run from, rebuilt
 * from the executables of its ancestors, the oldest first, through the
 * transitions of @m.  A script shows as its interpreter there, so
 * --domain is the reliable way.
 * Returns: a malloc()ed name, NULL when out of memory.
 */
char *hm_sbx_caller_domain(struct hm_model *m);

/* The preload library's file name. */
#define HM_SBX_PRELOAD_NAME "libhistmac-sandbox.so"
#define HM_SBX_PRELOAD_PLACES 3

/**
 * hm_sbx_preload_places() - where the preload library is looked for, in
 * order: $HISTMAC_SANDBOX_PRELOAD (when set, the only place), next to
 * this histmac (a build tree), where it is installed.  Whether the files
 * exist is not checked.  `histmac sandbox` loads the first readable one;
 * `histmac check` knows them all as the sandbox's own.
 * Returns: how many were put in @out (malloc'd), 0 when out of memory.
 */
size_t hm_sbx_preload_places(char *out[HM_SBX_PRELOAD_PLACES]);

/** hm_sbx_preload_path() - the first readable of
 * hm_sbx_preload_places(), malloc()ed; NULL when none is. */
char *hm_sbx_preload_path(void);

/* The sandbox's private directory: the table's copy and the report FIFO. */
struct hm_sbx_files {
	char dir[PATH_MAX];
	char table[PATH_MAX];
	char report[PATH_MAX];
	uint64_t ino;		/* of the table's copy */
	int64_t ctime_ns;
	bool shared;		/* reachable by other users (below) */
};

/** hm_sbx_files_make() - a new directory with a random name in a new
 * TMP/histmac-sandbox.XXXXXX ($TMPDIR or /tmp; a real path) holding the
 * report FIFO.  Private (0700) unless this process may change users
 * (CAP_SETUID permitted): then both directories are 0711 and the table's
 * copy and the FIFO readable and writable by others who know the name,
 * so that a program below that changed user still reaches them (and
 * a $TMPDIR others may not search is passed over for /tmp).
 * Returns: 0 or negative errno. */
int hm_sbx_files_make(struct hm_sbx_files *f);

/** hm_sbx_files_remove() - remove the directory and what is in it. */
void hm_sbx_files_remove(struct hm_sbx_files *f);

/* ---------------------------------------------------------------- run */

/* A wrapper's statuses (env, timeout, nice), so that a script can tell
 * them from COMMAND's own: histmac failed; COMMAND cannot run; not found. */
enum {
	HM_SBX_EXIT_OWN = 125,
	HM_SBX_EXIT_CANNOT_RUN = 126,
	HM_SBX_EXIT_NOT_FOUND = 127,
};

/* What hm_sbx_run() runs, and how. */
struct hm_sbx_run_opts {
	char **cmd;		/* COMMAND and its arguments, NULL-terminated */
	const char *prog;	/* its path (hm_sbx_program_path()) */
	const char *preload;	/* the preload library; NULL: none, and
				 * nothing below COMMAND narrows */
	bool strict;		/* --strict: what cannot narrow does not run */
	bool stats;		/* --stats: say what applying took, and at the
				 * end what the preload reported */
};

/**
 * hm_sbx_run() - run COMMAND confined to table @blob (@size bytes)'s
 * domain 0 and supervise it: the table handed over (a sealed memfd,
 * its copy in @f, LD_PRELOAD and HISTMAC_SANDBOX), COMMAND forked into a
 * new session, restricted (Landlock, no_new_privs unless a root sandbox
 * keeps set-id programs working, the terminal filter where needed) and
 * executed; meanwhile this process passes on the signals it gets and
 * says on stderr what the preload reports on @f's FIFO.  It removes @f
 * when COMMAND exits, and dies of the signal that killed COMMAND.
 * Unlike the rest of the library it speaks on stderr, as "histmac: ...":
 * it is the sandbox's runtime, and its child exits.
 * @f: from hm_sbx_files_make(), the paths @blob was built with.
 * Returns: COMMAND's exit status once it was started (HM_SBX_EXIT_* when
 * it could not be confined or executed), else negative errno (said why;
 * -EPERM: --strict refused COMMAND itself).
 */
int hm_sbx_run(const void *blob, size_t size, struct hm_sbx_files *f,
	       const struct hm_sbx_run_opts *o);

/**
 * hm_sbx_exec() - execute COMMAND @cmd as @prog, unconfined (a dry run,
 * no Landlock) or once confined.  Says why it failed.
 * Returns: only on failure: HM_SBX_EXIT_NOT_FOUND or
 * HM_SBX_EXIT_CANNOT_RUN.
 */
int hm_sbx_exec(char **cmd, const char *prog);

#endif /* HISTMAC_SANDBOX_H */
