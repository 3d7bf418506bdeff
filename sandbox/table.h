/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table.h - the per-domain rulesets `histmac sandbox` precomputes for the
 * preload library, so that a program starting below the sandbox narrows
 * itself without parsing the policy: one read-only blob (a sealed memfd
 * inherited across exec), offsets instead of pointers.
 *
 *   header | domains[] | edges[] | rules[] | strings (NUL-terminated)
 *
 * A domain's rules are the union over its subtree, already translated,
 * merged and cut down to the running kernel's ABI; its edges say which
 * domain an exec of a program (by its name, as TOMOYO names it) leads to.
 * hm_sbx_table_check*() validate the offsets, so the preload can trust
 * nothing but what it checked.
 */
#ifndef HISTMAC_SANDBOX_TABLE_H
#define HISTMAC_SANDBOX_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HM_SBX_MAGIC	0x78627368u	/* "hsbx" */
#define HM_SBX_VERSION	5	/* 2: domains name their same-ruleset domain;
				 * 3: HM_SBX_RULE_FILE; 4: edges say what
				 * their program is (struct hm_sbx_tfile);
				 * 5: set-id programs and the domains above
				 * them (HM_SBX_EXEC_SETID, HM_SBX_DOM_SETID) */

/*
 * The environment variable that carries, across exec,
 *
 *     FD:DDDDDDDDDD:S:M:INO:CTIME:DIR
 *
 * FD the table's sealed memfd (kept at a high number, launch.c); the
 * domain index in fixed width and a state (the preload rewrites both in
 * place): '!' the sandbox applied DOMAIN for this very exec, '.' DOMAIN
 * is the parent's and its ruleset is applied, 'L' DOMAIN is where the
 * policy puts the parent but Landlock's layer limit kept an ancestor's
 * ruleset, 'S' DOMAIN is the parent's but it kept an ancestor's ruleset
 * for a set-id program below it (HM_SBX_DOM_SETID; a child narrows even
 * to a ruleset equal to DOMAIN's), '-' unknown (nothing below narrows by
 * a guess); M 's' strict
 * (a program that cannot narrow does not start) or 'r' report only;
 * INO and CTIME (ns) identify DIR/table, the copy of the table read when
 * FD is gone (a daemon's close_range, a script's `exec 3>&-`): a copy
 * changed since (another inode, another ctime) is not believed.  DIR
 * also holds the FIFO the preload reports lost narrowing to.
 */
#define HM_SBX_ENV		"HISTMAC_SANDBOX"
#define HM_SBX_DOM_DIGITS	10
#define HM_SBX_APPLIED		'!'
#define HM_SBX_PARENT		'.'
#define HM_SBX_LAYERS		'L'
#define HM_SBX_SETID_KEPT	'S'
#define HM_SBX_UNKNOWN		'-'
#define HM_SBX_MODE_STRICT	's'
#define HM_SBX_MODE_REPORT	'r'
#define HM_SBX_TABLE_FILE	"table"
#define HM_SBX_REPORT_FILE	"report"
/* the lowest descriptor number the memfd is moved to */
#define HM_SBX_TABLE_FD		900

/*
 * What the preload reports on DIR/report, one line per program that
 * cannot narrow: "KIND R PID PROGRAM\n", R 'r' refused (strict) or '-'.
 * X(KIND word, what it means)
 */
#define HM_SBX_LOST_KINDS(X)						\
	X(table, "the table is gone (its descriptor closed, the copy "	\
	  "missing or changed)")					\
	X(preload, "executed without the preload (an environment too "	\
	  "large to put it back in, or a secure exec: ld.so ignores "	\
	  "LD_PRELOAD)")						\
	X(static, "statically linked: no preload")			\
	X(layers, "Landlock's 16-layer limit")				\
	X(edge, "no transition in the policy for this exec")		\
	X(error, "the ruleset could not be applied")
/* Said on DIR/report for --stats, "env - PID PROGRAM": an exec whose
 * environment the preload put LD_PRELOAD or HISTMAC_SANDBOX back in. */
#define HM_SBX_ENV_RESTORED	"env"
/*
 * Said on DIR/report, "setid - PID PROGRAM", and never refused: a
 * program that does not narrow by the table's decision, not for want of
 * anything.  Without no_new_privs (a root sandbox) a domain marked
 * HM_SBX_DOM_SETID keeps its parent's bound, so that the set-id program
 * the table knows below it keeps its privilege (narrowing would need
 * no_new_privs, which the kernel would then apply to it too); and the
 * set-id program itself runs without the preload (a secure exec).
 */
#define HM_SBX_SETID		"setid"
#define HM_SBX_SETID_TEXT	"a set-user-ID, set-group-ID or file-"	\
	"capability program the table knows runs in or below its domain: "\
	"no no_new_privs there, so that it keeps its privilege"

