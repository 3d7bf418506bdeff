// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_learn.c - walker, learner and checker on hand-built events (the
 * collector's own tests cover turning real audit records into events):
 * which entry each event kind learns, in which domain; generalization;
 * the quota; learn-then-check is clean; new accesses are violations.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "histmac/learn.h"
#include "histmac/policy_io.h"

#define B(s) ((struct hm_bytes){ (s), sizeof(s) - 1 })

struct ev {
	struct hm_event e;
	struct hm_ev_path paths[3];
};

static struct ev base(enum hm_event_kind kind, int64_t pid, int64_t ppid,
		      const char *exe)
{
	struct ev v = { 0 };

	v.e.kind = kind;
	v.e.has_syscall = true;
	v.e.success = true;
	v.e.pid = pid;
	v.e.ppid = ppid;
	v.e.exe = (struct hm_bytes){ exe, strlen(exe) };
	v.e.sec = 1700000000;
	v.e.fd = -1;
	return v;
}

static void path(struct ev *v, unsigned i, const char *p, uint32_t mode)
{
	v->paths[i].path = (struct hm_bytes){ p, strlen(p) };
	v->paths[i].mode = mode;
	v->e.paths = v->paths;
	if (v->e.n_paths < i + 1)
		v->e.n_paths = i + 1;
}

static struct ev exec_ev(int64_t pid, int64_t ppid, const char *prog,
			 const char *interp)
{
	struct ev v = base(HM_EV_EXEC, pid, ppid, interp ? interp : prog);

	path(&v, 0, prog, S_IFREG | 0755);
	if (interp) {
		path(&v, 1, interp, S_IFREG | 0755);
		path(&v, 2, "/lib64/ld-linux-x86-64.so.2", S_IFREG | 0755);
	} else {
		path(&v, 1, "/lib64/ld-linux-x86-64.so.2", S_IFREG | 0755);
	}
	return v;
}

static struct ev open_ev(int64_t pid, int64_t ppid, const char *exe,
			 const char *p, uint32_t flags, bool created)
{
	struct ev v = base(HM_EV_OPEN, pid, ppid, exe);

	path(&v, 0, p, S_IFREG | 0644);
	v.e.open_flags = flags;
	v.e.has_open_flags = true;
	v.e.created = created;
	v.e.mode = 0644;
	return v;
}

static struct ev net_ev(enum hm_event_kind kind, int64_t pid, int64_t ppid,
			const char *exe, int type, uint8_t a, uint16_t port)
{
	struct ev v = base(kind, pid, ppid, exe);

	v.e.sock_type = type;
	v.e.sa.family = AF_INET;
	v.e.sa.addr[0] = 127;
	v.e.sa.addr[3] = a;
	v.e.sa.port = port;
	return v;
}

static const struct hm_name *N(struct hm_model *m, const char *s)
{
	const struct hm_name *n;

	assert_int_equal(hm_model_intern(m, s, strlen(s), &n), 0);
	return n;
}

static struct hm_domain *dom(struct hm_model *m, const char *name)
{
	struct hm_domain *d = hm_model_find_domain(m, N(m, name));

	assert_non_null(d);
	return d;
}

/* Does @d hold a path entry with exactly bit @op on @p? */
static bool has_path(struct hm_model *m, const char *d, unsigned op,
		     const char *p)
{
	for (const struct hm_acl_head *e = dom(m, d)->acl; e; e = e->next) {
		const struct hm_acl_path *x = (const void *)e;

		if (e->kind == HM_ACL_PATH && (e->perm & (1u << op)) &&
		    x->name.name && !strcmp(x->name.name->str, p))
			return true;
	}
	return false;
}

static bool has_number(struct hm_model *m, const char *d, unsigned op,
		       const char *p, uint64_t num)
{
	for (const struct hm_acl_head *e = dom(m, d)->acl; e; e = e->next) {
		const struct hm_acl_path_number *x = (const void *)e;

		if (e->kind == HM_ACL_PATH_NUMBER && (e->perm & (1u << op)) &&
		    !strcmp(x->name.name->str, p) && x->number.min == num)
			return true;
	}
	return false;
}

