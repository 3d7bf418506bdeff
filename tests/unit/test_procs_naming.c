// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_procs_naming.c - an exec the enforcer did not judge (outside
 * the marks) is named as learn names it (procs/called.c hm_exec_name):
 * a script by its own path with its directories resolved, not by its
 * interpreter; a program called through a symlink by that link's name,
 * or by the name the parent domain's execute entry has for its real
 * path when it names it otherwise.  Real processes,
 * real /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "procs_private.h"
#include "exec_fixture.h"
#include "histmac/word.h"
#include "histmac/policy_io.h"

static void put(const char *path, const char *text, mode_t mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

/* Has @pid exec'd @want (its exe link), with its command name @comm, and
 * finished the exec?  Waits up to 5 s. */
static bool runs(pid_t pid, const char *want, const char *comm)
{
	char link[64], have[PATH_MAX];

	for (int i = 0; i < 500; i++) {
		ssize_t n;
		FILE *f;

		snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
		n = readlink(link, have, sizeof(have) - 1);
		if (n > 0) {
			have[n] = '\0';
			snprintf(link, sizeof(link), "/proc/%d/comm", (int)pid);
			f = fopen(link, "r");
			if (f && fgets(have + n + 1, (int)(sizeof(have) - n - 1), f)) {
				have[n + 1 + strcspn(have + n + 1, "\n")] = '\0';
				if (!strcmp(have, want) && !strcmp(have + n + 1, comm) &&
				    exec_done(pid)) {
					fclose(f);
					return true;
				}
			}
			if (f)
				fclose(f);
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	return false;
}

/* What runs, for hm_exec_name(): the real path @real's object. */
static void exe_of(const char *real, struct hm_exe *e)
{
	struct stat st;

	assert_int_equal(stat(real, &st), 0);
	memset(e, 0, sizeof(*e));
	snprintf(e->raw, sizeof(e->raw), "%s", real);
	e->len = (long)hm_encode(e->name, real, strlen(real));
	e->dev = (uint64_t)major(st.st_dev) << 32 | minor(st.st_dev);
	e->ino = st.st_ino;
}

static void test_script_name(void **state)
{
	char dir[] = "/tmp/hm-exec-name.XXXXXX";
	char real_dir[PATH_MAX], sh[PATH_MAX], p[PATH_MAX + 64];
	char want[PATH_MAX + 64], name[HM_MAX_WORD];
	struct hm_exe e;
	int fds[2];
	bool script;
	pid_t pid;
	long n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(realpath(dir, real_dir));
	assert_non_null(realpath("/bin/sh", sh));
	snprintf(p, sizeof(p), "%s/real", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/link", dir);
	assert_int_equal(symlink("real", p), 0);
	snprintf(p, sizeof(p), "%s/real/s.sh", dir);
	put(p, "#!/bin/sh\nread x\n", 0755);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fds[0], 0);
		close(fds[1]);
		snprintf(p, sizeof(p), "%s/link/s.sh", dir);
		execl(p, "s.sh", (char *)NULL);
		_exit(127);
	}
	close(fds[0]);
	assert_true(runs(pid, sh, "s.sh"));
	exe_of(sh, &e);
	n = hm_exec_name(NULL, pid, &e, NULL, NULL, name, sizeof(name),
			 &script);
	snprintf(want, sizeof(want), "%s/real/s.sh", real_dir);
	assert_true(n > 0);
	assert_true(script);
	assert_string_equal(name, want);
	close(fds[1]);
	waitpid(pid, NULL, 0);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

static void test_program_name(void **state)
{
	static const char dom[] =
		"<kernel> /a\n"
		"file execute /usr/bin/python3 exec.realpath=\"/usr/bin/python3.11\"\n"
		"file execute /usr/bin/cat\n";
	struct hm_model *m = hm_model_new();
	const struct hm_name *dn, *real, *got;
	const struct hm_domain *d;
	char sleep_real[PATH_MAX], name[HM_MAX_WORD];
	struct hm_exe e;
	bool script;
	pid_t pid;
	long n;

	(void)state;
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, NULL, NULL), 0);
	hm_model_relink(m);
	assert_int_equal(hm_model_intern(m, "<kernel> /a", 11, &dn), 0);
	d = hm_model_find_domain(m, dn);
	assert_non_null(d);
	assert_int_equal(hm_model_intern(m, "/usr/bin/python3.11", 19, &real),
			 0);
	got = hm_enf_exec_known(d, real);
	assert_non_null(got);
	assert_string_equal(got->str, "/usr/bin/python3");
	assert_int_equal(hm_model_intern(m, "/usr/bin/cat", 12, &real), 0);
	assert_ptr_equal(hm_enf_exec_known(d, real)->str, real->str);
	assert_int_equal(hm_model_intern(m, "/usr/bin/x", 10, &real), 0);
	assert_null(hm_enf_exec_known(d, real));

	/* an ELF program: not a script, its real path */
	assert_non_null(realpath("/bin/sleep", sleep_real));
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl("/bin/sleep", "sleep", "5", (char *)NULL);
		_exit(127);
	}
	assert_true(runs(pid, sleep_real, "sleep"));
	exe_of(sleep_real, &e);
	n = hm_exec_name(d, pid, &e, NULL, NULL, name, sizeof(name),
			 &script);
	assert_true(n > 0);
	assert_false(script);
	assert_string_equal(name, sleep_real);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	hm_model_free(m);
}

