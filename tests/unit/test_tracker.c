// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_tracker.c - domain transitions (exception policy precedence,
 * aggregator, alias) and the process table rules of docs/ARCHITECTURE.md: fork
 * inheritance, unobserved history, pid reuse, reparenting, state files.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/tracker.h"

static const struct hm_name *N(struct hm_model *m, const char *s)
{
	const struct hm_name *n;

	assert_int_equal(hm_model_intern(m, s, strlen(s), &n), 0);
	return n;
}

/* One exception rule: "TYPE PROG from DOM" (NULL for any). */
static void rule(struct hm_model *m, enum hm_transition type,
		 const char *prog, const char *dom)
{
	struct hm_transition_rule r = { .type = (uint8_t)type };

	r.program = prog ? N(m, prog) : NULL;
	r.domain = dom ? N(m, dom) : NULL;
	assert_true(hm_model_add_transition(m, &r) >= 0);
}

static void expect(struct hm_model *m, const char *cur, const char *prog,
		   const char *want, enum hm_transit want_type)
{
	const struct hm_name *cand;
	enum hm_transit type;
	char *next = NULL;

	assert_int_equal(hm_transition_compute(m, N(m, cur), N(m, prog), NULL,
					       &cand, &next, &type), 0);
	assert_string_equal(next, want);
	assert_int_equal(type, want_type);
	free(next);
}

static void test_transitions(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_rename_rule agg = { 0 };

	(void)state;
	expect(m, "<kernel> /sbin/init", "/bin/sh", "<kernel> /sbin/init /bin/sh",
	       HM_TRANSIT_CHILD);
	rule(m, HM_TR_INITIALIZE, "/usr/sbin/sshd", NULL);
	expect(m, "<kernel> /sbin/init /etc/init.d/ssh", "/usr/sbin/sshd",
	       "<kernel> /usr/sbin/sshd", HM_TRANSIT_INITIALIZE);
	/* no_initialize from a domain beats initialize. */
	rule(m, HM_TR_NO_INITIALIZE, "/usr/sbin/sshd", "<kernel> /bin/x");
	expect(m, "<kernel> /bin/x", "/usr/sbin/sshd",
	       "<kernel> /bin/x /usr/sbin/sshd", HM_TRANSIT_CHILD);
	/* ... but only from exactly that domain */
	expect(m, "<kernel> /bin/x /bin/y", "/usr/sbin/sshd",
	       "<kernel> /usr/sbin/sshd", HM_TRANSIT_INITIALIZE);
	/* keep_domain any from a last-program name */
	rule(m, HM_TR_KEEP, NULL, "/usr/sbin/sshd");
	expect(m, "<kernel> /usr/sbin/sshd", "/bin/bash",
	       "<kernel> /usr/sbin/sshd", HM_TRANSIT_KEEP);
	/* initialize outranks keep */
	expect(m, "<kernel> /usr/sbin/sshd", "/usr/sbin/sshd",
	       "<kernel> /usr/sbin/sshd", HM_TRANSIT_INITIALIZE);
	rule(m, HM_TR_NO_KEEP, "/bin/su", NULL);
	expect(m, "<kernel> /usr/sbin/sshd", "/bin/su",
	       "<kernel> /usr/sbin/sshd /bin/su", HM_TRANSIT_CHILD);
	/* reset beats initialize and goes to a namespace root */
	rule(m, HM_TR_RESET, "/usr/sbin/sshd", "<kernel> /bin/r");
	expect(m, "<kernel> /bin/r", "/usr/sbin/sshd", "</usr/sbin/sshd>",
	       HM_TRANSIT_RESET);
	/* initialize inside another namespace stays in it */
	expect(m, "<ns> /bin/a", "/usr/sbin/sshd", "<ns> /usr/sbin/sshd",
	       HM_TRANSIT_INITIALIZE);
	/* aggregator renames before the transition, patterns allowed */
	agg.original = N(m, "/etc/rc\\?.d/\\?\\+\\+apache2");
	agg.renamed = N(m, "/etc/init.d/apache2");
	assert_int_equal(hm_model_add_rename(m, &agg), 1);
	assert_int_equal(hm_model_add_rename(m, &agg), 0);
	expect(m, "<kernel> /sbin/init", "/etc/rc2.d/S01apache2",
	       "<kernel> /sbin/init /etc/init.d/apache2", HM_TRANSIT_CHILD);
	hm_model_free(m);
}

