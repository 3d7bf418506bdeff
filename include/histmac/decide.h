/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * decide.h (enforcer) - what the enforcer decides, apart from fanotify:
 * the decision on one open or exec in one domain and the decision cache
 * (enforcer/decide.c, enforcer/dcache.c); the TOMOYO name of a path the
 * kernel showed is kernel_names.h's, the audit record of a decision
 * decision.h's.  All of it is pure (no system calls), so unit tests and
 * benchmarks reach it; the rest of enforcer/ does the I/O.
 *
 *   fanotify event -> hm_enf_path_name() -> hm_enf_decide() -> answer
 *                  \-> hm_dcache (domain, object) short-cuts the above
 *   decision -> hm_decision_format() -> audit user record
 *            <- hm_decision_parse()  <- collector (HM_EV_HM_DECISION)
 */
#ifndef HISTMAC_DECIDE_H
#define HISTMAC_DECIDE_H

#include "decision.h"
#include "kernel_names.h"
#include "model.h"

/* ---------------------------------------------------------- decisions */

struct hm_enf_index;

/**
 * hm_enf_index_new() - what the decision needs beyond the model's own
 * lookup index: execute entries by their exec.realpath condition, the
 * "file create" entries of each domain (fanotify cannot see the mode), and
 * the acl_groups every domain uses (globally readable objects).
 * @m: the policy; borrowed, must outlive the index.
 * Returns: 0 or -ENOMEM; caller frees with hm_enf_index_free().
 */
int hm_enf_index_new(const struct hm_model *m, struct hm_enf_index **out);
void hm_enf_index_free(struct hm_enf_index *ix);

/**
 * hm_enf_index_add() - keep @ix current after @e was added to @d (or to
 * an acl_group pseudo-domain) by learning.
 * Returns: 0 or -ENOMEM.
 */
int hm_enf_index_add(struct hm_enf_index *ix, const struct hm_domain *d,
		     const struct hm_acl_head *e);

/** hm_enf_index_global() - is some acl_group used by every domain? */
bool hm_enf_index_global(const struct hm_enf_index *ix);

/** hm_enf_index_needs_task() - does some entry carry a condition on task
 * values (task.uid=...), so a decision needs them (struct hm_cond_ctx)? */
bool hm_enf_index_needs_task(const struct hm_enf_index *ix);


/* What an open whose flags cannot be read asks: read and write (fail
 * closed: a write is never let through as a read). */
#define HM_ENF_OPEN_UNKNOWN (1u << HM_FILE_READ | 1u << HM_FILE_WRITE)
/* In an asked mask: O_CREAT on an empty file (the open may have made
 * it).  In a granted mask: a "file create" entry matches. */
#define HM_ENF_OPEN_CREAT (1u << HM_FILE_CREATE)

/**
 * hm_enf_open_ops() - what an open with @flags asks for, as TOMOYO checks
 * it: read for O_RDONLY and O_RDWR, write (append with O_APPEND) for
 * O_WRONLY and O_RDWR, truncate for O_TRUNC on a file with something in
 * it (its file_truncate hook; an empty file loses nothing), and
 * HM_ENF_OPEN_CREAT for O_CREAT on an empty file.
 * @flags: the open's flags (open(2), openat(2), open_how.flags).
 * @empty: the file is empty at the event (the kernel truncates after it).
 * Returns: a bitmask of enum hm_file_op (HM_ENF_OPEN_OPS, plus
 * HM_ENF_OPEN_CREAT).
 */
uint32_t hm_enf_open_ops(uint64_t flags, bool empty);

/**
 * hm_enf_open_allows() - does @granted (struct hm_enf_answer.granted)
 * cover every operation in @ask (hm_enf_open_ops())?  A "file create"
 * entry stands for the open of an empty file asked with O_CREAT: the
 * enforcer never sees the create, and the open holds nothing to read or
 * overwrite.
 */