static const struct hm_acl_inet *find_inet(struct hm_model *m, const char *d,
					   unsigned op)
{
	for (const struct hm_acl_head *e = dom(m, d)->acl; e; e = e->next)
		if (e->kind == HM_ACL_INET && (e->perm & (1u << op)))
			return (const void *)e;
	return NULL;
}

#define HTTPD "<kernel> /sbin/init /etc/init.d/apache2 /usr/sbin/apache2"
#define INIT "<kernel> /sbin/init"
#define RC INIT " /etc/init.d/apache2"

/* The apache2 start from the 2007 posting, as events. */
static size_t scenario(struct ev *v)
{
	size_t n = 0;

	v[n++] = exec_ev(1, 0, "/sbin/init", NULL);
	v[n++] = exec_ev(200, 1, "/etc/init.d/apache2", "/bin/dash");
	v[n++] = exec_ev(201, 200, "/usr/sbin/apache2", NULL);
	v[n++] = open_ev(201, 200, "/usr/sbin/apache2",
			 "/etc/apache2/apache2.conf", O_RDONLY, false);
	v[n++] = open_ev(201, 200, "/usr/sbin/apache2", "/run/apache2.pid",
			 O_WRONLY | O_CREAT | O_TRUNC, true);
	v[n++] = open_ev(201, 200, "/usr/sbin/apache2", "/var/log/apache2/a.log",
			 O_WRONLY | O_APPEND | O_CREAT, false);
	v[n++] = open_ev(201, 200, "/usr/sbin/apache2", "proc:/4242/stat",
			 O_RDONLY, false);
	v[n++] = net_ev(HM_EV_BIND, 201, 200, "/usr/sbin/apache2", SOCK_STREAM,
			1, 80);
	v[n++] = net_ev(HM_EV_LISTEN, 201, 200, "/usr/sbin/apache2",
			SOCK_STREAM, 1, 80);
	v[n++] = net_ev(HM_EV_ACCEPT, 201, 200, "/usr/sbin/apache2",
			SOCK_STREAM, 1, 45678);
	/* bind() of a path unix socket also creates its file: mksock */
	v[n] = net_ev(HM_EV_BIND, 201, 200, "/usr/sbin/apache2", SOCK_STREAM,
		      0, 0);
	v[n].e.sa.family = AF_UNIX;
	v[n].e.sa.unix_path = (struct hm_bytes){ "/run/apache2/cgisock", 20 };
	path(&v[n], 0, "/run/apache2/cgisock", S_IFSOCK | 0755);
	v[n++].paths[0].nametype = HM_NT_CREATE;
	v[n] = base(HM_EV_UNLINK, 201, 200, "/usr/sbin/apache2");
	path(&v[n++], 0, "/run/apache2.pid", S_IFREG | 0644);
	v[n] = base(HM_EV_MKNOD, 201, 200, "/usr/sbin/apache2");
	v[n].e.mode = S_IFIFO | 0600;
	path(&v[n++], 0, "/run/apache2/fifo", 0);
	v[n] = base(HM_EV_RENAME, 201, 200, "/usr/sbin/apache2");
	path(&v[n], 0, "/var/log/apache2/a.log", S_IFREG | 0644);
	path(&v[n++], 1, "/var/log/apache2/a.log.1", 0);
	v[n] = base(HM_EV_SIGNAL, 200, 1, "/bin/dash");
	v[n].e.sig = 15;
	v[n++].e.target_pid = 201;
	/* A directory opened for reading: read; "> /dev/null": no truncate */
	v[n] = open_ev(201, 200, "/usr/sbin/apache2", "/etc/apache2/",
		       O_RDONLY | O_DIRECTORY, false);
	v[n++].paths[0].mode = S_IFDIR | 0755;
	v[n] = open_ev(201, 200, "/usr/sbin/apache2", "/dev/null",
		       O_WRONLY | O_CREAT | O_TRUNC, false);
	v[n++].paths[0].mode = S_IFCHR | 0666;
	/* Not learned: a failed open, O_PATH. */
	v[n] = open_ev(201, 200, "/usr/sbin/apache2", "/etc/nothere", O_RDONLY,
		       false);
	v[n++].e.success = false;
	v[n++] = open_ev(201, 200, "/usr/sbin/apache2", "/etc/x", O_PATH,
			 false);
	for (size_t i = 0; i < n; i++) {
		v[i].e.paths = v[i].paths;	/* the array was copied */
		v[i].e.serial = i + 1;
	}
	return n;
}

