// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_collector.c - the collector on recorded auditd output
 * (the .log files of tests/data, see its README) and on string-literal records for
 * what auditd does not write: each event is rendered into one line of
 * text, and every case names lines that must (or must not) appear.
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
#include <sys/sysmacros.h>
#include <unistd.h>
#include <arpa/inet.h>

#include <cmocka.h>

#include "histmac/collector.h"

#define MAX_EVENTS 4096

/* Everything a case looks at, rendered once per event. */
struct run {
	char *lines[MAX_EVENTS];
	uint64_t serials[MAX_EVENTS];
	size_t n;
	struct hm_collector_stats st;
	int rc;
};

static void cat(char *buf, size_t cap, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + len, cap - len, fmt, ap);
	va_end(ap);
}

static const char *s(const struct hm_bytes *b)
{
	return b->s ? b->s : "-";
}

/* "kind syscall ok|fail p0=.. p1=.. key=value..." with raw strings */
static char *render(const struct hm_event *ev)
{
	size_t cap = 64 + 2 * HM_COLLECTOR_MAX_PATH;
	char *b = calloc(1, cap + (ev->kind == HM_EV_EXEC ? 65536 : 0));
	char a[64];

	assert_non_null(b);
	if (ev->kind == HM_EV_EXEC)
		cap += 65536;
	cat(b, cap, "%s %s %s", hm_event_kind_names[ev->kind],
	    ev->syscall_name ? ev->syscall_name : "-",
	    ev->success ? "ok" : "fail");
	if (ev->node.s)
		cat(b, cap, " node=%s", ev->node.s);
	for (uint32_t i = 0; i < ev->n_paths; i++)
		cat(b, cap, " p%u=%s", i, s(&ev->paths[i].path));
	if (ev->kind == HM_EV_EXEC) {
		cat(b, cap, " argv=");
		for (uint32_t i = 0; i < ev->argc && i < 8; i++)
			cat(b, cap, "%s%.40s", i ? "," : "", ev->argv[i].s);
	}
	if (ev->has_open_flags)
		cat(b, cap, " flags=0%o", ev->open_flags);
	if (ev->created)
		cat(b, cap, " created");
	if (ev->kind == HM_EV_MKNOD || ev->kind == HM_EV_MKDIR ||
	    ev->kind == HM_EV_CHMOD || ev->kind == HM_EV_OPEN)
		cat(b, cap, " mode=0%o", ev->mode);
	if (ev->err)
		cat(b, cap, " err=%d", ev->err);
	if (ev->damaged)
		cat(b, cap, " damaged");
	if (ev->key.s)
		cat(b, cap, " key=%s", ev->key.s);
	cat(b, cap, " pid=%s", ev->present & HM_EVP_PID ? "yes" : "-");
	cat(b, cap, " ses=%s", ev->present & HM_EVP_SES ? "yes" : "-");
	if (ev->kind == HM_EV_MKNOD)
		cat(b, cap, " dev=%u:%u", ev->dev_major, ev->dev_minor);
	if (ev->kind == HM_EV_CHOWN)
		cat(b, cap, " owner=%d:%d", (int)ev->owner_uid,
		    (int)ev->owner_gid);
	if (ev->removedir)
		cat(b, cap, " removedir");
	if (ev->link_target.s)
		cat(b, cap, " target=%s", ev->link_target.s);
	if (ev->kind == HM_EV_MOUNT || ev->kind == HM_EV_UMOUNT)
		cat(b, cap, " mflags=0x%llx",
		    (unsigned long long)ev->mount_flags);
	if (ev->kind >= HM_EV_SOCKET && ev->kind <= HM_EV_RECV)
		cat(b, cap, " sock=%d/%d", ev->sock_family, ev->sock_type);
	if (ev->sa.family == AF_INET || ev->sa.family == AF_INET6) {
		inet_ntop(ev->sa.family, ev->sa.addr, a, sizeof(a));
		cat(b, cap, " addr=%s:%u", a, ev->sa.port);
	}
	if (ev->sa.family == AF_UNIX)
		cat(b, cap, " unix=%s", s(&ev->sa.unix_path));
	if (ev->sig)
		cat(b, cap, " sig=%d", ev->sig);
	if (ev->kind == HM_EV_SIGNAL)
		cat(b, cap, " tcomm=%s", s(&ev->target_comm));
	return b;
}

static void run_collector(struct hm_collector *c, struct run *r)
{
	const struct hm_event *ev;

	memset(r->lines, 0, sizeof(r->lines));
	r->n = 0;
	while ((r->rc = hm_collector_next(c, &ev)) > 0) {
		assert_true(r->n < MAX_EVENTS);
		r->serials[r->n] = ev->serial;
		r->lines[r->n++] = render(ev);
	}
	r->st = *hm_collector_stats(c);
	hm_collector_free(c);
}

static void run_files(struct run *r, const char *const *names, size_t n,
		      int resolve)
{
	char *paths[4];
	struct hm_collector_opts o;
	struct hm_collector *c;

	assert_true(n <= 4);
	for (size_t i = 0; i < n; i++)
		assert_true(asprintf(&paths[i], "%s/%s", HM_TEST_DATA,
				     names[i]) > 0);
	hm_collector_opts_init(&o);
	o.resolve = resolve;
	assert_int_equal(hm_collector_open_files(&c, (const char *const *)paths,
						 n, &o), 0);
	run_collector(c, r);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
}

static void run_buffer(struct run *r, const char *text,
		       const struct hm_collector_opts *o)
{
	struct hm_collector *c;

	assert_int_equal(hm_collector_open_buffer(&c, text, strlen(text),
						  "test", o), 0);
	run_collector(c, r);
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->lines[i]);
}

/* Does some event line contain every space-separated word of @want? */
static bool has_event(const struct run *r, const char *want)
{
	char words[16][512];
	int nw = 0;
	const char *p = want;

	while (*p && nw < 16) {
		const char *e = strchr(p, ' ');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		snprintf(words[nw++], sizeof(words[0]), "%.*s", (int)len, p);
		p += len;
		while (*p == ' ')
			p++;
	}
	for (size_t i = 0; i < r->n; i++) {
		char *line;
		int k;

		/* a word matches a whole space-separated token of the line */
		assert_true(asprintf(&line, " %s ", r->lines[i]) > 0);
		for (k = 0; k < nw; k++) {
			char pad[520];

			snprintf(pad, sizeof(pad), " %.500s ", words[k]);
			if (!strstr(line, pad))
				break;
		}
		free(line);
		if (k == nw)
			return true;
	}
	return false;
}

static void dump(const struct run *r)
{
	for (size_t i = 0; i < r->n; i++)
		print_message("  %s\n", r->lines[i]);
}

