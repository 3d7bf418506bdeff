// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * daemon.c - `histmac enforce` from start to stop.  Setup goes in an
 * order that is safe at every step: the policy is loaded and checked and
 * the marks are vetted before anything is marked; the proc connector is
 * subscribed before /proc is scanned, so no fork or exec falls between
 * them; the marks come last, and capabilities are dropped right after.
 * Then one poll loop over the fanotify fd, the proc connector, a
 * signalfd and the supervisor's sockets hands each to its part.
 * Teardown answers every event still held or being decided, then closes
 * the fanotify fd (the kernel lets whatever it still queued through), and
 * only then saves what was learned.  Owns struct hm_enforcer: the parts,
 * built here and handed what each needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <libaudit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/policy_io.h"

struct hm_enforcer {
	struct hm_enforcer_opts o;
	int fan_fd;
	int sig_fd;
	int audit_fd;			/* libaudit, -1 none */
	int wd_audit_fd;		/* the watchdog thread's own */
	bool audit_events;		/* FAN_ENABLE_AUDIT worked */
	uint64_t next_tick_ns;
	uint64_t next_metrics_ns;
	bool metrics_failed;		/* the last write failed (logged) */
	struct hm_metrics *metrics;
	unsigned test_delay_ms;		/* HISTMAC_TEST_DECISION_DELAY_MS */
	struct hm_live *live;
	struct hm_tracker *t;
	struct hm_dcache *cache;
	struct hm_procs *procs;
	struct hm_opener *opener;
	struct hm_answers *ans;
	struct hm_ignores *ignores;
	struct hm_super *sup;
	struct hm_loop *loop;
	struct hm_enforcer_counters c;
	bool strict;			/* execs of unobserved history judged */
	bool stop;
	int status;
};

static const char *const mode_names[] = {
	[HM_PROFILE_DISABLED] = "disabled",
	[HM_PROFILE_LEARNING] = "learning",
	[HM_PROFILE_PERMISSIVE] = "permissive",
	[HM_PROFILE_ENFORCING] = "enforcing",
};

/**
 * hm_enforcer_opts_init() - the defaults of `histmac enforce`.
 * @o: filled in.
 */
void hm_enforcer_opts_init(struct hm_enforcer_opts *o)
{
	*o = (struct hm_enforcer_opts){
		.mode = HM_ENFORCER_MODE_PER_DOMAIN,
		.query_timeout_ms = 10000,
		.decision_timeout_ms = 1000,
		.save_interval = 60,
		.cache_slots = 16384,
		.cache_ttl_ms = 5000,
		.ignore_max = 512,
		.proc_buffer = 8 << 20,
		.audit = true,
		.dialect = HM_DIALECT_AUTO,
		.metrics_interval = 15,
	};
	hm_learn_opts_default(&o->lo);
}

/* How the start line and the counters name the strict mode. */
static const char *strict_word(bool strict)
{
	return strict ? "strict (execs of unobserved history judged)" :
			"not strict (execs of unobserved history not judged)";
}

static void print_stats(struct hm_enforcer *E, FILE *f)
{
	struct hm_answer_stats as = { 0 };
	struct hm_dcache_stats cs = { 0 };
	struct hm_tracker_stats ts = { 0 };

	if (E->ans)
		hm_answers_stats(E->ans, &as);
	if (E->cache)
		hm_dcache_stats(E->cache, &cs);
	if (E->t)
		hm_tracker_stats(E->t, &ts);
	fprintf(f, "histmac enforce: counters (%s)\n", strict_word(E->strict));
	/* every counter, zeros too: tests and scripts read them by name */
#define X(n, s)								\
	fprintf(f, "  %-44s %llu\n", s, (unsigned long long)E->c.n);
	HM_ENFORCER_COUNTERS(X)
#undef X
#define X(n, s)								\
	fprintf(f, "  %-44s %llu\n", s, (unsigned long long)E->c.procs.n);
	HM_PROCS_COUNTERS(X)
#undef X
	fprintf(f, "  %-44s %llu\n", "answered by the main loop",
		(unsigned long long)as.answered);
	fprintf(f, "  %-44s %llu\n", "answered by the watchdog (late)",
		(unsigned long long)as.watchdog);
	fprintf(f, "  %-44s %llu\n", "answered by the watchdog (loop stalled)",
		(unsigned long long)as.watchdog_drained);
	fprintf(f, "  %-44s %llu\n", "answers the kernel no longer wanted",
		(unsigned long long)as.write_errors);
	fprintf(f, "  %-44s %llu\n", "answered at once (no free slot)",
		(unsigned long long)as.table_full);
	fprintf(f, "  cache: %llu slots, %llu lookups, %llu hits, %llu misses, "
		"%llu inserts, %llu evictions, %llu expired, %llu flushes\n",
		(unsigned long long)cs.slots, (unsigned long long)cs.lookups,
		(unsigned long long)cs.hits, (unsigned long long)cs.misses,
		(unsigned long long)cs.inserts,
		(unsigned long long)cs.evictions,
		(unsigned long long)cs.expired,
		(unsigned long long)cs.invalidations);
	fprintf(f, "  processes: %llu tracked, %llu unobserved, %llu execs, "
		"%llu pid reuses, %llu evicted\n",
		(unsigned long long)ts.procs, (unsigned long long)ts.unobserved,
		(unsigned long long)ts.execs, (unsigned long long)ts.pid_reuse,
		(unsigned long long)ts.evictions);
	fflush(f);
}

