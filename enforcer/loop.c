// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * loop.c - the enforcer's hot path: one poll loop over the fanotify fd,
 * the proc connector, a signalfd (SIGUSR2: a reloaded policy is ready)
 * and the supervisor socket, with a one-second tick.  A fanotify batch is read first, then the proc
 * connector is drained, then the batch is judged: every fanotify event
 * was queued after the exec or fork that led to it, so that exec is
 * applied before the new program's opens are judged.  Each event is
 * answered before anything is logged or learned.
 *
 * Owns nothing long-lived; the state is struct hm_enforcer (daemon.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "enforcer.h"
#include "histmac/policy_io.h"

#define MAX_BATCH 512
/* A read returns whole events, and ours carry no info records (no
 * FAN_REPORT_* flags): a buffer this size never holds more than
 * MAX_BATCH of them, so every event read is judged. */
#define BATCH_BYTES (MAX_BATCH * FAN_EVENT_METADATA_LEN)
#define PERM_MASK (FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM)

/* One event of a batch, while it is judged. */
struct ev {
	struct hm_slot_ref ref;
	int fd;
	int32_t pid;
	bool exec;
	bool dry;		/* notification only (--dry-run) */
	bool done;
	bool late;		/* the watchdog had answered it already */
	bool gone;		/* the process vanished while judged */
	bool reported;		/* logged by report() */
	struct statx stx;
	struct hm_proc_view v;
	size_t raw_len;
	char *name;
	struct hm_name nm;
	struct hm_dcache_key key;
	bool cache_ok;
	struct hm_cond_ctx ctx;
	bool has_ctx;
	uint32_t perm;		/* violations: what was asked (hm_file_op) */
	char raw[PATH_MAX];	/* last: not cleared per event */
};

static void finish(struct hm_enforcer *E, struct ev *e, bool allow,
		   bool audit)
{
	if (e->done)
		return;
	e->done = true;
	if (e->dry) {
		close(e->fd);
	} else if (!hm_answers_finish(E->ans, e->ref, allow, audit)) {
		/* too late: the watchdog answered with --default; ours is
		 * not sent (a second answer to one event) */
		e->late = true;
		E->c.late++;
	}
}

/* The process left while we judged: /proc/PID cannot be read. */
static void gone(struct hm_enforcer *E, struct ev *e)
{
	if (!e->gone)
		E->c.proc_gone++;
	e->gone = true;
}

static void finish_default(struct hm_enforcer *E, struct ev *e)
{
	finish(E, e, !E->o.default_deny, false);
}

/* The entry learning would add, as a policy line (for logs and queries). */
static char *acl_line(struct hm_enforcer *E, const struct hm_name *path,
		      uint32_t perm)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path };
	union hm_acl_any a;
	char *line = NULL;

	if (!perm)
		perm = 1u << HM_FILE_READ;
	if (hm_generalize_request(E->g, E->m, &req, NULL, &a))
		return NULL;
	a.head.perm = perm;
	if (hm_acl_format(E->m, &a.head, E->m->dialect, &line, NULL))
		return NULL;
	return line;
}

/*
 * Log a decision and send its audit record.  A late one (the watchdog
 * answered it with --default while we decided) is told as what it was:
 * "timeout", with the answer the process got, never as our own verdict.
 */
static void report(struct hm_enforcer *E, struct ev *e,
		   enum hm_decision_result res, uint8_t profile)
{
	char *line = acl_line(E, &e->nm, e->perm);
	const char *word = hm_decision_result_names[res];

	if (e->dry && res == HM_DECISION_DENY)
		word = "would-deny";
	if (e->late) {
		res = HM_DECISION_TIMEOUT;
		word = E->o.default_deny ? "timeout (watchdog: deny)" :
					   "timeout (watchdog: allow)";
	}
	hm_enf_log(E, "%s pid=%d domain=\"%s\" %s%s", word, e->pid,
		   e->v.name->str, line ? line : e->nm.str,
		   e->gone ? " (process gone)" : "");
	free(line);
	e->reported = true;
	if (!e->dry)
		hm_enf_audit(E, res, e->perm, e->pid, profile, e->v.name,
			     e->raw, e->raw_len);
}

/* A late event no violation report told about (allowed by the policy,
 * or not judged): the process got the watchdog's answer, say so. */
static void report_late(struct hm_enforcer *E, const struct ev *e)
{
	hm_enf_log(E, "timeout (watchdog: %s) pid=%d %s: answered before "
		   "the decision (--decision-timeout %u ms)",
		   E->o.default_deny ? "deny" : "allow", e->pid,
		   e->raw_len ? e->raw : "(path not read)",
		   E->o.decision_timeout_ms);
}