static void test_alias_21(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_rename_rule alias = { .is_alias = true };
	const struct hm_name *cand;
	enum hm_transit type;
	char *next;

	(void)state;
	m->dialect = HM_DIALECT_21;	/* 2007: domains named by realpath */
	assert_int_equal(hm_transition_compute(m, N(m, "<kernel>"),
					       N(m, "/bin/sh"),
					       N(m, "/bin/dash"), &cand, &next,
					       &type), 0);
	assert_string_equal(next, "<kernel> /bin/dash");
	free(next);
	alias.original = N(m, "/bin/dash");
	alias.renamed = N(m, "/bin/sh");
	hm_model_add_rename(m, &alias);
	assert_int_equal(hm_transition_compute(m, N(m, "<kernel>"),
					       N(m, "/bin/sh"),
					       N(m, "/bin/dash"), &cand, &next,
					       &type), 0);
	assert_string_equal(next, "<kernel> /bin/sh");
	free(next);
	hm_model_free(m);
}

static struct hm_task task(int64_t pid, int64_t ppid, const char *exe)
{
	return (struct hm_task){ .pid = pid, .ppid = ppid, .exe = exe,
				 .exe_len = exe ? strlen(exe) : 0 };
}

static const char *cur(struct hm_tracker *t, int64_t pid, int64_t ppid,
		       const char *exe)
{
	struct hm_task tk = task(pid, ppid, exe);
	struct hm_proc_view v;

	assert_int_equal(hm_tracker_current(t, &tk, &v), 0);
	return v.name->str;
}

static struct hm_exec_result do_exec(struct hm_model *m, struct hm_tracker *t,
				     int64_t pid, int64_t ppid,
				     const char *prog)
{
	struct hm_task tk = task(pid, ppid, prog);
	struct hm_exec_result res;

	assert_int_equal(hm_tracker_exec(t, &tk, N(m, prog), N(m, prog), &res), 0);
	return res;
}

static void test_unobserved_and_chains(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	struct hm_exec_result res;
	struct hm_tracker_stats st;

	(void)state;
	/* A process whose start we never saw: <kernel> EXE, flagged. */
	assert_string_equal(cur(t, 100, 1, "/usr/sbin/cron"),
			    "<kernel> /usr/sbin/cron");
	assert_true(hm_model_find_domain(m, N(m, "<kernel> /usr/sbin/cron"))
			    ->flags & HM_DOMAIN_HISTORY_UNOBSERVED);
	/* Its forked child acts in the same domain until it execs. */
	assert_string_equal(cur(t, 101, 100, "/usr/sbin/cron"),
			    "<kernel> /usr/sbin/cron");
	/* Its exec starts <kernel> PROG; the execute belongs to the domain
	 * it ran in, <kernel> EXE (strict enforcing judges it there). */
	res = do_exec(m, t, 101, 100, "/bin/sh");
	assert_false(res.parent_observed);
	assert_true(res.parent_known);
	assert_string_equal(res.parent.name->str, "<kernel> /usr/sbin/cron");
	assert_non_null(res.parent.domain);
	assert_int_equal(res.type, HM_TRANSIT_UNOBSERVED);
	assert_string_equal(res.now.name->str, "<kernel> /bin/sh");
	assert_true(res.now.domain->flags & HM_DOMAIN_PARENT_UNOBSERVED);
	/* From there the chain is observed and grows. */
	assert_string_equal(cur(t, 102, 101, "/bin/sh"), "<kernel> /bin/sh");
	res = do_exec(m, t, 102, 101, "/usr/bin/run-parts");
	assert_true(res.parent_observed);
	assert_string_equal(res.parent.name->str, "<kernel> /bin/sh");
	assert_string_equal(res.now.name->str,
			    "<kernel> /bin/sh /usr/bin/run-parts");
	assert_ptr_equal(res.now.domain->parent,
			 hm_model_find_domain(m, N(m, "<kernel> /bin/sh")));
	/* The parent (100) still acts in its own domain. */
	assert_string_equal(cur(t, 100, 1, "/usr/sbin/cron"),
			    "<kernel> /usr/sbin/cron");
	/* A child first seen running another program than its parent
	 * (it executed before we looked) is of unobserved history. */
	assert_string_equal(cur(t, 103, 100, "/usr/bin/bash"),
			    "<kernel> /usr/bin/bash");
	/* First seen at its exec, parent unknown: exe= is the new program,
	 * so the domain it ran the exec in is not known. */
	res = do_exec(m, t, 201, 200, "/bin/ls");
	assert_false(res.parent_observed);
	assert_false(res.parent_known);
	assert_null(hm_model_find_domain(m, N(m, "<kernel> /bin/ls"))->acl);
	/* ... until its parent's fork record names it (once: a second
	 * fork record of its pid is a new process, test_fork_again) */
	{
		struct hm_late_exec late;

		assert_string_equal(cur(t, 200, 1, "/usr/bin/make"),
				    "<kernel> /usr/bin/make");
		assert_int_equal(hm_tracker_fork_late(t, 201, 200, &late), 1);
		assert_string_equal(late.parent.name->str,
				    "<kernel> /usr/bin/make");
		assert_non_null(late.parent.domain);
		assert_string_equal(late.program->str, "/bin/ls");
		assert_string_equal(late.realpath->str, "/bin/ls");
		assert_string_equal(cur(t, 201, 200, "/bin/ls"),
				    "<kernel> /bin/ls");
	}
	hm_tracker_stats(t, &st);
	assert_int_equal(st.unobserved, 4);
	assert_int_equal(st.execs, 3);
	hm_tracker_free(t);
	hm_model_free(m);
}