/* ---- recorded logs: every event kind */

struct file_case {
	const char *file;
	const char *event;	/* words that one event line must hold */
};

static const struct file_case file_cases[] = {
	{ "exec.log", "exec execve ok p0=/bin/echo argv=echo,hello" },
	{ "exec.log", "p0=/usr/bin/true p1=/lib64/ld-linux-x86-64.so.2" },
	/* hex-encoded EXECVE arguments */
	{ "exec.log", "argv=true,arg" },
	{ "relexec.log", "exec execve ok p0=/usr/bin/true argv=true,rel" },
	{ "script.log", "exec execve ok p0=/tmp/hmrec/script.sh p1=/bin/sh" },
	{ "script.log", "argv=/bin/sh,/tmp/hmrec/script.sh,x" },
	{ "file.log", "open openat ok p0=/tmp/hmrec/f flags=01101 created" },
	{ "file.log", "open openat ok p0=/tmp/hmrec/f flags=00" },
	{ "file.log", "open openat ok p0=/tmp/hmrec/f flags=02001" },
	{ "file.log", "rename rename ok p0=/tmp/hmrec/f p1=/tmp/hmrec/g" },
	{ "file.log", "link link ok p0=/tmp/hmrec/g p1=/tmp/hmrec/h" },
	{ "file.log", "unlink unlink ok p0=/tmp/hmrec/h" },
	{ "file.log", "truncate truncate ok p0=/tmp/hmrec/g" },
	{ "file.log", "chmod chmod ok p0=/tmp/hmrec/g mode=0600" },
	{ "file.log", "chown chown ok p0=/tmp/hmrec/g owner=0:0" },
	{ "file.log", "mkdir mkdir ok p0=/tmp/hmrec/d/ created mode=0750" },
	{ "file.log", "rmdir unlinkat ok p0=/tmp/hmrec/d/ removedir" },
	{ "file.log", "open creat ok p0=/tmp/hmrec/c flags=01101 created" },
	/* openat2: flags from the OPENAT2 record */
	{ "file.log", "open openat2 ok p0=/tmp/hmrec/c flags=00" },
	/* a hex-encoded path */
	{ "file.log", "open openat ok created flags=01101" },
	{ "file.log", "open openat fail p0=/tmp/hmrec/missing" },
	/* mv FILE DIR/: renameat2 relative to DIR's descriptor, whose
	 * PARENT item the kernel lists before the source's */
	{ "dirfd-rename.log", "rename renameat2 ok p0=/tmp/hmrec/in.1 p1=/tmp/hmrec/box/in.1" },
	{ "relfile.log", "open openat ok p0=/tmp/hmrec/rel created" },
	{ "relfile.log", "mkdir mkdir ok p0=/tmp/hmrec/sub/" },
	{ "relfile.log", "rmdir rmdir ok p0=/tmp/hmrec/sub/" },
	{ "fifo.log", "mknod mknodat ok p0=/tmp/hmrec/fifo mode=010600" },
	{ "fifo.log", "mknod mknodat ok p0=/tmp/hmrec/sock mode=0140600" },
	{ "fifo.log", "mknod mknodat ok p0=/tmp/hmrec/null mode=020600 dev=1:3" },
	{ "symlink.log", "symlink symlink ok p0=/tmp/hmrec/link target=target" },
	{ "symlink.log", "symlink symlink ok p0=/tmp/hmrec/linkdir target=real" },
	{ "symlink.log", "open openat ok p0=/tmp/hmrec/linkdir/obj created" },
	{ "net.log", "socket socket ok sock=2/1" },
	{ "net.log", "bind bind ok sock=2/1 addr=127.0.0.1:47000" },
	{ "net.log", "listen listen ok sock=2/1 addr=127.0.0.1:47000" },
	{ "net.log", "connect connect ok sock=2/1 addr=127.0.0.1:47000" },
	{ "net.log", "accept accept ok sock=2/1" },
	{ "net.log", "send sendto ok sock=2/2 addr=127.0.0.1:47001" },
	{ "net.log", "bind bind ok sock=1/1 unix=/tmp/hmrec/usock" },
	{ "signal.log", "signal kill ok sig=15 tcomm=workload" },
	{ "crash.log", "signal kill ok sig=11 tcomm=workload" },
	{ "crash.log", "other - fail sig=11" },
	{ "mount.log", "mount mount ok p0=/tmp/hmrec/mnt/ mflags=0x6" },
	{ "mount.log", "umount umount2 ok p0=/tmp/hmrec/mnt/ mflags=0x0" },
	{ "mount.log", "pivot_root pivot_root ok p0=/tmp/hmrec/newroot/ p1=/tmp/hmrec/newroot/old/" },
	{ "mount.log", "chroot chroot ok p0=/tmp/hmrec/" },
	{ "node.log", "signal kill ok node=web1 sig=15" },
};

static void test_recorded(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(file_cases); i++) {
		const struct file_case *fc = &file_cases[i];
		struct run r;

		run_files(&r, &fc->file, 1, 0);
		if (r.rc != 0 || !has_event(&r, fc->event)) {
			print_message("%s: no event \"%s\" (rc %d) in:\n",
				      fc->file, fc->event, r.rc);
			dump(&r);
			fail();
		}
		/* real auditd output: nothing skipped */
		for (int k = 0; k < HM_SKIP_MAX; k++)
			assert_int_equal(r.st.skipped[k], 0);
		run_free(&r);
	}
}

/*
 * ---- record shapes of other kernels and of converted logs (tests/data
 * README, "Record shapes"): the event as it should be read, what it must
 * not hold, and what is counted.
 */
struct shape_case {
	const char *file;
	const char *event;		/* words one event line must hold */
	const char *not;		/* words no event may hold, or NULL */
	enum hm_skip_reason why;	/* counted exactly @count times */
	uint64_t count;
};