static void test_learn_scenario(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_learn_stats st;
	struct ev v[32];
	size_t n = scenario(v);
	const struct hm_acl_inet *in;
	const struct hm_walk_stats *ws;

	(void)state;
	assert_int_equal(hm_learner_new(m, NULL, HM_PROFILE_LEARNING, NULL, &l), 0);
	for (size_t i = 0; i < n; i++)
		assert_true(hm_learner_event(l, &v[i].e) >= 0);
	/* domains: init is unobserved-parent; the chain grows from it */
	assert_true(dom(m, INIT)->flags & HM_DOMAIN_PARENT_UNOBSERVED);
	assert_true(has_path(m, INIT, HM_FILE_EXECUTE, "/etc/init.d/apache2"));
	assert_true(has_path(m, RC, HM_FILE_READ, "/bin/dash"));	/* interp */
	assert_true(has_path(m, RC, HM_FILE_EXECUTE, "/usr/sbin/apache2"));
	assert_true(has_path(m, HTTPD, HM_FILE_READ, "/etc/apache2/apache2.conf"));
	assert_true(has_number(m, HTTPD, HM_FILE_CREATE, "/run/apache2.pid", 0644));
	assert_true(has_path(m, HTTPD, HM_FILE_WRITE, "/run/apache2.pid"));
	assert_false(has_path(m, HTTPD, HM_FILE_TRUNCATE, "/run/apache2.pid"));
	/* an O_APPEND open: the write the enforcer asks, the append TOMOYO
	 * asks (append.h) */
	assert_true(has_path(m, HTTPD, HM_FILE_APPEND, "/var/log/apache2/a.log"));
	assert_true(has_path(m, HTTPD, HM_FILE_WRITE, "/var/log/apache2/a.log"));
	assert_false(has_path(m, HTTPD, HM_FILE_TRUNCATE, "/var/log/apache2/a.log"));
	assert_true(has_path(m, HTTPD, HM_FILE_READ, "proc:/\\$/stat"));
	assert_true(has_path(m, HTTPD, HM_FILE_UNLINK, "/run/apache2.pid"));
	assert_true(has_number(m, HTTPD, HM_FILE_MKFIFO, "/run/apache2/fifo", 0600));
	assert_true(has_number(m, HTTPD, HM_FILE_MKSOCK, "/run/apache2/cgisock",
			       0755));
	/* a directory opened for reading: TOMOYO's "file read DIR/" */
	assert_true(has_path(m, HTTPD, HM_FILE_READ, "/etc/apache2/"));
	assert_false(has_path(m, HTTPD, HM_FILE_READ, "/etc/apache2"));
	assert_true(has_path(m, HTTPD, HM_FILE_WRITE, "/dev/null"));
	assert_false(has_path(m, HTTPD, HM_FILE_TRUNCATE, "/dev/null"));
	assert_false(has_path(m, HTTPD, HM_FILE_READ, "/etc/nothere"));
	assert_false(has_path(m, HTTPD, HM_FILE_READ, "/etc/x"));
	in = find_inet(m, HTTPD, HM_NET_BIND);
	assert_non_null(in);
	assert_int_equal(in->port.min, 80);
	assert_true(in->head.perm & (1u << HM_NET_LISTEN));
	in = find_inet(m, HTTPD, HM_NET_ACCEPT);
	assert_non_null(in);
	assert_int_equal(in->port.min, 1024);	/* peer port generalized */
	assert_int_equal(in->port.max, 65535);
	/* the signal was learned in the sender's domain, to the target's */
	{
		const struct hm_acl_head *e = dom(m, RC)->acl;
		bool found = false;

		for (; e; e = e->next)
			if (e->kind == HM_ACL_SIGNAL)
				found = !strcmp(((const struct hm_acl_signal *)
							 (const void *)e)
							->domain->str, HTTPD);
		assert_true(found);
	}
	ws = hm_walker_stats(hm_learner_walker(l));
	assert_int_equal(ws->skipped[HM_WSKIP_FAILED], 1);
	assert_int_equal(ws->skipped[HM_WSKIP_NO_ACCESS_MODE], 1);
	hm_learner_stats(l, &st);
	assert_int_equal(st.domains_new, 3);	/* <kernel> made up front */
	hm_learner_free(l);
	/* learning the same log again (a new run) adds nothing */
	assert_int_equal(hm_learner_new(m, NULL, HM_PROFILE_LEARNING, NULL, &l), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(hm_learner_event(l, &v[i].e), 0);
	hm_learner_stats(l, &st);
	assert_int_equal(st.entries_new + st.perms_new + st.domains_new, 0);
	hm_learner_free(l);
	hm_model_free(m);
}

/* The path entry of @d on @p. */
static const struct hm_acl_head *path_entry(struct hm_model *m, const char *d,
					    const char *p)
{
	for (const struct hm_acl_head *e = dom(m, d)->acl; e; e = e->next) {
		const struct hm_acl_path *x = (const void *)e;

		if (e->kind == HM_ACL_PATH && x->name.name &&
		    !strcmp(x->name.name->str, p))
			return e;
	}
	fail_msg("no entry on %s in %s", p, d);
	return NULL;
}

/* What is learned after a save within its second is stamped with the
 * next second: the save counted its second's entries, by stamp, and
 * stats gives an entry to the first save at or after its stamp. */
static void test_stamp_after_save(void **state)
{
	const int64_t t = 1700000000;
	struct hm_model *m = hm_model_new();
	struct hm_save_rec save = { .time = t, .events = 2, .added = 2 };
	struct hm_learner *l;
	struct ev v[6];

	(void)state;
	v[0] = exec_ev(1, 0, "/sbin/init", NULL);
	v[1] = open_ev(1, 0, "/sbin/init", "/etc/a", O_RDONLY, false);
	v[2] = open_ev(1, 0, "/sbin/init", "/etc/b", O_RDONLY, false);
	v[3] = open_ev(1, 0, "/sbin/init", "/etc/a", O_WRONLY, false);
	v[4] = open_ev(1, 0, "/sbin/init", "/etc/c", O_RDONLY, false);
	v[4].e.sec = t + 5;
	v[5] = open_ev(1, 0, "/sbin/init", "/etc/old", O_RDONLY, false);
	v[5].e.sec = t - 100;	/* an older log's: its own second */
	assert_int_equal(hm_learner_new(m, NULL, HM_PROFILE_LEARNING, NULL, &l), 0);
	for (size_t i = 0; i < 6; i++) {
		v[i].e.paths = v[i].paths;
		v[i].e.serial = i + 1;
		if (i == 2)	/* the save, within second t */
			assert_int_equal(hm_model_add_save(m, &save), 0);
		assert_int_equal(hm_learner_event(l, &v[i].e) > 0, i > 0);
	}
	assert_int_equal(path_entry(m, INIT, "/etc/a")->hist.learned, t);
	assert_int_equal(path_entry(m, INIT, "/etc/a")->hist.grown, t + 1);
	assert_int_equal(path_entry(m, INIT, "/etc/b")->hist.learned, t + 1);
	assert_int_equal(path_entry(m, INIT, "/etc/c")->hist.learned, t + 5);
	assert_int_equal(path_entry(m, INIT, "/etc/old")->hist.learned, t - 100);
	hm_learner_free(l);
	hm_model_free(m);
}

static void test_check_after_learn(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_checker *c;
	struct ev v[32];
	size_t n = scenario(v);
	size_t nv;
	const struct hm_violation *const *vs;
	struct ev extra[4];

	(void)state;
	assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
	for (size_t i = 0; i < n; i++)
		hm_learner_event(l, &v[i].e);
	hm_learner_free(l);
	/* Same log, fresh process table: zero violations. */
	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(hm_checker_event(c, &v[i].e), 0);
	hm_checker_violations(c, &nv);
	assert_int_equal(nv, 0);
	/* Another pid and peer port for the same things: still clean. */
	extra[0] = open_ev(201, 200, "/usr/sbin/apache2", "proc:/777/stat",
			   O_RDONLY, false);
	extra[1] = net_ev(HM_EV_ACCEPT, 201, 200, "/usr/sbin/apache2",
			  SOCK_STREAM, 1, 51234);
	for (int i = 0; i < 2; i++) {
		extra[i].e.paths = extra[i].paths;
		assert_int_equal(hm_checker_event(c, &extra[i].e), 0);
	}
	/* The server reading /etc/shadow and connecting out are reported. */
	extra[2] = open_ev(201, 200, "/usr/sbin/apache2", "/etc/shadow",
			   O_RDONLY, false);
	extra[2].e.paths = extra[2].paths;
	extra[3] = net_ev(HM_EV_CONNECT, 201, 200, "/usr/sbin/apache2",
			  SOCK_STREAM, 9, 25);
	assert_int_equal(hm_checker_event(c, &extra[2].e), 1);
	assert_int_equal(hm_checker_event(c, &extra[2].e), 1);
	assert_int_equal(hm_checker_event(c, &extra[3].e), 1);
	vs = hm_checker_violations(c, &nv);
	assert_int_equal(nv, 2);
	assert_string_equal(vs[0]->domain->str, HTTPD);
	assert_int_equal(vs[0]->entry->kind, HM_ACL_PATH);
	assert_int_equal(vs[0]->count, 2);
	assert_false(vs[0]->no_domain);
	assert_int_equal(vs[1]->entry->kind, HM_ACL_INET);
	hm_checker_free(c);
	hm_model_free(m);
}

static void test_missing_domain_and_groups(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_checker *c;
	struct hm_domain *g0;
	struct hm_domain *k;
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_READ } };
	struct ev v[3];
	const struct hm_violation *const *vs;
	size_t nv;

	(void)state;
	assert_int_equal(hm_model_acl_group(m, 0, &g0), 0);
	e.name.name = N(m, "/etc/ld.so.cache");
	hm_domain_add(m, g0, &e.head, NULL);
	hm_model_domain(m, "<kernel>", 8, true, &k);
	k->groups[0] = 1;
	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	/* unobserved /usr/bin/x is not in the policy: a violation, except
	 * for what acl_group 0 allows everyone */
	v[0] = open_ev(300, 1, "/usr/bin/x", "/etc/ld.so.cache", O_RDONLY, false);
	v[1] = open_ev(300, 1, "/usr/bin/x", "/etc/hosts", O_RDONLY, false);
	for (int i = 0; i < 2; i++)
		v[i].e.paths = v[i].paths;
	assert_int_equal(hm_checker_event(c, &v[0].e), 0);
	assert_int_equal(hm_checker_event(c, &v[1].e), 1);
	vs = hm_checker_violations(c, &nv);
	assert_int_equal(nv, 1);
	assert_true(vs[0]->no_domain);
	assert_string_equal(vs[0]->domain->str, "<kernel> /usr/bin/x");
	hm_checker_free(c);
	hm_model_free(m);
}