struct hm_sbx_thdr {
	uint32_t magic;
	uint32_t version;
	uint64_t size;		/* of the whole blob */
	uint32_t abi;		/* the ABI the rules were cut to */
	uint32_t restrict_flags; /* landlock_restrict_self() flags */
	uint32_t n_domains, n_edges, n_rules, str_len;
	uint32_t dom_off, edge_off, rule_off, str_off;
};

struct hm_sbx_tdom {
	uint32_t name;		/* string offset: encoded domain name */
	uint32_t rule_first, n_rules;
	uint32_t edge_first, n_edges;
	uint32_t ruleset;	/* the first domain whose ruleset is the same
				 * as this one's (itself if none): an exec
				 * between two such domains adds no layer */
	uint32_t flags;		/* HM_SBX_DOM_* */
	uint32_t pad;
	uint64_t handled_fs, handled_net, scoped;
};

/* The domain, or one its transitions reach, executes a set-id program
 * (an edge with HM_SBX_EXEC_SETID): without no_new_privs a process
 * entering it keeps its parent's bound instead of narrowing, since only
 * no_new_privs lets a process without CAP_SYS_ADMIN narrow, and the
 * kernel then ignores the program's set-id bits (docs/SANDBOX.md). */
#define HM_SBX_DOM_SETID	0x1u

/*
 * What an exec edge's program is, looked at when the table was built
 * (inspect.c), so that the preload need not read it before the exec:
 * under TOMOYO the kernel's own read of an executed program needs no
 * "file read", but the preload's would be one in the caller's domain.
 * The files read to say it (the program, then each "#!" interpreter)
 * are named with their identity: the preload believes the flags only
 * while a stat() of each still finds the same file (a write, chmod or
 * replacement changes its ctime or inode).
 */
