// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * daemon.c - `histmac enforce` from start to stop.  Setup goes in an
 * order that is safe at every step: the policy is loaded and checked and
 * the marks are vetted before anything is marked; the proc connector is
 * subscribed before /proc is scanned, so no fork or exec falls between
 * them; the marks come last, and capabilities are dropped right after.
 * Teardown answers every event still held or being decided, then closes
 * the fanotify fd (the kernel lets whatever it still queued through), and
 * only then saves what was learned.  Owns struct hm_enforcer.
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

#include "enforcer.h"
#include "histmac/policy_io.h"

static const char *const mode_names[] = {
	[HM_PROFILE_DISABLED] = "disabled",
	[HM_PROFILE_LEARNING] = "learning",
	[HM_PROFILE_PERMISSIVE] = "permissive",
	[HM_PROFILE_ENFORCING] = "enforcing",
};

void hm_enf_opts_init(struct hm_enf_opts *o)
{
	*o = (struct hm_enf_opts){
		.mode = HM_ENF_MODE_PER_DOMAIN,
		.query_timeout_ms = 10000,
		.decision_timeout_ms = 1000,
		.save_interval = 60,
		.cache_slots = 16384,
		.cache_ttl_ms = 5000,
		.ignore_max = 512,
		.proc_buffer = 8 << 20,
		.audit = true,
		.dialect = HM_DIALECT_AUTO,
	};
	hm_learn_opts_default(&o->lo);
}

void hm_enf_print_stats(struct hm_enforcer *E, FILE *f)
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
	fprintf(f, "histmac enforce: counters\n");
	/* every counter, zeros too: tests and scripts read them by name */
#define X(n, s)								\
	fprintf(f, "  %-44s %llu\n", s, (unsigned long long)E->c.n);
	HM_ENF_COUNTERS(X)
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

/*
 * HISTMAC_TEST_DECISION_DELAY_MS=N (1-10000), read once at start: every
 * decision sleeps N ms after its event was read, before it is answered,
 * as a stalled decision would.  For the fault tests only
 * (tests/e2e/t_enforce_faults.sh); anything else is ignored.
 */
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
		hm_enf_log(E, "HISTMAC_TEST_DECISION_DELAY_MS=%s ignored "
			   "(1-10000)", s);
		return;
	}
	E->test_delay_ms = (unsigned)v;
	hm_enf_log(E, "HISTMAC_TEST_DECISION_DELAY_MS=%lu: every decision "
		   "stalls %lu ms (fault injection, tests only)", v, v);
}

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
	unsigned flags = FAN_CLOEXEC | FAN_NONBLOCK;

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
		hm_enf_log(E, "FAN_ENABLE_AUDIT not available (%s): decisions "
			   "go to the audit trail as user records only",
			   strerror(errno));
	}
	E->fan_fd = fanotify_init(flags, ev_flags);
	return E->fan_fd < 0 ? -errno : 0;
}

/* The loop's poll set: fanotify first, proc second (loop.c). */
static int open_loop(struct hm_enforcer *E)
{
	int r;

	if ((r = hm_enf_watch(E, E->fan_fd)) ||
	    (r = hm_enf_watch(E, hm_proc_fd(E->proc))))
		return r;
	return hm_enf_watch(E, E->sig_fd);
}

