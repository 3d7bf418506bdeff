// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_config.c - histmac.conf for every subcommand, in one place.  Each
 * key of the file stands for one option of some subcommands (the table
 * below); before a subcommand parses its command line, the options its
 * keys stand for are put in front of what the user typed.  An option the
 * user typed drops the key's, so the command line wins, also for options
 * that repeat (--mark).  Subcommands know nothing of the file.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "histmac/config.h"

enum cfg_type {
	CFG_PATH,	/* one absolute path */
	CFG_PATHS,	/* absolute paths separated by spaces: a repeated option */
	CFG_NUM,	/* a number, fraction allowed (the subcommand checks) */
	CFG_WORD,	/* one word (the subcommand checks which) */
	CFG_BOOL,	/* yes: the option; no: @off (or nothing) */
};

struct cfg_key {
	const char *key;
	enum cfg_type type;
	const char *opt;	/* long option the key stands for */
	const char *off;	/* CFG_BOOL: the option for "no", or NULL */
	const char *shrt;	/* its short form, or NULL */
	const char *cmds;	/* " cmd cmd ": the subcommands that take it */
};

/* Option names follow each subcommand's --help; rename them here too. */
static const struct cfg_key cfg_keys[] = {
	{ "policy_dir", CFG_PATH, "--policy", NULL, "-p",
	  " learn check export import patternize policy report stats tree enforce " },
	{ "state_file", CFG_PATH, "--state", NULL, NULL, " learn enforce " },
	{ "save_interval", CFG_NUM, "--save-interval", NULL, NULL,
	  " learn enforce " },
	{ "resolve_paths", CFG_BOOL, "--resolve", "--no-resolve", NULL,
	  " learn check events " },
	{ "resolve_root", CFG_PATH, "--resolve-root", NULL, NULL,
	  " learn check events " },
	{ "learn_failed", CFG_BOOL, "--learn-failed", NULL, NULL, " learn " },
	{ "learn_logins", CFG_WORD, "--logins", NULL, NULL, " learn " },
	{ "max_learning_entry", CFG_NUM, "--max-learning-entry", NULL, NULL,
	  " learn " },
	{ "peer_ports", CFG_WORD, "--peer-ports", NULL, NULL, " learn check " },
	{ "ephemeral_ports", CFG_WORD, "--ephemeral-ports", NULL, NULL,
	  " learn check " },
	{ "enforce_marks", CFG_PATHS, "--mark", NULL, NULL, " enforce " },
	{ "enforce_mode", CFG_WORD, "--mode", NULL, NULL, " enforce " },
	{ "enforce_default", CFG_WORD, "--default", NULL, NULL, " enforce " },
	{ "enforce_strict", CFG_BOOL, "--strict", "--no-strict", NULL,
	  " enforce " },
	{ "decision_timeout", CFG_NUM, "--decision-timeout", NULL, NULL,
	  " enforce " },
	{ "query_timeout", CFG_NUM, "--query-timeout", NULL, NULL, " enforce " },
	{ "cache_size", CFG_NUM, "--cache-size", NULL, NULL, " enforce " },
	{ "ignore_marks", CFG_NUM, "--ignore-marks", NULL, NULL, " enforce " },
	{ "pidfile", CFG_PATH, "--pidfile", NULL, NULL, " enforce " },
	{ "metrics_file", CFG_PATH, "--metrics", NULL, NULL, " enforce " },
	{ "metrics_interval", CFG_NUM, "--metrics-interval", NULL, NULL,
	  " enforce " },
	{ "record_use", CFG_BOOL, "--record-use", NULL, NULL, " enforce " },
	{ "supervisor_socket", CFG_PATH, "--supervisor", NULL, NULL,
	  " enforce " },
	{ "supervisor_socket", CFG_PATH, "--socket", NULL, "-S", " query " },
};

/* The argv a subcommand gets, kept for the life of the process. */
static struct hm_config *cfg;
static char **cfg_argv;

static bool takes(const struct cfg_key *k, const char *cmd)
{
	const char *p = strstr(k->cmds, cmd);
	size_t n = strlen(cmd);

	return p && p[-1] == ' ' && p[n] == ' ';
}

static bool is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return opt && !strncmp(arg, opt, n) && (!arg[n] || arg[n] == '=');
}

/* Did the user type one of the key's options?  ("-pDIR" counts.) */
static bool typed(const struct cfg_key *k, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (is_opt(argv[i], k->opt) || (k->off && is_opt(argv[i], k->off)))
			return true;
		if (k->shrt && !strncmp(argv[i], k->shrt, 2))
			return true;
	}
	return false;
}

static const char *check_value(enum cfg_type t, const char *v)
{
	switch (t) {
	case CFG_PATH:
		return *v == '/' && !strpbrk(v, " \t") ? NULL :
			"expected an absolute path";
	case CFG_PATHS:
		return *v == '/' ? NULL : "expected absolute paths";
	case CFG_NUM:
	{
		size_t n = strspn(v, "0123456789");

		if (v[n] == '.' && n)
			n += 1 + strspn(v + n + 1, "0123456789");
		return !n || v[n] ? "expected a number" : NULL;
	}
	case CFG_WORD:
		return strpbrk(v, " \t") ? "expected one word" : NULL;
	case CFG_BOOL:
		return !strcmp(v, "yes") || !strcmp(v, "no") ? NULL :
			"expected yes or no";
	}
	return NULL;
}