/*
 * A program called through a link (awk -> mawk, as /etc/alternatives
 * has it) is named by the link, directories resolved, unless the parent
 * domain's execute entries name its real path by another name only: a
 * name is picked among those the policy gives that file.
 */
static void test_link_name(void **state)
{
	char dir[] = "/tmp/hm-exec-link.XXXXXX";
	char real_dir[PATH_MAX], sleep_real[PATH_MAX], p[PATH_MAX + 64];
	char want[PATH_MAX + 64], name[HM_MAX_WORD], dom[3 * PATH_MAX];
	char nawk[] = "/usr/bin/nawk";
	struct hm_pending_exec pe = { .program = nawk, .allowed = true };
	struct hm_model *m = hm_model_new();
	const struct hm_name *dn;
	struct hm_exe e;
	bool script;
	pid_t pid;
	long n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(realpath(dir, real_dir));
	assert_non_null(realpath("/bin/sleep", sleep_real));
	snprintf(p, sizeof(p), "%s/awk", dir);
	assert_int_equal(symlink(sleep_real, p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		execl(p, "awk", "5", (char *)NULL);
		_exit(127);
	}
	assert_true(runs(pid, sleep_real, "awk"));
	exe_of(sleep_real, &e);
	n = hm_exec_name(NULL, pid, &e, NULL, NULL, name, sizeof(name),
			 &script);
	snprintf(want, sizeof(want), "%s/awk", real_dir);
	assert_true(n > 0);
	assert_false(script);
	assert_string_equal(name, want);
	/* the judged name stands when the parent names the file otherwise */
	snprintf(dom, sizeof(dom), "<kernel> /a\nfile execute /usr/bin/nawk "
		 "exec.realpath=\"%s\"\n", sleep_real);
	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom),
						HM_DIALECT_26, NULL, NULL), 0);
	hm_model_relink(m);
	assert_int_equal(hm_model_intern(m, "<kernel> /a", 11, &dn), 0);
	n = hm_exec_name(hm_model_find_domain(m, dn), pid, &e, &pe, NULL, name,
			 sizeof(name), &script);
	assert_true(n > 0);
	assert_string_equal(name, "/usr/bin/nawk");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	hm_model_free(m);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_name),
		cmocka_unit_test(test_program_name),
		cmocka_unit_test(test_link_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
