/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli_export.h - what the drawing and import subcommands (tree, report,
 * import) share: reading a check result for highlighting, and writing an
 * exporter's output to a file atomically (or to stdout).
 */
#ifndef HISTMAC_CLI_EXPORT_H
#define HISTMAC_CLI_EXPORT_H

#include "cli.h"
#include "histmac/check_result.h"
#include "histmac/exporter.h"

/**
 * hm_cli_load_check() - read `histmac check --format json` output from
 * @path, printing problems on stderr.
 * Returns: HM_EXIT_OK (*@out set) or HM_EXIT_FAIL.
 */
int hm_cli_load_check(const char *cmd, const char *path,
		      struct hm_check_result **out);

/**
 * hm_cli_export() - run @e on @m into @path ("-" or NULL: stdout).  A
 * file is written in memory first and then replaced atomically, so a
 * failed export never leaves half a file.  Prints problems on stderr.
 * Returns: HM_EXIT_OK, HM_EXIT_USAGE (an unknown --root) or HM_EXIT_FAIL.
 */
int hm_cli_export(const char *cmd, const struct hm_exporter *e,
		  const struct hm_model *m, const struct hm_export_opts *o,
		  const char *path);

/**
 * hm_cli_parse_tree_opt() - the options tree and report share: --root,
 * --depth, --max-children, --max-nodes, --title.  @c is getopt's return.
 * Returns: 1 handled, 0 not one of them, HM_EXIT_USAGE on a bad value
 * (printed) as a negative number.
 */
int hm_cli_parse_tree_opt(const char *cmd, int c, const char *arg,
			  struct hm_export_opts *o);

/* getopt_long codes of those options. */
enum {
	HM_OPT_ROOT = 0x1000,
	HM_OPT_DEPTH,
	HM_OPT_MAX_CHILDREN,
	HM_OPT_MAX_NODES,
	HM_OPT_TITLE,
};

#define HM_TREE_LONG_OPTIONS                                             \
	{ "root", required_argument, NULL, HM_OPT_ROOT },                \
	{ "depth", required_argument, NULL, HM_OPT_DEPTH },              \
	{ "max-children", required_argument, NULL, HM_OPT_MAX_CHILDREN }, \
	{ "max-nodes", required_argument, NULL, HM_OPT_MAX_NODES },      \
	{ "title", required_argument, NULL, HM_OPT_TITLE }

#define HM_TREE_OPTIONS_HELP                                              \
"      --root DOMAIN       draw only this domain's subtree\n"              \
"      --depth N           draw N levels below the root(s) (N >= 1)\n"     \
"      --max-children N    children drawn per parent before the rest\n"    \
"                          fold into a '+K more' node (default 40)\n"      \
"      --max-nodes N       nodes drawn in all, breadth first (default\n"   \
"                          1500); the picture says what was folded\n"      \
"      --title TEXT        the picture's title\n"

#endif /* HISTMAC_CLI_EXPORT_H */
