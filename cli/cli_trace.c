// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_trace.c - what `learn -- COMMAND` and `check -- COMMAND` share: the
 * command after "--", starting it traced (collector.h), passing signals
 * on to it, and its status as a shell reports it.
 */
#include <err.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

static volatile pid_t traced;	/* the command, for a signal handler */

char **hm_cli_command(int argc, char **argv)
{
	char **command;

	if (optind < 2 || optind >= argc || strcmp(argv[optind - 1], "--"))
		return NULL;
	command = &argv[optind];
	optind = argc;
	return command;
}

int hm_cli_open_trace(const char *cmd, char **command,
		      const struct hm_collector_opts *o,
		      struct hm_collector **out)
{
	int r = hm_collector_open_trace(out, command, o);

	if (r == -EPERM)
		warnx("%s: %s: ptrace is not allowed here (kernel.yama."
		      "ptrace_scope, or a tracer already)", cmd, command[0]);
	else if (r)
		warnx("%s: %s: %s", cmd, command[0], strerror(-r));
	return r;
}

static void pass_on(int sig)
{
	if (traced > 0)
		kill(traced, sig);
}

void hm_cli_trace_signals(const struct hm_collector *c)
{
	static const int passed[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = pass_on };

	traced = hm_collector_trace_pid(c);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < HM_ARRAY_SIZE(passed); i++)
		sigaction(passed[i], &sa, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
}

int hm_cli_command_status(const char *cmd, const struct hm_collector *c,
			  char **command)
{
	int err;
	int st = hm_collector_trace_status(c, &err);

	if (err)
		warnx("%s: %s: %s", cmd, command[0], strerror(err));
	if (st < 0)
		return HM_EXIT_FAIL;
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}
