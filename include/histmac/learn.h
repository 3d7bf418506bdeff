/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * learn.h (analyzer) - from normalised events to policy: the walker that
 * turns each event into the accesses TOMOYO would have checked (in the
 * domain the process was in), the generalizer that turns a literal access
 * into the entry to learn, the learner that adds it, and the checker that
 * reports what a policy does not allow (offline permissive mode).
 *
 *   collector -> hm_event -> walker (tracker) -> hm_access
 *                              -> learner: generalize, hm_domain_add
 *                              -> checker: hm_domain_allows, violations
 */
#ifndef HISTMAC_LEARN_H
#define HISTMAC_LEARN_H

#include "event.h"
#include "model.h"
#include "tracker.h"

/* ------------------------------------------------------------- options */

struct hm_learn_opts {
	bool builtin_rules;	/* proc pids, pipe/socket inodes (default on) */
	bool exec_realpath;	/* exec.realpath= on learned execute (on) */
	bool learn_failed;	/* learn failed syscalls too (off) */
	uint16_t peer_port_min;	/* accept/recv peer ports >= this ... */
	uint16_t peer_port_max;	/* ... are learned as min-max */
	uint16_t ephemeral_min;	/* connect/send ports in this range ... */
	uint16_t ephemeral_max;	/* ... are learned as the range */
	size_t max_procs;	/* tracker cap, 0 default */
	struct hm_logins logins;	/* learn only these logins' processes
					 * (audit's auid); empty: all */
};

/** hm_learn_opts_default() - the defaults above: 1024-65535 for peers,
 * 32768-60999 (Linux's ip_local_port_range) for ephemeral ports. */
void hm_learn_opts_default(struct hm_learn_opts *o);

/* ---------------------------------------------------------- generalizer */

struct hm_generalizer;

/**
 * hm_generalizer_new() - compile the rewrite rules of @m (rewrite.conf),
 * the built-in rules (when @o->builtin_rules) and @m's 2.1 file_pattern
 * list.  Rules that do not compile go to @d with their line.
 * Returns: 0 or negative errno; caller frees with hm_generalizer_free().
 */
int hm_generalizer_new(const struct hm_model *m, const struct hm_learn_opts *o,
		       struct hm_diag *d, struct hm_generalizer **out);
void hm_generalizer_free(struct hm_generalizer *g);

/**
 * hm_generalize_word() - the word to learn for literal @name: rewrite
 * rules first (every match, replacement taken literally), then the first
 * file_pattern that matches.  The result is a valid word, else @name.
 * Returns: 0 or negative errno; *@out interned in @m.
 */
int hm_generalize_word(struct hm_generalizer *g, struct hm_model *m,
		       const struct hm_name *name, const struct hm_name **out);

/**
 * hm_generalize_request() - build in @buf the entry that learning @r
 * would add (names generalized and interned in @m, ephemeral ports as
 * ranges, conditions from @cond).
 * @buf: space for any entry struct.
 * Returns: 0 or negative errno.
 */
int hm_generalize_request(struct hm_generalizer *g, struct hm_model *m,
			  const struct hm_request *r,
			  const struct hm_cond *cond, union hm_acl_any *buf);

struct hm_access;

/**
 * hm_generalize_cond() - the condition a learned entry for @a carries:
 * exec.realpath="R" on an execute whose real path R differs from the
 * name the program was called by; else none (*@out NULL).
 * Returns: 0 or negative errno; *@out interned in @m.
 */
int hm_generalize_cond(struct hm_model *m, const struct hm_access *a,
		       const struct hm_cond **out);

/**
 * hm_generalize_access() - build in @buf the entry learning @a adds:
 * hm_generalize_request() with hm_generalize_cond()'s condition, and for
 * an O_APPEND open what hm_append_learns() says ("file write" and "file
 * append").  Names interned in @m.
 * Returns: 0 or negative errno.
 */
int hm_generalize_access(struct hm_generalizer *g, struct hm_model *m,
			 const struct hm_access *a, union hm_acl_any *buf);

/* --------------------------------------------------------------- walker */

/*
 * Why an event gave no access.  X(enum suffix, id in JSON reports, text)
 */
