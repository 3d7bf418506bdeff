// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_memo.c - memo.c: which lines of a batch a worker's memo takes out
 * before auparse parses it, and what it puts back where.  A line goes
 * only when its record was kept before, is not the last of its event nor
 * followed by its EOE, and (SYSCALL) starts its event; a batch whose
 * events go back in time, or holds two events of one stamp, is fed whole; a record longer than the bound is
 * never kept, and a record only from its second time.
 * Through the collector: the recorded sample read in batches on one
 * thread gives the events it gives read straight, with a third of its
 * records not parsed again.  (tests/golden/t_threads.sh compares every
 * command's output that way on every log.)
 */
#include <libaudit.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "internal.h"

#define PATH_BODY " item=0 name=\"/etc/ld.so.cache\" inode=12 dev=fe:01 " \
		  "mode=0100644 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL"
#define CWD_BODY " cwd=\"/srv\""
#define SC_BODY " arch=c000003e syscall=257 success=yes exit=3 a0=ffffff9c " \
		"a1=7f00 a2=80000 a3=0 items=1 ppid=1 pid=42 comm=\"x\" " \
		"exe=\"/usr/bin/x\" key=(null)"

struct fx {
	struct hm_memo *m;
	struct hm_memo_refs refs;
	struct hm_sbuf out;
	struct hm_arena a;
};

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));

	f->m = hm_memo_new();
	assert_non_null(f->m);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	hm_memo_free(f->m);
	free(f->refs.v);
	free(f->refs.lines);
	hm_sbuf_free(&f->out);
	hm_arena_free(&f->a);
	free(f);
	return 0;
}

/* Keep a record of @type with @body, as decoding it would have. */
static void keep(struct fx *f, int type, const char *body)
{
	struct hm_memo_rec r = { .type = type };
	char text[512];

	snprintf(text, sizeof(text), "type=%s msg=audit(1.000:1):%s",
		 audit_msg_type_to_name(type), body);
	if (type == AUDIT_PATH) {
		r.u.item.item = 0;
		r.u.item.has_name = true;
		r.s[0] = (struct hm_bytes){ "/etc/ld.so.cache", 16 };
		r.u.item.rec.ino = 12;
	} else if (type == AUDIT_CWD) {
		r.cwd_seen = true;
		r.s[0] = (struct hm_bytes){ "/srv", 4 };
	} else {
		r.s[1] = (struct hm_bytes){ "/usr/bin/x", 10 };
	}
	/* kept the second time it is seen */
	assert_int_equal(hm_memo_put(f->m, type, text, &r, 0), 0);
	assert_int_equal(hm_memo_put(f->m, type, text, &r, 0), 0);
}

static int cut(struct fx *f, const char *in)
{
	return hm_memo_cut(f->m, in, strlen(in), &f->out, &f->refs, &f->a);
}

static const char *out(struct fx *f)
{
	return hm_sbuf_str(&f->out);
}

#define L(type, stamp, body) "type=" type " msg=audit(" stamp "):" body "\n"

/* Known PATH and CWD lines go; the rest of the event stays, in order. */
static void test_cut_known(void **state)
{
	struct fx *f = *state;
	const char *in =
		L("SYSCALL", "5.000:7", SC_BODY)
		L("CWD", "5.000:7", CWD_BODY)
		L("PATH", "5.000:7", PATH_BODY)
		L("PATH", "5.000:7", " item=1 name=\"/new\"")
		L("PROCTITLE", "5.000:7", "");

	keep(f, AUDIT_PATH, PATH_BODY);
	keep(f, AUDIT_CWD, CWD_BODY);
	assert_int_equal(cut(f, in), 0);
	assert_string_equal(out(f),
		L("SYSCALL", "5.000:7", SC_BODY)
		L("PATH", "5.000:7", " item=1 name=\"/new\"")
		L("PROCTITLE", "5.000:7", ""));
	assert_int_equal(f->refs.n, 2);
	/* both go back before the second line fed, the unknown PATH */
	assert_int_equal(f->refs.v[0].line, 1);
	assert_int_equal(f->refs.v[1].line, 1);
	assert_int_equal(f->refs.v[0].serial, 7);
	assert_int_equal(f->refs.v[0].rec.type, AUDIT_CWD);
	assert_true(f->refs.v[0].rec.cwd_seen);
	assert_memory_equal(f->refs.v[0].rec.s[0].s, "/srv", 4);
	assert_int_equal(f->refs.v[1].rec.type, AUDIT_PATH);
	assert_int_equal(f->refs.v[1].rec.u.item.rec.ino, 12);
	assert_memory_equal(f->refs.v[1].rec.s[0].s, "/etc/ld.so.cache", 16);
}