static void metrics_in(struct hm_enforcer *E, struct hm_metrics_in *in)
{
	*in = (struct hm_metrics_in){ .c = &E->c };
	if (E->ans)
		hm_answers_stats(E->ans, &in->as);
	if (E->cache)
		hm_dcache_stats(E->cache, &in->cs);
	if (E->t)
		hm_tracker_stats(E->t, &in->ts);
}

/* The warnings of a too small cache or table, and (@write) --metrics
 * FILE: a failed write is logged once, and again once it works. */
static void metrics(struct hm_enforcer *E, bool write)
{
	struct hm_metrics_in in;
	int r;

	if (!E->metrics)	/* stopped before it was set up */
		return;
	metrics_in(E, &in);
	hm_metrics_warn(E->metrics, &in, E->o.cache_slots);
	if (!write || !E->o.metrics_file)
		return;
	r = hm_metrics_write(E->metrics, &in, E->o.metrics_file);
	if (r && !E->metrics_failed)
		hm_log("--metrics %s: %s", E->o.metrics_file, strerror(-r));
	else if (!r && E->metrics_failed)
		hm_log("--metrics %s: written again", E->o.metrics_file);
	E->metrics_failed = r != 0;
}

/*
 * HISTMAC_TEST_DECISION_DELAY_MS=N (1-10000), read once at start: every
 * decision sleeps N ms after its event was read, before it is answered,
 * as a stalled decision would.  For the fault tests only
 * (tests/e2e/t_enforce_faults.sh); anything else is ignored.  Only in
 * test builds (HISTMAC_TEST_HOOKS); an installed enforcer has no such hook.
 */
#ifndef HM_TEST_HOOKS
static void read_test_delay(struct hm_enforcer *E)
{
	(void)E;
}
#else
static void read_test_delay(struct hm_enforcer *E)
{
	const char *s = getenv("HISTMAC_TEST_DECISION_DELAY_MS");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || s[0] == '-' || v < 1 || v > 10000) {
		hm_log("HISTMAC_TEST_DECISION_DELAY_MS=%s ignored (1-10000)", s);
		return;
	}
	E->test_delay_ms = (unsigned)v;
	hm_log("HISTMAC_TEST_DECISION_DELAY_MS=%lu: every decision stalls "
	       "%lu ms (fault injection, tests only)", v, v);
}
#endif

static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int setup_signals(struct hm_enforcer *E)
{
	sigset_t set;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);	/* the policy loader is done */
	/* before any thread exists, so every thread has them blocked */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	E->sig_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	return E->sig_fd < 0 ? -errno : 0;
}

static int write_pidfile(const char *path)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());

	return hm_atomic_write(path, buf, (size_t)n);
}

static int open_fanotify(struct hm_enforcer *E)
{
	unsigned ev_flags = O_RDONLY | O_LARGEFILE | O_CLOEXEC;
	/* the thread, not its group: /proc/TID/syscall shows the open the
	 * event is about (another thread may wait in an open of its own) */
	unsigned flags = FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_TID;

	if (E->o.dry_run) {
		E->fan_fd = fanotify_init(flags | FAN_CLASS_NOTIF, ev_flags);
		return E->fan_fd < 0 ? -errno : 0;
	}
	/* permission events block their process: the queue is bounded by
	 * the number of threads, and an overflow would allow silently */
	flags |= FAN_CLASS_CONTENT | FAN_UNLIMITED_QUEUE;
	if (E->o.audit) {
		E->fan_fd = fanotify_init(flags | FAN_ENABLE_AUDIT, ev_flags);
		if (E->fan_fd >= 0) {
			E->audit_events = true;
			return 0;
		}
		hm_log("FAN_ENABLE_AUDIT not available (%s): decisions go to "
		       "the audit trail as user records only",
		       strerror(errno));
	}
	E->fan_fd = fanotify_init(flags, ev_flags);
	return E->fan_fd < 0 ? -errno : 0;
}

