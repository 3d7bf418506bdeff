// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_session.c - the learn session (session/learn_session.c) on a
 * recorded log (tests/data/file.log) followed with a checkpoint: what it
 * learns lands in the policy directory, and a save keeps its order
 * (policy, process table, checkpoint): when one step fails, the steps
 * after it are not done, so a checkpoint never says more than the policy
 * holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/session.h"

struct fixture {
	char dir[64];
	char log[128];
	char policy[128];
	char state[160];
	char ckpt[128];
};

static bool exists(const char *p)
{
	return access(p, F_OK) == 0;
}

static void copy_log(const char *to)
{
	char buf[65536];
	int in = open(HM_TEST_DATA "/file.log", O_RDONLY);
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	assert_true(in >= 0 && out >= 0);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	close(in);
	close(out);
}

static void setup_dir(struct fixture *f, const char *state_dir)
{
	strcpy(f->dir, "/tmp/hm-test-session.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->log, sizeof(f->log), "%s/audit.log", f->dir);
	snprintf(f->policy, sizeof(f->policy), "%s/policy", f->dir);
	snprintf(f->state, sizeof(f->state), "%s/%s/histmac.state", f->dir,
		 state_dir);
	snprintf(f->ckpt, sizeof(f->ckpt), "%s/checkpoint", f->dir);
	copy_log(f->log);
}

static void cleanup_dir(struct fixture *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
}

/* Learn all of f->log (follow mode, from its start) in one session. */
static int learn(struct fixture *f, struct hm_diag *d, size_t *domains)
{
	struct hm_learn_opts lo;
	struct hm_collector_opts co;
	struct hm_collector *c;
	struct hm_learn_session *s;
	struct hm_model *m = hm_model_new();
	volatile sig_atomic_t stop = 0;
	struct hm_store_opts sto = {
		.dir = f->policy, .holder = "test", .hold = false,
		.learning = true, .read_dialect = HM_DIALECT_AUTO,
		.dialect = HM_DIALECT_AUTO, .diag = d,
	};
	struct hm_store *store;
	struct hm_learn_session_opts so = {
		.state = f->state, .profile = -1, .max_entry = -1, .lo = &lo,
		.diag = d,
	};
	FILE *ck = fopen(f->ckpt, "w");
	struct stat st;
	int r;

	/* a checkpoint at offset 0: follow reads the log from its start */
	assert_int_equal(stat(f->log, &st), 0);
	assert_non_null(ck);
	fprintf(ck, "histmac-checkpoint 1\ndev %llu\nino %llu\noffset 0\n",
		(unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
	fclose(ck);
	hm_learn_opts_default(&lo);
	hm_collector_opts_init(&co);
	co.checkpoint = f->ckpt;
	co.checkpoint_interval_ms = 0;
	co.timeout_ms = 100;
	co.resolve = 0;
	co.stop = &stop;
	assert_non_null(m);
	assert_int_equal(hm_collector_open_follow(&c, f->log, &co), 0);
	assert_int_equal(hm_store_open(&sto, &store), 0);
	so.store = store;
	assert_int_equal(hm_learn_session_new(&s, &so, m), 0);
	hm_learn_session_start(s, c);
	/* the whole log is there: once idle, stop */
	while ((r = hm_learn_session_run(s)) > 0 && r != HM_SESSION_IDLE)
		;
	assert_int_equal(r, HM_SESSION_IDLE);
	stop = 1;
	assert_int_equal(hm_learn_session_run(s), HM_SESSION_END);
	*domains = hm_learn_session_model(s)->n_domains;
	unlink(f->ckpt);	/* what the save writes is checked */
	r = hm_learn_session_save(s);
	hm_learn_session_free(s);
	hm_store_close(store, false);
	hm_collector_free(c);
	return r;
}

static void test_save_all(void **state)
{
	struct fixture f;
	struct hm_diag d = { 0 };
	char p[192];
	size_t n;

	(void)state;
	setup_dir(&f, ".");
	assert_int_equal(learn(&f, &d, &n), 0);
	assert_true(n > 1);
	snprintf(p, sizeof(p), "%s/domain_policy.conf", f.policy);
	assert_true(exists(p));
	assert_true(exists(f.state));
	assert_true(exists(f.ckpt));
	assert_int_equal(d.n_msgs, 0);
	hm_diag_free(&d);
	cleanup_dir(&f);
}

/* The process table cannot be written: no checkpoint either. */
static void test_state_fails(void **state)
{
	struct fixture f;
	struct hm_diag d = { 0 };
	char p[192];
	size_t n;

	(void)state;
	setup_dir(&f, "missing-dir");
	assert_true(learn(&f, &d, &n) < 0);
	snprintf(p, sizeof(p), "%s/domain_policy.conf", f.policy);
	assert_true(exists(p));
	assert_false(exists(f.ckpt));
	assert_true(d.n_msgs >= 1);
	assert_string_equal(d.msgs[d.n_msgs - 1].file, f.state);
	hm_diag_free(&d);
	cleanup_dir(&f);
}

/* The policy cannot be written: neither table nor checkpoint. */
static void test_policy_fails(void **state)
{
	struct fixture f;
	struct hm_diag d = { 0 };
	FILE *blocker;
	size_t n;

	(void)state;
	setup_dir(&f, ".");
	blocker = fopen(f.policy, "w");	/* a file where the dir goes */
	assert_non_null(blocker);
	fclose(blocker);
	assert_true(learn(&f, &d, &n) < 0);
	assert_false(exists(f.state));
	assert_false(exists(f.ckpt));
	assert_string_equal(d.msgs[d.n_msgs - 1].file, f.policy);
	hm_diag_free(&d);
	cleanup_dir(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_save_all),
		cmocka_unit_test(test_state_fails),
		cmocka_unit_test(test_policy_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
