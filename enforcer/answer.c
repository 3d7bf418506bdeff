// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * answer.c - every permission event the enforcer has read, until it is
 * answered and its fd closed.  Owns the slot table (under one mutex) and
 * the watchdog thread; the main loop and the watchdog both answer through
 * here, so an event is answered exactly once:
 *
 *   DECIDING --main--> (write, close) FREE
 *   DECIDING --watchdog, late--> ANSWERED --main--> (close) FREE
 *   DECIDING --main, naming a foreign mount--> FOREIGN, then as DECIDING
 *	but a late answer is deny whatever --default says
 *   HELD (supervisor) --main--> FREE, or --watchdog, long late--> ANSWERED
 *
 * Only the main loop closes a slot's fd, so the watchdog never writes to
 * an fd number that was reused.  When the main loop itself is stuck (it
 * opened a marked file and waits for itself), the watchdog reads and
 * answers the queue on its own: no permission event waits for ever.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <time.h>
#include <unistd.h>

#include "enforcer_private.h"

#define HELD_GRACE_NS (2000ull * 1000 * 1000)

/* S_FOREIGN: deciding an event whose file the opener reached through a
 * mount of its own namespace, which chose how slow naming it is: a late
 * answer is deny, so a slowness the opener made never earns
 * --default allow. */
enum slot_state { S_FREE, S_DECIDING, S_FOREIGN, S_HELD, S_ANSWERED };

struct slot {
	int fd;
	int32_t pid;
	uint32_t gen;
	uint8_t state;
	uint64_t since_ns;
	uint64_t deadline_ns;	/* S_HELD */
};

struct hm_answers {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int fan_fd;
	pid_t self;
	bool audit;
	bool default_deny;
	bool stall_deny;
	int audit_fd;			/* the watchdog's records */
	uint64_t timeout_ns;
	struct slot slots[HM_ANSWERS_SLOTS];
	uint32_t free_stack[HM_ANSWERS_SLOTS];
	uint32_t n_free;
	_Atomic uint64_t busy_since;	/* 0: main loop in poll() */
	pthread_t wd;
	bool wd_running;
	bool stop;
	struct hm_answer_stats st;
};

static int respond(struct hm_answers *a, int fd, bool allow, bool audit)
{
	struct fanotify_response r = {
		.fd = fd,
		.response = (allow ? FAN_ALLOW : FAN_DENY) |
			    (audit && a->audit ? FAN_AUDIT : 0),
	};

	if (write(a->fan_fd, &r, sizeof(r)) == (ssize_t)sizeof(r))
		return 0;
	a->st.write_errors++;
	return -errno;
}

/**
 * hm_answers_new() - the table of events being decided.
 * @cfg: the fd answers go to, the watchdog's deadline and answer.
 * @out: caller frees with hm_answers_free().
 * Returns: 0 or -ENOMEM.
 */
int hm_answers_new(const struct hm_answers_cfg *cfg,
		   struct hm_answers **out)
{
	struct hm_answers *a = calloc(1, sizeof(*a));

	if (!a)
		return -ENOMEM;
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->wake, NULL);
	a->fan_fd = cfg->fan_fd;
	a->self = getpid();
	a->audit = cfg->audit;
	a->default_deny = cfg->default_deny;
	a->stall_deny = cfg->stall_deny;
	a->audit_fd = cfg->audit_fd;
	a->timeout_ns = (uint64_t)cfg->decision_timeout_ms * 1000000ull;
	for (uint32_t i = 0; i < HM_ANSWERS_SLOTS; i++) {
		a->slots[i].fd = -1;
		a->free_stack[i] = HM_ANSWERS_SLOTS - 1 - i;
	}
	a->n_free = HM_ANSWERS_SLOTS;
	*out = a;
	return 0;
}

bool hm_answers_take(struct hm_answers *a, int fd, int32_t pid,
		     struct hm_slot_ref *out)
{
	struct slot *s;
	uint32_t i;

