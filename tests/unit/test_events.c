// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_events.c - the events writer (formats/events.c): events built by
 * hand, and the exact TSV or JSON line each gives; strings with spaces,
 * quotes, backslashes, tabs and non-ASCII bytes come out TOMOYO-encoded
 * and, in JSON, quoted.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "histmac/event_write.h"

#define B(lit) ((struct hm_bytes){ lit, sizeof(lit) - 1 })

static struct hm_ev_path exec_paths[2];
static struct hm_bytes exec_argv[2];

static void exec_event(struct hm_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = HM_EV_EXEC;
	ev->sec = 1700000000;
	ev->msec = 7;
	ev->serial = 42;
	ev->has_syscall = true;
	ev->arch = 0xc000003e;
	ev->syscall = 59;
	ev->syscall_name = "execve";
	ev->success = true;
	ev->present = HM_EVP_PID | HM_EVP_PPID | HM_EVP_UID | HM_EVP_AUID |
		      HM_EVP_SES | HM_EVP_EXIT | HM_EVP_SUCCESS;
	ev->pid = 100;
	ev->ppid = 1;
	ev->auid = 4294967295u;
	ev->ses = 4294967295u;
	ev->comm = B("my prog");
	ev->exe = B("/usr/bin/my\tprog");
	ev->cwd = B("/");
	exec_paths[0].path = B("/bin/a\"b\\c");
	exec_paths[0].nametype = HM_NT_NORMAL;
	exec_paths[0].mode = 0100755;
	exec_paths[1].path = B("/lib/ld\xc3\xa9.so");
	exec_paths[1].nametype = HM_NT_NORMAL;
	ev->paths = exec_paths;
	ev->n_paths = 2;
	exec_argv[0] = B("a b");
	exec_argv[1] = B("\"q\"");
	ev->argv = exec_argv;
	ev->argc = 2;
	ev->fd = -1;
}

static void connect_event(struct hm_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = HM_EV_CONNECT;
	ev->sec = 5;
	ev->serial = 6;
	ev->pid = 7;
	ev->present = HM_EVP_PID;	/* the rest was not in the records */
	ev->fd = 3;
	ev->sock_family = AF_INET;
	ev->sock_type = SOCK_STREAM;
	ev->sa.family = AF_INET;
	ev->sa.addr[0] = 127;
	ev->sa.addr[3] = 1;
	ev->sa.port = 80;
}

static const struct {
	const char *name;
	void (*make)(struct hm_event *ev);
	enum hm_event_format fmt;
	const char *line;
} cases[] = {
	{ "exec as TSV: encoded strings, argv joined, interpreter",
	  exec_event, HM_EVENT_TSV,
	  "1700000000.007\t42\t-\texec\texecve\tyes\t0\t100\t1\t0\t0\t0\t0\t"
	  "4294967295\t4294967295\tmy\\040prog\t/usr/bin/my\\011prog\t"
	  "/bin/a\"b\\\\c\t-\targv=a\\040b,\"q\" interp=/lib/ld\\303\\251.so "
	  "cwd=/\n" },
	{ "exec as JSON: quotes and backslashes escaped once encoded",
	  exec_event, HM_EVENT_JSON,
	  "{\"time\":\"1700000000.007\",\"serial\":42,\"kind\":\"exec\","
	  "\"syscall\":\"execve\",\"arch\":\"c000003e\",\"success\":true,"
	  "\"exit\":0,\"pid\":100,\"ppid\":1,\"uid\":0,\"euid\":0,\"gid\":0,"
	  "\"egid\":0,\"auid\":4294967295,\"ses\":4294967295,"
	  "\"comm\":\"my\\\\040prog\",\"exe\":\"/usr/bin/my\\\\011prog\","
	  "\"cwd\":\"/\",\"paths\":[{\"path\":\"/bin/a\\\"b\\\\\\\\c\","
	  "\"nametype\":\"NORMAL\",\"mode\":\"0100755\"},"
	  "{\"path\":\"/lib/ld\\\\303\\\\251.so\",\"nametype\":\"NORMAL\","
	  "\"mode\":\"00\"}],\"argv\":[\"a\\\\040b\",\"\\\"q\\\"\"],"
	  "\"argv_truncated\":false}\n" },
	{ "connect as TSV: no syscall record, absent ids '-', socket details",
	  connect_event, HM_EVENT_TSV,
	  "5.000\t6\t-\tconnect\t-\t-\t-\t7\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t"
	  "family=inet type=stream fd=3 addr=127.0.0.1 port=80\n" },
	{ "connect as JSON",
	  connect_event, HM_EVENT_JSON,
	  "{\"time\":\"5.000\",\"serial\":6,\"kind\":\"connect\",\"pid\":7,\"fd\":3,"
	  "\"sock_family\":\"inet\",\"sock_type\":\"stream\","
	  "\"sockaddr\":{\"family\":\"inet\",\"addr\":\"127.0.0.1\","
	  "\"port\":80}}\n" },
};

static char *write_one(enum hm_event_format fmt, const struct hm_event *ev)
{
	struct hm_event_writer *w;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(hm_event_writer_new(&w, fmt), 0);
	assert_int_equal(hm_event_write(w, ev, f), 0);
	/* a second line reuses the buffers and is the same */
	assert_int_equal(hm_event_write(w, ev, f), 0);
	hm_event_writer_free(w);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len % 2, 0);
	assert_memory_equal(text, text + len / 2, len / 2);
	text[len / 2] = '\0';
	return text;
}

static void test_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_event ev;
		char *line;

		cases[i].make(&ev);
		line = write_one(cases[i].fmt, &ev);
		if (strcmp(line, cases[i].line))
			fprintf(stderr, "case '%s':\n got  %s want %s",
				cases[i].name, line, cases[i].line);
		assert_string_equal(line, cases[i].line);
		free(line);
	}
}

/* A TSV line has exactly 20 columns and no byte outside 0x20-0x7e. */
static void test_tsv_shape(void **state)
{
	struct hm_event ev;
	char *line;
	int tabs = 0;

	(void)state;
	exec_event(&ev);
	line = write_one(HM_EVENT_TSV, &ev);
	for (const char *p = line; *p != '\n'; p++) {
		tabs += *p == '\t';
		assert_true(*p == '\t' || (*p >= 0x20 && *p < 0x7f));
	}
	assert_int_equal(tabs, 19);
	free(line);
}

/* A stream that fails is an error, not a silent loss. */
static void test_write_error(void **state)
{
	struct hm_event_writer *w;
	struct hm_event ev;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	connect_event(&ev);
	assert_int_equal(hm_event_writer_new(&w, HM_EVENT_TSV), 0);
	assert_int_equal(hm_event_write(w, &ev, f), -EIO);
	hm_event_writer_free(w);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_tsv_shape),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