/* The process keeper's log lines, in ours. */
static void log_line(const char *line)
{
	hm_log("%s", line);
}

/* The process table: the proc connector first, then /proc. */
static int open_procs(struct hm_enforcer *E)
{
	struct hm_procs_cfg cfg = { .c = &E->c.procs, .verbose = E->o.verbose,
				    .log = log_line,
				    .judged_open = hm_marks_cover };
	int fd = -1;
	int r;

	E->t = hm_tracker_new(E->live->m, false, E->o.lo.max_procs);
	if (!E->t)
		return -ENOMEM;
	E->live->t = E->t;
	r = hm_procs_connect(E->o.proc_buffer, &fd);
	if (r) {
		hm_log("proc connector: %s (CONFIG_PROC_EVENTS, root)",
		       strerror(-r));
		return r;
	}
	cfg.fd = fd;
	cfg.tracker = E->t;
	r = hm_procs_new(&cfg, &E->procs);
	if (r) {
		close(fd);
		return r;
	}
	r = hm_opener_new(&E->c, &E->opener);
	return r ? r : hm_procs_start(E->procs, E->o.state);
}

/*
 * Is something enforced: --mode enforcing, or an enforcing domain (or
 * default profile) in the policy as loaded at start?  The default of the
 * watchdog's answer and of strict mode.
 */
static bool enforces(const struct hm_enforcer *E)
{
	const struct hm_model *m = E->live->m;

	if (E->o.mode != HM_ENFORCER_MODE_PER_DOMAIN)
		return E->o.mode == HM_PROFILE_ENFORCING;
	if (m->default_profile == HM_PROFILE_ENFORCING)
		return true;
	for (size_t i = 0; i < m->n_domains; i++)
		if (m->domains[i]->profile == HM_PROFILE_ENFORCING)
			return true;
	return false;
}

/* What the watchdog answers a decision it finds late: --default when it
 * was given, else deny when something is enforced, else allow. */
static bool stall_deny(const struct hm_enforcer *E)
{
	return E->o.default_given ? E->o.default_deny : enforces(E);
}

/* Strict mode (execs of unobserved history judged): --strict or
 * --no-strict when given, else on when something is enforced. */
static bool strict_mode(const struct hm_enforcer *E)
{
	return E->o.strict_given ? E->o.strict : enforces(E);
}

/* Say at start what would otherwise look like a hang: a deny storm
 * that fills a small audit backlog stops the denied processes (and our
 * records) in the kernel for up to backlog_wait_time. */
static void warn_backlog(void)
{
	uint32_t limit = 0, wait = 0;
	int fd = audit_open();	/* its own: no reply left for the records' */
	bool low = hm_audit_backlog_low(fd, &limit, &wait);

	if (fd >= 0)
		audit_close(fd);
	if (low)
		hm_log("warning: the kernel's audit backlog_limit is %u: a "
		       "burst of denials fills it, and then every process "
		       "that logs, a denied opener too, sleeps in the kernel "
		       "for up to backlog_wait_time (%u jiffies); raise it "
		       "(auditctl -b 8192, as auditd's rules do)", limit,
		       wait);
}

/* What answers and judges: the answer table, the supervisor, the loop. */
static int open_deciders(struct hm_enforcer *E)
{
	struct hm_answers_cfg acfg = {
		.fan_fd = E->fan_fd,
		.decision_timeout_ms = E->o.decision_timeout_ms,
		.default_deny = E->o.default_deny,
		.stall_deny = stall_deny(E),
		.audit = E->audit_events,
		.audit_fd = E->wd_audit_fd,
	};
	struct hm_loop_cfg lcfg;
	int r;

	E->strict = strict_mode(E);
	if ((r = hm_answers_new(&acfg, &E->ans)))
		return r;
	if (E->o.ignore_max &&
	    (r = hm_ignores_new(E->fan_fd, E->o.ignore_max, &E->ignores)))
		return r;
	if (E->o.supervisor && !E->o.dry_run) {
		struct hm_super_env env = {
			.ans = E->ans, .procs = E->procs, .live = E->live,
			.c = &E->c, .audit_fd = E->audit_fd,
			.query_timeout_ms = E->o.query_timeout_ms,
		};

		r = hm_super_open(E->o.supervisor, &env, &E->sup);
		if (r) {
			hm_log("--supervisor %s: %s", E->o.supervisor,
			       strerror(-r));
			return r;
		}
	}
	lcfg = (struct hm_loop_cfg){
		.fan_fd = E->fan_fd, .self = getpid(),
		.default_deny = E->o.default_deny, .verbose = E->o.verbose,
		.stall_deny = acfg.stall_deny, .strict = E->strict,
		.decision_timeout_ms = E->o.decision_timeout_ms,
		.test_delay_ms = E->test_delay_ms, .audit_fd = E->audit_fd,
		.ans = E->ans, .procs = E->procs, .opener = E->opener,
		.live = E->live, .cache = E->cache, .ignores = E->ignores,
		.sup = E->sup, .metrics = E->metrics, .c = &E->c,
	};
	return hm_loop_new(&lcfg, &E->loop);
}