static void set_pending(struct hm_enforcer *E, struct ev *e,
			const struct hm_name *program)
{
	if (hm_enf_pending_set(E, e->pid, program->str, e->fd,
			       e->stx.stx_dev_major * 0x100000000ull +
				       e->stx.stx_dev_minor,
			       e->stx.stx_ino))
		E->c.internal_errors++;
}

static void hold_or_deny(struct hm_enforcer *E, struct ev *e, uint8_t prof)
{
	struct hm_held *h;

	/* answered by the watchdog already: nothing left to ask */
	if (!e->dry && hm_super_connected(E->sup) &&
	    hm_answers_pending(E->ans, e->ref) &&
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
		h->acl = acl_line(E, &e->nm, e->perm);
		if (h->raw) {
			memcpy(h->raw, e->raw, e->raw_len + 1);
			h->raw_len = e->raw_len;
		}
		if (h->domain && h->path && h->raw && h->acl &&
		    hm_super_ask(E, h)) {
			e->done = true;	/* answered by the supervisor */
			return;
		}
		hm_held_free(h);
	}
	finish(E, e, false, true);
	E->c.denied++;
	report(E, e, HM_DECISION_DENY, prof);
}

/* Not allowed by the policy: what the profile says. */
static void violation(struct hm_enforcer *E, struct ev *e, uint8_t prof,
		      const struct hm_enf_answer *a)
{
	(void)a;
	/* asked before answering: the opener still waits inside open() */
	if (prof != HM_PROFILE_DISABLED) {
		e->perm = 0;
		if (e->exec)
			e->perm = 1u << HM_FILE_EXECUTE;
		else if (hm_enf_proc_open_perm(e->pid, &e->perm) == -ESRCH)
			gone(E, e);
	}
	switch (prof) {
	case HM_PROFILE_DISABLED:
		if (e->exec)
			set_pending(E, e, &e->nm);	/* reads e->fd */
		finish(E, e, true, false);
		E->c.disabled++;
		if (!e->exec && e->cache_ok)
			hm_dcache_insert(E->cache, &e->key, E->now_ns);
		return;
	case HM_PROFILE_LEARNING:
		if (e->exec)
			set_pending(E, e, &e->nm);
		finish(E, e, true, false);
		E->c.learned++;
		if (!e->dry && hm_enf_learn(E, e->v.name, e->perm, &e->nm,
					    e->has_ctx ? &e->ctx : NULL) < 0)
			E->c.internal_errors++;
		if (E->o.verbose || e->dry)
			report(E, e, HM_DECISION_LEARNED, prof);
		return;
	case HM_PROFILE_PERMISSIVE:
		if (e->exec)
			set_pending(E, e, &e->nm);
		finish(E, e, true, true);
		E->c.permissive++;
		report(E, e, HM_DECISION_PERMISSIVE, prof);
		return;
	default:
		hold_or_deny(E, e, prof);
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

static int path_of(struct ev *e)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", e->fd);
	n = readlink(link, e->raw, sizeof(e->raw) - 1);
	if (n <= 0 || (size_t)n >= sizeof(e->raw) - 1)
		return -ENOENT;
	e->raw[n] = '\0';
	e->raw_len = (size_t)n;
	return 0;
}

static int name_of(struct ev *e)
{
	long n = hm_enf_path_name(e->raw, e->raw_len, e->pid, false,
				  e->stx.stx_nlink == 0, &e->name);

	if (n < 0)
		return (int)n;
	e->nm = (struct hm_name){ .str = e->name, .len = (uint32_t)n };
	hm_name_fill(&e->nm);
	return 0;
}

/* An exec: judged unless the process's own history is unknown. */
static bool exec_shortcut(struct hm_enforcer *E, struct ev *e,
			  struct hm_pending_exec *pe)
{
	uint64_t dev = e->stx.stx_dev_major * 0x100000000ull +
		       e->stx.stx_dev_minor;

	if (e->v.flags & HM_PROC_UNOBSERVED) {
		set_pending(E, e, &e->nm);
		finish(E, e, true, false);
		E->c.not_judged_exec++;
		return true;
	}
	if (pe && hm_enf_pending_interp(pe, e->raw, e->fd, dev,
					e->stx.stx_ino)) {
		finish(E, e, true, false);
		E->c.exec_part++;
		return true;
	}
	return false;
}

/* HISTMAC_TEST_DECISION_DELAY_MS: a decision that stalls (tests only). */
static void test_delay(const struct hm_enforcer *E)
{
	struct timespec ts = { E->test_delay_ms / 1000,
			       (long)(E->test_delay_ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void judge(struct hm_enforcer *E, struct ev *e)
{
	struct hm_pending_exec *pe;
	struct hm_enf_query q;
	struct hm_enf_answer a;
	uint8_t prof;
	int r;

	if (E->n_execq)
		hm_enf_proc_apply(E, e->pid);	/* its exec first */
	r = hm_enf_proc_view(E, e->pid, &e->v);

	if (r) {
		if (r == -ESRCH)
			E->c.exited++;
		else
			E->c.internal_errors++;
		finish_default(E, e);
		return;
	}
	if (statx(e->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_INO | STATX_NLINK | STATX_CTIME |
			  STATX_MTIME | STATX_MNT_ID, &e->stx) < 0) {
		E->c.no_path++;
		finish_default(E, e);
		return;
	}
	if (S_ISDIR(e->stx.stx_mode)) {
		E->c.directories++;	/* TOMOYO does not check opendir */
		finish(E, e, true, false);
		return;
	}
	pe = E->n_pend ? hm_enf_pending(E, e->pid) : NULL;
	if (!e->exec && pe &&
	    hm_enf_pending_has_obj(pe, e->stx.stx_dev_major * 0x100000000ull +
					       e->stx.stx_dev_minor,
				   e->stx.stx_ino)) {
		E->c.exec_part++;
		finish(E, e, true, false);
		return;
	}
	set_key(e);
	if (e->cache_ok && !e->exec &&
	    hm_dcache_lookup(E->cache, &e->key, E->now_ns)) {
		E->c.cache_allowed++;
		finish(E, e, true, false);
		return;
	}
	if (path_of(e) || name_of(e)) {
		E->c.no_path++;
		finish_default(E, e);
		return;
	}
	if (e->exec && exec_shortcut(E, e, pe))
		return;
	if (hm_enf_index_needs_task(E->ix)) {
		r = hm_enf_proc_ctx(e->pid, &e->ctx);
		e->has_ctx = !r;
		if (r == -ESRCH)
			gone(E, e);
	}
	/* where a slow decision stalls: the event read and its process and
	 * path resolved (the opener still waits), not yet answered */
	if (E->test_delay_ms)
		test_delay(E);
	q = (struct hm_enf_query){ .exec = e->exec, .path = &e->nm,
				   .domain_name = e->v.name,
				   .domain = e->v.domain,
				   .ctx = e->has_ctx ? &e->ctx : NULL };
	hm_enf_decide(E->m, E->ix, &q, &a);
	prof = hm_enf_profile(E, a.profile);
	if (!a.allowed) {
		violation(E, e, prof, &a);
		return;
	}
	/* both read e->fd, which the answer closes */
	if (a.global && !e->exec && !e->dry && E->o.ignore_max)
		hm_enf_ignore_add(E, e->fd);
	if (e->exec)
		set_pending(E, e, a.program);
	finish(E, e, true, false);
	E->c.allowed++;
	if (a.global)
		E->c.global_allowed++;
	if (!e->exec && e->cache_ok && a.cacheable)
		hm_dcache_insert(E->cache, &e->key, E->now_ns);
}

/* First pass: count, let our own pid through, take a slot for each. */
static size_t take_all(struct hm_enforcer *E, const char *buf, ssize_t len,
		       struct ev *evs)
{
	const struct fanotify_event_metadata *md = (const void *)buf;
	size_t n = 0;

	for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
		struct ev *e = &evs[n];
		bool perm = md->mask & PERM_MASK;

		if (md->vers != FANOTIFY_METADATA_VERSION) {
			E->c.bad_events++;
			if (md->fd >= 0)
				close(md->fd);
			continue;
		}
		if (md->mask & FAN_Q_OVERFLOW) {
			/* only a notification group (--dry-run) has a bounded
			 * queue: the events it dropped are lost reports, the
			 * opens went through.  Nothing to resync: the process
			 * table comes from the proc connector, not from here */
			E->c.overflow++;
			hm_enf_log(E, "fanotify queue overflow: events were lost "
				   "(their opens are not judged)");
			continue;
		}
		if (md->fd < 0)
			continue;
		if (n == MAX_BATCH) {	/* cannot happen: BATCH_BYTES */
			E->c.internal_errors++;
			if (perm) {
				struct hm_slot_ref ref;

				if (hm_answers_take(E->ans, md->fd, md->pid,
						    &ref))
					hm_answers_finish(E->ans, ref,
							  !E->o.default_deny,
							  false);
			} else {
				close(md->fd);
			}
			continue;
		}
		memset(e, 0, offsetof(struct ev, raw));
		e->raw[0] = '\0';
		e->fd = md->fd;
		e->pid = md->pid;
		e->exec = md->mask & (FAN_OPEN_EXEC_PERM | FAN_OPEN_EXEC);
		e->dry = !perm;
		E->c.events++;
		if (e->exec)
			E->c.exec_events++;
		else
			E->c.open_events++;
		if (perm && !hm_answers_take(E->ans, md->fd, md->pid, &e->ref))
			continue;	/* answered with the default */
		if (md->pid == E->self) {
			E->c.self++;
			finish(E, e, true, false);
			continue;
		}
		n++;
	}
	return n;
}

void hm_enf_handle_batch(struct hm_enforcer *E, const char *buf, ssize_t len,
			 bool drain)
{
	static struct ev evs[MAX_BATCH];
	size_t n = take_all(E, buf, len, evs);

	/* after the read: every exec that came before these events is
	 * queued */
	if (drain)
		hm_enf_proc_drain(E);
	for (size_t i = 0; i < n; i++) {
		judge(E, &evs[i]);
		if (!evs[i].done)
			finish_default(E, &evs[i]);
		if (evs[i].late && !evs[i].reported)
			report_late(E, &evs[i]);
		free(evs[i].name);
	}
	hm_enf_proc_reap(E);
}

/* ------------------------------------------------------------- signals */

static void on_signal(struct hm_enforcer *E)
{
	struct signalfd_siginfo si;

	while (read(E->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGHUP:
			if (hm_enf_reload_start(E))
				hm_enf_log(E, "reload: cannot start the loader");
			break;
		case SIGUSR1:
			hm_enf_print_stats(E, stderr);
			break;
		case SIGUSR2:
			hm_enf_reload_finish(E);
			break;
		default:
			hm_enf_log(E, "signal %u: stopping", si.ssi_signo);
			E->stop = true;
			break;
		}
	}
}

/* Once a second: stale pending execs, the learning save timer. */
static void on_tick(struct hm_enforcer *E, uint64_t now)
{
	E->next_tick_ns = now + 1000000000ull;
	hm_enf_pending_expire(E, now);
	if (E->dirty && E->o.save_interval &&
	    now - E->last_save_ns >= E->o.save_interval * 1000000000ull)
		hm_enf_save(E);
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
static void read_fanotify(struct hm_enforcer *E, bool proc_ready)
{
	static char buf[BATCH_BYTES] __attribute__((aligned(8)));
	size_t want = proc_ready ? sizeof(buf) :
				   sizeof(struct fanotify_event_metadata);
	ssize_t len = read(E->fan_fd, buf, want);

	if (len <= 0) {
		if (len < 0 && errno != EAGAIN && errno != EINTR)
			hm_enf_log(E, "reading fanotify: %s", strerror(errno));
		return;
	}
	hm_enf_handle_batch(E, buf, len, proc_ready);
}

int hm_enf_watch(struct hm_enforcer *E, int fd)
{
	if (E->n_pfd == HM_ARRAY_SIZE(E->pfd))
		return -ENOSPC;
	E->pfd[E->n_pfd++] = (struct pollfd){ .fd = fd, .events = POLLIN };
	return 0;
}

void hm_enf_unwatch(struct hm_enforcer *E, int fd)
{
	for (size_t i = 0; i < E->n_pfd; i++)
		if (E->pfd[i].fd == fd) {
			memmove(&E->pfd[i], &E->pfd[i + 1],
				(E->n_pfd - i - 1) * sizeof(E->pfd[0]));
			E->n_pfd--;
			return;
		}
}

/* How long poll may sleep: the next tick or supervisor deadline. */
static int sleep_ms(struct hm_enforcer *E, uint64_t now)
{
	int sup = hm_super_timeout(E, now);
	int tick = now >= E->next_tick_ns ? 0 :
		   (int)((E->next_tick_ns - now) / 1000000 + 1);

	return sup >= 0 && sup < tick ? sup : tick;
}

int hm_enf_loop(struct hm_enforcer *E)
{
	uint64_t now = hm_now_ns();

	/* read_fanotify() relies on this order */
	if (E->n_pfd < 2 || E->pfd[0].fd != E->fan_fd ||
	    E->pfd[1].fd != hm_proc_fd(E->proc))
		return -EINVAL;
	E->next_tick_ns = now + 1000000000ull;
	while (!E->stop) {
		struct pollfd p[HM_ARRAY_SIZE(E->pfd)];
		size_t np = E->n_pfd;
		int n;

		memcpy(p, E->pfd, np * sizeof(p[0]));
		hm_answers_busy(E->ans, false);
		n = poll(p, (nfds_t)np, sleep_ms(E, now));
		now = E->now_ns = hm_answers_busy(E->ans, true);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			hm_enf_log(E, "poll: %s", strerror(errno));
			return -errno;
		}
		if (p[0].revents)
			read_fanotify(E, p[1].revents);
		else if (p[1].revents) {
			hm_enf_proc_drain(E);
			hm_enf_proc_reap(E);
		}
		for (size_t i = 2; i < np; i++) {
			if (!p[i].revents)
				continue;
			if (p[i].fd == E->sig_fd)
				on_signal(E);
			else
				hm_super_ready(E, p[i].fd, p[i].revents);
		}
		if (now >= E->next_tick_ns)
			on_tick(E, now);
		hm_super_expire(E, now);
	}
	return 0;
}