static int push(char ***v, size_t *n, char *arg)
{
	char **p = realloc(*v, (*n + 2) * sizeof(**v));

	if (!p)
		return -ENOMEM;
	*v = p;
	p[(*n)++] = arg;
	p[*n] = NULL;
	return 0;
}

/* The options key @k with value @v stands for, appended to *@out. */
static int key_args(const struct cfg_key *k, char *v, char ***out, size_t *n)
{
	char *save = NULL, *w;
	int rc = 0;

	switch (k->type) {
	case CFG_BOOL:
		w = (char *)(strcmp(v, "yes") ? k->off : k->opt);
		return w ? push(out, n, w) : 0;
	case CFG_PATHS:
		for (w = strtok_r(v, " \t", &save); w && !rc;
		     w = strtok_r(NULL, " \t", &save))
			rc = push(out, n, (char *)k->opt) ?: push(out, n, w);
		return rc;
	default:
		return push(out, n, (char *)k->opt) ?: push(out, n, v);
	}
}

static const struct cfg_key *find_key(const char *key, const char *cmd)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(cfg_keys); i++)
		if (!strcmp(cfg_keys[i].key, key) &&
		    (!cmd || takes(&cfg_keys[i], cmd)))
			return &cfg_keys[i];
	return NULL;
}

/* Read @path into cfg; every bad line is printed.  Returns an exit code. */
static int load(const char *path, bool must_exist)
{
	const char *keys[HM_ARRAY_SIZE(cfg_keys) + 1] = { NULL };
	const struct hm_config_item *it;
	struct hm_diag d = { 0 };
	size_t n_keys = 0, n;
	int rc;

	for (size_t i = 0; i < HM_ARRAY_SIZE(cfg_keys); i++)
		if (find_key(cfg_keys[i].key, NULL) == &cfg_keys[i])
			keys[n_keys++] = cfg_keys[i].key;
	rc = hm_config_read(path, keys, &d, &cfg);
	if (rc == -ENOENT && !must_exist)
		return HM_EXIT_OK;
	if (rc < 0) {
		warnx("%s: %s", path, strerror(-rc));
		return HM_EXIT_FAIL;
	}
	it = hm_config_items(cfg, &n);
	for (size_t i = 0; i < n; i++) {
		const char *why = check_value(find_key(it[i].key, NULL)->type,
					      it[i].value);

		if (why)
			hm_diag_add(&d, HM_DIAG_ERROR, path, it[i].line,
				    "%s: %s", it[i].key, why);
	}
	hm_cli_print_diag(&d, stderr);
	rc = d.n_errors ? HM_EXIT_USAGE : HM_EXIT_OK;
	hm_diag_free(&d);
	return rc;
}

/* --config FILE or --config=FILE at argv[*i]: its value, *i moved past. */
static const char *config_arg(int argc, char **argv, int *i)
{
	if (!strncmp(argv[*i], "--config=", 9))
		return argv[*i] + 9;
	if (!strcmp(argv[*i], "--config") && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static bool wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	return false;
}

/* argv[0], the file's options for subcommand argv[0], then argv[1..]. */
static int build(int argc, char **argv, char ***out, size_t *n)
{
	const struct hm_config_item *it;
	size_t n_items;
	int rc = push(out, n, argv[0]);

	it = hm_config_items(cfg, &n_items);
	for (size_t i = 0; i < n_items && !rc; i++) {
		const struct cfg_key *k = find_key(it[i].key, argv[0]);

		if (k && !typed(k, argc, argv))
			rc = key_args(k, (char *)it[i].value, out, n);
	}
	for (int i = 1; i < argc && !rc; i++) {
		if (!strcmp(argv[i], "--")) {
			for (; i < argc && !rc; i++)
				rc = push(out, n, argv[i]);
		} else if (!config_arg(argc, argv, &i)) {
			rc = push(out, n, argv[i]);
		}
	}
	return rc;
}

int hm_cli_config_apply(const char *file, int *argc, char ***argv)
{
	char **av = *argv;
	size_t n = 0;
	int rc;

	for (int i = 1; i < *argc && strcmp(av[i], "--"); i++) {
		const char *f = config_arg(*argc, av, &i);

		if (f)
			file = f;
		else if (!strcmp(av[i], "--config"))
			return hm_cli_usage_error(av[0], "--config needs a FILE");
	}
	if (!wants_help(*argc, av)) {
		rc = load(file ? file : HM_CONFIG_FILE, file != NULL);
		if (rc)
			return rc;
	}
	if (build(*argc, av, &cfg_argv, &n)) {
		warnx("out of memory");
		return HM_EXIT_FAIL;
	}
	*argc = (int)n;
	*argv = cfg_argv;
	return HM_EXIT_OK;
}

HM_CMD(config)
{
	char **args = NULL;
	size_t n = 0;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr,
			"usage: histmac [--config FILE] config COMMAND\n"
			"\n"
			"Print the options the configuration file (default "
			HM_CONFIG_FILE ")\n"
			"gives COMMAND, as they are put before the command line.\n");
		return argc == 2 && !strcmp(argv[1], "--help") ?
			HM_EXIT_OK : HM_EXIT_USAGE;
	}
	if (build(1, argv + 1, &args, &n)) {
		warnx("out of memory");
		return HM_EXIT_FAIL;
	}
	printf("histmac");
	for (size_t i = 0; i < n; i++)
		printf(" %s", args[i]);
	printf("\n");
	free(args);
	return HM_EXIT_OK;
}