#define HM_SBX_CHAIN		4	/* a program and 3 "#!" interpreters */
#define HM_SBX_INTERP_MAX	256	/* the kernel reads "#!" in 256 bytes */
#define HM_SBX_EXEC_KNOWN	0x1u	/* inspected: files[] identify it */
#define HM_SBX_EXEC_STATIC	0x2u	/* static: no preload can load */
#define HM_SBX_EXEC_SETID	0x4u	/* the file the kernel takes the new
					 * credentials from (the program, or
					 * a script's ELF interpreter) is
					 * set-user-ID, set-group-ID (with
					 * group execute) or has file
					 * capabilities, on a mount that
					 * honours them; as the build saw
					 * it: the preload believes it only
					 * with HM_SBX_EXEC_KNOWN */

struct hm_sbx_fid {
	uint64_t dev, ino;
	int64_t ctime_ns;
};

struct hm_sbx_tfile {
	uint32_t path;		/* string offset: as the kernel opens it */
	uint32_t pad;
	struct hm_sbx_fid id;
};

struct hm_sbx_tedge {
	uint32_t program;	/* string offset: raw absolute path */
	uint32_t child;		/* domain index */
	uint32_t flags;		/* HM_SBX_EXEC_* */
	uint32_t n_files;	/* of files[], when HM_SBX_EXEC_KNOWN */
	struct hm_sbx_tfile files[HM_SBX_CHAIN];
};

enum hm_sbx_rule_type {
	HM_SBX_RULE_PATH = 1,
	HM_SBX_RULE_PORT = 2,
	HM_SBX_RULE_FILE = 3,	/* a path learned as a file: refused when
				 * the object is now a directory */
};

struct hm_sbx_trule {
	uint32_t type;		/* enum hm_sbx_rule_type */
	uint32_t path;		/* string offset (path rules) */
	uint64_t access;
	uint64_t port;		/* port rules */
};

/*
 * hm_sbx_table_check() - is @t (of @size bytes) a table whose offsets all
 * stay inside it and whose strings are terminated?  Pure.  It is
 * hm_sbx_table_check_header(), hm_sbx_table_check_domain() of every
 * domain and a check of every rule's string; the preload checks only the
 * header and the two domains it reads, and hm_sbx_apply() each rule it
 * reads, so an exec does not touch the whole table.
 */
bool hm_sbx_table_check(const void *t, size_t size);
bool hm_sbx_table_check_header(const void *t, size_t size);
/* @dom is a domain of checked-header table @h: its name, its rule and
 * edge ranges and its edges stay inside the table. */
bool hm_sbx_table_check_domain(const struct hm_sbx_thdr *h, uint32_t dom);

/* The parts of a checked table. */
static inline const struct hm_sbx_tdom *
hm_sbx_tdom(const struct hm_sbx_thdr *h, uint32_t i)
{
	return (const struct hm_sbx_tdom *)((const char *)h + h->dom_off) + i;
}

static inline const struct hm_sbx_tedge *
hm_sbx_tedge(const struct hm_sbx_thdr *h, uint32_t i)
{
	return (const struct hm_sbx_tedge *)((const char *)h + h->edge_off) + i;
}

static inline const struct hm_sbx_trule *
hm_sbx_trule(const struct hm_sbx_thdr *h, uint32_t i)
{
	return (const struct hm_sbx_trule *)((const char *)h + h->rule_off) + i;
}

static inline const char *hm_sbx_tstr(const struct hm_sbx_thdr *h,
				      uint32_t off)
{
	return (const char *)h + h->str_off + off;
}

/* What applying one domain's rules did. */
struct hm_sbx_apply_stats {
	uint32_t rules;		/* added */
	uint32_t missing;	/* objects that did not exist: their rules
				 * went to the nearest existing parent */
	uint32_t not_dir;	/* directory rights dropped on a non-directory */
	uint32_t not_file;	/* refused: a learned file is a directory now
				 * (its rights would hold beneath it) */
	uint32_t unreachable;	/* skipped: the process may not reach the
				 * object (EACCES, ENAMETOOLONG) */
	uint32_t symlinks;	/* skipped: the object, or a directory on
				 * the way to it, is a symlink (ELOOP) */
	uint32_t uncreatable;	/* learned files to write that do not
				 * exist, in a directory no rule of the
				 * domain lets it create files in: opening
				 * them fails until someone makes them */
	uint32_t uncreatable_first;	/* the first one's string offset */
	uint32_t restrict_us;	/* in landlock_restrict_self(): the kernel
				 * copying every inherited rule into the
				 * new domain */
};

/**
 * hm_sbx_apply() - build a Landlock ruleset of domain @dom of table @h
 * and restrict the calling thread with it (no_new_privs must be set, or
 * the thread hold CAP_SYS_ADMIN: -EPERM otherwise).
 * A rule's object that does not exist (a file created later) is granted
 * on its nearest existing parent and counted: the widening docs/SANDBOX.md
 * calls "missing".  One the process may not reach (a directory it may not
 * search) is skipped and counted: it could not open it either.
 * @st: counters; may be NULL.
 * Returns: 0 or negative errno (-E2BIG: the 16-layer limit; -EMFILE,
 * -ENOMEM: nothing was widened for them; -EINVAL: a rule's string is
 * outside the table).
 */
int hm_sbx_apply(const struct hm_sbx_thdr *h, uint32_t dom,
		 struct hm_sbx_apply_stats *st);

/**
 * hm_sbx_real_path() - @path (absolute) with every symlink on the way
 * replaced by what it names, following only links owned by root in a
 * directory owned by root that nobody else may write (/bin -> usr/bin,
 * /lib64/ld-linux-x86-64.so.2 on a merged /usr): a confined process
 * cannot have planted those.  A missing component ends the walk: the
 * rest is kept as written.  @root prefixes every lookup (tests), never
 * the result.
 * Returns: 0, -ELOOP (another link on the way, or 40 links),
 * -ENAMETOOLONG.
 */
int hm_sbx_real_path(const char *root, const char *path, char *out,
		     size_t cap);

/*
 * struct hm_sbx_exec_info - what hm_sbx_inspect() found.
 * @is_static: an ELF without PT_INTERP, or a script whose "#!"
 *	interpreter (followed 3 deep) is one: nothing can preload into it.
 * @setid: the ELF the chain ends at (whose file the kernel takes the
 *	new credentials from) is set-user-ID, set-group-ID with group
 *	execute, or has file capabilities (security.capability), on a
 *	mount without nosuid.
 * @n: files read, @id[i] of each: the program, then the interpreter
 *	@interp[i - 1] named.
 */
struct hm_sbx_exec_info {
	bool is_static;
	bool setid;
	uint32_t n;
	struct hm_sbx_fid id[HM_SBX_CHAIN];
	char interp[HM_SBX_CHAIN - 1][HM_SBX_INTERP_MAX];
};

/**
 * hm_sbx_inspect() - read program @prog (absolute; @root prefixes every
 * open, tests) and the "#!" interpreters it names, as the kernel will
 * to execute it.  libc only, no allocation: the preload calls it in a
 * vfork()ed child.
 * Returns: 0, or negative errno when a file of the chain could not be
 * opened or read (@out->is_static is then false: not claimed).
 */
int hm_sbx_inspect(const char *root, const char *prog,
		   struct hm_sbx_exec_info *out);

/**
 * hm_sbx_edge_current() - are the files edge @e of checked table @h was
 * inspected from still the same (a stat() of each under @root finds the
 * same device, inode and ctime)?  False for an edge not inspected.
 */
bool hm_sbx_edge_current(const char *root, const struct hm_sbx_thdr *h,
			 const struct hm_sbx_tedge *e);

/**
 * hm_sbx_normalize() - clean absolute path @p in place, lexically, as
 * the audit trail's names are: no "//", "/./" or "/../".
 */
void hm_sbx_normalize(char *p);

#endif /* HISTMAC_SANDBOX_TABLE_H */
