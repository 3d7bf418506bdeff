// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * verdict.c - what an event judged by loop.c gets: the answer, what the
 * profile does with a violation (learn, log, ask the supervisor, deny),
 * the log line and audit record, the parts of an exec (its loader, a
 * script's interpreter, the plain opens that follow), the decision
 * cache's answer and what --record-use counts.  Reads the opener's mode
 * only when an answer needs it (hm_ev_ask_of()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "histmac/append.h"
#include "loop.h"

void hm_ev_finish(struct hm_loop *l, struct ev *e, bool allow,
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
void hm_ev_gone(struct hm_loop *l, struct ev *e)
{
	if (!e->gone)
		l->c->proc_gone++;
	e->gone = true;
}

void hm_ev_finish_default(struct hm_loop *l, struct ev *e)
{
	hm_ev_finish(l, e, !l->cfg.default_deny, false);
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
void hm_ev_report_late(struct hm_loop *l, const struct ev *e)
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
void hm_ev_set_pending(struct hm_loop *l, struct ev *e,
			const struct hm_name *program, bool allowed)
{
	if (hm_procs_judged(l->cfg.procs, e->pid, program->str, e->fd,
			    dev_of(e), e->stx.stx_ino, allowed))
		l->c->internal_errors++;
}

/* A denial by the policy, counted by domain too. */
static void count_denied(struct hm_loop *l, const struct hm_name *domain)
{
	l->c->denied++;
	hm_metrics_deny(l->cfg.metrics, domain);
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
	hm_ev_finish(l, e, false, true);
	count_denied(l, e->v.name);
	report(l, e, HM_DECISION_DENY, prof);
}

/*
 * What the open asks (hm_enf_open_ops()), read once per event from the
 * thread that waits inside open() for our answer.  When it cannot be
 * read: read and write (fail closed), said in the log line; a --dry-run
 * opener does not wait, so there it is only a guess, and unknown is read.
 */
int hm_ev_read_flags(struct hm_loop *l, int32_t tid, uint64_t *flags)
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

uint32_t hm_ev_ask_of(struct hm_loop *l, struct ev *e)
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
		r = hm_ev_read_flags(l, e->tid, &flags);
	}
	if (!r) {
		e->ask = hm_enf_open_ops(flags, e->stx.stx_size == 0);
		if (e->ask & 1u << HM_FILE_APPEND) {
			bool only = append_only(e->fd);

			e->append_learns = hm_append_learns(only);
			e->ask = hm_enf_append_ask(e->ask, only);
		}
		return e->ask;
	}
	if (r == -ESRCH)
		hm_ev_gone(l, e);
	l->c->mode_unknown++;
	e->unknown = !e->dry;
	e->ask = e->dry ? 1u << HM_FILE_READ : HM_ENF_OPEN_UNKNOWN;
	return e->ask;
}

/* Not allowed by the policy: what the profile says. */
void hm_ev_violation(struct hm_loop *l, struct ev *e, uint8_t prof,
		      const struct hm_enf_answer *a)
{
	/* asked before answering: the opener still waits inside open() */
	if (prof != HM_PROFILE_DISABLED && e->exec) {
		e->perm = 1u << HM_FILE_EXECUTE;
	} else if (prof != HM_PROFILE_DISABLED) {
		uint32_t ask = hm_ev_ask_of(l, e) & HM_ENF_OPEN_OPS;

		/* what is missing is what is reported and learned */
		e->perm = ask & ~a->granted ? ask & ~a->granted : ask;
	}
	switch (prof) {
	case HM_PROFILE_DISABLED:
		if (e->exec)
			hm_ev_set_pending(l, e, &e->nm, false);	/* reads e->fd */
		hm_ev_finish(l, e, true, false);
		l->c->disabled++;
		if (!e->exec && e->cache_ok)
			hm_dcache_insert(l->cfg.cache, &e->key,
					 HM_ENF_OPEN_OPS, l->now_ns);
		return;
	case HM_PROFILE_LEARNING:
		if (e->exec)
			hm_ev_set_pending(l, e, &e->nm, false);
		hm_ev_finish(l, e, true, false);
		l->c->learned++;
		/* an append open: "file append" too, for a TOMOYO kernel */
		if (!e->dry && hm_live_learn(l->cfg.live, e->v.name,
					    e->perm | e->append_learns, &e->nm,
					    e->has_ctx ? &e->ctx : NULL) < 0)
			l->c->internal_errors++;
		if (l->cfg.verbose || e->dry)
			report(l, e, HM_DECISION_LEARNED, prof);
		return;
	case HM_PROFILE_PERMISSIVE:
		if (e->exec)
			hm_ev_set_pending(l, e, &e->nm, false);
		hm_ev_finish(l, e, true, true);
		l->c->permissive++;
		report(l, e, HM_DECISION_PERMISSIVE, prof);
		return;
	default:
		hold_or_deny(l, e, prof);
		return;
	}
}

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
		hm_ev_finish(l, e, true, false);
		l->c->exec_part++;
	} else if (prof == HM_PROFILE_ENFORCING) {
		hm_ev_finish(l, e, false, true);
		count_denied(l, &dom);
	} else {
		hm_ev_finish(l, e, true, prof == HM_PROFILE_PERMISSIVE);
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
				       hm_domain_nearest(m, e->v.name);

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
void hm_ev_unnamed(struct hm_loop *l, struct ev *e, int r)
{
	uint8_t prof = domain_profile(l, e);
	bool deny = prof == HM_PROFILE_ENFORCING;

	if (r == -ETIME)
		l->c->foreign_slow++;
	else
		l->c->foreign_unnamed++;
	e->perm = e->exec ? 1u << HM_FILE_EXECUTE :
			    hm_ev_ask_of(l, e) & HM_ENF_OPEN_OPS;
	hm_ev_finish(l, e, !deny, prof >= HM_PROFILE_PERMISSIVE);
	if (deny)
		count_denied(l, e->v.name);
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
bool hm_ev_exec_shortcut(struct hm_loop *l, struct ev *e)
{
	const char *script;

	if (hm_procs_exec_part(l->cfg.procs, e->pid, e->raw, e->fd, dev_of(e),
			       e->stx.stx_ino, &script)) {
		if (script)
			interp_open(l, e, script);
		else {
			hm_ev_finish(l, e, true, false);	/* the ELF loader */
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
	hm_ev_set_pending(l, e, &e->nm, false);
	hm_ev_finish(l, e, true, false);
	l->c->not_judged_exec++;
	return true;
}

/*
 * The plain open fsnotify sends after each exec open of a program, its
 * loader or its interpreter is part of the exec: read-only.  Any other
 * open of the same file (the exec may have failed, and the process goes
 * on), or one whose mode cannot be read, is judged like any other.
 */
bool hm_ev_exec_open(struct hm_loop *l, struct ev *e)
{
	return hm_procs_exec_obj(l->cfg.procs, e->pid, dev_of(e),
				 e->stx.stx_ino) &&
	       hm_ev_ask_of(l, e) == 1u << HM_FILE_READ;
}

/* A cache hit holds when what was granted covers what is asked; the
 * mode is read only when it could matter. */
bool hm_ev_cached(struct hm_loop *l, struct ev *e)
{
	const void *use;
	uint32_t granted;

	if (!hm_dcache_lookup_use(l->cfg.cache, &e->key, l->now_ns, &granted,
				  &use))
		return false;
	if ((granted & HM_ENF_OPEN_OPS) != HM_ENF_OPEN_OPS &&
	    !hm_enf_open_allows(granted, hm_ev_ask_of(l, e)))
		return false;
	if (l->cfg.live->o->record_use)
		count_use(l, use);
	return true;
}

/* --record-use: count an allowed decision's entries, and cache it only
 * when one entry grants all (a hit then knows what to count without the
 * mode asked).  Returns whether it may be cached. */
bool hm_ev_count_decision(struct hm_loop *l, struct ev *e,
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
		hm_enf_count_use(a, e->exec, e->exec ? 0 : hm_ev_ask_of(l, e),
				 (int64_t)time(NULL));
		l->cfg.live->used = true;
	}
	return false;
}


void hm_ev_seen(struct hm_loop *l, const struct ev *e, uint8_t prof)
{
	if (prof == HM_PROFILE_LEARNING && !e->dry)
		hm_live_seen(l->cfg.live, e->v.domain);
}