#define HM_WALK_SKIPS(X)                                                     \
	X(NO_SYSCALL, "no_syscall", "no SYSCALL record")                     \
	X(FAILED, "failed", "syscall failed")                                \
	X(UNSUPPORTED, "unsupported", "event kind not learned")              \
	X(NO_PATH, "no_path", "no usable path")                              \
	X(NO_ACCESS_MODE, "no_access_mode",                                  \
	  "open without read or write (O_PATH)")                             \
	X(NO_ADDRESS, "no_address", "no socket address")                     \
	X(SIGNAL_TARGET, "signal_target", "signal target unknown or signal 0") \
	X(TOO_LONG, "too_long", "name too long")                             \
	X(BAD_NAME, "bad_name", "name not encodable")                        \
	X(OTHER_LOGIN, "other_login", "another login's process (--logins)")

enum hm_walk_skip {
#define X(e, id, s) HM_WSKIP_##e,
	HM_WALK_SKIPS(X)
#undef X
	HM_WSKIP_MAX
};

extern const char *const hm_walk_skip_names[HM_WSKIP_MAX];	/* text */
extern const char *const hm_walk_skip_ids[HM_WSKIP_MAX];	/* JSON */

/*
 * Calls after which the trail cannot name what a process reaches
 * (hm_event_kind_blind()): never learned or judged, counted by kind, the
 * first domain that made each kept, so learn's and check's summaries say
 * where the trail went blind.  X(event kind suffix, id in JSON, text)
 */
#define HM_WALK_BLIND(X)                                                     \
	X(MOUNT_API, "mount_api",                                            \
	  "new mount API (open_tree, move_mount, fsmount...)")              \
	X(NAMESPACE, "namespace", "unshare or setns")                        \
	X(SET_MM, "set_mm", "prctl(PR_SET_MM): exe= no longer the program")  \
	X(IO_URING, "io_uring", "io_uring set up: its opens are not audited")

enum hm_walk_blind {
#define X(e, id, s) HM_WBLIND_##e,
	HM_WALK_BLIND(X)
#undef X
	HM_WBLIND_MAX
};

extern const char *const hm_walk_blind_names[HM_WBLIND_MAX];	/* text */
extern const char *const hm_walk_blind_ids[HM_WBLIND_MAX];	/* JSON */

/*
 * struct hm_access - one permission check TOMOYO would have made.
 * @dom: the domain it is checked in (domain NULL when the model lacks it).
 * @req: literal request; names borrowed until the next event.
 * @ev: the event it came from.
 * @enters: this access is the exec that entered @dom (domain creation).
 * @attempt: the call failed before it reached TOMOYO's check (EACCES,
 *	EPERM, ENOENT; see passed.h): evidence, never learned, reported by
 *	check apart from the violations.
 * @no_realpath_cond: learn no exec.realpath condition (--no-exec-realpath);
 *	@ctx still has the real path, so existing entries are judged by it.
 * @append_open: an O_APPEND open for writing, asked as "file write"
 *	(append.h): learned with "file append" too, noted by check.
 * @proof: the weakest enum hm_proof of the event's names used so far: an
 *	object not proven (HM_PROOF_NONE) is never learned; check reports
 *	any but HM_PROOF_OBJECT as an unidentified object.
 */
struct hm_access {
	struct hm_proc_view dom;
	struct hm_request req;
	struct hm_cond_ctx ctx;
	const struct hm_event *ev;
	bool enters;
	bool attempt;
	bool no_realpath_cond;
	bool append_open;
	uint8_t proof;
};

struct hm_walk_stats {
	uint64_t events;
	uint64_t accesses;
	uint64_t skipped[HM_WSKIP_MAX];
	uint64_t guessed_socket_type;
	uint64_t failed_passed;	/* failed calls whose check had passed */
	uint64_t attempts;	/* failed calls that made an attempt */
	uint64_t blind[HM_WBLIND_MAX];	/* successful calls of each kind */
	char *blind_domain[HM_WBLIND_MAX];	/* the first one's domain */
	uint64_t unproven;	/* accesses of objects not proven */
};

struct hm_walker;

/**
 * hm_walker_new() - a walker over @m.  Request names are interned in a
 * scratch table of the walker's, renewed now and then, so a long log does
 * not grow memory; program names that become domain names go to @m.
 * @create_domains: learning (true) or checking (false).
 * Returns: 0 or negative errno; caller frees with hm_walker_free().
 */
int hm_walker_new(struct hm_model *m, const struct hm_learn_opts *o,
		  bool create_domains, struct hm_walker **out);