static void test_quota_and_rewrite(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_learn_stats st;
	struct hm_diag d = { 0 };
	char buf[64];

	(void)state;
	m->max_learning_entry = 5;
	assert_int_equal(hm_model_add_rewrite(m, "^/tmp/tmp\\.[A-Za-z0-9]{6,}$",
					      "/tmp/tmp.\\*", 1), 1);
	assert_int_equal(hm_model_add_rewrite(m, "([", "x", 2), 1);
	assert_int_equal(hm_learner_new(m, NULL, 1, &d, &l), 0);
	assert_int_equal(d.n_errors, 1);	/* the bad regex, with its line */
	assert_int_equal(d.msgs[0].line, 2);
	for (int i = 0; i < 20; i++) {
		struct ev v;

		snprintf(buf, sizeof(buf), "/tmp/tmp.%06dAB", i);
		v = open_ev(5, 1, "/bin/app", buf, O_RDONLY, false);
		v.e.paths = v.paths;
		hm_learner_event(l, &v.e);
	}
	/* one entry for all the temp names */
	assert_true(has_path(m, "<kernel> /bin/app", HM_FILE_READ,
			     "/tmp/tmp.\\*"));
	assert_int_equal(dom(m, "<kernel> /bin/app")->n_acl, 1);
	for (int i = 0; i < 20; i++) {
		struct ev v;

		snprintf(buf, sizeof(buf), "/data/f%d", i);
		v = open_ev(5, 1, "/bin/app", buf, O_RDONLY, false);
		v.e.paths = v.paths;
		hm_learner_event(l, &v.e);
	}
	assert_int_equal(dom(m, "<kernel> /bin/app")->n_acl, 5);
	assert_true(dom(m, "<kernel> /bin/app")->flags &
		    HM_DOMAIN_QUOTA_EXCEEDED);
	hm_learner_stats(l, &st);
	assert_int_equal(st.quota_hits, 16);
	assert_int_equal(d.n_warnings, 1);	/* said once, not 16 times */
	hm_diag_free(&d);
	hm_learner_free(l);
	hm_model_free(m);
}

