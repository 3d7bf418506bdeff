// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_tree.c - histmac tree: draw the domain tree of a policy (Graphviz
 * dot, SVG, PNG, PDF through libgvc, or the 2007 posting's indented
 * text), optionally a subtree, cut at a depth, with the domains of a
 * check result marked.  The drawing is exporters/dot.c and text_tree.c.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_export.h"
#include "histmac/policy_io.h"

#define CMD "tree"

static const char *const tree_formats[] = {
	"text", "dot", "svg", "png", "pdf", NULL,
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac tree -p POLICYDIR [-o FILE] [--format FORMAT] [options]\n"
"\n"
"Draw the policy's domains as the tree of exec transitions they form.\n"
"A node shows the program's base name and its number of ACL entries;\n"
"hovering it (SVG) shows the full domain name and a summary of its ACL.\n"
"Fill colour is the profile (grey disabled, yellow learning, orange\n"
"permissive, green enforcing); octagons are domains whose history was\n"
"not observed; red marks violations (--highlight); dashed boxes are\n"
"ancestors the policy does not hold, red when the check found\n"
"violations in domains the policy lacks.\n"
"\n"
"  -p, --policy DIR        the policy directory (TOMOYO text)\n"
"  -o, --output FILE       where to write (default: stdout); replaced\n"
"                          atomically\n"
"  -f, --format FORMAT     text, dot, svg, png or pdf (default: from\n"
"                          FILE's extension; text on stdout)\n"
"      --highlight FILE    mark the domains with violations in FILE, the\n"
"                          output of 'histmac check --format json'\n"
HM_TREE_OPTIONS_HELP
"      --from D            read the policy as tomoyo, tomoyo-2.1 or\n"
"                          tomoyo-1.8 (default: detected)\n"
"  -h, --help              this text\n"
"\n"
"Text output is the posting's shape:\n"
"  <kernel>\n"
"  + /sbin/init\n"
"    + /etc/init.d/rc\n"
"\n"
"Exit: 0 drawn, 4 drawn but the policy has errors, 2 usage (or an\n"
"unknown --root), 3 could not read or write.\n");
}

static const struct option options[] = {
	{ "policy", required_argument, NULL, 'p' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, 'f' },
	{ "highlight", required_argument, NULL, 'H' },
	HM_CLI_OPTS_READ,
	{ "help", no_argument, NULL, 'h' },
	HM_TREE_LONG_OPTIONS,
	{ NULL, 0, NULL, 0 },
};

static bool is_tree_format(const struct hm_exporter *e)
{
	for (size_t i = 0; e && tree_formats[i]; i++)
		if (!strcmp(e->name, tree_formats[i]))
			return true;
	return false;
}

/* The exporter for --format @fmt, else for @out's extension. */
static const struct hm_exporter *pick_format(const char *fmt, const char *out)
{
	const struct hm_exporter *e;

	if (fmt)
		e = hm_exporter_find(fmt);
	else if (out && strcmp(out, "-"))
		e = hm_exporter_for_file(out);
	else
		e = &hm_exporter_text;
	return is_tree_format(e) ? e : NULL;
}

HM_CMD(tree)
{
	struct hm_export_opts o = { 0 };
	struct hm_check_result *check = NULL;
	const char *policy = NULL;
	const char *output = NULL;
	const char *format = NULL;
	const char *highlight = NULL;
	const struct hm_exporter *e;
	struct hm_model *m = NULL;
	int dialect = HM_DIALECT_AUTO;
	int status;
	int c;

	while ((c = getopt_long(argc, argv, "p:o:f:h", options, NULL)) != -1) {
		int r = hm_cli_parse_tree_opt(CMD, c, optarg, &o);

		if (r < 0)
			return -r;
		if (r)
			continue;
		switch (c) {
		case 'p':
			policy = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'f':
			format = optarg;
			break;
		case 'H':
			highlight = optarg;
			break;
		case HM_OPT_READ_DIALECT:
			return hm_cli_read_dialect_error(CMD);
		case HM_OPT_FROM:
			if (hm_cli_dialect_option(CMD, optarg, &dialect))
				return HM_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error(CMD, "bad option");
		}
	}
	if (optind < argc)
		return hm_cli_usage_error(CMD, "unexpected argument '%s'",
					  argv[optind]);
	if (!policy)
		return hm_cli_usage_error(CMD, "need -p POLICYDIR");
	e = pick_format(format, output);
	if (!e)
		return hm_cli_usage_error(CMD, format ?
			"unknown format '%s' (text, dot, svg, png, pdf)" :
			"cannot tell the format from '%s'; use --format",
			format ? format : output);
	if (highlight && hm_cli_load_check(CMD, highlight, &check))
		return HM_EXIT_FAIL;
	o.check = check;
	status = hm_cli_load_policy(CMD, policy, dialect, false, &m);
	if (m) {
		int r = hm_cli_export(CMD, e, m, &o, output);

		if (r)
			status = r;
	}
	hm_model_free(m);
	hm_check_result_free(check);
	return status;
}