void hm_walker_free(struct hm_walker *w);

/**
 * hm_walker_event() - turn @ev into accesses, calling @fn for each in
 * order (an exec: execute in the parent domain, then the interpreter read
 * in the new one).  A non-zero return of @fn stops and is returned.
 * Returns: 0, @fn's value, or negative errno.
 */
int hm_walker_event(struct hm_walker *w, const struct hm_event *ev,
		    int (*fn)(const struct hm_access *a, void *arg), void *arg);

struct hm_tracker *hm_walker_tracker(struct hm_walker *w);
const struct hm_walk_stats *hm_walker_stats(const struct hm_walker *w);

/** hm_walker_set_model() - after a policy reload (enforcer). */
void hm_walker_set_model(struct hm_walker *w, struct hm_model *m);

/* -------------------------------------------------------------- learner */

/* What hm_learn_add() did. */
struct hm_learn_added {
	enum {
		HM_LEARN_KNOWN,		/* the domain had it: nothing changed */
		HM_LEARN_ADDED,		/* a new entry (@in) */
		HM_LEARN_WIDENED,	/* bits merged into entry @in */
		HM_LEARN_QUOTA,		/* refused by max_learning_entry */
	} what;
	bool first_quota_hit;	/* the domain's first refusal: say so */
	uint32_t folded;	/* literal entries folded into @in (they
				 * are gone: pointers to them are stale) */
	struct hm_acl_head *in;	/* the entry in the domain, or NULL */
};

/**
 * hm_learn_add() - the one way learning changes a domain, for `learn` and
 * the enforcer's live learning alike: a domain at max_learning_entry gets
 * no new entry (it is flagged HM_DOMAIN_QUOTA_EXCEEDED), only bits merged
 * into an entry it holds; a duplicate merges; a new patterned entry folds
 * the literal entries it covers (hm_domain_fold()).
 * What it adds or widens is stamped with @sec (the event's wall-clock
 * second: an audit record's, or the enforcer's clock) and restarts @d's
 * count of quiet events (convergence, `histmac stats`).
 * @e: the generalized entry, its names interned in @m; NULL for one known
 *	to be new in a full domain (a name @m lacks: not interned for a
 *	refusal), which is refused.
 * @sec: 0 when unknown.
 * Returns: 0 (see @out) or negative errno.
 */
int hm_learn_add(struct hm_model *m, struct hm_domain *d,
		 const union hm_acl_any *e, int64_t sec,
		 struct hm_learn_added *out);

/**
 * hm_learn_quota() - may learning add to @d of @m the entry @req would
 * be?  The one check of max_learning_entry, for `learn` and the
 * enforcer's live learning alike: below it, yes; at it, only when the
 * entry is made of names @m holds already (it may widen one @d has; a
 * new name would be interned for nothing, without bound).
 * @g: the generalizer that makes the entry.
 * @scratch: a model to generalize into at the limit (created and
 *	renewed here; the caller frees it).
 * @a: the access, for its condition; NULL: none.
 * @res: on a quota hit, HM_LEARN_QUOTA and whether it is @d's first.
 * Returns: 1 go on, 0 a quota hit (@d flagged), or a negative errno.
 */
int hm_learn_quota(struct hm_model *m, struct hm_domain *d,
		   struct hm_generalizer *g, struct hm_model **scratch,
		   const struct hm_access *a, const struct hm_request *req,
		   struct hm_learn_added *res);

/** hm_learn_full() - is @d at max_learning_entry? */
bool hm_learn_full(const struct hm_model *m, const struct hm_domain *d);

struct hm_learn_stats {
	uint64_t events;
	uint64_t events_new;	/* not counted before (a log learned again) */
	uint64_t domains_new;
	uint64_t entries_new;	/* entries added */
	uint64_t perms_new;	/* permission bits merged into entries */
	uint64_t quota_hits;	/* refused by max_learning_entry */
	uint64_t folded;	/* literal entries folded into a pattern */
};

struct hm_learner;

/**
 * hm_learner_new() - learn into @m: new domains get @profile (0-255) and
 * inherit use_group from their parent; <kernel> is created if absent.
 * Returns: 0 or negative errno (rewrite rules that fail go to @d);
 * caller frees with hm_learner_free().
 */