bool hm_enf_open_allows(uint32_t granted, uint32_t ask);

/**
 * hm_enf_append_ask() - what an open that asks "file append" really
 * asks: an O_APPEND descriptor can drop O_APPEND (fcntl F_SETFL), then
 * write anywhere (pwrite) and truncate (ftruncate), none of which the
 * enforcer sees.  Only an append-only file (chattr +a: the kernel keeps
 * O_APPEND on and refuses truncate) limits it to appending; any other is
 * judged as "file write".
 * @ask: hm_enf_open_ops().
 * @append_only: the file has FS_APPEND_FL (FS_IOC_GETFLAGS).
 * Returns: @ask, with append turned into write unless @append_only.
 */
uint32_t hm_enf_append_ask(uint32_t ask, bool append_only);

/* What one fanotify permission event asks. */
struct hm_enf_query {
	bool exec;			/* FAN_OPEN_EXEC_PERM, else FAN_OPEN_PERM */
	const struct hm_name *path;	/* as hm_enf_path_name names it */
	const struct hm_name *domain_name; /* the process's domain */
	const struct hm_domain *domain;	/* it in the model, or NULL */
	const struct hm_cond_ctx *ctx;	/* task values; may be NULL */
	uint32_t ask;			/* open: hm_enf_open_ops(); 0: not
					 * read (see struct hm_enf_answer) */
};

/*
 * struct hm_enf_answer - what the policy says.
 * @allowed: the ACL (or a used acl_group) allows it.
 * @match: the entry that allowed it, or NULL.
 * @program: exec: the name to enter the next domain with (the @match'ed
 *	entry's literal name, the name of an execute entry whose
 *	exec.realpath equals the path, or the path itself).  Borrowed from
 *	the model or the query.
 * @profile: the profile that applies: the domain's, else (a domain the
 *	policy lacks) its nearest ancestor's, else the model's default.
 * @global: allowed by an entry with no condition in an acl_group every
 *	domain uses, so allowed to every process (an ignore mark may
 *	cache it in the kernel).
 * @cacheable: the answer depends only on (domain, object): no condition
 *	on task values was involved.
 * @granted: open: the operations the entries that match grant (bits of
 *	HM_ENF_OPEN_OPS, and HM_ENF_OPEN_CREAT for a "file create" entry).
 * @need_mode: open asked with @ask 0: the answer depends on how the file
 *	is opened (something but not everything is granted); @allowed is
 *	then hm_enf_open_allows(@granted, the open's mode).
 * @by_op: open: the entry that grants each operation (read, write,
 *	append, truncate, then "file create"), NULL where none does; what
 *	hm_enf_count_use() stamps.
 * @only: the one entry behind everything granted (@match), or NULL when
 *	two or more grant parts of it: a cached answer can then be counted
 *	without knowing the mode asked.
 */
struct hm_enf_answer {
	bool allowed;
	const struct hm_acl_head *match;
	const struct hm_name *program;
	uint8_t profile;
	bool global;
	bool cacheable;
	bool need_mode;
	uint32_t granted;
	const struct hm_acl_head *by_op[5];
	const struct hm_acl_head *only;
};

/**
 * hm_enf_decide() - judge @q against @m.
 *
 * exec: allowed when the domain (or an acl_group it uses) holds
 * "file execute X" with X matching the path, or with
 * exec.realpath equal to the path (the program was called by a symlink).
 * open: allowed when it holds every operation @q->ask names for the
 * path (hm_enf_open_allows()); with @q->ask 0 (the mode not read yet),
 * when it holds all four (read, write, append, truncate), and
 * @out->need_mode says whether reading the mode could allow it.
 * Every operation is looked up on its own (TOMOYO's O_RDWR: read, then
 * write), so two entries may grant an open together.
 * A domain the policy lacks has no ACL of its own; it uses its nearest
 * ancestor's acl_groups and profile, as TOMOYO would have created it.
 */