static const struct shape_case shape_cases[] = {
	/* gzip: a plain open relative to a dirfd has no PARENT item */
	{ "dirfd-read.log", "open openat ok p0=/var/log/nginx/access.log.1 flags=0400000",
	  "p0=access.log.1", HM_SKIP_MAX, 0 },
	{ "dirfd-read.log", "open openat ok p0=/var/log/nginx/access.log.1.gz created",
	  "p0=access.log.1.gz", HM_SKIP_MAX, 0 },
	/* RHEL/CentOS 7: objtype= instead of nametype= */
	{ "rhel7-objtype.log", "unlink unlink ok p0=/etc/audit/rules.d/audit.rules",
	  "p0=/etc/audit/rules.d/", HM_SKIP_MAX, 0 },
	{ "rhel7-objtype.log", "mknod mknod ok p0=/run/systemd/sessions/1.ref created mode=010600",
	  "p0=/run/systemd/sessions/", HM_SKIP_MAX, 0 },
	/* item 1 repeats item 0: the interpreter is next */
	{ "exec-repeat.log", "exec execve ok p0=/opt/app/run.sh p1=/bin/bash p2=/lib64/ld-linux-x86-64.so.2",
	  "p1=/opt/app/run.sh", HM_SKIP_MAX, 0 },
	{ "exec-repeat.log", "exec execve ok p0=/usr/bin/ls p1=/lib64/ld-linux-x86-64.so.2",
	  "p1=/usr/bin/ls", HM_SKIP_MAX, 0 },
	/* a stray quote in key=: the exec is whole, only key= is lost */
	{ "stray-quote.log", "exec execve ok p0=/usr/bin/true argv=true pid=yes",
	  "key=deploy", HM_SKIP_STRAY_QUOTE, 2 },
	/* ... in name=: the event is damaged, its path absent */
	{ "stray-quote.log", "open openat ok damaged key=hm_open", "p0=/etc/ld.so.cache",
	  HM_SKIP_BAD_VALUE, 1 },
	{ "quoted-success.log", "open openat ok p0=/etc/hostname", "damaged",
	  HM_SKIP_QUOTED_VALUE, 2 },
	{ "quoted-success.log", "open openat fail p0=/etc/shadow err=13", NULL,
	  HM_SKIP_BAD_VALUE, 0 },
	/* big-endian sockaddr: ppc64 and s390x */
	{ "sockaddr-be.log", "connect connect fail addr=10.0.0.1:80 err=115", NULL,
	  HM_SKIP_BAD_VALUE, 0 },
	{ "sockaddr-be.log", "connect connect ok unix=/dev/log", NULL,
	  HM_SKIP_MAX, 0 },
	{ "sockaddr-be.log", "connect connect fail addr=2001:db8::1:443 err=111", NULL,
	  HM_SKIP_MAX, 0 },
	/* no ses= (old kernel); a PATH without SYSCALL has no pid */
	{ "absent.log", "open open ok p0=/etc/syslog.conf pid=yes ses=-", NULL,
	  HM_SKIP_MAX, 0 },
	{ "absent.log", "other - fail p0=/tmp/orphan pid=- ses=-", NULL,
	  HM_SKIP_MAX, 0 },
	/* mode= only with O_CREAT */
	{ "open-mode.log", "open openat ok p0=/etc/hosts flags=02000000 mode=00", NULL,
	  HM_SKIP_MAX, 0 },
	{ "open-mode.log", "open open ok p0=/etc/hostname flags=00 mode=00", NULL,
	  HM_SKIP_MAX, 0 },
	{ "open-mode.log", "open openat ok p0=/tmp/out flags=01101 created mode=0644", NULL,
	  HM_SKIP_MAX, 0 },
	/* a tmpfs mount names no device; a bind mount its source */
	{ "mount-tmpfs.log", "mount mount ok p0=/srv/cache/ mflags=0x6", "p1=/srv/cache/",
	  HM_SKIP_MAX, 0 },
	{ "mount-tmpfs.log", "mount mount ok p0=/srv/www/ p1=/data/www/ mflags=0x1000", NULL,
	  HM_SKIP_MAX, 0 },
	/* the last line has no newline: read, nothing counted */
	{ "no-newline.log", "unlink unlink ok p0=/var/tmp/last", NULL,
	  HM_SKIP_TRUNCATED, 0 },
};

static void test_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(shape_cases); i++) {
		const struct shape_case *sc = &shape_cases[i];
		struct run r;

		run_files(&r, &sc->file, 1, 0);
		if (r.rc != 0 || !has_event(&r, sc->event) ||
		    (sc->not && has_event(&r, sc->not))) {
			print_message("%s: want \"%s\", not \"%s\" (rc %d):\n",
				      sc->file, sc->event,
				      sc->not ? sc->not : "", r.rc);
			dump(&r);
			fail();
		}
		if (sc->why != HM_SKIP_MAX &&
		    r.st.skipped[sc->why] != sc->count) {
			print_message("%s: %s %llu, want %llu\n", sc->file,
				      hm_skip_names[sc->why],
				      (unsigned long long)r.st.skipped[sc->why],
				      (unsigned long long)sc->count);
			fail();
		}
		run_free(&r);
	}
}

/* Raw bytes the text rendering cannot show. */
static void test_bytes(void **state)
{
	struct hm_collector *c;
	const struct hm_event *ev;
	char *path;
	bool space = false, big = false;

	(void)state;
	assert_true(asprintf(&path, "%s/file.log", HM_TEST_DATA) > 0);
	assert_int_equal(hm_collector_open_files(&c, (const char *const *)&path,
						 1, NULL), 0);
	while (hm_collector_next(c, &ev) > 0)
		if (ev->n_paths && ev->paths[0].path.s &&
		    !strcmp(ev->paths[0].path.s, "/tmp/hmrec/sp ace"))
			space = true;
	hm_collector_free(c);
	free(path);
	assert_true(space);

	assert_true(asprintf(&path, "%s/bigargv.log", HM_TEST_DATA) > 0);
	assert_int_equal(hm_collector_open_files(&c, (const char *const *)&path,
						 1, NULL), 0);
	while (hm_collector_next(c, &ev) > 0) {
		if (ev->kind != HM_EV_EXEC || ev->argc != 3)
			continue;
		assert_int_equal(ev->argv[1].len, 12000);
		assert_int_equal(strspn(ev->argv[1].s, "x"), 12000);
		assert_string_equal(ev->argv[2].s, "end");
		assert_false(ev->argv_truncated);
		big = true;
	}
	hm_collector_free(c);
	free(path);
	assert_true(big);

	assert_true(asprintf(&path, "%s/exec.log", HM_TEST_DATA) > 0);
	assert_int_equal(hm_collector_open_files(&c, (const char *const *)&path,
						 1, NULL), 0);
	big = false;
	while (hm_collector_next(c, &ev) > 0)
		if (ev->argc == 3 && !strcmp(ev->argv[1].s, "arg with space") &&
		    !strcmp(ev->argv[2].s, "quote\"d"))
			big = true;
	hm_collector_free(c);
	free(path);
	assert_true(big);
}

