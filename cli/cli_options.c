// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_options.c - the options several commands share, each spelled and
 * handled in one place: where paths come from (--resolve...), how
 * accesses become entries (--no-builtin-rules, --peer-ports...), the
 * policy's dialect read (--from D) and written (--dialect D), a target
 * directory (--append, --force, --wait), threads reading logs
 * (--threads).  A command lists the groups it
 * takes in its option table (HM_CLI_OPTS_*) and passes every option code
 * to hm_cli_shared_option() before its own switch.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/policy_io.h"

int hm_cli_input_add(struct hm_cli_input *in, char *file)
{
	char **n = realloc(in->files, (in->n_files + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	in->files = n;
	in->files[in->n_files++] = file;
	return 0;
}

static int ports(const char *cmd, const char *arg, uint16_t *lo,
		 uint16_t *hi)
{
	uint64_t a, b;

	if (hm_cli_parse_range(arg, 65535, &a, &b))
		return hm_cli_usage_error(cmd, "bad port range '%s'", arg);
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

/* The generalizer's options: into @s->lo, which the command set up. */
static int learn_option(const char *cmd, int c, const char *arg,
			struct hm_learn_opts *lo)
{
	switch (c) {
	case HM_OPT_NO_BUILTIN: lo->builtin_rules = false; return 0;
	case HM_OPT_NO_REALPATH: lo->exec_realpath = false; return 0;
	case HM_OPT_LEARN_FAILED: lo->learn_failed = true; return 0;
	case HM_OPT_LOGINS:
		lo->logins.n = 0;
		if (hm_logins_parse(&lo->logins, arg, strlen(arg)) ||
		    !lo->logins.n || lo->logins.n > HM_LOGINS_MAX)
			return hm_cli_usage_error(cmd, "--logins takes 1 to %d "
						  "login uids or '-', comma-"
						  "separated, not '%s'",
						  HM_LOGINS_MAX, arg);
		return 0;
	case HM_OPT_PEER_PORTS:
		return ports(cmd, arg, &lo->peer_port_min, &lo->peer_port_max);
	default:	/* HM_OPT_EPHEMERAL_PORTS */
		return ports(cmd, arg, &lo->ephemeral_min, &lo->ephemeral_max);
	}
}

int hm_cli_shared_option(const char *cmd, int c, const char *arg,
			 struct hm_cli_shared *s)
{
	switch (c) {
	case HM_OPT_RESOLVE: s->resolve = 1; return 0;
	case HM_OPT_NO_RESOLVE: s->resolve = 0; return 0;
	case HM_OPT_RESOLVE_ROOT: s->resolve_root = arg; return 0;
	case HM_OPT_NO_BUILTIN: case HM_OPT_NO_REALPATH:
	case HM_OPT_LEARN_FAILED: case HM_OPT_PEER_PORTS: case HM_OPT_LOGINS:
	case HM_OPT_EPHEMERAL_PORTS:
		return learn_option(cmd, c, arg, &s->lo);
	case HM_OPT_FROM: return hm_cli_dialect_option(cmd, arg, &s->from);
	case HM_OPT_DIALECT:
		return hm_cli_dialect_option(cmd, arg, &s->dialect);
	case HM_OPT_READ_DIALECT: return hm_cli_read_dialect_error(cmd);
	case HM_OPT_APPEND: s->target.append = true; return 0;
	case HM_OPT_FORCE: s->target.force = true; return 0;
	case HM_OPT_WAIT:
		return hm_cli_wait_option(cmd, arg, &s->target.wait_s);
	case HM_OPT_THREADS:
		return hm_cli_threads_option(cmd, arg, &s->threads);
	default:
		return HM_CLI_NOT_SHARED;
	}
}

int hm_cli_threads_option(const char *cmd, const char *arg, unsigned int *n)
{
	uint64_t v;

	if (hm_cli_parse_u64(arg, HM_CLI_THREADS_MAX, &v) || !v)
		return hm_cli_usage_error(cmd, "--threads takes 1 to %d, not "
					  "'%s'", HM_CLI_THREADS_MAX, arg);
	*n = (unsigned int)v;
	return 0;
}

unsigned int hm_cli_threads(unsigned int n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (n)
		return n;
	return cpus < 1 ? 1 : cpus > HM_CLI_THREADS_MAX ?
	       HM_CLI_THREADS_MAX : (unsigned int)cpus;
}

void hm_cli_shared_init(struct hm_cli_shared *s)
{
	*s = (struct hm_cli_shared){ .resolve = -1, .from = HM_DIALECT_AUTO,
				     .dialect = HM_DIALECT_AUTO };
	hm_learn_opts_default(&s->lo);
}