static void test_reuse_and_reparent(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	struct hm_tracker_stats st;

	(void)state;
	do_exec(m, t, 10, 0, "/sbin/init");	/* observed from here */
	do_exec(m, t, 20, 10, "/usr/sbin/daemon");
	assert_string_equal(cur(t, 20, 10, "/usr/sbin/daemon"),
			    "<kernel> /sbin/init /usr/sbin/daemon");
	/* Parent died: ppid 1, same exe: the same process. */
	assert_string_equal(cur(t, 20, 1, "/usr/sbin/daemon"),
			    "<kernel> /sbin/init /usr/sbin/daemon");
	/* Same pid, other parent: a new process (pid reuse). */
	cur(t, 30, 1, "/usr/bin/other");
	assert_string_equal(cur(t, 20, 30, "/usr/bin/other"),
			    "<kernel> /usr/bin/other");
	/* An exe that changed with no exec seen: the same process, in its
	 * own domain (test_exe_changed) */
	assert_string_equal(cur(t, 20, 30, "/usr/bin/third"),
			    "<kernel> /usr/bin/other");
	hm_tracker_stats(t, &st);
	assert_int_equal(st.reparented, 1);
	assert_int_equal(st.pid_reuse, 1);
	assert_int_equal(st.exe_changed, 1);
	hm_tracker_free(t);
	hm_model_free(m);
}

static struct hm_exec_result exec_ses(struct hm_model *m,
				      struct hm_tracker *t, int64_t pid,
				      int64_t ppid, const char *prog,
				      uint32_t ses)
{
	struct hm_task tk = task(pid, ppid, prog);
	struct hm_exec_result res;

	tk.ses = ses;
	tk.has_ses = true;
	assert_int_equal(hm_tracker_exec(t, &tk, N(m, prog), N(m, prog), &res), 0);
	return res;
}

/*
 * A daemon forks, the parent exits, the child (now a child of init or of
 * a subreaper) execs: the exec record shows the new ppid and the new
 * program as exe, and the child keeps its domain.  A process of another
 * audit session under the same pid is a reused pid.
 */