/* A rotated pair read in order equals the whole log. */
static void test_rotated(void **state)
{
	static const char *const pair[] = { "rotated.log.1", "rotated.log" };
	static const char *const whole[] = { "file.log" };
	struct run a, b;

	(void)state;
	run_files(&a, pair, 2, 0);
	run_files(&b, whole, 1, 0);
	assert_int_equal(a.rc, 0);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.lines[i], b.lines[i]);
	assert_true(has_event(&a, "rename rename ok p0=/tmp/hmrec/f p1=/tmp/hmrec/g"));
	assert_int_equal(a.st.files, 2);
	for (int k = 0; k < HM_SKIP_MAX; k++)
		assert_int_equal(a.st.skipped[k], 0);
	run_free(&a);
	run_free(&b);
}

/* ---- bad input: counted, good events still delivered */

struct skip_case {
	enum hm_skip_reason why;
	uint64_t min, max;
};

static const struct skip_case bad_counts[] = {
	{ HM_SKIP_NO_STAMP, 2, 2 },
	{ HM_SKIP_GARBAGE, 1, 1 },
	{ HM_SKIP_TRUNCATED, 0, 0 },	/* the last line is read, see below */
	{ HM_SKIP_STRAY_QUOTE, 1, 1 },
	{ HM_SKIP_UNKNOWN_RECORD, 1, 1 },
	{ HM_SKIP_BAD_VALUE, 7, 20 },
	{ HM_SKIP_LONG_LINE, 0, 0 },
};

static const char *const bad_events[] = {
	"exec execve ok argv=/tmp/hm-e2e.XquIVi/workload,exec,/tmp/hmrec,47000",
	"exec execve ok p0=/bin/echo argv=echo,hello",
	"rename rename ok p0=/tmp/hmrec/f p1=/tmp/hmrec/g",
	"link link ok p0=/tmp/hmrec/g p1=/tmp/hmrec/h",
};

static void test_bad(void **state)
{
	static const char *const f[] = { "bad.log" };
	struct run r;

	(void)state;
	run_files(&r, f, 1, 0);
	assert_int_equal(r.rc, 0);
	for (size_t i = 0; i < HM_ARRAY_SIZE(bad_counts); i++) {
		uint64_t n = r.st.skipped[bad_counts[i].why];

		if (n < bad_counts[i].min || n > bad_counts[i].max) {
			print_message("%s: %llu\n",
				      hm_skip_names[bad_counts[i].why],
				      (unsigned long long)n);
			fail();
		}
	}
	for (size_t i = 0; i < HM_ARRAY_SIZE(bad_events); i++)
		if (!has_event(&r, bad_events[i])) {
			print_message("missing \"%s\"\n", bad_events[i]);
			dump(&r);
			fail();
		}
	run_free(&r);
}

/* ---- string literals */

struct text_case {
	const char *name;
	const char *text;
	const char *want;	/* event words, NULL: none */
	const char *not;	/* words no event may hold, or NULL */
	enum hm_skip_reason why;	/* must be counted, HM_SKIP_MAX none */
};

#define SC "type=SYSCALL msg=audit(1700000000.001:%d): arch=c000003e "
#define PT "type=PROCTITLE msg=audit(1700000000.001:%d): proctitle=41\n"