static void test_realpath_condition(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_checker *c;
	struct ev a = exec_ev(1, 0, "/sbin/init", NULL);
	struct ev b = exec_ev(2, 1, "/bin/sh", NULL);
	struct ev b2;
	const struct hm_acl_head *e;

	(void)state;
	b.e.exe = B("/usr/bin/dash");
	b2 = b;
	b2.e.exe = B("/usr/bin/bash");
	a.e.paths = a.paths;
	b.e.paths = b.paths;
	b2.e.paths = b2.paths;
	assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
	hm_learner_event(l, &a.e);
	hm_learner_event(l, &b.e);
	e = dom(m, INIT)->acl;
	assert_non_null(e);
	assert_non_null(e->cond);
	assert_string_equal(e->cond->text->str, "exec.realpath=\"/usr/bin/dash\"");
	hm_learner_free(l);
	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	assert_int_equal(hm_checker_event(c, &a.e), 0);
	assert_int_equal(hm_checker_event(c, &b.e), 0);
	/* /bin/sh now pointing elsewhere does not pass */
	assert_int_equal(hm_checker_event(c, &b2.e), 1);
	hm_checker_free(c);
	hm_model_free(m);
}

/* @line into domain @d of @m (created), as a policy file would have it. */
static void acl(struct hm_model *m, const char *d, const char *line)
{
	struct hm_domain *dm;

	assert_true(hm_model_domain(m, d, strlen(d), true, &dm) >= 0);
	assert_int_equal(hm_acl_parse_line(m, dm, line, strlen(line),
					   HM_DIALECT_26, "t", 1, NULL), 1);
}

