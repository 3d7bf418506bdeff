// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_export.c - histmac export: write a policy directory in another
 * format.  The TOMOYO dialects are rows of formats[] below; any other
 * --format is looked up in the exporter registry (exporters/registry.c:
 * xml, json, dot, ...), so a new format is one row in either table.
 * The conversion itself is the library's (policy_io.h, exporter.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_export.h"
#include "histmac/exporter.h"
#include "histmac/policy_io.h"
#include "histmac/store.h"

#define CMD "export"

struct export_opts {
	const char *policy;
	const char *format;
	const char *out;
	int from;
};

struct export_format {
	const char *name;
	const char *description;
	int (*run)(const struct export_format *f, const struct hm_model *m,
		   const struct export_opts *o);
	int dialect;		/* enum hm_dialect, for the TOMOYO rows */
};

static int run_tomoyo(const struct export_format *f, const struct hm_model *m,
		      const struct export_opts *o);

static const struct export_format formats[] = {
	{ "tomoyo", "TOMOYO 2.6 mainline policy (the default)", run_tomoyo,
	  HM_DIALECT_26 },
	{ "tomoyo-2.1", "TOMOYO 2.1, the 2007 posting's syntax", run_tomoyo,
	  HM_DIALECT_21 },
	{ "tomoyo-1.8", "TOMOYO 1.8 / AKARI policy", run_tomoyo,
	  HM_DIALECT_18 },
	{ NULL, NULL, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac export -p POLICYDIR [--format FORMAT] [--from DIALECT]\n"
"                      [-o OUT]\n"
"\n"
"Write the policy in POLICYDIR in another format.  TOMOYO formats go to\n"
"stdout (domain policy, then exception policy, each after a\n"
"'# ==> FILE <==' line) or, with -o, into directory OUT as\n"
"domain_policy.conf, exception_policy.conf, rewrite.conf (and, for 2.6\n"
"and 1.8, profile.conf and manager.conf when absent), each replaced\n"
"atomically.  What the target dialect cannot say is written as a\n"
"'# not in ...' comment; the count per kind is printed on stderr.\n"
"Other formats write one file OUT (or stdout).\n"
"\n"
"  -p, --policy DIR      the policy directory to read\n"
"  -f, --format FORMAT   what to write (default tomoyo):\n");
	for (const struct export_format *x = formats; x->name; x++)
		fprintf(f, "                          %-11s %s\n", x->name,
			x->description);
	for (size_t i = 0; hm_exporters[i]; i++)
		fprintf(f, "                          %-11s %s\n",
			hm_exporters[i]->name, hm_exporters[i]->description);
	fprintf(f,
"      --from DIALECT    read POLICYDIR as tomoyo, tomoyo-2.1 or tomoyo-1.8\n"
"                        instead of detecting it\n"
"  -o, --output OUT      directory (TOMOYO formats) or file to write\n"
"  -h, --help            this help\n"
"\n"
"Exit: 0 written, 4 written but the input policy had errors, 2 usage,\n"
"3 could not read or write.\n");
}

/* "3 lines as comments (network unix 2, signal 1)" on stderr. */
static void print_counts(const char *what, const unsigned long *v,
			 unsigned long total)
{
	const char *sep = " (";

	fprintf(stderr, "%lu %s", total, what);
	for (int i = 0; i < HM_CONV_MAX; i++) {
		if (!v[i])
			continue;
		fprintf(stderr, "%s%s %lu", sep, hm_conv_what_name(i), v[i]);
		sep = ", ";
	}
	if (total)
		fputc(')', stderr);
}

static void print_summary(const struct export_format *f,
			  const struct hm_convert_stats *st)
{
	fprintf(stderr, "histmac %s: %s: %lu policy lines, ", CMD, f->name,
		st->lines);
	print_counts("lines written as comments", st->commented,
		     st->n_commented);
	fputs(", ", stderr);
	print_counts("entries widened", st->widened, st->n_widened);
	fputc('\n', stderr);
}

static int to_stdout(const struct hm_model *m, enum hm_dialect d,
		     struct hm_convert_stats *st)
{
	int r;

	printf("# ==> %s <==\n", HM_DOMAIN_POLICY);
	r = hm_policy_write_domain(m, d, stdout, st);
	if (!r) {
		printf("# ==> %s <==\n", HM_EXCEPTION_POLICY);
		r = hm_policy_write_exception(m, d, stdout, st);
	}
	return r;
}

/* A policy directory is written through its store (its lock, one commit).
 * Returns 0, a negative errno, or 1 (could not lock it: said). */
static int to_dir(const struct hm_model *m, const char *dir, enum hm_dialect d,
		  struct hm_convert_stats *st)
{
	struct hm_diag diag = { 0 };
	struct hm_store *s;
	int r;

	if (hm_cli_open_store(CMD, dir, 0, (int)d, false, &diag, &s))
		return 1;
	r = hm_store_save(s, m, NULL, 0);
	*st = *hm_store_converted(s);
	hm_cli_print_diag(&diag, stderr);
	hm_cli_close_store(s, r != 0);	/* prints what it adds */
	hm_diag_free(&diag);
	return r;
}

static int run_tomoyo(const struct export_format *f, const struct hm_model *m,
		      const struct export_opts *o)
{
	struct hm_convert_stats st = { 0 };
	enum hm_dialect d = (enum hm_dialect)f->dialect;
	int r;

	if (o->out)
		r = to_dir(m, o->out, d, &st);
	else
		r = to_stdout(m, d, &st);
	if (r > 0)
		return HM_EXIT_FAIL;
	if (r) {
		fprintf(stderr, "histmac %s: %s: %s\n", CMD,
			o->out ? o->out : "stdout", strerror(-r));
		return HM_EXIT_FAIL;
	}
	print_summary(f, &st);
	return HM_EXIT_OK;
}

static int run(const struct export_opts *o)
{
	const struct export_format *f = formats;
	const struct hm_exporter *e = NULL;
	struct hm_model *m = NULL;
	int load;
	int r;

	while (f->name && strcmp(f->name, o->format))
		f++;
	if (!f->name && !(e = hm_exporter_find(o->format)))
		return hm_cli_usage_error(CMD, "unknown format '%s'",
					  o->format);
	load = hm_cli_load_policy(CMD, o->policy, o->from, false, &m);
	if (load == HM_EXIT_FAIL)
		return load;
	if (f->name)
		r = f->run(f, m, o);
	else
		r = hm_cli_export(CMD, e, m, &(struct hm_export_opts){ 0 },
				  o->out);
	hm_model_free(m);
	return r == HM_EXIT_OK ? load : r;
}

int cmd_export(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "format", required_argument, NULL, 'f' },
		HM_CLI_OPT_FROM,
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct export_opts o = { .format = "tomoyo", .from = HM_DIALECT_AUTO };
	int c;

	while ((c = getopt_long(argc, argv, "p:f:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o.policy = optarg;
			break;
		case 'f':
			o.format = optarg;
			break;
		case HM_OPT_FROM:
			if (hm_cli_dialect_option(CMD, optarg, &o.from))
				return HM_EXIT_USAGE;
			break;
		case 'o':
			o.out = optarg;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (!o.policy)
		return hm_cli_usage_error(CMD, "-p POLICYDIR is required");
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected '%s'", argv[optind]);
	return run(&o);
}