/* Everything that may fail before a single mark exists. */
static int prepare(struct hm_enforcer *E)
{
	int r;

	if ((r = setup_signals(E)))
		return r;
	if ((r = hm_live_load(&E->o, &E->c, &E->live))) {
		E->status = r == -EINVAL ? 4 : 3;	/* errors in it: 4 */
		return r;
	}
	if ((r = hm_marks_check(E->o.marks, E->o.n_marks, E->o.policy))) {
		E->status = 2;
		return r;
	}
	if (E->o.pidfile && (r = write_pidfile(E->o.pidfile))) {
		hm_log("%s: %s", E->o.pidfile, strerror(-r));
		return r;
	}
	E->metrics = hm_metrics_new();
	if (!E->metrics)
		return -ENOMEM;
	E->cache = hm_dcache_new(E->o.cache_slots,
				 (uint64_t)E->o.cache_ttl_ms * 1000000ull);
	if (!E->cache)
		return -ENOMEM;
	E->live->cache = E->cache;	/* flushed when learning frees entries */
	if ((r = open_procs(E)))
		return r;
	if ((r = open_fanotify(E))) {
		hm_log("fanotify_init: %s", strerror(-r));
		return r;
	}
	if (E->o.audit && !E->o.dry_run) {
		E->audit_fd = audit_open();
		if (E->audit_fd < 0)
			hm_log("audit_open: %s: no decision records",
			       strerror(errno));
		else
			E->wd_audit_fd = audit_open();
		warn_backlog();
	}
	return open_deciders(E);
}

static int start(struct hm_enforcer *E)
{
	/* FAN_ONDIR: a directory opened for reading is checked too */
	uint64_t mask = FAN_ONDIR | (E->o.dry_run ? FAN_OPEN | FAN_OPEN_EXEC :
					FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM);
	int r;

	/* a dry run has nothing to answer: no watchdog, which would read
	 * (and lose, overflow included) the queue whenever the loop is
	 * busy longer than --decision-timeout */
	if (!E->o.dry_run && (r = hm_answers_start_watchdog(E->ans)))
		return r;
	if ((r = hm_marks_add(E->fan_fd, E->o.marks, E->o.n_marks, mask)))
		return r;
	if ((r = hm_caps_drop()))
		hm_log("dropping capabilities: %s", strerror(-r));
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	E->live->last_save_ns = hm_now_ns();
	hm_log("%s: %zu domains, mode %s, %s, %zu mark%s%s",
	       E->o.dry_run ? "dry run (no permission marks; nothing waits "
			      "for us)" : "enforcing",
	       E->live->m->n_domains,
	       E->o.mode == HM_ENFORCER_MODE_PER_DOMAIN ? "per domain" :
	       mode_names[E->o.mode], strict_word(E->strict), E->o.n_marks,
	       E->o.n_marks == 1 ? "" : "s", E->sup ? ", supervisor" : "");
	metrics(E, true);	/* zeros: the file exists from the start */
	hm_notify_ready();
	return 0;
}

/* ---------------------------------------------------------------- run */

static void reload_finish(struct hm_enforcer *E)
{
	if (hm_live_reload_finish(E->live) == 1) {
		/* what was cached came from the old policy */
		hm_dcache_invalidate(E->cache);
		hm_ignores_clear(E->ignores);
	}
}

static void on_signal(struct hm_enforcer *E)
{
	struct signalfd_siginfo si;

	while (read(E->sig_fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGHUP:
			if (hm_live_reload_start(E->live))
				hm_log("reload: cannot start the loader");
			break;
		case SIGUSR1:
			print_stats(E, stderr);
			metrics(E, true);
			break;
		case SIGUSR2:
			reload_finish(E);
			break;
		default:
			hm_log("signal %u: stopping", si.ssi_signo);
			E->stop = true;
			break;
		}
	}
}

