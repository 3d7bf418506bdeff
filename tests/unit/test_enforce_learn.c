// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_enforce_learn.c - the enforcer's live learning and `histmac learn`
 * take one path (hm_learn_add()): fed the same accesses, from the same
 * policy directory, they end with the same entries, refuse the same ones
 * at max_learning_entry and flag the domain alike; what they add is
 * stamped (the event's second, the enforcer's clock) and the domain's
 * events and quiet events are counted alike.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "enforcer_private.h"
#include "histmac/append.h"
#include "histmac/decide.h"
#include "histmac/learn.h"
#include "histmac/policy_io.h"

#define DOMAIN "<kernel> /test/prog"
#define EXE "/test/prog"

/* The accesses: (perm bits, path); the domain's quota is 4 entries. */
static const struct {
	uint32_t perm;
	const char *path;
} accesses[] = {
	{ 1u << HM_FILE_READ, "/srv/a" },
	{ 1u << HM_FILE_READ, "/srv/b" },
	{ 1u << HM_FILE_WRITE, "/srv/a" },		/* widens */
	{ 1u << HM_FILE_READ, "/srv/a" },		/* known */
	{ 1u << HM_FILE_READ, "/srv/c" },		/* full now */
	{ 1u << HM_FILE_READ, "/srv/d" },		/* refused */
	{ 1u << HM_FILE_APPEND, "/srv/b" },		/* widens at quota */
	{ 1u << HM_FILE_READ, "/proc/4242/stat" },	/* refused, rule */
};
#define N_ACCESSES (sizeof(accesses) / sizeof(accesses[0]))

static void put_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A learning domain that already holds one entry. */
static void write_policy(const char *dir)
{
	put_file(dir, "domain_policy.conf",
		 "<kernel>\nuse_profile 1\n\n" DOMAIN "\nuse_profile 1\n"
		 "file read /etc/ld.so.cache\n");
	put_file(dir, "exception_policy.conf", "");
	put_file(dir, "profile.conf",
		 "PROFILE_VERSION=20150505\n"
		 "0-PREFERENCE={ max_audit_log=1024 max_learning_entry=4 }\n"
		 "1-CONFIG={ mode=learning }\n");
}

static struct hm_event open_event(uint32_t perm, const char *path,
				  struct hm_ev_path *p)
{
	uint32_t acc = perm & (1u << HM_FILE_READ) ? O_RDONLY : O_WRONLY;

	*p = (struct hm_ev_path){ .path = { path, strlen(path) },
				  .mode = S_IFREG | 0644 };
	if (perm & (1u << HM_FILE_APPEND))
		acc |= O_APPEND;
	return (struct hm_event){
		.kind = HM_EV_OPEN, .has_syscall = true, .success = true,
		.pid = 100, .ppid = 1, .exe = { EXE, sizeof(EXE) - 1 },
		.sec = 1700000000, .fd = -1, .n_paths = 1, .paths = p,
		.has_open_flags = true, .open_flags = acc,
	};
}

/* What the enforcer's learning adds for an open asking @perm of a file
 * that is not append-only (enforcer/verdict.c): append asks write, and
 * append is learned beside it. */
static uint32_t live_perm(uint32_t perm)
{
	if (!(perm & 1u << HM_FILE_APPEND))
		return perm;
	return hm_enf_append_ask(perm, false) | hm_append_learns(false);
}

/* qsort passes pointers to the elements */
static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* @m's entries of DOMAIN as sorted policy lines, joined by newlines. */
static char *entries(const struct hm_model *m)
{
	const struct hm_name *n = hm_name_lookup(m->names, DOMAIN,
						 strlen(DOMAIN));
	const struct hm_domain *d = n ? hm_model_find_domain(m, n) : NULL;
	char *lines[64];
	size_t k = 0;
	size_t len = 1;
	char *out;

	assert_non_null(d);
	assert_true(d->flags & HM_DOMAIN_QUOTA_EXCEEDED);
	for (const struct hm_acl_head *e = d->acl; e && k < 64; e = e->next) {
		assert_int_equal(hm_acl_format(m, e, HM_DIALECT_26, &lines[k],
					       NULL), 0);
		len += strlen(lines[k++]) + 1;
	}
	qsort(lines, k, sizeof(*lines), cmp_str);
	out = calloc(1, len);
	assert_non_null(out);
	for (size_t i = 0; i < k; i++) {
		strcat(out, lines[i]);
		strcat(out, "\n");
		free(lines[i]);
	}
	return out;
}