	pthread_mutex_lock(&a->lock);
	if (!a->n_free) {
		a->st.table_full++;
		respond(a, fd, !a->default_deny, false);
		pthread_mutex_unlock(&a->lock);
		close(fd);
		return false;
	}
	i = a->free_stack[--a->n_free];
	s = &a->slots[i];
	s->fd = fd;
	s->pid = pid;
	s->state = S_DECIDING;
	/* when the main loop woke: no clock read per event */
	s->since_ns = atomic_load_explicit(&a->busy_since,
					   memory_order_relaxed);
	if (!s->since_ns)
		s->since_ns = hm_now_ns();
	out->idx = i;
	out->gen = s->gen;
	pthread_mutex_unlock(&a->lock);
	return true;
}

/* @s answered at @now: how long since the loop woke to read it. */
static void timed(struct hm_answers *a, const struct slot *s, uint64_t now)
{
	uint64_t ns = now > s->since_ns ? now - s->since_ns : 0;

	a->st.latency[hm_latency_bucket(ns)]++;
	a->st.latency_ns += ns;
}

static struct slot *slot_of(struct hm_answers *a, struct hm_slot_ref ref)
{
	struct slot *s = &a->slots[ref.idx];

	return s->gen == ref.gen && s->state != S_FREE ? s : NULL;
}

bool hm_answers_finish(struct hm_answers *a, struct hm_slot_ref ref,
		       bool allow, bool audit)
{
	struct slot *s;
	bool mine = false;
	int fd = -1;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ref);
	if (s) {
		if (s->state != S_ANSWERED) {
			respond(a, s->fd, allow, audit);
			a->st.answered++;
			/* the one clock read an event costs for its latency */
			timed(a, s, hm_now_ns());
			mine = true;
		}
		fd = s->fd;
		s->fd = -1;
		s->state = S_FREE;
		s->gen++;
		a->free_stack[a->n_free++] = ref.idx;
	}
	pthread_mutex_unlock(&a->lock);
	if (fd >= 0)
		close(fd);
	return mine;
}

void hm_answers_hold(struct hm_answers *a, struct hm_slot_ref ref,
		     uint64_t deadline_ns)
{
	struct slot *s;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ref);
	if (s && (s->state == S_DECIDING || s->state == S_FOREIGN)) {
		s->state = S_HELD;
		s->deadline_ns = deadline_ns;
	}
	pthread_mutex_unlock(&a->lock);
}

void hm_answers_foreign(struct hm_answers *a, struct hm_slot_ref ref)
{
	struct slot *s;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ref);
	if (s && s->state == S_DECIDING)
		s->state = S_FOREIGN;
	pthread_mutex_unlock(&a->lock);
}

int hm_answers_fd(struct hm_answers *a, struct hm_slot_ref ref)
{
	struct slot *s;
	int fd;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ref);
	fd = s ? s->fd : -1;
	pthread_mutex_unlock(&a->lock);
	return fd;
}

bool hm_answers_pending(struct hm_answers *a, struct hm_slot_ref ref)
{
	struct slot *s;
	bool r;

	pthread_mutex_lock(&a->lock);
	s = slot_of(a, ref);
	r = s && s->state != S_ANSWERED;
	pthread_mutex_unlock(&a->lock);
	return r;
}

uint64_t hm_answers_busy(struct hm_answers *a, bool busy)
{
	uint64_t now = busy ? hm_now_ns() : 0;

	if (a)
		atomic_store_explicit(&a->busy_since, now,
				      memory_order_relaxed);
	return now;
}

void hm_answers_stats(struct hm_answers *a, struct hm_answer_stats *out)
{
	pthread_mutex_lock(&a->lock);
	*out = a->st;
	pthread_mutex_unlock(&a->lock);
}

/* ------------------------------------------------------------ watchdog */

/* Late decisions get the default answer (a foreign one deny); the main
 * loop closes them. */
static void expire(struct hm_answers *a, uint64_t now)
{
	for (uint32_t i = 0; i < HM_ANSWERS_SLOTS; i++) {
		struct slot *s = &a->slots[i];

		if (s->state == S_FOREIGN && now - s->since_ns > a->timeout_ns) {
			respond(a, s->fd, false, true);
		} else if (s->state == S_DECIDING &&
			   now - s->since_ns > a->timeout_ns) {
			respond(a, s->fd, s->pid == a->self || !a->stall_deny,
				false);
		} else if (s->state == S_HELD &&
			   now > s->deadline_ns + HELD_GRACE_NS) {
			respond(a, s->fd, false, true);	/* no answer: reject */
		} else {
			continue;
		}
		s->state = S_ANSWERED;
		a->st.watchdog++;
		timed(a, s, now);
	}
}