/*
 * check evaluates what the trail holds: exec.argv from the EXECVE
 * record, path1.* from the PATH record; exec.envp is not in it, so an
 * entry that tests it never passes (nor does one whose PATH record has
 * no attributes).
 */
static void test_check_conditions(void **state)
{
	static const struct hm_bytes safe[] = { B("/bin/x"), B("--safe") };
	static const struct hm_bytes unsafe[] = { B("/bin/x"), B("--rm") };
	struct hm_model *m = hm_model_new();
	struct hm_checker *c;
	struct ev init = exec_ev(1, 0, "/sbin/init", NULL);
	struct ev x = exec_ev(2, 1, "/bin/x", NULL);
	struct ev y = exec_ev(3, 1, "/bin/y", NULL);
	struct ev rd = open_ev(1, 0, "/sbin/init", "/m/a", O_RDONLY, false);

	(void)state;
	acl(m, "<kernel>", "file execute /sbin/init");
	acl(m, INIT, "file execute /bin/x exec.argv[1]=\"--safe\"");
	acl(m, INIT, "file execute /bin/y exec.envp[\"LD_PRELOAD\"]=NULL");
	acl(m, INIT, "file read /m/a path1.uid=0");
	init.e.paths = init.paths;
	x.e.paths = x.paths;
	y.e.paths = y.paths;
	rd.e.paths = rd.paths;
	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	assert_int_equal(hm_checker_event(c, &init.e), 0);
	/* argv: from the record; none in it (truncated) fails */
	x.e.argv = safe;
	x.e.argc = 2;
	assert_int_equal(hm_checker_event(c, &x.e), 0);
	/* each exec by another child of init, so each in INIT */
	x.e.pid = 4;
	x.e.argv = unsafe;
	assert_int_equal(hm_checker_event(c, &x.e), 1);
	x.e.pid = 5;
	x.e.argv = safe;
	assert_int_equal(hm_checker_event(c, &x.e), 0);
	x.e.pid = 6;
	x.e.argv_truncated = true;
	assert_int_equal(hm_checker_event(c, &x.e), 1);
	/* envp: never in the trail */
	assert_int_equal(hm_checker_event(c, &y.e), 1);
	/* path1.uid: the PATH record's ouid */
	assert_int_equal(hm_checker_event(c, &rd.e), 1);	/* no inode */
	rd.paths[0].has_inode = true;
	rd.paths[0].nametype = HM_NT_NORMAL;
	assert_int_equal(hm_checker_event(c, &rd.e), 0);
	rd.paths[0].ouid = 65534;
	assert_int_equal(hm_checker_event(c, &rd.e), 1);
	hm_checker_free(c);
	hm_model_free(m);
}

