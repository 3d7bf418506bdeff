// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs.c - one reader of a process's /proc files, for the enforcer
 * (its process table, conditions, tracers) and the sandbox (the domain of
 * its caller).  Each call reads the file once, with no stdio buffer, so
 * the values are of one moment.  Owns nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "histmac/procfs.h"

/* /proc/PID/NAME, or /proc/self/NAME for @pid 0, into @path. */
static void pid_path(char *path, size_t cap, int32_t pid, const char *name)
{
	if (pid)
		snprintf(path, cap, "/proc/%d/%s", (int)pid, name);
	else
		snprintf(path, cap, "/proc/self/%s", name);
}

ssize_t hm_procfs_read(const char *path, char *buf, size_t cap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	n = read(fd, buf, cap - 1);
	if (n < 0)
		n = errno == ESRCH ? -ESRCH : -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

int hm_procfs_parse_stat(const char *line, struct hm_procfs_stat *st)
{
	const char *p = strrchr(line, ')');
	int field = 2;

	if (!p)
		return -EINVAL;
	p++;
	*st = (struct hm_procfs_stat){ 0 };
	while (*p && field < 22) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		field++;
		if (field == 3)
			st->state = *p;
		else if (field == 4)
			st->ppid = strtoll(p, NULL, 10);
		else if (field == 22)
			st->start = strtoull(p, NULL, 10);
		while (*p && *p != ' ')
			p++;
	}
	return field == 22 ? 0 : -EINVAL;
}

int hm_procfs_stat(int32_t pid, struct hm_procfs_stat *st)
{
	char path[64];
	char buf[1024];
	ssize_t n;

	pid_path(path, sizeof(path), pid, "stat");
	n = hm_procfs_read(path, buf, sizeof(buf));
	return n < 0 ? (int)n : hm_procfs_parse_stat(buf, st);
}

ssize_t hm_procfs_status(int32_t pid, char *buf, size_t cap)
{
	char path[64];

	pid_path(path, sizeof(path), pid, "status");
	return hm_procfs_read(path, buf, cap);
}

const char *hm_procfs_field(const char *status, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = status; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, len) && p[len] == ':')
			return p + len + 1 + strspn(p + len + 1, " \t");
	}
	return NULL;
}

ssize_t hm_procfs_cmdline(int32_t pid, char *buf, size_t cap)
{
	char path[64];

	pid_path(path, sizeof(path), pid, "cmdline");
	return hm_procfs_read(path, buf, cap);
}

ssize_t hm_procfs_exe(int32_t pid, char *buf, size_t cap)
{
	char path[64];
	ssize_t n;

	pid_path(path, sizeof(path), pid, "exe");
	n = readlink(path, buf, cap);
	if (n < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	if ((size_t)n >= cap)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return n;
}