static void test_daemonise(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	struct hm_exec_result res;
	struct hm_tracker_stats st;

	(void)state;
	exec_ses(m, t, 10, 0, "/sbin/init", 7);
	exec_ses(m, t, 20, 10, "/usr/bin/starter", 7);
	assert_int_equal(hm_tracker_fork(t, 21, 20), 0);
	/* the parent is gone: init execs nothing, the child execs */
	res = exec_ses(m, t, 21, 1, "/usr/sbin/daemon", 7);
	assert_true(res.parent_observed);
	assert_string_equal(res.now.name->str,
			    "<kernel> /sbin/init /usr/bin/starter "
			    "/usr/sbin/daemon");
	/* reparented to a subreaper (an ancestor of its parent) */
	exec_ses(m, t, 30, 10, "/usr/bin/reaper", 7);
	exec_ses(m, t, 31, 30, "/usr/bin/starter", 7);
	assert_int_equal(hm_tracker_fork(t, 32, 31), 0);
	res = exec_ses(m, t, 32, 30, "/usr/sbin/daemon", 7);
	assert_string_equal(res.now.name->str,
			    "<kernel> /sbin/init /usr/bin/reaper "
			    "/usr/bin/starter /usr/sbin/daemon");
	/* the same pid in another session: a new process */
	assert_int_equal(hm_tracker_fork(t, 22, 20), 0);
	res = exec_ses(m, t, 22, 1, "/usr/sbin/daemon", 8);
	assert_false(res.parent_observed);
	assert_string_equal(res.now.name->str, "<kernel> /usr/sbin/daemon");
	/* not an ancestor: pid reuse */
	assert_int_equal(hm_tracker_fork(t, 23, 20), 0);
	res = exec_ses(m, t, 23, 99, "/usr/sbin/daemon", 7);
	assert_false(res.parent_observed);
	hm_tracker_stats(t, &st);
	assert_int_equal(st.reparented, 2);
	assert_int_equal(st.pid_reuse, 2);
	hm_tracker_free(t);
	hm_model_free(m);
}

/*
 * A process whose exe changed without an exec (prctl(PR_SET_MM_MAP) in
 * a user namespace sets an audit record's exe= to any file it may
 * execute) keeps its domain, flagged; only an exe the enforcer believes
 * tells a missed exec.  Each case: pid @pid with ppid @ppid runs
 * /usr/sbin/service, after init (10, observed) executed /usr/bin/shell
 * as pid 20 and pid 30 was met running /usr/bin/old (unobserved).
 */
static const struct exe_case {
	const char *what;
	int64_t pid, ppid;
	bool believed;
	const char *want;
	bool flagged;
} exe_cases[] = {
	{ "known, its exe set", 20, 10, false,
	  "<kernel> /sbin/init /usr/bin/shell", true },
	{ "known, a missed exec", 20, 10, true,
	  "<kernel> /usr/sbin/service", false },
	{ "reparented, its exe set", 20, 1, false,
	  "<kernel> /sbin/init /usr/bin/shell", true },
	{ "reparented, another process", 20, 1, true,
	  "<kernel> /usr/sbin/service", false },
	{ "new child of a process seen start", 21, 20, false,
	  "<kernel> /sbin/init /usr/bin/shell", true },
	{ "new child, a missed exec", 21, 20, true,
	  "<kernel> /usr/sbin/service", false },
	{ "new child of one older than the trail", 31, 30, false,
	  "<kernel> /usr/sbin/service", false },
};

static void test_exe_changed(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(exe_cases); i++) {
		const struct exe_case *c = &exe_cases[i];
		struct hm_model *m = hm_model_new();
		struct hm_tracker *t = hm_tracker_new(m, true, 0);
		struct hm_task tk = task(c->pid, c->ppid, "/usr/sbin/service");
		struct hm_tracker_stats st;
		struct hm_proc_view v;

		print_message("%s\n", c->what);
		do_exec(m, t, 10, 0, "/sbin/init");
		do_exec(m, t, 20, 10, "/usr/bin/shell");
		cur(t, 30, 1, "/usr/bin/old");
		tk.exe_believed = c->believed;
		assert_int_equal(hm_tracker_current(t, &tk, &v), 0);
		assert_string_equal(v.name->str, c->want);
		assert_int_equal(!!(v.flags & HM_PROC_EXE_CHANGED), c->flagged);
		/* counted once per change */
		assert_int_equal(hm_tracker_current(t, &tk, &v), 0);
		hm_tracker_stats(t, &st);
		assert_int_equal(st.exe_changed, c->flagged);
		hm_tracker_free(t);
		hm_model_free(m);
	}
}