static const struct text_case text_cases[] = {
	/* 6.1 records the symlink a program was called by as item 1: not
	 * an interpreter (the kernel oracle's python3) */
	{ "exec via symlink", SC "syscall=59 success=yes exit=0 a0=1 a1=2 a2=3 a3=0 items=3 ppid=1 pid=7 comm=\"p\" exe=\"/opt/hm-none/prog.11\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"/opt/hm-none/prog\" inode=2 dev=00:14 mode=0100755 nametype=NORMAL\n"
	  "type=PATH msg=audit(1700000000.001:1): item=1 name=\"/opt/hm-none/prog\" inode=3 dev=00:14 mode=0120777 nametype=NORMAL\n"
	  "type=PATH msg=audit(1700000000.001:1): item=2 name=\"/lib64/ld-linux-x86-64.so.2\" inode=4 dev=00:14 mode=0100755 nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "exec execve ok p0=/opt/hm-none/prog", "p1=/opt/hm-none/prog", HM_SKIP_MAX },
	{ "proc self", SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=4242 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"/proc/4242/status\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok p0=proc:/self/status", NULL, HM_SKIP_MAX },
	{ "proc other", SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=4242 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"/proc/1/../self//stat\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok p0=proc:/self/stat", NULL, HM_SKIP_MAX },
	{ "proc pid", SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=4242 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/proc\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"1/status\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok p0=proc:/1/status", NULL, HM_SKIP_MAX },
	{ "dotdot above root", SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/a/b\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"../../../etc/./passwd\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok p0=/etc/passwd", NULL, HM_SKIP_MAX },
	{ "hex cwd and name", SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=2F6120622F\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=78 nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok", NULL, HM_SKIP_MAX },
	{ "dirfd relative", SC "syscall=257 success=yes exit=3 a0=5 a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/tmp\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"x/y\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open openat ok p0=x/y", "p0=/tmp/x/y", HM_SKIP_MAX },
	{ "no cwd", SC "syscall=2 success=yes exit=3 a0=1 a1=0 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"rel\" nametype=NORMAL\n"
	  "type=PROCTITLE msg=audit(1700000000.001:1): proctitle=41\n",
	  "open open ok p0=rel", NULL, HM_SKIP_MAX },
	{ "no fields at all", "type=SYSCALL msg=audit(1700000000.001:1): \n"
	  "type=PATH msg=audit(1700000000.001:1): \n" PT,
	  "other - fail", NULL, HM_SKIP_MAX },
	{ "i386 socketcall connect", "type=SYSCALL msg=audit(1700000000.001:1): arch=40000003 syscall=102 success=yes exit=0 a0=3 a1=ffd0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=SOCKADDR msg=audit(1700000000.001:1): saddr=0200005001020304000000000000000000\n" PT,
	  "connect socketcall ok addr=1.2.3.4:80", NULL, HM_SKIP_MAX },
	{ "abstract unix", SC "syscall=42 success=yes exit=0 a0=3 a1=0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=SOCKADDR msg=audit(1700000000.001:1): saddr=01000061626300\n" PT,
	  "connect connect ok sock=0/0", NULL, HM_SKIP_MAX },
	{ "bad saddr", SC "syscall=42 success=yes exit=0 a0=3 a1=0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=SOCKADDR msg=audit(1700000000.001:1): saddr=0X\n" PT,
	  "connect connect ok", NULL, HM_SKIP_BAD_VALUE },
	{ "clone", SC "syscall=56 success=yes exit=99 a0=0 a1=0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n" PT,
	  "fork clone ok", NULL, HM_SKIP_MAX },
	{ "i386 open", "type=SYSCALL msg=audit(1700000000.001:1): arch=40000003 syscall=5 success=yes exit=3 a0=1 a1=241 a2=1a4 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
	  "type=PATH msg=audit(1700000000.001:1): item=0 name=\"/x\" nametype=CREATE\n" PT,
	  "open open ok p0=/x flags=01101 created", NULL, HM_SKIP_MAX },
	{ "tgkill", SC "syscall=234 success=yes exit=0 a0=64 a1=65 a2=a a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n" PT,
	  "signal tgkill ok sig=10", NULL, HM_SKIP_MAX },
	/* auparse reads "SOCKADDR)" as SOCKADDR, libaudit's lookup not:
	 * skipped, so both close the event alike */
	{ "type name with ')'", SC "syscall=42 success=yes exit=0 a0=3 a1=0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
	  "type=SOCKADDR) msg=audit(1700000000.001:1): saddr=0200005001020304000000000000000000\n" PT,
	  "connect connect ok", "addr=1.2.3.4:80", HM_SKIP_NO_STAMP },
	{ "long line", "", NULL, NULL, HM_SKIP_LONG_LINE },
};

static void test_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(text_cases); i++) {
		const struct text_case *tc = &text_cases[i];
		char *text;
		struct run r;

		if (!strcmp(tc->name, "long line")) {
			/* one line over HM_COLLECTOR_MAX_LINE, then a good one */
			size_t n = HM_COLLECTOR_MAX_LINE + 100;

			text = malloc(n + 256);
			assert_non_null(text);
			memset(text, 'x', n);
			memcpy(text, "type=SYSCALL msg=audit(1.1:1): ", 31);
			snprintf(text + n, 256, "\n" SC "syscall=62 success=yes exit=0 a0=1 a1=f a2=0 a3=0 items=0 ppid=1 pid=7\n" PT, 2, 2);
		} else {
			assert_true(asprintf(&text, tc->text, 1, 1, 1, 1) > 0);
		}
		run_buffer(&r, text, NULL);
		if (!strcmp(tc->name, "long line")) {
			assert_int_equal(r.st.skipped[HM_SKIP_LONG_LINE], 1);
			assert_true(has_event(&r, "signal kill ok sig=15"));
		}
		if (tc->want && !has_event(&r, tc->want)) {
			print_message("%s: no \"%s\" in:\n", tc->name, tc->want);
			dump(&r);
			fail();
		}
		if (tc->not && has_event(&r, tc->not)) {
			print_message("%s: unexpected \"%s\"\n", tc->name,
				      tc->not);
			fail();
		}
		if (tc->why != HM_SKIP_MAX && strcmp(tc->name, "long line"))
			assert_true(r.st.skipped[tc->why] > 0);
		run_free(&r);
		free(text);
	}
}

/*
 * Quotes are counted eight bytes a step (stream.c): a quote at every
 * offset of a word, one to three of them, is read as paired or not.
 */
static void test_quote_parity(void **state)
{
	(void)state;
	for (int at = 0; at < 20; at++)
		for (int q = 1; q <= 3; q++) {
			char val[40], *text;
			struct run r;

			memset(val, 'k', 32);
			val[32] = '\0';
			for (int i = 0; i < q; i++)
				val[at + 5 * i] = '"';
			assert_true(asprintf(&text, SC "syscall=62 success=yes exit=0 a0=1 a1=f a2=0 a3=0 items=0 ppid=1 pid=7 key=%s\n" PT,
					     1, val, 1) > 0);
			run_buffer(&r, text, NULL);
			assert_true(has_event(&r, "signal kill ok sig=15"));
			assert_int_equal(r.st.skipped[HM_SKIP_STRAY_QUOTE],
					 q % 2);
			run_free(&r);
			free(text);
		}
}

/*
 * A NUL byte skips the line it is in and no other: one read holds lines
 * before, between and after two of them (the NUL is looked for once a
 * read).
 */
static void test_nul_lines(void **state)
{
	static const char line[] = "type=SYSCALL msg=audit(1700000000.001:%d): arch=c000003e syscall=62 success=yes exit=0 a0=1 a1=f a2=0 a3=0 items=0 ppid=1 pid=7\n"
				   "type=PROCTITLE msg=audit(1700000000.001:%d): proctitle=41\n";
	char buf[4096];
	size_t len = 0, kills = 0;
	struct hm_collector *c;
	struct run r;

	(void)state;
	for (int i = 1; i <= 6; i++) {
		size_t at = len;

		len += (size_t)snprintf(buf + len, sizeof(buf) - len, line,
					i, i);
		if (i == 2 || i == 5)	/* its SYSCALL record's last byte */
			strchr(buf + at, '\n')[-1] = '\0';
	}
	assert_int_equal(hm_collector_open_buffer(&c, buf, len, "test", NULL),
			 0);
	run_collector(c, &r);
	assert_int_equal(r.st.skipped[HM_SKIP_GARBAGE], 2);
	for (size_t i = 0; i < r.n; i++) {
		bool kill = strstr(r.lines[i], "signal kill ok") != NULL;

		assert_false(kill && (r.serials[i] == 2 || r.serials[i] == 5));
		kills += kill;
	}
	assert_int_equal(kills, 4);
	run_free(&r);
}

/* argv over the cap: cut, flagged, counted, memory bounded. */
static void test_huge_argv(void **state)
{
	size_t chunk = 7000, nchunks = (HM_COLLECTOR_MAX_ARGV / chunk) + 20;
	size_t cap = nchunks * (chunk + 100) + 4096;
	char *text = malloc(cap);
	struct hm_collector *c;
	const struct hm_event *ev;
	size_t len;
	int n = 0;

	(void)state;
	assert_non_null(text);
	len = (size_t)snprintf(text, cap,
		SC "syscall=59 success=yes exit=0 a0=1 a1=2 a2=3 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=EXECVE msg=audit(1700000000.001:1): argc=3 a0=\"a\" a1_len=%zu", 1, nchunks * chunk);
	for (size_t i = 0; i < nchunks; i++) {
		len += (size_t)snprintf(text + len, cap - len, " a1[%zu]=\"", i);
		memset(text + len, 'y', chunk);
		len += chunk;
		text[len++] = '"';
		if (i % 10 == 9)
			len += (size_t)snprintf(text + len, cap - len,
				"\ntype=EXECVE msg=audit(1700000000.001:1): ");
	}
	len += (size_t)snprintf(text + len, cap - len, "\n" PT, 1);
	assert_int_equal(hm_collector_open_buffer(&c, text, len, "huge", NULL), 0);
	while (hm_collector_next(c, &ev) > 0) {
		n++;
		assert_int_equal(ev->kind, HM_EV_EXEC);
		assert_true(ev->argv_truncated);
		assert_true(ev->argc >= 1);
		assert_true(ev->argv[ev->argc - 1].len <= HM_COLLECTOR_MAX_ARGV);
	}
	assert_int_equal(n, 1);
	assert_int_equal(hm_collector_stats(c)->skipped[HM_SKIP_ARGV_CUT], 1);
	hm_collector_free(c);
	free(text);
}

/*
 * The auparse trap: a one-record ANOM_ABEND followed by many events.
 * The collector closes it at once; nothing is lost and the order is the
 * log's.
 */
static void test_abend(void **state)
{
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	struct hm_collector *c;
	const struct hm_event *ev;
	size_t n = 0, abend_at = 0;

	(void)state;
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len,
		"type=ANOM_ABEND msg=audit(1700000000.000:1): auid=4294967295 uid=0 gid=0 ses=4294967295 pid=9 comm=\"crash\" exe=\"/crash\" sig=11 res=1\n");
	for (int i = 2; i < 2000; i++)
		len += (size_t)snprintf(text + len, cap - len,
			"type=SYSCALL msg=audit(1700000000.000:%d): arch=c000003e syscall=62 success=yes exit=0 a0=9 a1=f a2=0 a3=0 items=0 ppid=1 pid=7\n"
			"type=PROCTITLE msg=audit(1700000000.000:%d): proctitle=41\n", i, i);
	assert_int_equal(hm_collector_open_buffer(&c, text, len, "abend", NULL), 0);
	while (hm_collector_next(c, &ev) > 0) {
		if (ev->serial == 1) {
			abend_at = n;
			assert_string_equal(ev->comm.s, "crash");
			assert_int_equal(ev->sig, 11);
		}
		n++;
	}
	assert_int_equal(n, 1999);
	assert_int_equal(abend_at, 0);
	assert_int_equal(hm_collector_stats(c)->eoe_injected, 1);
	hm_collector_free(c);
	free(text);
}