/* Everything that may fail before a single mark exists. */
static int prepare(struct hm_enforcer *E)
{
	int r;

	if ((r = setup_signals(E)))
		return r;
	if ((r = hm_enf_policy_load(E))) {
		E->status = r == -EINVAL ? 1 : 3;	/* errors in it: 1 */
		return r;
	}
	if ((r = hm_enf_marks_check(E))) {
		E->status = 2;
		return r;
	}
	if (E->o.pidfile && (r = write_pidfile(E->o.pidfile))) {
		hm_enf_log(E, "%s: %s", E->o.pidfile, strerror(-r));
		return r;
	}
	E->cache = hm_dcache_new(E->o.cache_slots,
				 (uint64_t)E->o.cache_ttl_ms * 1000000ull);
	E->t = hm_tracker_new(E->m, false, E->o.lo.max_procs);
	if (!E->cache || !E->t)
		return -ENOMEM;
	if ((r = hm_proc_open(E->o.proc_buffer, &E->proc))) {
		hm_enf_log(E, "proc connector: %s (CONFIG_PROC_EVENTS, root)",
			   strerror(-r));
		return r;
	}
	if (E->o.state) {
		r = hm_enf_proc_import(E, E->o.state);
		if (r < 0)
			hm_enf_log(E, "--state %s: %s (going on without it)",
				   E->o.state, strerror(-r));
		else
			hm_enf_log(E, "--state %s: %d processes imported",
				   E->o.state, r);
	}
	if ((r = hm_enf_proc_scan(E, false)))
		return r;
	if ((r = open_fanotify(E))) {
		hm_enf_log(E, "fanotify_init: %s", strerror(-r));
		return r;
	}
	if ((r = hm_answers_new(E->fan_fd, &E->o, E->audit_events, &E->ans)))
		return r;
	if (E->o.audit && !E->o.dry_run) {
		E->audit_fd = audit_open();
		if (E->audit_fd < 0)
			hm_enf_log(E, "audit_open: %s: no decision records",
				   strerror(errno));
	}
	if ((r = open_loop(E)))
		return r;
	if (E->o.supervisor && !E->o.dry_run &&
	    (r = hm_super_open(E, E->o.supervisor, &E->sup))) {
		hm_enf_log(E, "--supervisor %s: %s", E->o.supervisor,
			   strerror(-r));
		return r;
	}
	return 0;
}

static int start(struct hm_enforcer *E)
{
	uint64_t mask = E->o.dry_run ? FAN_OPEN | FAN_OPEN_EXEC :
				       FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM;
	int r;

	/* a dry run has nothing to answer: no watchdog, which would read
	 * (and lose, overflow included) the queue whenever the loop is
	 * busy longer than --decision-timeout */
	if (!E->o.dry_run && (r = hm_answers_start_watchdog(E->ans)))
		return r;
	if ((r = hm_enf_marks_add(E, mask)))
		return r;
	if ((r = hm_enf_drop_caps()))
		hm_enf_log(E, "dropping capabilities: %s", strerror(-r));
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	E->last_save_ns = hm_now_ns();
	hm_enf_log(E, "%s: %zu domains, mode %s, %zu mark%s%s",
		   E->o.dry_run ? "dry run (no permission marks; nothing "
				  "waits for us)" : "enforcing",
		   E->m->n_domains,
		   E->o.mode == HM_ENF_MODE_PER_DOMAIN ? "per domain" :
		   mode_names[E->o.mode], E->o.n_marks,
		   E->o.n_marks == 1 ? "" : "s",
		   E->sup ? ", supervisor" : "");
	return 0;
}

static void teardown(struct hm_enforcer *E)
{
	if (E->loading) {
		pthread_join(E->loader, NULL);
		hm_enf_index_free(E->loaded_ix);
		hm_model_free(E->loaded_m);
		if (E->loaded_diag)
			hm_diag_free(E->loaded_diag);
		free(E->loaded_diag);
	}
	hm_super_close(E, E->sup);		/* held queries: reject */
	hm_answers_release(E->ans);		/* the rest: default */
	hm_enf_ignore_clear(E);
	if (E->fan_fd >= 0)
		close(E->fan_fd);		/* unread events: allowed */
	if (E->dirty)
		hm_enf_save(E);
	hm_enf_print_stats(E, stderr);
	hm_answers_free(E->ans);
	hm_enf_pending_clear(E);
	free(E->ignore_fds);
	hm_proc_close(E->proc);
	hm_tracker_free(E->t);
	hm_dcache_free(E->cache);
	hm_generalizer_free(E->g);
	hm_enf_index_free(E->ix);
	hm_model_free(E->m);
	if (E->audit_fd >= 0)
		audit_close(E->audit_fd);
	if (E->sig_fd >= 0)
		close(E->sig_fd);
	if (E->o.pidfile)
		unlink(E->o.pidfile);
}

int hm_enforcer_run(const struct hm_enf_opts *o)
{
	struct hm_enforcer *E = calloc(1, sizeof(*E));
	int status;
	int r;

	if (!E)
		return 3;
	E->o = *o;
	E->self = getpid();
	E->fan_fd = E->sig_fd = E->audit_fd = -1;
	read_test_delay(E);
	raise_nofile();
	r = prepare(E);
	if (!r)
		r = start(E);
	if (!r)
		r = hm_enf_loop(E);
	teardown(E);
	status = r ? (E->status ? E->status : 3) : 0;
	free(E);
	return status;
}
