// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * command.c - where COMMAND is, as execve will get it, and the domain
 * `histmac sandbox` is run from when --domain does not say it: the
 * executables of its ancestors through the policy's transitions.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "histmac/procfs.h"
#include "internal.h"

/* @dir/@cmd, lexically clean, in a new string; NULL when out of memory */
static char *join(const char *dir, int dir_len, const char *cmd)
{
	char *out;

	if (asprintf(&out, "%.*s/%s", dir_len, dir, cmd) < 0)
		return NULL;
	hm_sbx_normalize(out);
	return out;
}

char *hm_sbx_program_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *out = NULL;

	if (strchr(cmd, '/')) {
		char cwd[PATH_MAX];

		if (cmd[0] == '/')
			out = join("", 0, cmd + 1);
		else if (getcwd(cwd, sizeof(cwd)))
			out = join(cwd, (int)strlen(cwd), cmd);
		return out;
	}
	/* a bare name: looked up in PATH as execvp() would */
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");

		out = join(p, (int)n, cmd);
		if (!out)
			return NULL;
		if (out[0] == '/' && access(out, X_OK) == 0)
			return out;
		free(out);
		out = NULL;
		p += n + (p[n] == ':');
	}
	return NULL;
}

char *hm_sbx_caller_domain(struct hm_model *m)
{
	char *chain[64];
	size_t n = 0;
	char *dom = strdup(HM_KERNEL);
	pid_t pid = getppid();

	while (pid > 0 && n < HM_ARRAY_SIZE(chain)) {
		char exe[PATH_MAX];
		struct hm_procfs_stat st;

		if (hm_procfs_exe(pid, exe, sizeof(exe)) <= 0)
			break;
		chain[n++] = strdup(exe);
		if (hm_procfs_stat(pid, &st))
			break;
		pid = (pid_t)st.ppid;
	}
	/* from the oldest ancestor down */
	while (n--) {
		char *next = NULL;

		if (dom && chain[n] &&
		    !hm_sbx_enter_domain(m, dom, chain[n], &next)) {
			free(dom);
			dom = next;
		}
		free(chain[n]);
	}
	return dom;
}