/* --no-exec-realpath writes no exec.realpath, but an entry that has one
 * is still judged by the real path: nothing new is learned for it. */
static void test_no_realpath_judged(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learn_opts o;
	struct hm_learner *l;
	struct ev a = exec_ev(1, 0, "/sbin/init", NULL);
	struct ev b = exec_ev(2, 1, "/bin/sh", NULL);
	struct ev b2;

	(void)state;
	hm_learn_opts_default(&o);
	o.exec_realpath = false;
	acl(m, "<kernel>", "file execute /sbin/init");
	acl(m, INIT, "file execute /bin/sh exec.realpath=\"/usr/bin/dash\"");
	b.e.exe = B("/usr/bin/dash");
	b2 = b;
	b2.e.pid = 3;
	b2.e.exe = B("/usr/bin/bash");
	a.e.paths = a.paths;
	b.e.paths = b.paths;
	b2.e.paths = b2.paths;
	assert_int_equal(hm_learner_new(m, &o, 1, NULL, &l), 0);
	hm_learner_event(l, &a.e);
	hm_learner_event(l, &b.e);
	assert_int_equal(dom(m, INIT)->n_acl, 1);
	/* another real path: learned, without a condition */
	hm_learner_event(l, &b2.e);
	assert_int_equal(dom(m, INIT)->n_acl, 2);
	assert_null(dom(m, INIT)->acl->next->cond);
	hm_learner_free(l);
	hm_model_free(m);
}

