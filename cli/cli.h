/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - what every subcommand shares: the command table, exit codes, and
 * printing of diagnostics.  Only cli/ may print, exit or call err().
 */
#ifndef HISTMAC_CLI_H
#define HISTMAC_CLI_H

#include <stdio.h>
#include <sys/types.h>

#include "histmac/common.h"

/* Exit statuses scripts can trust. */
enum {
	HM_EXIT_OK = 0,		/* clean */
	HM_EXIT_FINDINGS = 1,	/* denials, invalid lines, differences */
	HM_EXIT_USAGE = 2,	/* bad command line */
	HM_EXIT_FAIL = 3,	/* could not run: I/O, memory */
	HM_EXIT_POLICY = 4,	/* the policy (or document) read has errors */
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
 * main() calls it once after the command; a command that must flush
 * before it goes on (an exec) may call it first (it closes once).
 */
int hm_cli_finish(int status);

/** hm_cli_usage_error() - "histmac CMD: MSG" and a --help hint on stderr. */
int hm_cli_usage_error(const char *cmd, const char *fmt, ...) HM_PRINTF(2, 3);

/** hm_cli_print_diag() - print every kept message, then a dropped count. */
void hm_cli_print_diag(const struct hm_diag *d, FILE *f);
void hm_cli_print_diag_from(const struct hm_diag *d, size_t from, FILE *f);

/** hm_cli_stderr_is_tty() - progress output only when stderr is a tty. */
int hm_cli_stderr_is_tty(void);

#include "histmac/collector.h"
#include "histmac/learn.h"
#include "histmac/lock.h"
#include "histmac/model.h"

/**
 * hm_cli_load_policy() - load policy directory @dir, printing every
 * diagnostic on stderr.
 * @may_be_missing: a missing @dir gives an empty model (learning into a
 *	new directory).
 * @out: the model (also when the policy had errors); caller frees with
 *	hm_model_free().
 * Returns: HM_EXIT_OK, HM_EXIT_POLICY (errors in the policy, *@out set)
 * or HM_EXIT_FAIL (*@out NULL).
 */
int hm_cli_load_policy(const char *cmd, const char *dir, int dialect,
		       bool may_be_missing, struct hm_model **out);


struct hm_provenance;

/**
 * hm_cli_load_provenance() - read @dir/provenance.conf, printing its
 * diagnostics.
 * @must: a missing file is an error; otherwise *@out is NULL then.
 * @out: caller frees with hm_provenance_free().
 * Returns: HM_EXIT_OK, HM_EXIT_FINDINGS (bad lines, skipped) or
 * HM_EXIT_FAIL.
 */
int hm_cli_load_provenance(const char *cmd, const char *dir, bool must,
			   struct hm_provenance **out);

/** hm_cli_mkdir_p() - create @dir and its missing parents. Returns 0 or
 * negative errno. */
int hm_cli_mkdir_p(const char *dir, mode_t mode);

/**
 * hm_cli_dialect_option() - parse a --dialect/--from value into *@out.
 * Returns: 0, or HM_EXIT_USAGE after printing the usage error.
 */
int hm_cli_dialect_option(const char *cmd, const char *arg, int *out);

/**
 * hm_cli_read_dialect_error() - the usage error of a command that only
 * reads a policy and was given --dialect (which names what is written).
 */
int hm_cli_read_dialect_error(const char *cmd);

/** hm_cli_parse_u64() - a whole number <= @max (0x and 0 prefixes ok). */
int hm_cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

/** hm_cli_parse_range() - "N" or "N-M" with N <= M <= @max. */
int hm_cli_parse_range(const char *s, uint64_t max, uint64_t *lo,
		       uint64_t *hi);

/* Where audit records come from: -i FILE..., --follow LOG, --plugin. */
struct hm_cli_input {
	char **files;
	size_t n_files;
	const char *follow;
	bool plugin;
};

/** hm_cli_open_input() - open the collector @in names; warns on failure.
 * Returns: 0 or negative errno. */
int hm_cli_open_input(const char *cmd, const struct hm_cli_input *in,
		      struct hm_collector_opts *o, struct hm_collector **out);

/**
 * hm_cli_no_records() - after reading files: when not one audit record
 * was read, say so (the collector has named each input without one,
 * "FILE: warning: no audit records", also among good ones).
 * Returns: 0, or -ENODATA (printed) — the caller exits HM_EXIT_FAIL.
 */
int hm_cli_no_records(const char *cmd, const struct hm_cli_input *in,
		      const struct hm_collector_stats *st);

/*
 * A command traced (cli_trace.c): `learn -- COMMAND`, `check -- COMMAND`.
 * hm_cli_command(): after getopt_long, the words after "--" (and optind
 * past them), or NULL.  hm_cli_open_trace(): start it (warns on failure;
 * 0 or negative errno).  hm_cli_trace_signals(): once it runs, SIGTERM,
 * SIGHUP, SIGUSR1, SIGUSR2 passed on to it; SIGINT and SIGQUIT left to
 * the terminal, which sends them to it too.  hm_cli_command_status():
 * once it ended, its status as a shell says it (128+N for signal N),
 * saying why it could not be executed.
 */
char **hm_cli_command(int argc, char **argv);
int hm_cli_open_trace(const char *cmd, char **command,
		      const struct hm_collector_opts *o,
		      struct hm_collector **out);
void hm_cli_trace_signals(const struct hm_collector *c);
int hm_cli_command_status(const char *cmd, const struct hm_collector *c,
			  char **command);

void hm_cli_print_collector_skips(const struct hm_collector_stats *st,
				  FILE *f);
void hm_cli_print_walk_skips(const struct hm_walk_stats *st, FILE *f);

struct hm_store;

/**
 * hm_cli_open_store() - open policy directory @dir for writing through
 * its store (store.h), holding its lock (creating @dir) until
 * hm_store_close(), or say who holds it.
 * @wait_s: 0 fail at once, > 0 wait that long, < 0 wait forever.
 * @dialect: read and write as (HM_DIALECT_AUTO: as the files say).
 * @learning: the command learns (keeps a base to rebase onto edits).
 * @diag: the store's diagnostics; borrowed until hm_store_close().
 * @out: the store; close with hm_store_close().
 * Returns: HM_EXIT_OK or HM_EXIT_FAIL (printed).
 */
int hm_cli_open_store(const char *cmd, const char *dir, int wait_s,
		      int dialect, bool learning, struct hm_diag *diag,
		      struct hm_store **out);

/**
 * hm_cli_close_store() - hm_store_close(), then print what closing said
 * (an edit it could not put back is lost: the user must hear it).
 */
void hm_cli_close_store(struct hm_store *s, bool failed);

/**
 * hm_cli_store_load() - load @s's policy, printing every diagnostic; as
 * hm_cli_load_policy().
 */
int hm_cli_store_load(const char *cmd, struct hm_store *s,
		      bool may_be_missing, struct hm_model **out);

/**
 * hm_cli_store_save() - save @m through @s (store.h), saying what failed
 * (hm_store_converted() has what could not be said in the dialect).
 * Returns: HM_EXIT_OK or HM_EXIT_FAIL (printed).
 */
int hm_cli_store_save(const char *cmd, struct hm_store *s,
		      const struct hm_model *m, const struct hm_file_out *extra,
		      size_t n_extra);

/* How a command that writes a whole policy (import, merge -o) treats a
 * directory that already holds one: refuse, replace, or add to it. */
struct hm_cli_target {
	int wait_s;		/* --wait[=SECONDS] */
	bool force;		/* --force: replace what is there */
	bool append;		/* --append: merge into what is there */
};

/*
 * Options several commands share (cli_options.c): one spelling, one code,
 * one handler.  A command puts the groups it takes in its option table
 * and hands each code to hm_cli_shared_option() first.
 */
enum hm_cli_opt {
	HM_OPT_RESOLVE = 0x1000,	/* --resolve */
	HM_OPT_NO_RESOLVE,		/* --no-resolve */
	HM_OPT_RESOLVE_ROOT,		/* --resolve-root DIR */
	HM_OPT_NO_BUILTIN,		/* --no-builtin-rules */
	HM_OPT_NO_REALPATH,		/* --no-exec-realpath */
	HM_OPT_LEARN_FAILED,		/* --learn-failed */
	HM_OPT_LOGINS,			/* --logins LIST */
	HM_OPT_PEER_PORTS,		/* --peer-ports A-B */
	HM_OPT_EPHEMERAL_PORTS,		/* --ephemeral-ports A-B */
	HM_OPT_FROM,			/* --from D: the policy is read as D */
	HM_OPT_DIALECT,			/* --dialect D: written as D */
	HM_OPT_READ_DIALECT,		/* --dialect where only --from means
					 * something: a usage error saying so */
	HM_OPT_APPEND,			/* --append */
	HM_OPT_FORCE,			/* --force */
	HM_OPT_WAIT,			/* --wait[=SECONDS] */
	HM_OPT_THREADS,			/* --threads N */
};

#define HM_CLI_OPTS_PATHS \
	{ "resolve", no_argument, NULL, HM_OPT_RESOLVE }, \
	{ "no-resolve", no_argument, NULL, HM_OPT_NO_RESOLVE }, \
	{ "resolve-root", required_argument, NULL, HM_OPT_RESOLVE_ROOT }
/* how accesses become entries, as learning made them */
#define HM_CLI_OPTS_GENERALIZE \
	{ "no-builtin-rules", no_argument, NULL, HM_OPT_NO_BUILTIN }, \
	{ "peer-ports", required_argument, NULL, HM_OPT_PEER_PORTS }, \
	{ "ephemeral-ports", required_argument, NULL, HM_OPT_EPHEMERAL_PORTS }
/* what only learning takes */
#define HM_CLI_OPTS_LEARN \
	HM_CLI_OPTS_GENERALIZE, \
	{ "no-exec-realpath", no_argument, NULL, HM_OPT_NO_REALPATH }, \
	{ "learn-failed", no_argument, NULL, HM_OPT_LEARN_FAILED }, \
	{ "logins", required_argument, NULL, HM_OPT_LOGINS }
#define HM_CLI_OPT_FROM { "from", required_argument, NULL, HM_OPT_FROM }
#define HM_CLI_OPT_DIALECT \
	{ "dialect", required_argument, NULL, HM_OPT_DIALECT }
/* a command that only reads a policy: --from D reads it as D */
#define HM_CLI_OPTS_READ \
	HM_CLI_OPT_FROM, \
	{ "dialect", required_argument, NULL, HM_OPT_READ_DIALECT }
#define HM_CLI_OPT_WAIT { "wait", optional_argument, NULL, HM_OPT_WAIT }
/* log files parsed on N threads (collector.h: opts.threads) */
#define HM_CLI_OPT_THREADS \
	{ "threads", required_argument, NULL, HM_OPT_THREADS }
/* a command that writes a whole policy into a directory */
#define HM_CLI_OPTS_TARGET \
	{ "append", no_argument, NULL, HM_OPT_APPEND }, \
	{ "force", no_argument, NULL, HM_OPT_FORCE }, \
	HM_CLI_OPT_WAIT

/* What the shared options set. */
struct hm_cli_shared {
	int resolve;			/* -1: the policy's rule */
	const char *resolve_root;
	struct hm_learn_opts lo;
	int from;			/* HM_DIALECT_AUTO: as the files say */
	int dialect;			/* HM_DIALECT_AUTO: the model's */
	struct hm_cli_target target;	/* --append, --force, --wait */
	unsigned int threads;		/* --threads; 0: one per online CPU */
};

/** hm_cli_shared_init() - every shared option at its default. */
void hm_cli_shared_init(struct hm_cli_shared *s);

#define HM_CLI_NOT_SHARED (-1)

/** hm_cli_threads_option() - --threads N (1..HM_CLI_THREADS_MAX) into @n.
 * Returns: 0 or HM_EXIT_USAGE (printed). */
#define HM_CLI_THREADS_MAX 256
int hm_cli_threads_option(const char *cmd, const char *arg, unsigned int *n);
/** hm_cli_threads() - @n, or when 0 the number of online CPUs. */
unsigned int hm_cli_threads(unsigned int n);

/**
 * hm_cli_shared_option() - handle option code @c if it is a shared one.
 * Returns: 0 handled, HM_EXIT_USAGE (printed), or HM_CLI_NOT_SHARED (the
 * command's own option).
 */
int hm_cli_shared_option(const char *cmd, int c, const char *arg,
			 struct hm_cli_shared *s);

/** hm_cli_input_add() - one more input file (-i LOG, or a bare word).
 * Returns: 0 or -ENOMEM. */
int hm_cli_input_add(struct hm_cli_input *in, char *file);

/**
 * hm_cli_take_target() - open @dir's store for writing a whole policy;
 * a @dir that holds a policy already is refused unless @t says --force or
 * --append.
 * @diag: the store's diagnostics; borrowed until hm_store_close().
 * @had_policy: set when @dir held a policy (the caller merges into it
 *	with --append).
 * Returns: HM_EXIT_OK (*@s set) or HM_EXIT_FAIL (printed).
 */
int hm_cli_take_target(const char *cmd, const char *dir,
		       const struct hm_cli_target *t, struct hm_diag *diag, struct hm_store **s,
		       bool *had_policy);

/** hm_cli_wait_option() - parse --wait[=SECONDS] (@arg may be NULL).
 * Returns: 0, or HM_EXIT_USAGE after printing the usage error. */
int hm_cli_wait_option(const char *cmd, const char *arg, int *out);

/* The subcommands (cli/cmd_<name>.c). */
HM_CMD(events);
HM_CMD(rules);
HM_CMD(learn);
HM_CMD(check);
HM_CMD(profile);
HM_CMD(merge);
HM_CMD(diff);
HM_CMD(stats);
HM_CMD(patternize);
HM_CMD(match);
HM_CMD(encode);
HM_CMD(policy);
HM_CMD(export);
HM_CMD(tree);
HM_CMD(report);
HM_CMD(import);
HM_CMD(enforce);
HM_CMD(query);
HM_CMD(sandbox);
HM_CMD(config);

/**
 * hm_cli_config_apply() - put the options the configuration file gives
 * subcommand (*@argv)[0] before its command line (cli_config.c).
 * @file: the --config given before the subcommand, or NULL: a --config
 *	among the subcommand's arguments wins, else the default file, which
 *	may be missing.
 * @argc, @argv: replaced by the new command line (kept until exit).
 * Returns: HM_EXIT_OK, HM_EXIT_USAGE (errors in the file, printed as
 * FILE:LINE) or HM_EXIT_FAIL (cannot read the file).
 */
int hm_cli_config_apply(const char *file, int *argc, char ***argv);

#endif /* HISTMAC_CLI_H */