/* The last line of an event, and a line before its EOE, stay. */
static void test_keep_event_end(void **state)
{
	struct fx *f = *state;
	const char *in =
		L("SYSCALL", "5.000:7", SC_BODY)
		L("PATH", "5.000:7", PATH_BODY)
		L("SYSCALL", "5.000:8", SC_BODY)
		L("CWD", "5.000:8", CWD_BODY)
		L("EOE", "5.000:8", "");

	keep(f, AUDIT_PATH, PATH_BODY);
	keep(f, AUDIT_CWD, CWD_BODY);
	assert_int_equal(cut(f, in), 0);
	assert_string_equal(out(f), in);
	assert_int_equal(f->refs.n, 0);
}

/* A record is kept from its second time; a SYSCALL record goes only as
 * the first record of its event. */
static void test_syscall(void **state)
{
	struct fx *f = *state;
	const char *in =
		L("SYSCALL", "5.000:7", SC_BODY)
		L("PROCTITLE", "5.000:7", "")
		L("PATH", "5.000:8", " item=0 name=\"/a\"")
		L("SYSCALL", "5.000:8", SC_BODY)
		L("PROCTITLE", "5.000:8", "");

	struct hm_memo_rec r = { .type = AUDIT_SYSCALL };

	assert_int_equal(hm_memo_put(f->m, AUDIT_SYSCALL,
				     "type=SYSCALL msg=audit(1.0:1):" SC_BODY,
				     &r, 0), 0);
	assert_int_equal(cut(f, in), 0);
	assert_int_equal(f->refs.n, 0);		/* seen once: not kept */
	keep(f, AUDIT_SYSCALL, SC_BODY);
	assert_int_equal(cut(f, in), 0);
	assert_int_equal(f->refs.n, 1);
	assert_int_equal(f->refs.v[0].line, 0);
	assert_int_equal(f->refs.v[0].rec.type, AUDIT_SYSCALL);
	assert_memory_equal(f->refs.v[0].rec.s[1].s, "/usr/bin/x", 10);
	assert_string_equal(out(f),
		L("PROCTITLE", "5.000:7", "")
		L("PATH", "5.000:8", " item=0 name=\"/a\"")
		L("SYSCALL", "5.000:8", SC_BODY)
		L("PROCTITLE", "5.000:8", ""));
}

/* Events that go back in time: auparse hands back the oldest it holds
 * first, so the batch is fed whole. */
static void test_back_in_time(void **state)
{
	struct fx *f = *state;
	const char *in =
		L("CWD", "5.000:9", CWD_BODY)
		L("PROCTITLE", "5.000:9", "")
		L("CWD", "5.000:8", CWD_BODY)
		L("PROCTITLE", "5.000:8", "");

	keep(f, AUDIT_CWD, CWD_BODY);
	assert_int_equal(cut(f, in), 1);
	/* and in order, the same lines go */
	assert_int_equal(cut(f,
		L("CWD", "5.000:8", CWD_BODY)
		L("PROCTITLE", "5.000:8", "")
		L("CWD", "5.000:9", CWD_BODY)
		L("PROCTITLE", "5.000:9", "")), 0);
	assert_int_equal(f->refs.n, 2);
	assert_int_equal(f->refs.v[1].line, 1);
	assert_int_equal(f->refs.v[1].serial, 9);
}

/* A record auparse ends an event on, then more of its stamp: two events
 * of one time, handed back in the order of auparse's own list.  None of
 * their lines is cut (one already cut is put back); the other events'
 * are. */
static void test_one_stamp_two_events(void **state)
{
	struct fx *f = *state;
#define TWO	L("CWD", "5.000:9", CWD_BODY)		\
		L("PROCTITLE", "5.000:9", "")		\
		L("PATH", "5.000:9", " item=0")		\
		L("PROCTITLE", "5.000:9", "")

	keep(f, AUDIT_CWD, CWD_BODY);
	assert_int_equal(cut(f,
		L("CWD", "5.000:9", CWD_BODY)
		L("PA(TH", "5.000:9", " item=0")
		L("PROCTITLE", "5.000:9", "")), 0);
	assert_int_equal(f->refs.n, 0);
	assert_string_equal(out(f),
		L("CWD", "5.000:9", CWD_BODY)
		L("PA(TH", "5.000:9", " item=0")
		L("PROCTITLE", "5.000:9", ""));
	assert_int_equal(cut(f,
		L("CWD", "5.000:8", CWD_BODY)
		L("PROCTITLE", "5.000:8", "")
		TWO
		L("CWD", "5.000:10", CWD_BODY)
		L("PROCTITLE", "5.000:10", "")), 0);
	assert_string_equal(out(f),
		L("PROCTITLE", "5.000:8", "")
		TWO
		L("PROCTITLE", "5.000:10", ""));
	assert_int_equal(f->refs.n, 2);
	assert_int_equal(f->refs.v[0].line, 0);
	assert_int_equal(f->refs.v[0].serial, 8);
	assert_int_equal(f->refs.v[1].line, 5);
	assert_int_equal(f->refs.v[1].serial, 10);
#undef TWO
	/* EXECVE does not end one */
	assert_int_equal(cut(f,
		L("CWD", "5.000:9", CWD_BODY)
		L("EXECVE", "5.000:9", " argc=1 a0=\"x\"")
		L("PROCTITLE", "5.000:9", "")), 0);
	assert_int_equal(f->refs.n, 1);
}