static const struct hm_domain *domain_of(const struct hm_model *m)
{
	const struct hm_name *n = hm_name_lookup(m->names, DOMAIN,
						 strlen(DOMAIN));

	return n ? hm_model_find_domain(m, n) : NULL;
}

/*
 * What learning added is stamped within [@lo, @hi] (convergence, `histmac
 * stats`); the entry the policy had is not.  The domain counted every
 * access, and is quiet since the last (refused) one: the same counts
 * either way.
 */
static void check_stamps(const struct hm_model *m, int64_t lo, int64_t hi)
{
	const struct hm_domain *d = domain_of(m);

	assert_non_null(d);
	for (const struct hm_acl_head *e = d->acl; e; e = e->next) {
		char *line;

		assert_int_equal(hm_acl_format(m, e, HM_DIALECT_26, &line,
					       NULL), 0);
		if (strstr(line, "/etc/ld.so.cache")) {
			assert_int_equal(e->hist.learned, 0);
		} else {
			assert_true(e->hist.learned >= lo);
			assert_true(e->hist.learned <= hi);
		}
		free(line);
	}
	assert_int_equal(d->events, N_ACCESSES);
	assert_int_equal(d->quiet_events, 1);
}

static void test_same_entries(void **state)
{
	char dir[] = "/tmp/hm-test-elearn-XXXXXX";
	struct hm_enforcer_opts o;
	struct hm_enforcer_counters c = { 0 };
	struct hm_live *live;
	struct hm_model *m = hm_model_new();
	struct hm_learner *l;
	struct hm_diag d = { 0 };
	const struct hm_name *dn;
	struct hm_ev_path p[N_ACCESSES];
	struct hm_event ev[N_ACCESSES];
	int64_t t0;
	char *a;
	char *b;

	(void)state;
	assert_non_null(mkdtemp(dir));
	write_policy(dir);

	/* the enforcer's live learning */
	hm_enforcer_opts_init(&o);
	o.policy = dir;
	assert_int_equal(hm_live_load(&o, &c, &live), 0);
	assert_int_equal(live->m->max_learning_entry, 4);
	assert_int_equal(hm_model_intern(live->m, DOMAIN, strlen(DOMAIN), &dn),
			 0);
	t0 = time(NULL);
	for (size_t i = 0; i < N_ACCESSES; i++) {
		struct hm_name n = { .str = accesses[i].path,
				     .len = (uint32_t)strlen(accesses[i].path) };

		hm_name_fill(&n);
		assert_int_equal(hm_live_learn(live, dn,
					       live_perm(accesses[i].perm), &n,
					       NULL), 0);
	}
	check_stamps(live->m, t0, time(NULL));

	/* histmac learn, from the same directory */
	assert_true(hm_policy_load_dir(m, dir, HM_DIALECT_AUTO, &d) >= 0);
	assert_int_equal(hm_learner_new(m, NULL, HM_PROFILE_LEARNING, &d, &l),
			 0);
	assert_int_equal(hm_tracker_set(hm_walker_tracker(hm_learner_walker(l)),
					100, 1, EXE, strlen(EXE), DOMAIN,
					strlen(DOMAIN), 0, 0), 0);
	for (size_t i = 0; i < N_ACCESSES; i++) {
		/* each event at an address of its own: the learner counts an
		 * event once per domain by its address */
		ev[i] = open_event(accesses[i].perm, accesses[i].path, &p[i]);
		assert_true(hm_learner_event(l, &ev[i]) >= 0);
	}
	check_stamps(m, 1700000000, 1700000000);	/* the events' */

	a = entries(live->m);
	b = entries(m);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "file read/write /srv/a\n"));
	assert_null(strstr(a, "/srv/d"));
	assert_null(strstr(a, "stat"));
	free(a);
	free(b);
	hm_learner_free(l);
	hm_model_free(m);
	hm_diag_free(&d);
	hm_live_free(live);
	for (const char *f = "domain_policy.conf\0exception_policy.conf\0"
			     "profile.conf\0"; *f; f += strlen(f) + 1) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, f);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