/*
 * The flag goes with the process: its children inherit it, its exec
 * clears it and starts from the domain it kept.  A fork record of a
 * child first met by its own calls (a vfork child, whose parent's clone
 * record comes once it exits) keeps it; a second one is a new process.
 */
static void test_fork_again(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	struct hm_exec_result res;
	struct hm_proc_view v;

	(void)state;
	do_exec(m, t, 10, 0, "/sbin/init");
	do_exec(m, t, 20, 10, "/usr/bin/shell");
	/* vfork child, its exe set before its first audited call */
	assert_string_equal(cur(t, 21, 20, "/usr/sbin/service"),
			    "<kernel> /sbin/init /usr/bin/shell");
	assert_int_equal(hm_tracker_fork(t, 21, 20), 0);
	assert_true(hm_tracker_lookup(t, 21, &v));
	assert_true(v.flags & HM_PROC_EXE_CHANGED);
	assert_int_equal(hm_tracker_fork(t, 22, 21), 0);
	assert_true(hm_tracker_lookup(t, 22, &v));
	assert_true(v.flags & HM_PROC_EXE_CHANGED);
	res = do_exec(m, t, 21, 20, "/usr/bin/cat");
	assert_string_equal(res.now.name->str,
			    "<kernel> /sbin/init /usr/bin/shell /usr/bin/cat");
	assert_false(res.now.flags & HM_PROC_EXE_CHANGED);
	/* pid 21 again: the shell's new child, in its domain */
	assert_int_equal(hm_tracker_fork(t, 21, 20), 0);
	assert_string_equal(cur(t, 21, 20, "/usr/bin/shell"),
			    "<kernel> /sbin/init /usr/bin/shell");
	assert_true(hm_tracker_lookup(t, 21, &v));
	assert_false(v.flags & HM_PROC_EXE_CHANGED);
	hm_tracker_free(t);
	hm_model_free(m);
}

/* (node, pid) keys: the same pid on two hosts is two processes. */
static void test_nodes(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	struct hm_proc_view v;

	(void)state;
	assert_int_equal(hm_tracker_set_node(t, "web1", 4), 0);
	do_exec(m, t, 10, 0, "/sbin/init");
	do_exec(m, t, 20, 10, "/usr/bin/a");
	assert_int_equal(hm_tracker_set_node(t, "web2", 4), 0);
	assert_false(hm_tracker_lookup(t, 20, &v));
	do_exec(m, t, 10, 0, "/sbin/init");
	do_exec(m, t, 20, 10, "/usr/bin/b");
	assert_true(hm_tracker_lookup(t, 20, &v));
	assert_string_equal(v.name->str, "<kernel> /sbin/init /usr/bin/b");
	assert_int_equal(hm_tracker_set_node(t, "web1", 4), 0);
	assert_true(hm_tracker_lookup(t, 20, &v));
	assert_string_equal(v.name->str, "<kernel> /sbin/init /usr/bin/a");
	/* no node is a host of its own */
	assert_int_equal(hm_tracker_set_node(t, NULL, 0), 0);
	assert_false(hm_tracker_lookup(t, 20, &v));
	/* a pid past 32 bits shares a key with pid 20; both are kept apart */
	cur(t, 20, 1, "/usr/bin/c");
	cur(t, 20 + (INT64_C(1) << 32), 1, "/usr/bin/d");
	assert_string_equal(cur(t, 20, 1, "/usr/bin/c"), "<kernel> /usr/bin/c");
	hm_tracker_free(t);
	hm_model_free(m);
}