/* node= prefixes: the same stamp on another node is another event. */
static void test_nodes(void **state)
{
	struct fx *f = *state;
	const char *in =
		"node=a " L("CWD", "5.000:9", CWD_BODY)
		"node=b " L("PROCTITLE", "5.000:9", "")
		"node=a " L("PROCTITLE", "5.000:9", "");

	keep(f, AUDIT_CWD, CWD_BODY);
	/* the second event's stamp is not after the first's */
	assert_int_equal(cut(f, in), 1);
	assert_int_equal(cut(f,
		"node=a " L("CWD", "5.000:9", CWD_BODY)
		"node=a " L("PROCTITLE", "5.000:9", "")), 0);
	assert_int_equal(f->refs.n, 1);
}

/* Bounds: a record longer than the memo keeps is never kept. */
static void test_bounds(void **state)
{
	struct fx *f = *state;
	char body[1024], in[2048];

	memset(body, 'x', sizeof(body) - 1);
	body[0] = ' ';
	memcpy(body + 1, "cwd=\"/", 6);
	body[sizeof(body) - 2] = '"';
	body[sizeof(body) - 1] = '\0';
	keep(f, AUDIT_CWD, body);
	snprintf(in, sizeof(in), "%s%s", "type=CWD msg=audit(5.000:9):",
		 body);
	strcat(in, "\n" L("PROCTITLE", "5.000:9", ""));
	assert_int_equal(cut(f, in), 0);
	assert_int_equal(f->refs.n, 0);
}

/* One event's fields memo.c can give back, as a line. */
static void render(const struct hm_event *ev, struct hm_sbuf *b)
{
	hm_sbuf_printf(b, "%llu %d %d %lld %lld %u %.*s %.*s %.*s %.*s %u",
		       (unsigned long long)ev->serial, ev->syscall,
		       ev->success, (long long)ev->exit, (long long)ev->pid,
		       ev->present, (int)ev->comm.len, ev->comm.s,
		       (int)ev->exe.len, ev->exe.s, (int)ev->key.len,
		       ev->key.s, (int)ev->cwd.len, ev->cwd.s, ev->n_paths);
	for (uint32_t i = 0; i < ev->n_paths; i++)
		hm_sbuf_printf(b, " %.*s:%llu:%o", (int)ev->paths[i].path.len,
			       ev->paths[i].path.s,
			       (unsigned long long)ev->paths[i].ino,
			       ev->paths[i].mode);
	hm_sbuf_addc(b, '\n');
}

/* The sample's events and counters, read in batches or straight. */
static void read_sample(bool straight, struct hm_sbuf *b,
			struct hm_collector_stats *st)
{
	const char *path = HM_SOURCE_DIR "/samples/audit/apache2-sysv.log";
	struct hm_collector_opts o;
	const struct hm_event *ev;
	struct hm_collector *c;

	if (straight)
		setenv("HISTMAC_TEST_STRAIGHT", "1", 1);
	hm_collector_opts_init(&o);
	o.resolve = 0;
	o.threads = 1;
	assert_int_equal(hm_collector_open_files(&c, &path, 1, &o), 0);
	unsetenv("HISTMAC_TEST_STRAIGHT");
	while (hm_collector_next(c, &ev) > 0)
		render(ev, b);
	*st = *hm_collector_stats(c);
	hm_collector_free(c);
}

static void test_collector(void **state)
{
	struct hm_collector_stats st1, st2;
	struct hm_sbuf a = { 0 }, b = { 0 };

	(void)state;
	read_sample(true, &a, &st1);
	read_sample(false, &b, &st2);
	assert_true(a.len > 10000);
	assert_string_equal(hm_sbuf_str(&a), hm_sbuf_str(&b));
	assert_int_equal(st1.records, st2.records);
	assert_int_equal(st1.events, st2.events);
	assert_int_equal(st1.records_known, 0);
	/* the sample's 7,444 records: most CWD and PATH records again */
	assert_true(st2.records_known > st2.records / 4);
	hm_sbuf_free(&a);
	hm_sbuf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cut_known, setup, teardown),
		cmocka_unit_test_setup_teardown(test_keep_event_end, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_syscall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_back_in_time, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_one_stamp_two_events, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_nodes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounds, setup, teardown),
		cmocka_unit_test(test_collector),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
