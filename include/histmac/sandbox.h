/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sandbox.h (sandbox) - a learned domain tree as Landlock rulesets
 * (docs/SANDBOX.md).
 *
 *   policy entry --hm_sbx_translate()--> grants (object, Landlock rights,
 *                                        widenings) or "not enforced"
 *   domain D --hm_sbx_table()--> for D and every domain below it: the
 *                                union of its subtree's grants, cut to
 *                                the kernel's ABI, and its exec edges,
 *                                as one blob (sandbox/table.h) that
 *                                histmac sandbox applies and passes to
 *                                libhistmac-sandbox.so
 *
 *   COMMAND --hm_sbx_run()--> confined to the table's domain 0, its
 *                             supervisor relaying signals and what the
 *                             preload reports
 *
 * The translation looks at the file system (which objects exist, what a
 * program's interpreter is) but makes no Landlock call; applying is
 * sandbox/apply.c's, running sandbox/run.c's.
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

/* Not a widening: set in a grant's @widen by HM_SBX_LOOKUP when the
 * object, or a directory on the way to it, is a symlink; applying follows
 * none (a planted one could name "/") and skips the rule. */
#define HM_SBX_SYMLINK	(1u << 31)

extern const char *const hm_sbx_widen_words[HM_SBX_W_MAX];
extern const char *const hm_sbx_widen_text[HM_SBX_W_MAX];

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

extern const char *const hm_sbx_unenforced_text[HM_SBX_NE_MAX];

/*
 * struct hm_sbx_grant - Landlock rights on one object.
 * @path: raw absolute path (a file or directory), or NULL for a port.
 * @port, @port_max: the TCP ports when @path is NULL.
 * @access: LANDLOCK_ACCESS_FS_* (path) or LANDLOCK_ACCESS_NET_* (port)
 *	bits, whatever the running kernel supports.
 * @widen: bitmask of enum hm_sbx_widen.
 */
struct hm_sbx_grant {
	char *path;
	uint64_t port;
	uint64_t port_max;
	uint64_t access;
	uint32_t widen;
	bool file;	/* @path was learned as a file (a name without '/'
			 * at the end, granted on itself): applying refuses
			 * it on a directory, where the rights would hold
			 * for everything beneath */
};

/*
 * struct hm_sbx_move - a rename or link the entry allows from one
 * directory to another: @from and @to index the grants on the source's
 * and the destination's parent (each with fs.refer); @dir: the entry
 * moves a directory.  The build makes the source's rights cover the
 * destination's (build.c, widen_moves()).
 */
struct hm_sbx_move {
	uint32_t from, to;
	bool dir;
};

/*
 * struct hm_sbx_xlat - what one policy entry becomes.
 * @grants: @n of them; malloc()ed with their paths.
 * @unenforced: why the entry (or a part of it) has no grant.
 * @scope_signal, @scope_abstract: the entry keeps the subtree from
 *	being scoped (a signal, an abstract unix address).
 * @static_exec: an execute entry whose program (or interpreter) is a
 *	static ELF: no preload, so it keeps its parent's ruleset.
 * @moves: the cross-directory renames and links a rename or link entry
 *	allows.
 */
struct hm_sbx_xlat {
	struct hm_sbx_grant *grants;
	size_t n;
	enum hm_sbx_unenforced unenforced;
	bool scope_signal;
	bool scope_abstract;
	bool static_exec;
	struct hm_sbx_move *moves;	/* @n_moves; malloc()ed */
	size_t n_moves;
};

/* hm_sbx_translate() flags */
#define HM_SBX_LOOKUP	0x1u	/* resolve a missing object to its nearest
				 * existing parent now ([missing]), as
				 * applying will; without it, a grant names
				 * the object lexically and costs no stat() */

/**
 * hm_sbx_translate() - the Landlock grants for entry @e of @m.
 * @root: prefix the objects are looked up under ("" for the real root; a
 *	test's temp tree), never part of the grant's path.
 * @flags: HM_SBX_LOOKUP or 0.
 * @out: caller frees with hm_sbx_xlat_fini().
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_translate(const struct hm_model *m, const struct hm_acl_head *e,
		     const char *root, unsigned int flags,
		     struct hm_sbx_xlat *out);
void hm_sbx_xlat_fini(struct hm_sbx_xlat *x);

/* hm_sbx_fs_right_names[bit] - "fs.read_file", as audit names them. */
extern const char *const hm_sbx_fs_right_names[64];

/** hm_sbx_fs_abi_mask() - the file system rights ABI @abi handles. */
uint64_t hm_sbx_fs_abi_mask(int abi);

/** hm_sbx_right_abi() - the ABI that brought file system right @bit. */
int hm_sbx_right_abi(unsigned bit);

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

/*
 * struct hm_sbx_widened_move - rights a ruleset adds on a move's source
 * directory so that Landlock lets the move through (docs/SANDBOX.md
 * "Moving a file to another directory").
 */
struct hm_sbx_widened_move {
	char *from;		/* the source directory, its rule widened */
	char *to;		/* the destination directory */
	uint64_t added;		/* LANDLOCK_ACCESS_FS_* added on @from */
};

/**
 * hm_sbx_widened_moves() - what the ruleset of @root (the union over its
 * subtree, as hm_sbx_table() builds it for the top) adds on the sources
 * of its moves, for --explain.  Each domain below widens its own ruleset
 * the same way, within this one.
 * @o: as for hm_sbx_table(); only @abi and @root are read.
 * @out: malloc()ed array of @n; caller frees with
 *	hm_sbx_widened_moves_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_widened_moves(struct hm_model *m, const struct hm_domain *root,
			 const struct hm_sbx_opts *o,
			 struct hm_sbx_widened_move **out, size_t *n);
void hm_sbx_widened_moves_free(struct hm_sbx_widened_move *v, size_t n);

/**
 * hm_sbx_subtree() - @root and the domains reachable from it, @root
 * first, each once.
 * @out: malloc()ed array of @n borrowed domains; caller frees with free().
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_subtree(struct hm_model *m, const struct hm_domain *root,
		   const struct hm_domain ***out, size_t *n);

/**
 * hm_sbx_domain_entries() - call @fn on each entry domain @d holds: its
 * own and those of the acl_groups it uses.
 * Returns: the first non-zero @fn result, or 0.
 */
int hm_sbx_domain_entries(const struct hm_model *m, const struct hm_domain *d,
			  int (*fn)(const struct hm_acl_head *e, void *arg),
			  void *arg);

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

/* ------------------------------------------------------------ launch */

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

/**
 * hm_sbx_tty_filter() - install a seccomp filter (no_new_privs must be
 * set) making ioctl(TIOCSTI) and ioctl(TIOCLINUX) fail with EPERM in the
 * calling thread and everything it runs: the ioctls that push input into
 * a terminal, which the caller's shell would then run.
 * Returns: 0, -EOPNOTSUPP (no filter for this architecture) or negative
 * errno.
 */
int hm_sbx_tty_filter(void);

/**
 * hm_sbx_tty_filter_needed() - would the filter refuse anything the
 * kernel does not refuse already?  True when the calling process (in a
 * new session, no_new_privs set) has CAP_SYS_ADMIN in its permitted set,
 * or that cannot be read (docs/SANDBOX.md "The terminal").
 */
bool hm_sbx_tty_filter_needed(void);

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

/**
 * hm_sbx_table_fd() - table @blob in a sealed memfd that stays open
 * across exec, at a high descriptor number (HM_SBX_TABLE_FD or above).
 * Returns: the fd or negative errno.
 */
int hm_sbx_table_fd(const void *blob, size_t size);

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

/** hm_sbx_files_write_table() - write @blob read-only as f->table and
 * record its inode and ctime.  Returns: 0 or negative errno. */
int hm_sbx_files_write_table(struct hm_sbx_files *f, const void *blob,
			     size_t size);

/** hm_sbx_files_remove() - remove the directory and what is in it. */
void hm_sbx_files_remove(struct hm_sbx_files *f);

/** hm_sbx_env_value() - the HISTMAC_SANDBOX value (sandbox/table.h) for
 * table fd @fd and @f, COMMAND's own domain (0) applied.
 * @out: malloc()ed.  Returns: 0 or -ENOMEM. */
int hm_sbx_env_value(int fd, bool strict, const struct hm_sbx_files *f,
		     char **out);

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
