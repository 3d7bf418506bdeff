/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the sandbox's files share; not a public header.
 *
 *   translate.c  one policy entry -> grants
 *   build.c      subtree, per-domain union, ABI cut, the table blob
 *   apply.c      a table domain -> Landlock (also in the preload)
 *   launch.c     around COMMAND: the TIOCSTI filter, the table's memfd
 *                and copy, the report FIFO, HISTMAC_SANDBOX
 *   command.c    where COMMAND is, the domain it is run from
 *   run.c        hm_sbx_run(): restrict, launch, supervise
 *   relay.c      what the preload reports on the FIFO, said on stderr
 *   explain.c    --explain's report and --stats' notes
 *   preload.c    libhistmac-sandbox.so
 */
#ifndef HISTMAC_SANDBOX_INTERNAL_H
#define HISTMAC_SANDBOX_INTERNAL_H

#include <limits.h>

#include "histmac/sandbox.h"
#include "table.h"

/* ------------------------------------------- translation (translate.c) */

/* Not a widening: set in a grant's @widen by HM_SBX_LOOKUP when the
 * object, or a directory on the way to it, is a symlink; applying follows
 * none (a planted one could name "/") and skips the rule. */
#define HM_SBX_SYMLINK	(1u << 31)

extern const char *const hm_sbx_widen_words[HM_SBX_W_MAX];
extern const char *const hm_sbx_widen_text[HM_SBX_W_MAX];

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

/* ------------------------------------------ around COMMAND (launch.c) */

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

/**
 * hm_sbx_table_fd() - table @blob in a sealed memfd that stays open
 * across exec, at a high descriptor number (HM_SBX_TABLE_FD or above).
 * Returns: the fd or negative errno.
 */
int hm_sbx_table_fd(const void *blob, size_t size);

/** hm_sbx_files_write_table() - write @blob read-only as f->table and
 * record its inode and ctime.  Returns: 0 or negative errno. */
int hm_sbx_files_write_table(struct hm_sbx_files *f, const void *blob,
			     size_t size);

/** hm_sbx_env_value() - the HISTMAC_SANDBOX value (sandbox/table.h) for
 * table fd @fd and @f, COMMAND's own domain (0) applied.
 * @out: malloc()ed.  Returns: 0 or -ENOMEM. */
int hm_sbx_env_value(int fd, bool strict, const struct hm_sbx_files *f,
		     char **out);

/* -------------------------------------------------- between the files */

/**
 * hm_sbx_exec_grants() - add to @x the grants executing @path (raw,
 * absolute) needs: execute and read on it and on its interpreters.
 * Returns: 0 or -ENOMEM.
 */
int hm_sbx_exec_grants(const char *root, const char *path,
		       struct hm_sbx_xlat *x);

/* Landlock's network rights: TCP bind, connect; UDP bind, connect/send. */
#define HM_SBX_NET_RIGHTS 4

/* hm_sbx_net_right_names[bit] - "net.bind_tcp", as audit names them. */
extern const char *const hm_sbx_net_right_names[HM_SBX_NET_RIGHTS];

/** hm_sbx_net_right_abi() - the ABI that brought network right @bit. */
int hm_sbx_net_right_abi(unsigned bit);

/*
 * struct hm_sbx_setid - the execs of set-id programs in a table (one per
 * domain and program: a child by name and an execute entry are two edges
 * of one exec), the first one with the domain that executes it, and the
 * domains marked for them (they keep their parent's bound when
 * no_new_privs is off).  @prog and @domain point into the table.
 */
struct hm_sbx_setid {
	uint32_t domains, programs;
	const char *prog, *domain;
};

/** hm_sbx_setid_scan() - what table @blob says of set-id programs. */
void hm_sbx_setid_scan(const void *blob, struct hm_sbx_setid *out);

/* The kinds the preload reports (table.h HM_SBX_LOST_KINDS), and after
 * them, at HM_SBX_LOST_MAX, the one that is a decision, not a loss: a
 * domain that keeps its parent's bound for a set-id program. */
#define X(k, text) HM_SBX_LOST_##k,
enum { HM_SBX_LOST_KINDS(X) HM_SBX_LOST_MAX };
#undef X

/* The supervisor's end of the report FIFO, and what it heard. */
struct hm_sbx_relay {
	int fd;			/* the FIFO's read end */
	int wfd;		/* our own write end: never hung up */
	char buf[2 * PIPE_BUF];
	size_t len;
	char **seen;		/* "KIND PROGRAM" already said */
	size_t n_seen;
	uint64_t programs[HM_SBX_LOST_MAX + 1];	/* distinct per kind */
	uint64_t refused;
	uint64_t restored;	/* execs given LD_PRELOAD/HISTMAC_SANDBOX back */
};

/**
 * hm_sbx_relay_open() - open FIFO @fifo to read what the preload reports.
 * Returns: 0 or negative errno (@rl then holds nothing).
 */
int hm_sbx_relay_open(struct hm_sbx_relay *rl, const char *fifo);

/** hm_sbx_relay_read() - say on stderr, once per kind and program, what
 * the FIFO holds now. */
void hm_sbx_relay_read(struct hm_sbx_relay *rl);

/** hm_sbx_relay_stats() - --stats' counts of what was reported. */
void hm_sbx_relay_stats(const struct hm_sbx_relay *rl);

/** hm_sbx_relay_fini() - close both ends; forget what was said. */
void hm_sbx_relay_fini(struct hm_sbx_relay *rl);

#endif /* HISTMAC_SANDBOX_INTERNAL_H */
