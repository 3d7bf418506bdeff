/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what every subcommand shares: the command table, exit codes, and
 * printing of diagnostics.  Only cli/ may print, exit or call err().
 */
#ifndef HISTMAC_CLI_H
#define HISTMAC_CLI_H

#include <stdio.h>

#include "histmac/common.h"

/* Exit statuses scripts can trust. */
enum {
	HM_EXIT_OK = 0,		/* clean */
	HM_EXIT_FINDINGS = 1,	/* denials, invalid lines, differences */
	HM_EXIT_USAGE = 2,	/* bad command line */
	HM_EXIT_FAIL = 3,	/* could not run: I/O, memory */
};

struct hm_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

extern const struct hm_cmd hm_commands[];

#define HM_CMD(name) int cmd_##name(int argc, char **argv)

/**
 * hm_cli_finish() - flush and close stdout; a write error (full disk)
 * turns @status into HM_EXIT_FAIL.  Returns the final exit status.
 */
int hm_cli_finish(int status);

/** hm_cli_usage_error() - "histmac CMD: MSG" and a --help hint on stderr. */
int hm_cli_usage_error(const char *cmd, const char *fmt, ...) HM_PRINTF(2, 3);

/** hm_cli_print_diag() - print every kept message, then a dropped count. */
void hm_cli_print_diag(const struct hm_diag *d, FILE *f);

/** hm_cli_stderr_is_tty() - progress output only when stderr is a tty. */
int hm_cli_stderr_is_tty(void);

/* The subcommands (cli/cmd_<name>.c). */

#endif /* HISTMAC_CLI_H */