int hm_learner_new(struct hm_model *m, const struct hm_learn_opts *o,
		   uint8_t profile, struct hm_diag *d,
		   struct hm_learner **out);
void hm_learner_free(struct hm_learner *l);

/**
 * hm_learner_event() - learn from one event: only domains in learning
 * mode (profile.h) learn; others report what they lack to
 * hm_learner_checker().
 * Returns: number of entries or bits added (>= 0), or negative errno.
 */
int hm_learner_event(struct hm_learner *l, const struct hm_event *ev);

/**
 * hm_learner_set_model() - learn into @m from now on (a reloaded policy);
 * the process table is kept, rewrite rules are compiled anew from @m.
 * The old model is the caller's to free.
 * Returns: 0 or negative errno (then nothing changed).
 */
int hm_learner_set_model(struct hm_learner *l, struct hm_model *m,
			 const struct hm_learn_opts *o);

void hm_learner_stats(const struct hm_learner *l, struct hm_learn_stats *out);
struct hm_walker *hm_learner_walker(struct hm_learner *l);

struct hm_checker;

/**
 * hm_learner_checker() - the violations learning found: accesses in
 * domains whose profile is permissive or enforcing (profile.h) are
 * judged, never added.  Borrowed until hm_learner_free().
 */
struct hm_checker *hm_learner_checker(struct hm_learner *l);

/* -------------------------------------------------------------- checker */

/*
 * struct hm_violation - one missing permission, grouped: the same domain
 * and the same missing entry count once, with the number of times.
 * @domain: domain name (borrowed from the checker).
 * @no_domain: the domain itself is not in the policy.
 * @entry: the entry that would allow it, generalized as learning would.
 * @nodes: the hosts (node= of multi-host logs) it happened on, in the
 *	order seen; @more_nodes: more than HM_VIOLATION_NODES.
 * @example_errno: the failure of the example call (attempts), 0 if none.
 * @enforced: how many of @count the kernel denied (Landlock audit
 *	records in the same event: histmac sandbox).
 * @append_opens: how many of @count were O_APPEND opens, judged as
 *	"file write" (append.h); @entry has "file append" too.
 */
#define HM_VIOLATION_NODES 8

struct hm_violation {
	const struct hm_name *domain;
	bool no_domain;
	const struct hm_acl_head *entry;
	uint64_t count;
	uint64_t enforced;
	uint64_t append_opens;
	int64_t first_sec, last_sec;
	int64_t example_pid;
	uint64_t example_serial;
	int example_errno;
	char *example_comm;	/* encoded */
	const struct hm_name *nodes[HM_VIOLATION_NODES];
	uint32_t n_nodes;
	bool more_nodes;
	uint64_t seq;		/* 1, 2, ... in the order first seen */
};

struct hm_checker;

/**
 * hm_checker_new() - check events against @m (read; names interned in a
 * private table).
 * Returns: 0 or negative errno; caller frees with hm_checker_free().
 */
int hm_checker_new(struct hm_model *m, const struct hm_learn_opts *o,
		   struct hm_diag *d, struct hm_checker **out);

/**
 * hm_checker_new_list() - only the violation lists, for accesses another
 * walker judges (hm_checker_access(); hm_checker_event() is -EINVAL): the
 * learner's, for domains not in learning mode.
 * @g: the generalizer that makes the missing entries; borrowed.
 * Returns: 0 or negative errno; caller frees with hm_checker_free().
 */
int hm_checker_new_list(struct hm_model *m, struct hm_generalizer *g,
			struct hm_checker **out);
void hm_checker_free(struct hm_checker *c);

/** hm_checker_event() - Returns: violations found in @ev, or -errno. */
int hm_checker_event(struct hm_checker *c, const struct hm_event *ev);

/**
 * hm_checker_access() - judge one access (from any walker, e.g. the
 * learner's for a domain that is not in learning mode) against the
 * checker's policy and list it when the policy does not allow it.
 * Returns: 0 or negative errno.
 */
int hm_checker_access(struct hm_checker *c, const struct hm_access *a);

/**
 * hm_checker_violations() - the grouped violations, sorted by domain and
 * entry.  Returns: borrowed array of *@n pointers, valid until the next
 * hm_checker_event() or hm_checker_free().
 */
const struct hm_violation *const *hm_checker_violations(struct hm_checker *c,
							 size_t *n);