/* --resolve-root: a directory symlink in an image is followed. */
static void test_resolve_root(void **state)
{
	char root[] = "/tmp/hm-test-root.XXXXXX";
	char p[256], *text;
	struct hm_collector_opts o;
	struct stat st;
	struct run r;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/run", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run/apache2", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run/apache2/apache2.pid", root);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	assert_int_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/var", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/var/run", root);
	assert_int_equal(symlink("/run", p), 0);
	assert_true(asprintf(&text,
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/var/run/apache2/apache2.pid\" inode=%llu dev=%02x:%02x mode=0100644 nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/var/run/apache2/other\" inode=1 dev=00:01 mode=0100644 nametype=NORMAL\n" PT,
		1, (unsigned long long)st.st_ino, major(st.st_dev),
		minor(st.st_dev), 1, 2, 2) > 0);
	hm_collector_opts_init(&o);
	o.resolve_root = root;
	run_buffer(&r, text, &o);
	assert_true(has_event(&r, "open openat ok p0=/run/apache2/apache2.pid"));
	/* not there: the directory is still resolved */
	assert_true(has_event(&r, "open openat ok p0=/run/apache2/other"));
	assert_int_equal(r.st.dircache_hits, 1);
	run_free(&r);
	/* without resolution the name stays as passed */
	o.resolve = 0;
	o.resolve_root = NULL;
	run_buffer(&r, text, &o);
	assert_true(has_event(&r, "open openat ok p0=/var/run/apache2/apache2.pid"));
	run_free(&r);
	free(text);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

/*
 * Names that do not depend on the host's state (issue: one name whatever
 * is there at learn, check and enforce time) and TOMOYO's program names:
 *  - an exec's program: directories resolved, the last component (a
 *    symlink here) kept, its inode that of the file it leads to;
 *  - an object replaced since (another inode): its directory still
 *    resolves, /var/run/x is /run/x either way;
 *  - a file system named by type (the well-known mount points for an
 *    image of another host).
 */
/* Three events of @fmt (serials 1, 2, 3 for SC and PT) as written. */
static void run_three(struct run *r, const char *fmt)
{
	struct hm_collector_opts o;
	char *buf;

	assert_true(asprintf(&buf, fmt, 1, 1, 2, 2, 3, 3) > 0);
	hm_collector_opts_init(&o);
	o.resolve = 0;
	run_buffer(r, buf, &o);
	free(buf);
}

/*
 * An open through /proc/self/fd/N is named by its object: the name the
 * trail gave that inode earlier (an O_PATH open of it); an inode the
 * trail never named is not proven (docs/PATHS.md "Links in proc").
 */
static void test_magic_link(void **state)
{
	const char *text =
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=200000 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/srv/secret\" inode=4242 dev=fe:00 mode=0100600 nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=4 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/proc/self/fd/3\" inode=4242 dev=fe:00 mode=0100600 nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=5 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:3): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:3): item=0 name=\"/proc/7/fd/9\" inode=777 dev=fe:00 mode=0100600 nametype=NORMAL\n" PT;
	struct run r;

	(void)state;
	run_three(&r, text);
	assert_true(has_event(&r, "open openat ok p0=/srv/secret"));
	assert_false(has_event(&r, "open openat ok p0=proc:/self/fd/3"));
	assert_true(has_event(&r, "open openat ok p0=proc:/self/fd/9"));
	assert_int_equal(r.st.magic_links, 2);
	assert_int_equal(r.st.resolve_unproven, 1);
	run_free(&r);
}

static void test_resolve_names(void **state)
{
	char root[] = "/tmp/hm-test-names.XXXXXX";
	char p[256], *text;
	struct hm_collector_opts o;
	struct stat st;
	struct run r;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/usr", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/bin", root);
	assert_int_equal(symlink("usr", p), 0);
	snprintf(p, sizeof(p), "%s/usr/prog.real", root);
	close(open(p, O_CREAT | O_WRONLY, 0755));
	assert_int_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/usr/prog", root);
	assert_int_equal(symlink("prog.real", p), 0);
	snprintf(p, sizeof(p), "%s/run", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/run/crond.pid", root);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	snprintf(p, sizeof(p), "%s/var", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/var/run", root);
	assert_int_equal(symlink("/run", p), 0);
	assert_true(asprintf(&text,
		SC "syscall=59 success=yes exit=0 a0=1 a1=2 a2=3 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/usr/prog.real\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/bin/prog\" inode=%llu dev=%02x:%02x mode=0100755 nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/var/run/crond.pid\" inode=1 dev=00:01 mode=0100644 nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=0 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:3): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:3): item=0 name=\"/sys/kernel/security/tomoyo/audit\" nametype=NORMAL\n" PT,
		1, (unsigned long long)st.st_ino, major(st.st_dev),
		minor(st.st_dev), 1, 2, 2, 3, 3) > 0);
	hm_collector_opts_init(&o);
	o.resolve_root = root;
	run_buffer(&r, text, &o);
	assert_true(has_event(&r, "exec execve ok p0=/usr/prog"));
	assert_true(has_event(&r, "open openat ok p0=/run/crond.pid"));
	assert_true(has_event(&r, "open openat ok p0=securityfs:/tomoyo/audit"));
	assert_int_equal(r.st.resolve_mismatch, 1);
	run_free(&r);
	/* without resolution: as written, file systems by their places */
	o.resolve_root = NULL;
	o.resolve = 0;
	run_buffer(&r, text, &o);
	assert_true(has_event(&r, "exec execve ok p0=/bin/prog"));
	assert_true(has_event(&r, "open openat ok p0=/var/run/crond.pid"));
	assert_true(has_event(&r, "open openat ok p0=securityfs:/tomoyo/audit"));
	run_free(&r);
	free(text);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

/*
 * A chrooted process's names are inside its root (postfix's smtpd in
 * /var/spool/postfix); its forked children inherit it; a process that
 * did not chroot, or a pid seen again under another parent, does not.
 */
static void test_chroot(void **state)
{
	static const char text[] =
		SC "syscall=161 success=yes exit=0 a0=1 a1=0 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"smtpd\" exe=\"/usr/lib/postfix/sbin/smtpd\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/var/spool/postfix\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/var/spool/postfix\" nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"smtpd\" exe=\"/usr/lib/postfix/sbin/smtpd\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/etc/hosts\" nametype=NORMAL\n" PT
		SC "syscall=56 success=yes exit=8 a0=1200011 a1=0 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"smtpd\" exe=\"/usr/lib/postfix/sbin/smtpd\"\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=7 pid=8 comm=\"smtpd\" exe=\"/usr/lib/postfix/sbin/smtpd\"\n"
		"type=CWD msg=audit(1700000000.001:4): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:4): item=0 name=\"incoming/x\" nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=9 comm=\"cat\" exe=\"/usr/bin/cat\"\n"
		"type=CWD msg=audit(1700000000.001:5): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:5): item=0 name=\"/etc/hosts\" nametype=NORMAL\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=50 pid=8 comm=\"cat\" exe=\"/usr/bin/cat\"\n"
		"type=CWD msg=audit(1700000000.001:6): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:6): item=0 name=\"/etc/passwd\" nametype=NORMAL\n" PT;
	char *buf;
	struct hm_collector_opts o;
	struct run r;

	(void)state;
	assert_true(asprintf(&buf, text, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6) > 0);
	hm_collector_opts_init(&o);
	o.resolve = 0;
	run_buffer(&r, buf, &o);
	assert_true(has_event(&r, "chroot chroot ok p0=/var/spool/postfix"));
	assert_true(has_event(&r, "open openat ok p0=/var/spool/postfix/etc/hosts"));
	assert_true(has_event(&r, "open openat ok p0=/var/spool/postfix/incoming/x"));
	assert_true(has_event(&r, "open openat ok p0=/etc/hosts"));
	assert_true(has_event(&r, "open openat ok p0=/etc/passwd"));
	assert_int_equal(r.st.chrooted, 2);
	run_free(&r);
	free(buf);
}

/*
 * A name relative to a dirfd (rm -r's unlinkat, gzip's openat) is named
 * in the directory its PARENT record's inode was seen as (kernel oracle:
 * "file unlink dgram.sock" was learned, TOMOYO has the full name).
 */
static void test_dirfd_names(void **state)
{
	static const char text[] =
		SC "syscall=257 success=yes exit=4 a0=ffffff9c a1=1 a2=90800 a3=0 items=1 ppid=1 pid=7 comm=\"rm\" exe=\"/usr/bin/rm\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/tmp/hm-none-d\" inode=11 dev=00:16 mode=040755 nametype=NORMAL\n" PT
		SC "syscall=263 success=yes exit=0 a0=4 a1=1 a2=0 a3=0 items=2 ppid=1 pid=7 comm=\"rm\" exe=\"/usr/bin/rm\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/\" inode=11 dev=00:16 mode=040755 nametype=PARENT\n"
		"type=PATH msg=audit(1700000000.001:2): item=1 name=\"x.sock\" inode=13 dev=00:16 mode=0140755 nametype=DELETE\n" PT
		SC "syscall=263 success=yes exit=0 a0=4 a1=1 a2=0 a3=0 items=2 ppid=1 pid=7 comm=\"rm\" exe=\"/usr/bin/rm\"\n"
		"type=CWD msg=audit(1700000000.001:3): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:3): item=0 name=\"/\" inode=99 dev=00:16 mode=040755 nametype=PARENT\n"
		"type=PATH msg=audit(1700000000.001:3): item=1 name=\"y\" inode=14 dev=00:16 mode=0100644 nametype=DELETE\n" PT;
	struct run r;

	(void)state;
	run_three(&r, text);
	assert_true(has_event(&r, "unlink unlinkat ok p0=/tmp/hm-none-d/x.sock"));
	/* a directory never seen: the name stays as passed */
	assert_true(has_event(&r, "unlink unlinkat ok p0=y"));
	run_free(&r);
}

/*
 * An open through a symlink the trail created and removed later (gone
 * when learn runs) is named by the link's target, as TOMOYO saw it
 * (kernel oracle: "cat b-sym; rm b-sym" learned b-sym, TOMOYO b).
 */
static void test_trail_links(void **state)
{
	char root[] = "/tmp/hm-test-links.XXXXXX";
	char p[256], *text;
	struct hm_collector_opts o;
	struct stat st;
	struct run r;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(p, sizeof(p), "%s/d", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/d/b", root);
	close(open(p, O_CREAT | O_WRONLY, 0644));
	assert_int_equal(stat(p, &st), 0);
	assert_true(asprintf(&text,
		SC "syscall=88 success=yes exit=0 a0=1 a1=2 a2=0 a3=0 items=3 ppid=1 pid=7 comm=\"ln\" exe=\"/usr/bin/ln\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/d/\" inode=5 dev=00:01 mode=040755 nametype=PARENT\n"
		"type=PATH msg=audit(1700000000.001:1): item=1 name=\"b\" nametype=UNKNOWN\n"
		"type=PATH msg=audit(1700000000.001:1): item=2 name=\"/d/b-sym\" inode=6 dev=00:01 mode=0120777 nametype=CREATE\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"cat\" exe=\"/usr/bin/cat\"\n"
		"type=CWD msg=audit(1700000000.001:2): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:2): item=0 name=\"/d/b-sym\" inode=%llu dev=%02x:%02x mode=0100644 nametype=NORMAL\n" PT
		SC "syscall=87 success=yes exit=0 a0=1 a1=0 a2=0 a3=0 items=2 ppid=1 pid=7 comm=\"rm\" exe=\"/usr/bin/rm\"\n"
		"type=CWD msg=audit(1700000000.001:3): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:3): item=0 name=\"/d/\" inode=5 dev=00:01 mode=040755 nametype=PARENT\n"
		"type=PATH msg=audit(1700000000.001:3): item=1 name=\"/d/b-sym\" inode=6 dev=00:01 mode=0120777 nametype=DELETE\n" PT
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=0 a3=0 items=1 ppid=1 pid=7 comm=\"cat\" exe=\"/usr/bin/cat\"\n"
		"type=CWD msg=audit(1700000000.001:4): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:4): item=0 name=\"/d/b-sym\" nametype=NORMAL\n" PT,
		1, 1, 2, (unsigned long long)st.st_ino, major(st.st_dev),
		minor(st.st_dev), 2, 3, 3, 4, 4) > 0);
	hm_collector_opts_init(&o);
	o.resolve_root = root;
	run_buffer(&r, text, &o);
	assert_true(has_event(&r, "open openat ok p0=/d/b"));
	/* after its removal the name is its own again */
	assert_true(has_event(&r, "open openat ok p0=/d/b-sym"));
	assert_int_equal(r.st.resolve_mismatch, 0);
	run_free(&r);
	free(text);
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	assert_int_equal(system(p), 0);
}

/* Append event @serial of @fmt (SYSCALL's tail, then records) to @log. */
static void append_event(const char *log, int serial, const char *sc,
			 const char *path)
{
	FILE *f = fopen(log, "a");

	assert_non_null(f);
	fprintf(f, SC "%s items=%d ppid=1 pid=7 comm=\"a\" exe=\"/a\"\n"
		"type=CWD msg=audit(1700000000.001:%d): cwd=\"/\"\n",
		serial, sc, path ? 1 : 0, serial);
	if (path)
		fprintf(f, "type=PATH msg=audit(1700000000.001:%d): item=0 "
			"name=\"%s\" nametype=NORMAL\n", serial, path);
	fprintf(f, PT, serial);
	fclose(f);
}

/* The path0 of the events the followed log has now, space separated. */
static void follow_read(struct hm_collector *c, char *buf, size_t cap)
{
	const struct hm_event *ev;
	int rc;

	buf[0] = '\0';
	while ((rc = hm_collector_next(c, &ev)) > 0)
		if (ev->n_paths)
			cat(buf, cap, "%s ", s(&ev->paths[0].path));
	assert_int_equal(rc, -EAGAIN);
}

/*
 * Following a log, a directory replaced by a symlink: a name seen before
 * keeps its cached resolution until the trail moves something (here a
 * rename), then resolves again (docs/PATHS.md "Cost").
 */
static void test_follow_replaced(void **state)
{
	static const char open_sc[] = "syscall=257 success=yes exit=3 "
		"a0=ffffff9c a1=1 a2=0 a3=0";
	char root[] = "/tmp/hm-test-follow.XXXXXX";
	char log[64], cmd[256], got[512];
	struct hm_collector_opts o;
	struct hm_collector *c;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(cmd, sizeof(cmd), "cd '%s' && mkdir d other && "
		 "touch d/f other/f", root);
	assert_int_equal(system(cmd), 0);
	snprintf(log, sizeof(log), "%s/audit.log", root);
	append_event(log, 1, open_sc, "/d/f");
	hm_collector_opts_init(&o);
	o.resolve_root = root;
	o.from_start = true;
	o.timeout_ms = 50;
	assert_int_equal(hm_collector_open_follow(&c, log, &o), 0);
	follow_read(c, got, sizeof(got));
	assert_string_equal(got, "/d/f ");

	snprintf(cmd, sizeof(cmd), "cd '%s' && rm -r d && ln -s other d",
		 root);
	assert_int_equal(system(cmd), 0);
	append_event(log, 2, open_sc, "/d/f");
	follow_read(c, got, sizeof(got));
	assert_string_equal(got, "/d/f ");	/* cached, not rechecked yet */
	append_event(log, 3, "syscall=82 success=yes exit=0 a0=1 a1=2 a2=0 "
		     "a3=0", NULL);
	append_event(log, 4, open_sc, "/d/f");
	follow_read(c, got, sizeof(got));
	assert_string_equal(got, "/other/f ");
	hm_collector_free(c);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* ftruncate(fd) has no PATH: named by the file fd was opened on for
 * writing (kernel oracle: coreutils truncate learned nothing). */
static void test_ftruncate(void **state)
{
	static const char text[] =
		SC "syscall=257 success=yes exit=3 a0=ffffff9c a1=1 a2=241 a3=1b6 items=1 ppid=1 pid=7 comm=\"truncate\" exe=\"/usr/bin/truncate\"\n"
		"type=CWD msg=audit(1700000000.001:1): cwd=\"/\"\n"
		"type=PATH msg=audit(1700000000.001:1): item=0 name=\"/tmp/hm-none-f/b\" inode=11 dev=00:16 mode=0100644 nametype=NORMAL\n" PT
		SC "syscall=77 success=yes exit=0 a0=3 a1=1 a2=0 a3=0 items=0 ppid=1 pid=7 comm=\"truncate\" exe=\"/usr/bin/truncate\"\n" PT
		SC "syscall=77 success=yes exit=0 a0=3 a1=1 a2=0 a3=0 items=0 ppid=1 pid=8 comm=\"truncate\" exe=\"/usr/bin/truncate\"\n" PT;
	char *buf;
	struct hm_collector_opts o;
	struct run r;

	(void)state;
	assert_true(asprintf(&buf, text, 1, 1, 2, 2, 3, 3) > 0);
	hm_collector_opts_init(&o);
	o.resolve = 0;
	run_buffer(&r, buf, &o);
	assert_true(has_event(&r, "truncate ftruncate ok p0=/tmp/hm-none-f/b"));
	/* another process's descriptor 3: nothing known */
	assert_int_equal(r.n, 3);
	assert_null(strstr(r.lines[2], "p0="));
	run_free(&r);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_recorded),
		cmocka_unit_test(test_shapes),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_rotated),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_quote_parity),
		cmocka_unit_test(test_nul_lines),
		cmocka_unit_test(test_huge_argv),
		cmocka_unit_test(test_abend),
		cmocka_unit_test(test_resolve_root),
		cmocka_unit_test(test_resolve_names),
		cmocka_unit_test(test_magic_link),
		cmocka_unit_test(test_chroot),
		cmocka_unit_test(test_dirfd_names),
		cmocka_unit_test(test_trail_links),
		cmocka_unit_test(test_ftruncate),
		cmocka_unit_test(test_follow_replaced),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
