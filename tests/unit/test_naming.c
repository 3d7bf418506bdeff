// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_naming.c - TOMOYO's names of objects on file systems named by type
 * (proc:/, securityfs:/, devpts:/ ...) and of executed programs
 * (directory resolved, last component as passed), lib/naming.c.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/naming.h"

/* A Debian 12 host's mountinfo (cut), with a few shapes added: a bind
 * mount of a proc file, binfmt_misc over autofs, a bind of a debugfs
 * subdirectory, a mount point with a space. */
static const char mountinfo[] =
	"22 28 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
	"23 28 0:22 / /proc rw,nosuid - proc proc rw\n"
	"24 28 0:5 / /dev rw,nosuid - devtmpfs udev rw\n"
	"25 24 0:23 / /dev/pts rw,nosuid - devpts devpts rw,gid=5\n"
	"26 28 0:24 / /run rw,nosuid shared:5 - tmpfs tmpfs rw\n"
	"28 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
	"29 22 0:6 / /sys/kernel/security rw - securityfs securityfs rw\n"
	"40 23 0:33 / /proc/sys/fs/binfmt_misc rw - autofs systemd-1 rw\n"
	"41 40 0:44 / /proc/sys/fs/binfmt_misc rw - binfmt_misc binfmt_misc rw\n"
	"42 23 0:24 /fake-uptime /proc/uptime rw - tmpfs tmpfs rw\n"
	"43 28 0:12 /tracing /mnt/my\\040trace rw - debugfs debugfs rw\n"
	"44 28 0:25 / /tmp rw - tmpfs tmpfs rw\n"
	"garbage line\n";

static const char *name(const struct hm_fs_table *t, const char *p,
			int64_t pid, bool dir)
{
	static struct hm_sbuf b;

	assert_int_equal(hm_object_name(t, p, strlen(p), pid, dir, &b), 0);
	return b.s;
}

static void test_host_table(void **state)
{
	struct hm_fs_table *t;

	(void)state;
	assert_int_equal(hm_fs_table_parse(mountinfo, &t), 0);
	assert_string_equal(name(t, "/proc/filesystems", 7, false),
			    "proc:/filesystems");
	assert_string_equal(name(t, "/proc/7/status", 7, false),
			    "proc:/self/status");
	assert_string_equal(name(t, "/proc/70/status", 7, false),
			    "proc:/70/status");
	assert_string_equal(name(t, "/proc/7", 7, true), "proc:/self/");
	assert_string_equal(name(t, "/proc", 7, true), "proc:/");
	/* links in proc's root to self/ */
	assert_string_equal(name(t, "/proc/net/tcp", 7, false),
			    "proc:/self/net/tcp");
	assert_string_equal(name(t, "/proc/mounts", 7, false),
			    "proc:/self/mounts");
	assert_string_equal(name(t, "/proc/networks", 7, false),
			    "proc:/networks");
	assert_string_equal(name(t, "/sys/kernel/security/tomoyo/audit", 1,
				 false), "securityfs:/tomoyo/audit");
	assert_string_equal(name(t, "/dev/pts/0", 1, false), "devpts:/0");
	assert_string_equal(name(t, "/dev/pts", 1, true), "devpts:/");
	/* the latest mount over the same place wins */
	assert_string_equal(name(t, "/proc/sys/fs/binfmt_misc/register", 1,
				 false), "binfmt_misc:/register");
	/* a tmpfs file bound over a proc file is a tmpfs file */
	assert_string_equal(name(t, "/proc/uptime", 1, false), "/proc/uptime");
	/* a bind of a subdirectory: the path inside the file system */
	assert_string_equal(name(t, "/mnt/my trace/trace", 1, false),
			    "debugfs:/tracing/trace");
	/* file systems that can rename are named by path */
	assert_string_equal(name(t, "/sys/class/net", 1, true),
			    "/sys/class/net/");
	assert_string_equal(name(t, "/tmp/x", 1, false), "/tmp/x");
	assert_string_equal(name(t, "/proceed", 1, false), "/proceed");
	assert_string_equal(name(t, "", 1, true), "/");
	/* and back, for the sandbox */
	{
		struct hm_sbuf b = { 0 };
		static const char *const back[][2] = {
			{ "securityfs:/tomoyo/audit",
			  "/sys/kernel/security/tomoyo/audit" },
			{ "devpts:/0", "/dev/pts/0" },
			{ "proc:/", "/proc/" },
			{ "debugfs:/tracing/trace", "/mnt/my trace/trace" },
			{ "binfmt_misc:/register",
			  "/proc/sys/fs/binfmt_misc/register" },
		};

		for (size_t i = 0; i < HM_ARRAY_SIZE(back); i++) {
			assert_int_equal(hm_object_path(t, back[i][0],
							strlen(back[i][0]),
							&b), 0);
			assert_string_equal(b.s, back[i][1]);
		}
		assert_int_equal(hm_object_path(t, "/etc/x", 6, &b), -EINVAL);
		assert_int_equal(hm_object_path(t, "nfsd:/x", 7, &b), -ENOENT);
		hm_sbuf_free(&b);
	}
	hm_fs_table_free(t);
}