/* Distinct missing entries listed at most; further denials are counted. */
#define HM_CHECK_MAX_VIOLATIONS 100000

/** hm_checker_unlisted() - denials not listed because the list was full. */
uint64_t hm_checker_unlisted(const struct hm_checker *c);

/*
 * Landlock's denials (its audit records in the event of the failed call,
 * histmac sandbox) that are not violations: the policy allows every
 * access check derived from the call (a translation gap, an object
 * replaced since the ruleset was built), or check derived no access from
 * it at all (a right or scope TOMOYO does not check: a signal, a refer).
 * The others are violations marked enforced.
 */
enum hm_check_ll {
	HM_CHECK_LL_ALLOWED,
	HM_CHECK_LL_UNJUDGED,
	HM_CHECK_LL_MAX
};

#define HM_CHECK_LANDLOCK_EXAMPLES 5

/**
 * hm_checker_landlock() - how many events Landlock denied that are of
 * @kind; *@ex the first few (at most HM_CHECK_LANDLOCK_EXAMPLES) as
 * "BLOCKERS OBJECT (pid PID, syscall NR)", owned by @c.
 */
uint64_t hm_checker_landlock(const struct hm_checker *c,
			     enum hm_check_ll kind, const char *const **ex,
			     size_t *n_ex);

/**
 * hm_checker_own_files() - @paths (raw, absolute) are the sandbox's own
 * files (its preload library): a read of one is counted, not judged.
 * From then on so are the accesses hm_check_sandbox_file() recognises
 * (its private directory's table copy and report FIFO).
 * Returns: 0 or -ENOMEM.
 */
int hm_checker_own_files(struct hm_checker *c, const char *const *paths,
			 size_t n);

/**
 * hm_checker_unidentified() - accesses of objects whose name is not
 * proven to be theirs (hm_access.proof): findings, never judged by the
 * name; *@ex the first HM_CHECK_UNIDENTIFIED_EXAMPLES as "OP NAME in
 * DOMAIN: inode INO on MAJ:MIN, not proven (pid PID, audit serial N)",
 * owned by @c.
 */
#define HM_CHECK_UNIDENTIFIED_EXAMPLES 1000
uint64_t hm_checker_unidentified(const struct hm_checker *c,
				 const char *const **ex, size_t *n_ex);

/** hm_checker_own_reads() - accesses of the sandbox's own files (reads
 * of its preload library and table copy, writes of its report FIFO). */
uint64_t hm_checker_own_reads(const struct hm_checker *c);

/**
 * hm_check_sandbox_file() - is @op on @name (@len bytes, TOMOYO-encoded)
 * the preload's own access to `histmac sandbox`'s private directory: a
 * read of TMP/histmac-sandbox.XXXXXX/RANDOM/table or a write of its
 * report FIFO, the object @obj (from the audit record) as the sandbox
 * made it, by a process whose fsuid is @fsuid?  The name alone is never
 * enough: anyone may make a directory of that shape (analyzer/sbx_own.c).
 */
bool hm_check_sandbox_file(const char *name, size_t len, enum hm_file_op op,
			   const struct hm_cond_obj *obj, uint64_t fsuid);

/** hm_checker_model() - the model violations' entries live in (print
 * them with it). */
const struct hm_model *hm_checker_model(const struct hm_checker *c);

/**
 * hm_checker_attempts() - failed calls that never reached a check, on
 * objects the policy does not allow, grouped like the violations (which
 * they are not: they change no exit status).  Entries live in
 * hm_checker_attempts_model().
 * Returns: borrowed array of *@n pointers, valid as for violations.
 */
const struct hm_violation *const *hm_checker_attempts(struct hm_checker *c,
						       size_t *n);
const struct hm_model *hm_checker_attempts_model(const struct hm_checker *c);

/**
 * hm_checker_count_uses() - from now on, stamp each entry of the policy
 * that allows an access with the use (struct hm_acl_hist): `check
 * --record-use`.  Off by default: checking reads the policy only.
 */
void hm_checker_count_uses(struct hm_checker *c, bool on);

/** hm_checker_attempts_unlisted() - attempts past the list's limit. */
uint64_t hm_checker_attempts_unlisted(const struct hm_checker *c);
struct hm_walker *hm_checker_walker(struct hm_checker *c);

#endif /* HISTMAC_LEARN_H */
