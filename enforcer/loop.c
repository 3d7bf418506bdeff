// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loop.c - the enforcer's hot path: one fanotify batch at a time.  The
 * batch is read first, then the proc connector is drained, then the
 * batch is judged: every fanotify event was queued after the exec or
 * fork that led to it, so that exec is applied before the new program's
 * opens are judged.  Each event is answered before anything is logged or
 * learned.
 *
 * Owns the batch buffers (allocated once, bounded: HM_LOOP_BATCH events
 * and one path buffer, as events are judged one at a time); reads the
 * fanotify fd it is given, so tests feed it from a socketpair.  Called
 * by daemon.c; calls the process table, the live policy, the answers,
 * the supervisor and the pure decision code (decide.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/fanotify.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "enforcer_private.h"

/* A read returns whole events, and ours carry no info records
 * (FAN_REPORT_TID adds none): a buffer this size never holds more than
 * HM_LOOP_BATCH of them, so every event read is judged. */
#define BATCH_BYTES (HM_LOOP_BATCH * FAN_EVENT_METADATA_LEN)
#define PERM_MASK (FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM)

/* One event of a batch as it was read. */
struct taken {
	struct hm_slot_ref ref;
	int fd;
	int32_t tid;		/* FAN_REPORT_TID: the opening thread */
	bool exec;
	bool dry;		/* notification only (--dry-run) */
	int flags_r;		/* read_modes(): 1 not read, else what */
	uint64_t flags;		/* hm_opener_flags() returned */
};

/* The event being judged. */
struct ev {
	struct hm_slot_ref ref;
	int fd;
	int32_t tid;		/* the thread that opens */
	int32_t pid;		/* its process (thread group) */
	bool exec;
	bool dry;
	bool done;
	bool late;		/* the watchdog had answered it already */
	bool gone;		/* the process vanished while judged */
	bool reported;		/* logged by report() */
	bool foreign;		/* reached through a mount that is not
				 * ours: named by hm_mnt_own_name() */
	struct statx stx;
	struct hm_proc_view v;
	size_t raw_len;
	char *name;
	struct hm_name nm;
	struct hm_dcache_key key;
	bool cache_ok;
	struct hm_cond_ctx ctx;
	bool has_ctx;
	bool unknown;		/* the open's mode could not be read */
	int flags_r;		/* struct taken's */
	uint64_t flags;
	uint32_t ask;		/* open: hm_enf_open_ops(); 0: not read */
	uint32_t perm;		/* violations: what was asked and not
				 * granted (hm_file_op) */
	char raw[PATH_MAX];	/* last: not cleared per event */
};

struct hm_loop {
	struct hm_loop_cfg cfg;
	struct hm_enforcer_counters *c;
	uint64_t now_ns;	/* when the loop last woke */
	struct hm_mounts *mounts;	/* names files (hm_mnt_own_name()) */
	struct taken taken[HM_LOOP_BATCH];
	struct ev ev;
	char buf[BATCH_BYTES] __attribute__((aligned(8)));
};

/**
 * hm_loop_new() - the decision loop over @cfg's fanotify fd.
 * @cfg: copied; the parts it points to are borrowed and must outlive it.
 * @out: caller frees with hm_loop_free().
 * Returns: 0 or -ENOMEM (also: /proc/self/mountinfo cannot be opened).
 */
int hm_loop_new(const struct hm_loop_cfg *cfg, struct hm_loop **out)
{
	struct hm_loop *l = calloc(1, sizeof(*l));

	if (!l)
		return -ENOMEM;
	/* a quarter of the watchdog's deadline for openers' mount tables */
	l->mounts = hm_mounts_new(cfg->decision_timeout_ms / 4);
	if (!l->mounts) {
		free(l);
		return -ENOMEM;
	}
	l->cfg = *cfg;
	l->c = cfg->c;
	l->now_ns = hm_now_ns();
	*out = l;
	return 0;
}

/**
 * hm_loop_free() - free the loop (nothing it points to).
 * @l: may be NULL.
 */
void hm_loop_free(struct hm_loop *l)
{
	if (l)
		hm_mounts_free(l->mounts);
	free(l);
}

static void finish(struct hm_loop *l, struct ev *e, bool allow,
		   bool audit)
{
	if (e->done)
		return;
	e->done = true;
	if (e->dry) {
		close(e->fd);
	} else if (!hm_answers_finish(l->cfg.ans, e->ref, allow, audit)) {
		/* too late: the watchdog answered with --default; ours is
		 * not sent (a second answer to one event) */
		e->late = true;
		l->c->late++;
	}
}

/* The process left while we judged: /proc/PID cannot be read. */
static void gone(struct hm_loop *l, struct ev *e)
{
	if (!e->gone)
		l->c->proc_gone++;
	e->gone = true;
}

static void finish_default(struct hm_loop *l, struct ev *e)
{
	finish(l, e, !l->cfg.default_deny, false);
}

/* What the watchdog answered a late event (answer.c): deny for one
 * named through a foreign mount, else its default. */
static const char *late_answer(const struct hm_loop *l, const struct ev *e)
{
	return l->cfg.stall_deny || e->foreign ? "deny" : "allow";
}

/*
 * Log a decision and send its audit record.  A late one (the watchdog
 * answered it with --default while we decided) is told as what it was:
 * "timeout", with the answer the process got, never as our own verdict.
 */
static void report(struct hm_loop *l, struct ev *e,
		   enum hm_decision_result res, uint8_t profile)
{
	char *line = hm_live_acl_line(l->cfg.live, &e->nm, e->perm);
	const char *word = hm_decision_result_names[res];
	char late[32];

	if (e->dry && res == HM_DECISION_DENY)
		word = "would-deny";
	if (e->late) {
		res = HM_DECISION_TIMEOUT;
		snprintf(late, sizeof(late), "timeout (watchdog: %s)",
			 late_answer(l, e));
		word = late;
	}
	hm_log("%s pid=%d domain=\"%s\" %s%s%s", word, e->pid,
	       e->v.name->str, line ? line : e->nm.str,
	       e->unknown ? " (open mode unknown: judged as read and write)" :
			    "",
	       e->gone ? " (process gone)" : "");
	free(line);
	e->reported = true;
	if (!e->dry && hm_log_decision(l->cfg.audit_fd, res, e->perm, e->pid,
				       profile, e->v.name, e->raw, e->raw_len))
		l->c->audit_failures++;
}

/* A late event no violation report told about (allowed by the policy,
 * or not judged): the process got the watchdog's answer, say so. */
static void report_late(struct hm_loop *l, const struct ev *e)
{
	static const struct hm_name unknown = { .str = "<unknown>",
						.len = 9 };

	hm_log("timeout (watchdog: %s) pid=%d %s: answered before the "
	       "decision (--decision-timeout %u ms)",
	       late_answer(l, e), e->pid,
	       e->raw_len ? e->raw : "(path not read)",
	       l->cfg.decision_timeout_ms);
	if (!e->dry && hm_log_decision(l->cfg.audit_fd, HM_DECISION_TIMEOUT,
				       e->perm, e->pid, 0,
				       e->v.name ? e->v.name : &unknown,
				       e->raw, e->raw_len))
		l->c->audit_failures++;
}

/* The event's object as the process keeper names objects. */
static uint64_t dev_of(const struct ev *e)
{
	return (uint64_t)e->stx.stx_dev_major << 32 | e->stx.stx_dev_minor;
}

/* The exec let through enters by @program (@allowed: by an entry). */
static void set_pending(struct hm_loop *l, struct ev *e,
			const struct hm_name *program, bool allowed)
{
	if (hm_procs_judged(l->cfg.procs, e->pid, program->str, e->fd,
			    dev_of(e), e->stx.stx_ino, allowed))
		l->c->internal_errors++;
}

static void hold_or_deny(struct hm_loop *l, struct ev *e, uint8_t prof)
{
	struct hm_held *h;

	/* answered by the watchdog already: nothing left to ask */
	if (!e->dry && hm_super_connected(l->cfg.sup) &&
	    hm_answers_pending(l->cfg.ans, e->ref) &&
	    (h = calloc(1, sizeof(*h)))) {
		h->ref = e->ref;
		h->pid = e->pid;
		h->exec = e->exec;
		h->perm = e->perm;
		h->profile = prof;
		h->tdomain = e->v.name;
		h->key = e->key;
		h->domain = strdup(e->v.name->str);
		h->path = strdup(e->nm.str);
		h->raw = malloc(e->raw_len + 1);
		h->acl = hm_live_acl_line(l->cfg.live, &e->nm, e->perm);
		if (h->raw) {
			memcpy(h->raw, e->raw, e->raw_len + 1);
			h->raw_len = e->raw_len;
		}
		if (h->domain && h->path && h->raw && h->acl &&
		    hm_super_ask(l->cfg.sup, h)) {
			e->done = true;	/* answered by the supervisor */
			return;
		}
		hm_held_free(h);
	}
	finish(l, e, false, true);
	l->c->denied++;
	report(l, e, HM_DECISION_DENY, prof);
}

/*
 * What the open asks (hm_enf_open_ops()), read once per event from the
 * thread that waits inside open() for our answer.  When it cannot be
 * read: read and write (fail closed), said in the log line; a --dry-run
 * opener does not wait, so there it is only a guess, and unknown is read.
 */
static int read_flags(struct hm_loop *l, int32_t tid, uint64_t *flags)
{
	return l->cfg.open_flags ? l->cfg.open_flags(tid, flags) :
				   hm_opener_flags(l->cfg.opener, tid, flags);
}

/* Is the file append-only (chattr +a)?  Then the kernel keeps O_APPEND
 * on (fcntl) and refuses truncate, so an append open is only that. */
static bool append_only(int fd)
{
	int fl = 0;

	return !ioctl(fd, FS_IOC_GETFLAGS, &fl) && (fl & FS_APPEND_FL);
}

static uint32_t ask_of(struct hm_loop *l, struct ev *e)
{
	uint64_t flags;
	int r;

	if (e->ask)
		return e->ask;
	if (!e->dry && !hm_answers_pending(l->cfg.ans, e->ref)) {
		/* the watchdog answered: the opener waits no more, its
		 * mode is gone, the late report says what it got */
		e->ask = 1u << HM_FILE_READ;
		return e->ask;
	}
	if (e->flags_r <= 0) {		/* read before the batch was answered */
		r = e->flags_r;
		flags = e->flags;
	} else {
		l->c->mode_reads++;
		r = read_flags(l, e->tid, &flags);
	}
	if (!r) {
		e->ask = hm_enf_open_ops(flags, e->stx.stx_size == 0);
		if (e->ask & 1u << HM_FILE_APPEND)
			e->ask = hm_enf_append_ask(e->ask, append_only(e->fd));
		return e->ask;
	}
	if (r == -ESRCH)
		gone(l, e);
	l->c->mode_unknown++;
	e->unknown = !e->dry;
	e->ask = e->dry ? 1u << HM_FILE_READ : HM_ENF_OPEN_UNKNOWN;
	return e->ask;
}

/* Not allowed by the policy: what the profile says. */
static void violation(struct hm_loop *l, struct ev *e, uint8_t prof,
		      const struct hm_enf_answer *a)
{
	/* asked before answering: the opener still waits inside open() */
	if (prof != HM_PROFILE_DISABLED && e->exec) {
		e->perm = 1u << HM_FILE_EXECUTE;
	} else if (prof != HM_PROFILE_DISABLED) {
		uint32_t ask = ask_of(l, e) & HM_ENF_OPEN_OPS;

		/* what is missing is what is reported and learned */
		e->perm = ask & ~a->granted ? ask & ~a->granted : ask;
	}
	switch (prof) {
	case HM_PROFILE_DISABLED:
		if (e->exec)
			set_pending(l, e, &e->nm, false);	/* reads e->fd */
		finish(l, e, true, false);
		l->c->disabled++;
		if (!e->exec && e->cache_ok)
			hm_dcache_insert(l->cfg.cache, &e->key,
					 HM_ENF_OPEN_OPS, l->now_ns);
		return;
	case HM_PROFILE_LEARNING:
		if (e->exec)
			set_pending(l, e, &e->nm, false);
		finish(l, e, true, false);
		l->c->learned++;
		if (!e->dry && hm_live_learn(l->cfg.live, e->v.name, e->perm, &e->nm,
					    e->has_ctx ? &e->ctx : NULL) < 0)
			l->c->internal_errors++;
		if (l->cfg.verbose || e->dry)
			report(l, e, HM_DECISION_LEARNED, prof);
		return;
	case HM_PROFILE_PERMISSIVE:
		if (e->exec)
			set_pending(l, e, &e->nm, false);
		finish(l, e, true, true);
		l->c->permissive++;
		report(l, e, HM_DECISION_PERMISSIVE, prof);
		return;
	default:
		hold_or_deny(l, e, prof);
		return;
	}
}

static void set_key(struct ev *e)
{
	e->key = (struct hm_dcache_key){
		.domain = e->v.name,
		.mnt_id = e->stx.stx_mnt_id,
		.dev = (uint64_t)e->stx.stx_dev_major << 32 |
		       e->stx.stx_dev_minor,
		.ino = e->stx.stx_ino,
		.ctime_sec = e->stx.stx_ctime.tv_sec,
		.ctime_nsec = e->stx.stx_ctime.tv_nsec,
		.mtime_sec = e->stx.stx_mtime.tv_sec,
		.mtime_nsec = e->stx.stx_mtime.tv_nsec,
		.exec = e->exec,
	};
	/* two names for one inode: the cache could answer for the other */
	e->cache_ok = e->stx.stx_nlink == 1;
}

/*
 * The path of the event's file as our own mounts name it: the opener's
 * mount namespace chooses where its mounts sit, so a file reached
 * through one that is not ours is renamed from the file system's root
 * (-EXDEV: it cannot be named; -ETIME: the opener's mount table took
 * too long), and that name makes no cache entry and no ignore mark (they
 * would outlive what was checked of the mount).  The opener chose how
 * long that naming takes: the watchdog denies it if late.
 */
static int path_of(struct hm_loop *l, struct ev *e)
{
	char link[64];
	ssize_t n;
	int r;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", e->fd);
	n = readlink(link, e->raw, sizeof(e->raw) - 1);
	if (n <= 0 || (size_t)n >= sizeof(e->raw) - 1)
		return -ENOENT;
	e->raw[n] = '\0';
	r = hm_mnt_ours(l->mounts, &e->stx, e->raw);
	if (r == 1) {
		e->foreign = true;
		l->c->foreign++;
		e->cache_ok = false;
		if (!e->dry)
			hm_answers_foreign(l->cfg.ans, e->ref);
		r = hm_mnt_foreign_name(l->mounts, e->tid, &e->stx, e->raw,
					sizeof(e->raw));
	}
	e->raw_len = strlen(e->raw);
	return r;
}

static int name_of(struct ev *e)
{
	long n = hm_enf_path_name(e->raw, e->raw_len, e->pid,
				  S_ISDIR(e->stx.stx_mode),
				  e->stx.stx_nlink == 0, &e->name);

	if (n < 0)
		return (int)n;
	e->nm = (struct hm_name){ .str = e->name, .len = (uint32_t)n };
	hm_name_fill(&e->nm);
	return 0;
}

/* --record-use: an access was allowed by entry @e of the live policy:
 * a counter and a stamp, in wall-clock (audit) seconds. */
static void count_use(struct hm_loop *l, const struct hm_acl_head *e)
{
	if (!e)
		return;
	hm_acl_hist_use(e, (int64_t)time(NULL));
	l->cfg.live->used = true;
}

/*
 * A "#!" script's interpreter: TOMOYO checks its exec open as a read in
 * the script's new domain (and the learner learns it so).  Returns the
 * profile that applies, the answer in *@allowed, the domain in @dom.
 */
static uint8_t judge_interp(struct hm_loop *l, struct ev *e,
			    const char *script, struct hm_name *dom,
			    char **next, bool *allowed)
{
	struct hm_live *L = l->cfg.live;
	struct hm_name prog = { .str = script,
				.len = (uint32_t)strlen(script) };
	const struct hm_name *cand = NULL;
	const struct hm_name *in;
	struct hm_enf_query q;
	struct hm_enf_answer a;
	enum hm_transit type;

	hm_name_fill(&prog);
	if (hm_transition_compute(L->m, e->v.name, &prog, NULL, &cand, next,
				  &type))
		return HM_PROFILE_DISABLED;	/* no name: not judged */
	if (e->v.flags & HM_PROC_UNOBSERVED) {
		free(*next);
		if (asprintf(next, "<kernel> %s", cand->str) < 0) {
			*next = NULL;
			return HM_PROFILE_DISABLED;
		}
	}
	*dom = (struct hm_name){ .str = *next, .len = (uint32_t)strlen(*next) };
	hm_name_fill(dom);
	in = hm_name_lookup(L->m->names, dom->str, dom->len);
	q = (struct hm_enf_query){ .path = &e->nm, .domain_name = dom,
				   .domain = in ? hm_model_find_domain(L->m, in) :
						  NULL,
				   .ctx = &e->ctx, .ask = 1u << HM_FILE_READ };
	hm_enf_decide(L->m, L->ix, &q, &a);
	*allowed = a.allowed;
	if (a.allowed && L->o->record_use)
		count_use(l, a.match);	/* one operation asked: read */
	return hm_live_profile(L, a.profile);
}

/* The interpreter's exec open, answered as judge_interp() says. */
static void interp_open(struct hm_loop *l, struct ev *e, const char *script)
{
	struct hm_name dom = { 0 };
	const struct hm_name *own = e->v.name;
	char *next = NULL;
	bool allowed = false;
	uint8_t prof = judge_interp(l, e, script, &dom, &next,
				    &allowed);

	e->perm = 1u << HM_FILE_READ;
	if (allowed || prof == HM_PROFILE_DISABLED) {
		finish(l, e, true, false);
		l->c->exec_part++;
	} else if (prof == HM_PROFILE_ENFORCING) {
		finish(l, e, false, true);
		l->c->denied++;
	} else {
		finish(l, e, true, prof == HM_PROFILE_PERMISSIVE);
		if (prof == HM_PROFILE_LEARNING) {
			l->c->learned++;
			if (hm_live_learn(l->cfg.live, &dom, e->perm, &e->nm,
					  NULL) < 0)
				l->c->internal_errors++;
		} else {
			l->c->permissive++;
		}
	}
	if (!allowed && prof != HM_PROFILE_DISABLED &&
	    (prof != HM_PROFILE_LEARNING || l->cfg.verbose)) {
		e->v.name = &dom;	/* reported in the script's domain */
		report(l, e, prof == HM_PROFILE_ENFORCING ? HM_DECISION_DENY :
			     prof == HM_PROFILE_LEARNING ? HM_DECISION_LEARNED :
			     HM_DECISION_PERMISSIVE, prof);
		e->v.name = own;
	}
	free(next);
}

/* The profile of the process's domain (its nearest ancestor's when the
 * policy lacks it, as hm_enf_decide() finds it). */
static uint8_t domain_profile(const struct hm_loop *l, const struct ev *e)
{
	const struct hm_model *m = l->cfg.live->m;
	const struct hm_domain *near = e->v.domain ? e->v.domain :
				       hm_enf_nearest(m, e->v.name);

	return hm_live_profile(l->cfg.live, near ? near->profile :
				       m->default_profile);
}

static bool learns(const struct hm_loop *l, const struct ev *e)
{
	return domain_profile(l, e) == HM_PROFILE_LEARNING;
}

/*
 * A file reached through a foreign mount that has no certain name (@r
 * -EXDEV: it was unlinked, its mount is in neither our nor the opener's
 * table, or none of our mounts reaches it; -ETIME: the opener's mount
 * table was over the time budget): no entry can be matched, so an
 * enforcing domain is denied and the others let through, nothing
 * learned (the name the opener sees is its own choice).
 */
static void unnamed(struct hm_loop *l, struct ev *e, int r)
{
	uint8_t prof = domain_profile(l, e);
	bool deny = prof == HM_PROFILE_ENFORCING;

	if (r == -ETIME)
		l->c->foreign_slow++;
	else
		l->c->foreign_unnamed++;
	e->perm = e->exec ? 1u << HM_FILE_EXECUTE :
			    ask_of(l, e) & HM_ENF_OPEN_OPS;
	finish(l, e, !deny, prof >= HM_PROFILE_PERMISSIVE);
	if (deny)
		l->c->denied++;
	hm_log("%s pid=%d domain=\"%s\" %s: reached through a mount of "
	       "another namespace, %s (not judged by name)",
	       e->dry && deny ? "would-deny" : deny ? "deny" : "allow",
	       e->pid, e->v.name->str, e->raw,
	       r == -ETIME ? "whose mount table is over the time budget" :
			     "with no name in ours");
	if (prof >= HM_PROFILE_PERMISSIVE && !e->dry &&
	    hm_log_decision(l->cfg.audit_fd, deny ? HM_DECISION_DENY :
				    HM_DECISION_PERMISSIVE, e->perm, e->pid,
			    prof, e->v.name, e->raw, e->raw_len))
		l->c->audit_failures++;
}

/*
 * An exec: the loader and a script's interpreter are part of the exec
 * judged before them.  One by a process of unobserved history is judged
 * in its <kernel> EXE in strict mode (an unprivileged shell started
 * before us would otherwise exec anything, and so would its children),
 * and learned there by a learning domain in either mode (so the policy
 * works once strict), else let through and counted.  Either way the
 * domain it enters is the tracker's <kernel> PROG.
 */
static bool exec_shortcut(struct hm_loop *l, struct ev *e)
{
	const char *script;

	if (hm_procs_exec_part(l->cfg.procs, e->pid, e->raw, e->fd, dev_of(e),
			       e->stx.stx_ino, &script)) {
		if (script)
			interp_open(l, e, script);
		else {
			finish(l, e, true, false);	/* the ELF loader */
			l->c->exec_part++;
		}
		return true;
	}
	if (!(e->v.flags & HM_PROC_UNOBSERVED))
		return false;
	if (l->cfg.strict || learns(l, e)) {
		l->c->unobserved_exec++;
		return false;
	}
	set_pending(l, e, &e->nm, false);
	finish(l, e, true, false);
	l->c->not_judged_exec++;
	return true;
}

/*
 * The plain open fsnotify sends after each exec open of a program, its
 * loader or its interpreter is part of the exec: read-only.  Any other
 * open of the same file (the exec may have failed, and the process goes
 * on), or one whose mode cannot be read, is judged like any other.
 */
static bool exec_open(struct hm_loop *l, struct ev *e)
{
	return hm_procs_exec_obj(l->cfg.procs, e->pid, dev_of(e),
				 e->stx.stx_ino) &&
	       ask_of(l, e) == 1u << HM_FILE_READ;
}

/* A cache hit holds when what was granted covers what is asked; the
 * mode is read only when it could matter. */
static bool cached(struct hm_loop *l, struct ev *e)
{
	const void *use;
	uint32_t granted;

	if (!hm_dcache_lookup_use(l->cfg.cache, &e->key, l->now_ns, &granted,
				  &use))
		return false;
	if ((granted & HM_ENF_OPEN_OPS) != HM_ENF_OPEN_OPS &&
	    !hm_enf_open_allows(granted, ask_of(l, e)))
		return false;
	if (l->cfg.live->o->record_use)
		count_use(l, use);
	return true;
}

/* --record-use: count an allowed decision's entries, and cache it only
 * when one entry grants all (a hit then knows what to count without the
 * mode asked).  Returns whether it may be cached. */
static bool count_decision(struct hm_loop *l, struct ev *e,
			   const struct hm_enf_answer *a)
{
	if (!l->cfg.live->o->record_use)
		return true;
	if (a->only) {
		count_use(l, a->only);
		return true;
	}
	if (a->match) {
		/* several entries: which ones the mode asked says */
		hm_enf_count_use(a, e->exec, e->exec ? 0 : ask_of(l, e),
				 (int64_t)time(NULL));
		l->cfg.live->used = true;
	}
	return false;
}

/* HISTMAC_TEST_DECISION_DELAY_MS: a decision that stalls (tests only). */
static void test_delay(const struct hm_loop *l)
{
	struct timespec ts = { l->cfg.test_delay_ms / 1000,
			       (long)(l->cfg.test_delay_ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* path1.* from the statx of the event's fd (the very file opened). */
static void cond_obj(const struct statx *stx, struct hm_cond_ctx *ctx)
{
	const uint32_t need = STATX_TYPE | STATX_MODE | STATX_UID | STATX_GID |
			      STATX_INO;

	if ((stx->stx_mask & need) != need)
		return;
	ctx->path1 = (struct hm_cond_obj){
		.uid = stx->stx_uid, .gid = stx->stx_gid, .ino = stx->stx_ino,
		.mode = stx->stx_mode,
		.rdev_major = stx->stx_rdev_major,
		.rdev_minor = stx->stx_rdev_minor,
		.dev_major = stx->stx_dev_major,
		.dev_minor = stx->stx_dev_minor,
	};
	ctx->has_path1 = true;
}

/*
 * What conditions are evaluated against: the file's attributes (path1.*)
 * from the event's own fd, and the opener's credentials (task.*) when
 * some entry tests them, from /proc/TID/status of the thread that waits
 * inside open() or execve() (credentials are per thread, and a thread
 * blocked there cannot change its own).  Nothing else: exec.argv and
 * exec.envp of the new program do not exist yet (see docs/ENFORCE.md),
 * so the entries that test them grant nothing.  A value that cannot be
 * read is left unset, and an item that needs it does not hold.
 */
static void cond_ctx(struct hm_loop *l, struct ev *e)
{
	int r = 0;

	e->has_ctx = true;
	if (hm_enf_index_needs_task(l->cfg.live->ix)) {
		r = hm_opener_ctx(e->tid, &e->ctx);
		e->ctx.pid = (uint64_t)e->pid;
		if (r == -ESRCH)
			gone(l, e);
	}
	cond_obj(&e->stx, &e->ctx);
}

/* An allowed open of a learning domain (@prof: the profile that applies)
 * taught nothing: a quiet event for `histmac stats` (a cache hit too: it
 * is as much an event). */
static void seen(struct hm_loop *l, const struct ev *e, uint8_t prof)
{
	if (prof == HM_PROFILE_LEARNING && !e->dry)
		hm_live_seen(l->cfg.live, e->v.domain);
}

static void judge(struct hm_loop *l, struct ev *e)
{
	struct hm_enf_query q;
	struct hm_enf_answer a;
	uint8_t prof;
	bool cache;
	int r;

	r = hm_procs_tgid(l->cfg.procs, e->tid, &e->pid);
	if (!r && e->pid == l->cfg.self) {
		l->c->self++;	/* one of our own threads */
		finish(l, e, true, false);
		return;
	}
	if (!r)		/* its exec applied first */
		r = hm_procs_domain(l->cfg.procs, e->pid, &e->v);
	if (r) {
		if (r == -ESRCH)
			l->c->exited++;
		else
			l->c->internal_errors++;
		finish_default(l, e);
		return;
	}
	if (statx(e->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_INO | STATX_NLINK | STATX_SIZE |
			  STATX_CTIME | STATX_MTIME | STATX_MNT_ID |
			  STATX_MODE | STATX_UID | STATX_GID,
		  &e->stx) < 0) {
		l->c->no_path++;
		finish_default(l, e);
		return;
	}
	if (S_ISDIR(e->stx.stx_mode))	/* judged as "file read DIR/" */
		l->c->directories++;
	if (!e->exec && exec_open(l, e)) {
		l->c->exec_part++;
		finish(l, e, true, false);
		return;
	}
	set_key(e);
	if (e->cache_ok && !e->exec && cached(l, e)) {
		l->c->cache_allowed++;
		if (e->v.domain)
			seen(l, e, hm_live_profile(l->cfg.live,
						   e->v.domain->profile));
		finish(l, e, true, false);
		return;
	}
	r = path_of(l, e);
	if (r == -EXDEV || r == -ETIME) {
		unnamed(l, e, r);
		return;
	}
	if (r || name_of(e)) {
		l->c->no_path++;
		finish_default(l, e);
		return;
	}
	cond_ctx(l, e);
	if (e->exec && exec_shortcut(l, e))
		return;
	/* where a slow decision stalls: the event read and its process and
	 * path resolved (the opener still waits), not yet answered */
	if (l->cfg.test_delay_ms)
		test_delay(l);
	q = (struct hm_enf_query){ .exec = e->exec, .path = &e->nm,
				   .domain_name = e->v.name,
				   .domain = e->v.domain,
				   .ctx = e->has_ctx ? &e->ctx : NULL,
				   .ask = e->exec ? 0 : e->ask };
	hm_enf_decide(l->cfg.live->m, l->cfg.live->ix, &q, &a);
	prof = hm_live_profile(l->cfg.live, a.profile);
	/* a disabled profile allows any mode: nothing to read */
	if (a.need_mode && prof != HM_PROFILE_DISABLED)
		a.allowed = hm_enf_open_allows(a.granted, ask_of(l, e));
	if (!a.allowed) {
		violation(l, e, prof, &a);
		return;
	}
	seen(l, e, prof);
	/* both read e->fd, which the answer closes */
	if (a.global && !e->exec && !e->dry && !e->foreign &&
	    l->cfg.ignores && hm_ignores_add(l->cfg.ignores, e->fd) > 0)
		l->c->ignore_marks++;
	if (e->exec)
		set_pending(l, e, a.program, true);
	cache = count_decision(l, e, &a);	/* may read the mode */
	finish(l, e, true, false);
	l->c->allowed++;
	if (a.global)
		l->c->global_allowed++;
	if (cache && !e->exec && e->cache_ok && a.cacheable)
		hm_dcache_insert_use(l->cfg.cache, &e->key, a.granted, a.only,
				     l->now_ns);
}

/* First pass: count, let our own main thread through (our other
 * threads once judge() has placed them), take a slot for each. */
static size_t take_all(struct hm_loop *l, const char *buf, size_t len)
{
	const struct fanotify_event_metadata *md = (const void *)buf;
	ssize_t left = (ssize_t)len;
	size_t n = 0;

	for (; FAN_EVENT_OK(md, left); md = FAN_EVENT_NEXT(md, left)) {
		struct taken *t = &l->taken[n];
		bool perm = md->mask & PERM_MASK;

		if (md->vers != FANOTIFY_METADATA_VERSION) {
			l->c->bad_events++;
			if (md->fd >= 0)
				close(md->fd);
			continue;
		}
		if (md->mask & FAN_Q_OVERFLOW) {
			/* only a notification group (--dry-run) has a bounded
			 * queue: the events it dropped are lost reports, the
			 * opens went through.  Nothing to resync: the process
			 * table comes from the proc connector, not from here */
			l->c->overflow++;
			hm_log("fanotify queue overflow: events were lost "
			       "(their opens are not judged)");
			continue;
		}
		if (md->fd < 0)
			continue;
		if (n == HM_LOOP_BATCH) {	/* cannot happen: BATCH_BYTES */
			l->c->internal_errors++;
			if (perm) {
				struct hm_slot_ref ref;

				if (hm_answers_take(l->cfg.ans, md->fd,
						    md->pid, &ref))
					hm_answers_finish(l->cfg.ans, ref,
							  !l->cfg.default_deny,
							  false);
			} else {
				close(md->fd);
			}
			continue;
		}
		*t = (struct taken){ .fd = md->fd, .tid = md->pid,
				     .exec = md->mask & (FAN_OPEN_EXEC_PERM |
							 FAN_OPEN_EXEC),
				     .dry = !perm };
		l->c->events++;
		if (t->exec)
			l->c->exec_events++;
		else
			l->c->open_events++;
		if (perm && !hm_answers_take(l->cfg.ans, md->fd, md->pid,
					     &t->ref))
			continue;	/* answered with the default */
		if (md->pid == l->cfg.self) {
			struct ev self = { .ref = t->ref, .fd = t->fd,
					   .dry = t->dry };

			l->c->self++;
			finish(l, &self, true, false);
			continue;
		}
		n++;
	}
	return n;
}

/* Start judging @t: the working event, cleared but for its path. */
static struct ev *ev_of(struct hm_loop *l, const struct taken *t)
{
	struct ev *e = &l->ev;

	memset(e, 0, offsetof(struct ev, raw));
	e->raw[0] = '\0';
	e->ref = t->ref;
	e->fd = t->fd;
	e->tid = t->tid;
	e->pid = t->tid;	/* until judge() maps it */
	e->exec = t->exec;
	e->dry = t->dry;
	e->flags_r = t->flags_r;
	e->flags = t->flags;
	return e;
}

/*
 * Every answer wakes every opener of the group waiting in the kernel,
 * and a woken thread's /proc/TID/syscall says "running" until it sleeps
 * again (on a busy machine, milliseconds later).  So with several opens
 * in a batch, each one's mode is read while all still sleep, before the
 * first answer; a lone event's is read when its decision needs it.
 */
static void read_modes(struct hm_loop *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct taken *t = &l->taken[i];

		t->flags_r = 1;
		if (n < 2 || t->exec || t->dry)
			continue;
		l->c->mode_reads++;
		t->flags_r = read_flags(l, t->tid, &t->flags);
	}
}

/**
 * hm_loop_batch() - judge and answer every event in @buf.
 * @l: the loop.
 * @buf, @len: what one read of the fanotify fd returned (whole events).
 * @drain: drain the proc connector after taking the events, before
 *	judging them (every exec that came before them is then queued).
 */
void hm_loop_batch(struct hm_loop *l, const char *buf, size_t len,
		   bool drain)
{
	size_t n = take_all(l, buf, len);

	if (drain)
		hm_procs_drain(l->cfg.procs);
	read_modes(l, n);
	for (size_t i = 0; i < n; i++) {
		struct ev *e = ev_of(l, &l->taken[i]);

		judge(l, e);
		if (!e->done)
			finish_default(l, e);
		if (e->late && !e->reported)
			report_late(l, e);
		free(e->name);
	}
	hm_procs_reap(l->cfg.procs);
}

/*
 * Why a lone event needs no drain: poll() checks the fds in array order,
 * the fanotify fd (index 0) before the proc connector (index 1).  When it
 * reports the fanotify fd readable and the proc socket not, the first
 * queued fanotify event was queued before the proc socket was checked,
 * and so was any exec or fork that led to it: had there been one, the
 * proc socket would have been readable (only we read it).  The queue is
 * FIFO, so a read of exactly one event returns that first event.  With
 * proc events pending, a whole batch is read and the proc socket drained
 * after the read (every event read was queued after its exec).
 */
long hm_loop_read(struct hm_loop *l, bool proc_ready, uint64_t now)
{
	size_t want = proc_ready ? sizeof(l->buf) :
				   sizeof(struct fanotify_event_metadata);
	ssize_t len = read(l->cfg.fan_fd, l->buf, want);

	l->now_ns = now;
	if (len <= 0) {
		if (len == 0 || errno == EAGAIN || errno == EINTR)
			return 0;
		hm_log("reading fanotify: %s", strerror(errno));
		return -errno;
	}
	hm_loop_batch(l, l->buf, (size_t)len, proc_ready);
	return len;
}