/* Every answer the watchdog gives is logged and audited: the main loop
 * tells the late ones (loop.c), this the ones it read itself. */
static void tell_drained(struct hm_answers *a,
			 const struct fanotify_event_metadata *md, bool allow)
{
	static const struct hm_name unknown = { .str = "<unknown>",
						.len = 9 };
	char link[64];
	char path[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", md->fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	hm_log("timeout (watchdog: %s, loop stalled) pid=%d %s: answered "
	       "unjudged", allow ? "allow" : "deny", md->pid,
	       n > 0 ? path : "(path not read)");
	hm_log_decision(a->audit_fd, HM_DECISION_TIMEOUT,
			(md->mask & FAN_OPEN_EXEC_PERM) ?
				1u << HM_FILE_EXECUTE : 0,
			md->pid, 0, &unknown, path, n > 0 ? (size_t)n : 0);
}

/* The main loop is stuck: read and answer the queue ourselves. */
static void drain(struct hm_answers *a)
{
	char buf[4096] __attribute__((aligned(8)));
	ssize_t len;

	while ((len = read(a->fan_fd, buf, sizeof(buf))) > 0) {
		const struct fanotify_event_metadata *md = (const void *)buf;

		for (; FAN_EVENT_OK(md, len); md = FAN_EVENT_NEXT(md, len)) {
			if (md->fd < 0)
				continue;
			if (md->mask & (FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM)) {
				bool allow = md->pid == a->self ||
					     !a->stall_deny;

				pthread_mutex_lock(&a->lock);
				respond(a, md->fd, allow, false);
				a->st.watchdog_drained++;
				pthread_mutex_unlock(&a->lock);
				if (md->pid != a->self)
					tell_drained(a, md, allow);
			}
			close(md->fd);
		}
	}
}

static void *watchdog(void *arg)
{
	struct hm_answers *a = arg;
	uint64_t period = a->timeout_ns / 4;

	if (period < 5000000ull)
		period = 5000000ull;
	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		struct timespec ts;
		uint64_t busy, now;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += (long)(period % 1000000000ull);
		ts.tv_sec += (time_t)(period / 1000000000ull) +
			     ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&a->wake, &a->lock, &ts);
		if (a->stop)
			break;
		now = hm_now_ns();
		expire(a, now);
		busy = atomic_load_explicit(&a->busy_since,
					    memory_order_relaxed);
		if (busy && now > busy && now - busy > a->timeout_ns) {
			pthread_mutex_unlock(&a->lock);
			drain(a);
			pthread_mutex_lock(&a->lock);
		}
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

int hm_answers_start_watchdog(struct hm_answers *a)
{
	int r = pthread_create(&a->wd, NULL, watchdog, a);

	if (r)
		return -r;
	a->wd_running = true;
	return 0;
}

void hm_answers_release(struct hm_answers *a)
{
	if (!a)
		return;
	if (a->wd_running) {
		pthread_mutex_lock(&a->lock);
		a->stop = true;
		pthread_cond_signal(&a->wake);
		pthread_mutex_unlock(&a->lock);
		pthread_join(a->wd, NULL);
		a->wd_running = false;
	}
	for (uint32_t i = 0; i < HM_ANSWERS_SLOTS; i++) {
		struct slot *s = &a->slots[i];

		if (s->state == S_DECIDING || s->state == S_FOREIGN ||
		    s->state == S_HELD)
			respond(a, s->fd, s->state == S_DECIDING ?
					  !a->default_deny : false, false);
		if (s->fd >= 0)
			close(s->fd);
		s->fd = -1;
		s->state = S_FREE;
	}
}

void hm_answers_free(struct hm_answers *a)
{
	if (!a)
		return;
	hm_answers_release(a);
	pthread_cond_destroy(&a->wake);
	pthread_mutex_destroy(&a->lock);
	free(a);
}