static void test_cap_and_state(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 4);
	struct hm_tracker *u;
	struct hm_tracker_stats st;
	struct hm_proc_view v;
	struct hm_diag d = { 0 };
	char path[] = "/tmp/hm-tracker-XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	cur(t, 1, 0, "/sbin/init");
	for (int pid = 2; pid < 10; pid++)
		do_exec(m, t, pid, 1, "/bin/true");
	hm_tracker_stats(t, &st);
	assert_int_equal(st.procs, 4);
	assert_int_equal(st.evictions, 5);
	assert_int_equal(hm_tracker_save(t, path), 0);
	u = hm_tracker_new(m, false, 0);
	assert_int_equal(hm_tracker_load(u, path, &d, NULL, NULL), 4);
	assert_true(hm_tracker_lookup(u, 9, &v));
	assert_string_equal(v.name->str, "<kernel> /bin/true");
	assert_false(hm_tracker_lookup(u, 2, &v));
	/* A malformed line is reported with its number; the rest loads. */
	f = fopen(path, "a");
	fputs("garbage\n", f);
	fclose(f);
	hm_tracker_free(u);
	u = hm_tracker_new(m, false, 0);
	assert_int_equal(hm_tracker_load(u, path, &d, NULL, NULL), 4);
	assert_int_equal(d.n_errors, 1);
	assert_int_equal(d.msgs[0].line, 6);
	hm_diag_free(&d);
	hm_tracker_free(u);
	hm_tracker_free(t);
	hm_model_free(m);
	unlink(path);
}

static void test_not_creating(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, false, 0);
	struct hm_task tk = task(5, 1, "/bin/x");
	struct hm_proc_view v;

	(void)state;
	assert_int_equal(hm_tracker_current(t, &tk, &v), 0);
	assert_null(v.domain);
	assert_string_equal(v.name->str, "<kernel> /bin/x");
	assert_int_equal(m->n_domains, 0);
	assert_int_equal(hm_tracker_fork(t, 6, 5), 0);
	assert_true(hm_tracker_lookup(t, 6, &v));
	assert_string_equal(v.name->str, "<kernel> /bin/x");
	assert_int_equal(hm_tracker_fork(t, 8, 7), -ENOENT);
	hm_tracker_exit(t, 6);
	assert_false(hm_tracker_lookup(t, 6, &v));
	hm_tracker_free(t);
	hm_model_free(m);
}

/* Damaged records (found by fuzz_collector): a pid that is its own
 * parent, and a fork whose parent the cap evicts. */
static void test_damaged(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 1);
	struct hm_proc_view v;

	(void)state;
	assert_string_equal(cur(t, 7, 7, "/bin/x"), "<kernel> /bin/x");
	assert_int_equal(hm_tracker_fork(t, 7, 7), -ENOENT);
	/* cap 1: adding the child evicts the parent it copies from */
	assert_int_equal(hm_tracker_fork(t, 8, 7), 0);
	assert_true(hm_tracker_lookup(t, 8, &v));
	assert_string_equal(v.name->str, "<kernel> /bin/x");
	assert_false(hm_tracker_lookup(t, 7, &v));
	hm_tracker_free(t);
	hm_model_free(m);
}

/*
 * PID 1 of unobserved history running what /sbin/init leads to is in
 * the domain TOMOYO gave it at the kernel's exec of /sbin/init:
 * "<kernel> /usr/sbin/init" on a merged-/usr system, not "<kernel>
 * /usr/lib/systemd/systemd".  Other processes keep "<kernel> EXE".
 */
static void test_init_name(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_tracker *t = hm_tracker_new(m, true, 0);
	char real[PATH_MAX], dir[PATH_MAX], want[PATH_MAX + 32];
	const char *name;

	(void)state;
	assert_int_equal(hm_tracker_program_of(2, "/usr/bin/x", 10, &name), 10);
	assert_string_equal(name, "/usr/bin/x");
	if (!realpath("/sbin/init", real) || !realpath("/sbin", dir)) {
		hm_tracker_free(t);
		hm_model_free(m);
		skip();
	}
	snprintf(want, sizeof(want), "<kernel> %s/init", dir);
	assert_string_equal(cur(t, 1, 0, real), want);
	snprintf(want, sizeof(want), "<kernel> %s", real);
	assert_string_equal(cur(t, 7, 0, real), want);
	hm_tracker_free(t);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_transitions),
		cmocka_unit_test(test_alias_21),
		cmocka_unit_test(test_unobserved_and_chains),
		cmocka_unit_test(test_reuse_and_reparent),
		cmocka_unit_test(test_daemonise),
		cmocka_unit_test(test_exe_changed),
		cmocka_unit_test(test_fork_again),
		cmocka_unit_test(test_nodes),
		cmocka_unit_test(test_cap_and_state),
		cmocka_unit_test(test_not_creating),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_init_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