void hm_enf_decide(const struct hm_model *m, const struct hm_enf_index *ix,
		   const struct hm_enf_query *q, struct hm_enf_answer *out);

/**
 * hm_enf_count_use() - count an allowed decision as a use of the entries
 * that allowed it (struct hm_acl_hist: uses, last used at @sec): the
 * exec's entry, or for an open each distinct entry granting an operation
 * @ask (hm_enf_open_ops()) names.  No allocation: a counter and a stamp.
 */
void hm_enf_count_use(const struct hm_enf_answer *a, bool exec, uint32_t ask,
		      int64_t sec);


/* -------------------------------------------------------------- cache */

/*
 * The object of a decision: which file, and which version of it.  A
 * rename or a new hard link changes ctime, a write changes mtime; files
 * with more than one link are never cached (two names, one inode).  A
 * rename of a parent directory changes none of them: entries also expire
 * (a time to live), which bounds how long a name that changed that way
 * keeps its old answer.
 */
struct hm_dcache_key {
	const void *domain;		/* tracker-interned domain name */
	uint64_t mnt_id;
	uint64_t dev;
	uint64_t ino;
	int64_t ctime_sec;
	int64_t mtime_sec;
	uint32_t ctime_nsec;
	uint32_t mtime_nsec;
	bool exec;
};

struct hm_dcache_stats {
	uint64_t lookups;
	uint64_t hits;
	uint64_t misses;
	uint64_t inserts;
	uint64_t evictions;	/* a valid entry replaced */
	uint64_t expired;	/* found, but older than the time to live */
	uint64_t invalidations;	/* whole-cache flushes (reload, learning) */
	uint64_t slots;
};

struct hm_dcache;

/**
 * hm_dcache_new() - a cache of @slots allowed (domain, object) pairs
 * (rounded up to a power of two, at least 64), four-way set associative.
 * @ttl_ns: how long an entry is good for; 0: until invalidated.
 * Returns: the cache or NULL; caller frees with hm_dcache_free().
 */
struct hm_dcache *hm_dcache_new(size_t slots, uint64_t ttl_ns);
void hm_dcache_free(struct hm_dcache *c);

/**
 * hm_dcache_lookup() - was @k allowed since the last invalidation, at
 * most the time to live before @now_ns (a monotonic clock)?
 * @granted: out, on a hit: what was granted (struct hm_enf_answer's
 *	granted; a hit must still check the mode asked).  May be NULL.
 */
bool hm_dcache_lookup(struct hm_dcache *c, const struct hm_dcache_key *k,
		      uint64_t now_ns, uint32_t *granted);

/** hm_dcache_lookup_use() - hm_dcache_lookup(), and the entry inserted
 * with it (hm_dcache_insert_use(); NULL: none) into *@use. */
bool hm_dcache_lookup_use(struct hm_dcache *c, const struct hm_dcache_key *k,
			  uint64_t now_ns, uint32_t *granted,
			  const void **use);

/** hm_dcache_insert() - remember that @k is allowed with @granted (what
 * the policy grants on it), as of @now_ns. */
void hm_dcache_insert(struct hm_dcache *c, const struct hm_dcache_key *k,
		      uint32_t granted, uint64_t now_ns);

/** hm_dcache_insert_use() - the same, with the entry a hit counts as
 * used (struct hm_enf_answer's only; opaque here, borrowed: valid until
 * the next invalidation). */
void hm_dcache_insert_use(struct hm_dcache *c, const struct hm_dcache_key *k,
			  uint32_t granted, const void *use, uint64_t now_ns);

/** hm_dcache_invalidate() - forget everything, in O(1). */
void hm_dcache_invalidate(struct hm_dcache *c);

void hm_dcache_stats(const struct hm_dcache *c, struct hm_dcache_stats *out);

#endif /* HISTMAC_DECIDE_H */
