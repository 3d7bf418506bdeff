// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scan.c - every running process placed at start (of unobserved
 * history unless --state knew it) and on a resync after the proc
 * connector lost messages (the table made to match /proc).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "procs_private.h"
#include "histmac/word.h"
#include "histmac/procfs.h"

/* --------------------------------------------------------------- scan */

/*
 * Say at start what ptrace-like access is not judged: a traced process
 * is (hm_procs_where()), but process_vm_writev(2), /proc/PID/mem and
 * pidfd_getfd(2) reach another process without an event; Yama's
 * ptrace_scope >= 1 limits all of them to descendants (docs/SECURITY.md).
 */
static void note_yama(const struct hm_procs *p)
{
	char buf[16];
	ssize_t n = hm_procfs_read("/proc/sys/kernel/yama/ptrace_scope", buf,
				   sizeof(buf));

	if (n > 0 && atoi(buf) >= 1)
		return;
	hm_procs_log(p, "%s: process_vm_writev, /proc/PID/mem and pidfd_getfd "
		     "by a process of the same uid are not judged "
		     "(docs/SECURITY.md)",
		     n > 0 ? "Yama ptrace_scope is 0" : "no Yama");
}

struct live {
	int32_t pid;
	int64_t ppid;
	uint64_t start;
	long exe_len;
	char *exe;
};

static int cmp_start(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_pid(const void *a, const void *b)
{
	const struct live *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int list_live(struct hm_procs *p, struct live **out, size_t *n_out)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	struct live *v = NULL;
	size_t n = 0, cap = 0;
	struct hm_exe *e = malloc(sizeof(*e));

	*out = NULL;
	*n_out = 0;
	if (!d || !e) {
		int r = d ? -ENOMEM : -errno;

		if (d)
			closedir(d);
		free(e);
		return r;
	}
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		struct live l = { 0 };

		if (*end || pid <= 0)
			continue;
		l.pid = (int32_t)pid;
		if (hm_procs_stat(l.pid, &l.ppid, &l.start))
			continue;	/* gone meanwhile */
		l.exe_len = hm_procs_read_exe(p, l.pid, true, e);
		if (l.exe_len == -EPERM)
			hm_procs_log_unbelieved(p, l.pid, e, "ignored");
		if (!l.exe_len)
			l.exe_len = e->len;
		if (l.exe_len > 0 &&
		    !(l.exe = strndup(e->name, (size_t)l.exe_len)))
			goto nomem;
		hm_procs_check_traced(p, l.pid, false);
		if (n == cap) {
			struct live *nv;

			cap = cap ? cap * 2 : 512;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(l.exe);
				goto nomem;
			}
			v = nv;
		}
		v[n++] = l;
	}
	closedir(d);
	free(e);
	*out = v;
	*n_out = n;
	return 0;
nomem:
	closedir(d);
	free(e);
	for (size_t i = 0; i < n; i++)
		free(v[i].exe);
	free(v);
	return -ENOMEM;
}

struct gone_ctx {
	const struct live *live;
	size_t n;
	int32_t *gone;
	size_t n_gone;
	size_t cap;
};

static void collect_gone(int64_t pid, const struct hm_proc_view *v, void *arg)
{
	struct gone_ctx *g = arg;
	struct live key = { .pid = (int32_t)pid };

	(void)v;
	if (bsearch(&key, g->live, g->n, sizeof(*g->live), cmp_pid))
		return;
	if (g->n_gone == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		int32_t *n = realloc(g->gone, cap * sizeof(*n));

		if (!n)
			return;	/* they will age out of the LRU */
		g->gone = n;
		g->cap = cap;
	}
	g->gone[g->n_gone++] = (int32_t)pid;
}

static const struct live *find_live(const struct live *v, size_t n,
				    int64_t pid)
{
	struct live key = { .pid = (int32_t)pid };

	return bsearch(&key, v, n, sizeof(*v), cmp_pid);
}

/*
 * One live process during a resync: a known one goes through the
 * tracker's own checks (pid reuse by ppid, an exec we missed by exe);
 * an unknown one forked while we were deaf is its parent's if it runs the
 * same program, else of unobserved history.
 */