/* A log of another host: the well-known mount points. */
static void test_known_table(void **state)
{
	const struct hm_fs_table *k = hm_fs_table_known();

	(void)state;
	assert_string_equal(name(k, "/sys/kernel/security/tomoyo/stat", 1,
				 false), "securityfs:/tomoyo/stat");
	assert_string_equal(name(k, "/proc/1/cmdline", 1, false),
			    "proc:/self/cmdline");
	assert_string_equal(name(k, "/proc/sys/fs/binfmt_misc/status", 1,
				 false), "binfmt_misc:/status");
	assert_string_equal(name(k, "/dev/mqueue/q", 1, false), "mqueue:/q");
	assert_string_equal(name(k, "/sys/kernel/tracing/trace", 1, false),
			    "tracefs:/trace");
	assert_string_equal(name(k, "/sys/fs/cgroup/x", 1, false),
			    "/sys/fs/cgroup/x");
	assert_non_null(hm_fs_table_host());
}

/* A program keeps its last component, its directories are resolved. */
static void test_program(void **state)
{
	char dir[] = "/tmp/hm-naming.XXXXXX";
	char p[PATH_MAX], want[PATH_MAX + 32], real[PATH_MAX];
	struct hm_sbuf b = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_non_null(realpath(dir, real));
	snprintf(p, sizeof(p), "%s/usr", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/bin", dir);
	assert_int_equal(symlink("usr", p), 0);
	snprintf(p, sizeof(p), "%s/usr/prog.real", dir);
	fclose(fopen(p, "w"));
	snprintf(p, sizeof(p), "%s/usr/prog", dir);
	assert_int_equal(symlink("prog.real", p), 0);

	snprintf(p, sizeof(p), "%s/bin/prog", dir);
	assert_int_equal(hm_program_name(p, NULL, &b), 0);
	snprintf(want, sizeof(want), "%s/usr/prog", real);
	assert_string_equal(b.s, want);
	/* not there (any more): the directory still resolves */
	snprintf(p, sizeof(p), "%s/bin/gone", dir);
	assert_int_equal(hm_program_name(p, NULL, &b), 0);
	snprintf(want, sizeof(want), "%s/usr/gone", real);
	assert_string_equal(b.s, want);
	/* through proc: the real path, as the kernel does */
	assert_int_equal(hm_program_name("/proc/self/exe", "/usr/bin/x", &b),
			 0);
	assert_string_equal(b.s, "/usr/bin/x");
	assert_int_equal(hm_program_name("rel", NULL, &b), -ENOENT);
	hm_sbuf_free(&b);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_table),
		cmocka_unit_test(test_known_table),
		cmocka_unit_test(test_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