#define SHELL "<kernel> /usr/bin/bash"

/* A shell of unobserved history (its start not in the log) forks @child. */
static struct ev fork_ev(int64_t pid, int64_t child)
{
	struct ev v = base(HM_EV_FORK, pid, 400, "/usr/bin/bash");

	v.e.syscall_name = "clone";
	v.e.exit = child;
	return v;
}

/*
 * Execs by processes of unobserved history are learned in their
 * <kernel> EXE (the domain strict enforcing judges them in), with
 * exec.realpath as any exec; check reports one missing there.  A process
 * first seen at its exec with an unknown parent learns its execute when
 * the parent's fork record names the domain it ran in (its exe= is the
 * new program); never, without one.
 */
static void test_unobserved_exec(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_checker *c;
	struct ev v[] = {
		fork_ev(500, 501),
		exec_ev(501, 500, "/t/allowed", NULL),
		exec_ev(601, 600, "/t/other", NULL),
		exec_ev(701, 700, "/t/late", NULL),	/* before its fork */
		fork_ev(700, 701),
		fork_ev(500, 502),
		exec_ev(502, 500, "/t/forbidden", NULL),
	};
	const size_t learned = 5;
	const struct hm_violation *const *vs;
	const struct hm_acl_head *e;
	size_t nv;

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(v); i++)
		v[i].e.paths = v[i].paths;
	v[1].e.exe = B("/t/real/allowed");	/* /t/allowed, a symlink */
	assert_int_equal(hm_learner_new(m, NULL, 1, NULL, &l), 0);
	for (size_t i = 0; i < learned; i++)
		assert_true(hm_learner_event(l, &v[i].e) >= 0);
	hm_learner_free(l);
	assert_true(has_path(m, SHELL, HM_FILE_EXECUTE, "/t/late"));
	assert_null(dom(m, "<kernel> /t/late")->acl);
	assert_true(dom(m, SHELL)->flags & HM_DOMAIN_HISTORY_UNOBSERVED);
	assert_true(has_path(m, SHELL, HM_FILE_EXECUTE, "/t/allowed"));
	e = dom(m, SHELL)->acl;
	assert_non_null(e->cond);
	assert_string_equal(e->cond->text->str,
			    "exec.realpath=\"/t/real/allowed\"");
	assert_true(dom(m, "<kernel> /t/allowed")->flags &
		    HM_DOMAIN_PARENT_UNOBSERVED);
	assert_null(dom(m, "<kernel> /t/other")->acl);
	assert_false(has_path(m, SHELL, HM_FILE_EXECUTE, "/t/other"));

	assert_int_equal(hm_checker_new(m, NULL, NULL, &c), 0);
	for (size_t i = 0; i < learned; i++)
		assert_int_equal(hm_checker_event(c, &v[i].e), 0);
	assert_int_equal(hm_checker_event(c, &v[learned].e), 0);
	assert_int_equal(hm_checker_event(c, &v[learned + 1].e), 1);
	vs = hm_checker_violations(c, &nv);
	assert_int_equal(nv, 1);
	assert_string_equal(vs[0]->domain->str, SHELL);
	assert_false(vs[0]->no_domain);
	hm_checker_free(c);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_learn_scenario),
		cmocka_unit_test(test_stamp_after_save),
		cmocka_unit_test(test_check_after_learn),
		cmocka_unit_test(test_missing_domain_and_groups),
		cmocka_unit_test(test_quota_and_rewrite),
		cmocka_unit_test(test_realpath_condition),
		cmocka_unit_test(test_check_conditions),
		cmocka_unit_test(test_no_realpath_judged),
		cmocka_unit_test(test_unobserved_exec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
