// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_export.c - helpers of the tree, report and import subcommands:
 * reading a check result, option values shared by tree and report, and
 * writing an export to a file atomically.
 */
#include <err.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_export.h"

#define MAX_CHECK_SIZE (512u << 20)

/* Read all of @path (at most MAX_CHECK_SIZE bytes). */
static int read_file(const char *path, char **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;
	size_t cap = 0;
	size_t got;

	if (!f)
		return -errno;
	do {
		if (n == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > MAX_CHECK_SIZE) {
				free(buf);
				fclose(f);
				return -EFBIG;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*out = buf;
	*len = n;
	return 0;
}

int hm_cli_load_check(const char *cmd, const char *path,
		      struct hm_check_result **out)
{
	struct hm_diag d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	int r = read_file(path, &buf, &len);

	if (r) {
		warnx("%s: %s: %s", cmd, path, strerror(-r));
		return HM_EXIT_FAIL;
	}
	r = hm_check_result_parse(buf, len, path, &d, out);
	free(buf);
	hm_cli_print_diag(&d, stderr);
	hm_diag_free(&d);
	if (r) {
		warnx("%s: %s: not a check result (%s)", cmd, path,
		      strerror(-r));
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

/*
 * hm_atomic_write() leaves its file 0600; pictures and pages are for
 * reading, so give them what open(O_CREAT, 0666) would have (umask).
 */
static void give_umask_mode(const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	if (chmod(path, 0666 & ~mask))
		warn("chmod %s", path);
}

int hm_cli_export(const char *cmd, const struct hm_exporter *e,
		  const struct hm_model *m, const struct hm_export_opts *o,
		  const char *path)
{
	struct hm_export_opts opts = *o;
	struct hm_diag d = { 0 };
	bool to_stdout = !path || !strcmp(path, "-");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = to_stdout ? stdout : open_memstream(&buf, &len);
	int r;

	if (!f) {
		warn("%s", cmd);
		return HM_EXIT_FAIL;
	}
	opts.diag = &d;
	r = e->write(m, f, &opts);
	if (!to_stdout && fclose(f) && !r)
		r = -EIO;
	if (!r && !to_stdout)
		r = hm_atomic_write(path, buf, len);
	if (!r && !to_stdout)
		give_umask_mode(path);
	free(buf);
	hm_cli_print_diag(&d, stderr);
	hm_diag_free(&d);
	if (r == -ENOENT && o->root)
		return HM_EXIT_USAGE;
	if (r) {
		warnx("%s: writing %s %s: %s", cmd, e->name,
		      to_stdout ? "to stdout" : path, strerror(-r));
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

static int parse_count(const char *cmd, const char *opt, const char *arg,
		       unsigned *out)
{
	uint64_t v;

	if (hm_cli_parse_u64(arg, 1000000, &v) || v == 0) {
		hm_cli_usage_error(cmd, "%s wants a number from 1 to 1000000, "
				   "not '%s'", opt, arg);
		return -HM_EXIT_USAGE;
	}
	*out = (unsigned)v;
	return 1;
}

int hm_cli_parse_tree_opt(const char *cmd, int c, const char *arg,
			  struct hm_export_opts *o)
{
	switch (c) {
	case HM_OPT_ROOT:
		o->root = arg;
		return 1;
	case HM_OPT_DEPTH:
		return parse_count(cmd, "--depth", arg, &o->depth);
	case HM_OPT_MAX_CHILDREN:
		return parse_count(cmd, "--max-children", arg,
				   &o->max_children);
	case HM_OPT_MAX_NODES:
		return parse_count(cmd, "--max-nodes", arg, &o->max_nodes);
	case HM_OPT_TITLE:
		o->title = arg;
		return 1;
	default:
		return 0;
	}
}
