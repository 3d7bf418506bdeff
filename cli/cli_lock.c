// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_lock.c - taking a policy directory's writer lock for a subcommand:
 * the holder named on failure, --wait[=SECONDS] parsed one way for all.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Our own command line, for the next writer's error message. */
static void own_command(char *buf, size_t size)
{
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(buf, size, "histmac");
		return;
	}
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0' || buf[i] == '\n')
			buf[i] = ' ';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

int hm_cli_lock_policy(const char *cmd, const char *dir, int wait_s,
		       struct hm_lock **out)
{
	struct hm_lock_holder h;
	char what[1024];
	int r;

	own_command(what, sizeof(what));
	r = hm_lock_take(dir, what, wait_s, &h, out);
	if (r == -EWOULDBLOCK && h.pid)
		warnx("%s: %s is being written by pid %ld (%s)%s", cmd, dir,
		      (long)h.pid, h.command,
		      wait_s ? "; gave up waiting" : "; try --wait");
	else if (r == -EWOULDBLOCK)
		warnx("%s: %s is being written by another process%s", cmd,
		      dir, wait_s ? "; gave up waiting" : "; try --wait");
	else if (r < 0)
		warnx("%s: cannot lock %s: %s", cmd, dir, strerror(-r));
	return r < 0 ? HM_EXIT_FAIL : HM_EXIT_OK;
}

int hm_cli_wait_option(const char *cmd, const char *arg, int *out)
{
	uint64_t v;

	if (!arg) {
		*out = -1;	/* --wait alone: as long as it takes */
		return 0;
	}
	if (hm_cli_parse_u64(arg, 1u << 30, &v) < 0)
		return hm_cli_usage_error(cmd, "--wait takes seconds, not '%s'",
					  arg);
	*out = (int)v;
	return 0;
}

int hm_cli_target_option(const char *cmd, int c, const char *arg,
			 struct hm_cli_target *t)
{
	if (c == 'a')
		t->append = true;
	else if (c == 'F')
		t->force = true;
	else
		return hm_cli_wait_option(cmd, arg, &t->wait_s);
	return 0;
}

int hm_cli_take_target(const char *cmd, const char *dir,
		       const struct hm_cli_target *t, struct hm_lock **lock,
		       bool *had_policy)
{
	int r = hm_cli_lock_policy(cmd, dir, t->wait_s, lock);

	if (r != HM_EXIT_OK)
		return r;
	*had_policy = hm_cli_has_policy(dir);
	if (*had_policy && !t->force && !t->append) {
		warnx("%s: %s already holds a policy; --append adds to it, "
		      "--force replaces it", cmd, dir);
		hm_lock_release(*lock, true);
		*lock = NULL;
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}
