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
 * by daemon.c; calls the process keeper (procs.h), the live policy, the
 * pure decision code (decide.h), and verdict.c for the answer.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "loop.h"

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
 * long that naming takes: the watchdog denies it if late.  A file an
 * overlay opens in its layers is named as the overlay shows it; 2: the
 * overlay's copy-up in the making (mounts.c), no name.
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
		if (r == 1) {
			l->c->overlay_layer++;
			r = 0;
		}
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
			hm_ev_gone(l, e);
	}
	cond_obj(&e->stx, &e->ctx);
}

/* An allowed open of a learning domain (@prof: the profile that applies)
 * taught nothing: a quiet event for `histmac stats` (a cache hit too: it
 * is as much an event). */
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
		hm_ev_finish(l, e, true, false);
		return;
	}
	if (!r)		/* its exec applied first */
		r = hm_procs_domain(l->cfg.procs, e->pid, &e->v);
	if (r) {
		if (r == -ESRCH)
			l->c->exited++;
		else
			l->c->internal_errors++;
		hm_ev_finish_default(l, e);
		return;
	}
	if (statx(e->fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_INO | STATX_NLINK | STATX_SIZE |
			  STATX_CTIME | STATX_MTIME | STATX_MNT_ID |
			  STATX_MODE | STATX_UID | STATX_GID,
		  &e->stx) < 0) {
		l->c->no_path++;
		hm_ev_finish_default(l, e);
		return;
	}
	if (S_ISDIR(e->stx.stx_mode))	/* judged as "file read DIR/" */
		l->c->directories++;
	if (!e->exec && hm_ev_exec_open(l, e)) {
		l->c->exec_part++;
		hm_ev_finish(l, e, true, false);
		return;
	}
	set_key(e);
	if (e->cache_ok && !e->exec && hm_ev_cached(l, e)) {
		l->c->cache_allowed++;
		if (e->v.domain)
			hm_ev_seen(l, e, hm_live_profile(l->cfg.live,
						   e->v.domain->profile));
		hm_ev_finish(l, e, true, false);
		return;
	}
	r = path_of(l, e);
	if (r == 2) {	/* the overlay's work, for an open judged by name */
		l->c->overlay_copy_up++;
		hm_ev_finish(l, e, true, false);
		return;
	}
	if (r == -EXDEV || r == -ETIME) {
		hm_ev_unnamed(l, e, r);
		return;
	}
	if (r || name_of(e)) {
		l->c->no_path++;
		hm_ev_finish_default(l, e);
		return;
	}
	cond_ctx(l, e);
	if (e->exec && hm_ev_exec_shortcut(l, e))
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
		a.allowed = hm_enf_open_allows(a.granted, hm_ev_ask_of(l, e));
	if (!a.allowed) {
		hm_ev_violation(l, e, prof, &a);
		return;
	}
	hm_ev_seen(l, e, prof);
	/* both read e->fd, which the answer closes */
	if (a.global && !e->exec && !e->dry && !e->foreign &&
	    l->cfg.ignores && hm_ignores_add(l->cfg.ignores, e->fd) > 0)
		l->c->ignore_marks++;
	if (e->exec)
		hm_ev_set_pending(l, e, a.program, true);
	cache = hm_ev_count_decision(l, e, &a);	/* may read the mode */
	hm_ev_finish(l, e, true, false);
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
			hm_ev_finish(l, &self, true, false);
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
		t->flags_r = hm_ev_read_flags(l, t->tid, &t->flags);
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
			hm_ev_finish_default(l, e);
		if (e->late && !e->reported)
			hm_ev_report_late(l, e);
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