/* Once a second: systemd's watchdog, the metrics and the learning
 * save timers. */
static void on_tick(struct hm_enforcer *E, uint64_t now)
{
	bool due = now >= E->next_metrics_ns;

	E->next_tick_ns = now + 1000000000ull;
	hm_notify_watchdog();
	if (due)
		E->next_metrics_ns = now + E->o.metrics_interval *
						   1000000000ull;
	metrics(E, due);
	if (hm_live_unsaved(E->live) && E->o.save_interval &&
	    now - E->live->last_save_ns >=
		    E->o.save_interval * 1000000000ull)
		hm_live_save(E->live);
}

/* How long poll may sleep: the next tick or supervisor deadline. */
static int sleep_ms(struct hm_enforcer *E, uint64_t now)
{
	int sup = hm_super_timeout(E->sup, now);
	int tick = now >= E->next_tick_ns ? 0 :
		   (int)((E->next_tick_ns - now) / 1000000 + 1);

	return sup >= 0 && sup < tick ? sup : tick;
}

/* The poll set: fanotify first, the proc connector second (loop.c
 * relies on that order), then signals and the supervisor's sockets. */
static nfds_t poll_set(struct hm_enforcer *E, struct pollfd *p)
{
	p[0] = (struct pollfd){ .fd = E->fan_fd, .events = POLLIN };
	p[1] = (struct pollfd){ .fd = hm_procs_fd(E->procs), .events = POLLIN };
	p[2] = (struct pollfd){ .fd = E->sig_fd, .events = POLLIN };
	return 3 + hm_super_pollfds(E->sup, &p[3]);
}

static int run(struct hm_enforcer *E)
{
	uint64_t now = hm_now_ns();

	E->next_tick_ns = now + 1000000000ull;
	E->next_metrics_ns = now + E->o.metrics_interval * 1000000000ull;
	while (!E->stop) {
		struct pollfd p[5];
		nfds_t np = poll_set(E, p);
		int n;

		hm_answers_busy(E->ans, false);
		n = poll(p, np, sleep_ms(E, now));
		now = hm_answers_busy(E->ans, true);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			hm_log("poll: %s", strerror(errno));
			return -errno;
		}
		if (p[0].revents)
			hm_loop_read(E->loop, p[1].revents, now);
		else if (p[1].revents) {
			hm_procs_drain(E->procs);
			hm_procs_reap(E->procs);
		}
		if (p[2].revents)
			on_signal(E);
		for (nfds_t i = 3; i < np; i++)
			if (p[i].revents)
				hm_super_ready(E->sup, p[i].fd, p[i].revents);
		if (now >= E->next_tick_ns)
			on_tick(E, now);
		hm_super_expire(E->sup, now);
	}
	return 0;
}

static void teardown(struct hm_enforcer *E)
{
	hm_notify_stopping();
	hm_super_close(E->sup);			/* held queries: reject */
	hm_answers_release(E->ans);		/* the rest: default */
	hm_ignores_free(E->ignores);
	if (E->fan_fd >= 0)
		close(E->fan_fd);		/* unread events: allowed */
	if (E->live)
		hm_live_save_last(E->live);
	print_stats(E, stderr);
	metrics(E, true);
	hm_loop_free(E->loop);
	hm_answers_free(E->ans);
	hm_procs_free(E->procs);
	hm_opener_free(E->opener);
	hm_live_free(E->live);		/* waits for a reload under way */
	hm_tracker_free(E->t);
	hm_dcache_free(E->cache);
	hm_metrics_free(E->metrics);
	if (E->audit_fd >= 0)
		audit_close(E->audit_fd);
	if (E->wd_audit_fd >= 0)
		audit_close(E->wd_audit_fd);
	if (E->sig_fd >= 0)
		close(E->sig_fd);
	if (E->o.pidfile)
		unlink(E->o.pidfile);
}

int hm_enforcer_run(const struct hm_enforcer_opts *o)
{
	struct hm_enforcer *E = calloc(1, sizeof(*E));
	int status;
	int r;

	if (!E)
		return 3;
	E->o = *o;
	E->fan_fd = E->sig_fd = E->audit_fd = E->wd_audit_fd = -1;
	read_test_delay(E);
	raise_nofile();
	r = prepare(E);
	if (!r)
		r = start(E);
	if (!r)
		r = run(E);
	teardown(E);
	status = r ? (E->status ? E->status : 3) : 0;
	free(E);
	return status;
}