static int resync_one(struct hm_procs *p, const struct live *l,
		      const struct live *by_pid, size_t n)
{
	struct hm_proc_view v;
	/* list_live() keeps only a believed exe */
	struct hm_task task = { .pid = l->pid, .ppid = l->ppid,
				.exe = l->exe, .exe_len = l->exe ?
					(size_t)l->exe_len : 0,
				.exe_believed = true, .sec = time(NULL) };
	const struct live *parent;

	if (hm_tracker_lookup(p->t, l->pid, &v))
		return hm_tracker_current(p->t, &task, &v);
	parent = find_live(by_pid, n, l->ppid);
	if (parent && hm_tracker_lookup(p->t, l->ppid, &v) &&
	    parent->exe_len == l->exe_len && l->exe &&
	    !memcmp(parent->exe, l->exe, (size_t)l->exe_len))
		return hm_tracker_fork(p->t, l->pid, l->ppid);
	return hm_procs_set_unobserved(p, l->pid, l->ppid, l->exe, l->exe_len);
}

/**
 * hm_procs_scan() - place every running process: at start, those not in
 * the table are of unobserved history; on a resync, the table is made to
 * match /proc (gone ones leave, new ones join their parent or are of
 * unobserved history).
 * @p: the keeper.
 * @resync: a resync after lost messages, not the start.
 * Returns: 0, -ENOMEM, or -errno reading /proc.
 */
int hm_procs_scan(struct hm_procs *p, bool resync)
{
	struct live *v;
	struct live *by_pid;
	size_t n;
	int r = list_live(p, &v, &n);

	if (!resync)
		note_yama(p);
	if (r)
		return r;
	by_pid = malloc((n ? n : 1) * sizeof(*by_pid));
	if (!by_pid) {
		r = -ENOMEM;
		goto out;
	}
	memcpy(by_pid, v, n * sizeof(*v));
	qsort(by_pid, n, sizeof(*by_pid), cmp_pid);
	qsort(v, n, sizeof(*v), cmp_start);	/* parents first */
	if (resync) {
		struct gone_ctx g = { .live = by_pid, .n = n };

		hm_tracker_foreach(p->t, collect_gone, &g);
		for (size_t i = 0; i < g.n_gone; i++) {
			hm_tracker_exit(p->t, g.gone[i]);
			hm_execs_drop(&p->x, g.gone[i]);
		}
		free(g.gone);
	}
	for (size_t i = 0; !r && i < n; i++) {
		struct hm_proc_view pv;

		if (resync)
			r = resync_one(p, &v[i], by_pid, n);
		else if (!hm_tracker_lookup(p->t, v[i].pid, &pv))
			r = hm_procs_set_unobserved(p, v[i].pid, v[i].ppid,
						    v[i].exe, v[i].exe_len);
	}
	free(by_pid);
out:
	for (size_t i = 0; i < n; i++)
		free(v[i].exe);
	free(v);
	return r;
}

/* --state: keep a process only if it still runs with that ppid and exe
 * (believed: hm_procs_read_exe()). */
static bool still_runs(int64_t pid, int64_t ppid, const char *exe,
		       int64_t sec, void *arg)
{
	struct hm_procs *p = arg;
	struct hm_exe *e;
	int64_t real_ppid;
	bool same;
	int r;

	(void)sec;
	if (pid <= 0 || pid > INT32_MAX ||
	    hm_procs_stat((int32_t)pid, &real_ppid, NULL) ||
	    real_ppid != ppid ||
	    !(e = malloc(sizeof(*e))))
		return false;
	r = hm_procs_read_exe(p, (int32_t)pid, true, e);
	if (r == -EPERM)
		hm_procs_log_unbelieved(p, (int32_t)pid, e, "not imported");
	if (!exe)
		same = r == -ESRCH;
	else
		same = !r && e->len == (long)strlen(exe) &&
		       !memcmp(e->name, exe, (size_t)e->len);
	free(e);
	return same;
}

/**
 * hm_procs_import() - take the learner's process table (--state): the
 * processes in it that still run as it says keep their domains.
 * @p: the keeper.
 * @state: the state file.
 * Returns: how many were imported, or -errno.
 */
int hm_procs_import(struct hm_procs *p, const char *state)
{
	struct hm_diag d = { 0 };
	int r = hm_tracker_load(p->t, state, &d, still_runs, p);

	for (size_t i = 0; i < d.n_msgs; i++) {
		char *s = hm_diag_format(&d.msgs[i]);

		hm_procs_log(p, "%s", s ? s : "(out of memory)");
		free(s);
	}
	hm_diag_free(&d);
	return r;
}
