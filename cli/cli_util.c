// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_util.c - what several subcommands share: loading a policy directory
 * with its diagnostics printed, parsing numbers and ranges from options,
 * and opening a collector from the common input options.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/fs.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/store.h"

/* Read only: a store that never saves takes no lock and writes nothing. */
int hm_cli_load_policy(const char *cmd, const char *dir, int dialect,
		       bool may_be_missing, struct hm_model **out)
{
	struct hm_diag d = { 0 };
	struct hm_store_opts o = {
		.dir = dir, .read_dialect = dialect, .dialect = dialect,
		.diag = &d,
	};
	struct hm_store *s;
	int r = hm_store_open(&o, &s);

	*out = NULL;
	if (r) {
		warnx("%s: %s: %s", cmd, dir, strerror(-r));
		hm_store_close(s, false);
		return HM_EXIT_FAIL;
	}
	r = hm_cli_store_load(cmd, s, may_be_missing, out);
	hm_store_close(s, false);
	return r;
}

int hm_cli_read_dialect_error(const char *cmd)
{
	return hm_cli_usage_error(cmd, "--dialect names the dialect written; "
				  "to read the policy as D, use --from D");
}

int hm_cli_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int hm_cli_parse_range(const char *s, uint64_t max, uint64_t *lo,
		       uint64_t *hi)
{
	const char *dash = strchr(s, '-');
	char *first;
	int r;

	if (!dash) {
		r = hm_cli_parse_u64(s, max, lo);
		*hi = *lo;
		return r;
	}
	first = strndup(s, (size_t)(dash - s));
	if (!first)
		return -ENOMEM;
	r = hm_cli_parse_u64(first, max, lo);
	free(first);
	if (!r)
		r = hm_cli_parse_u64(dash + 1, max, hi);
	return r ? r : (*lo <= *hi ? 0 : -EINVAL);
}

void hm_cli_print_collector_skips(const struct hm_collector_stats *st, FILE *f)
{
	for (int i = 0; i < HM_SKIP_MAX; i++)
		if (st->skipped[i])
			fprintf(f, "  skipped %-28s %llu\n", hm_skip_names[i],
				(unsigned long long)st->skipped[i]);
}

void hm_cli_print_walk_skips(const struct hm_walk_stats *st, FILE *f)
{
	for (int i = 0; i < HM_WSKIP_MAX; i++)
		if (st->skipped[i])
			fprintf(f, "  not learned: %-36s %llu\n",
				hm_walk_skip_names[i],
				(unsigned long long)st->skipped[i]);
	if (st->attempts)	/* docs/PASSED.md */
		fprintf(f, "  not learned: %-36s %llu\n",
			"failed before a check (attempt)",
			(unsigned long long)st->attempts);
	if (st->unproven)	/* docs/PATHS.md "The rule" */
		fprintf(f, "  not learned: %-36s %llu\n",
			"object not proven (resolve-unproven)",
			(unsigned long long)st->unproven);
	if (st->failed_passed)
		fprintf(f, "  learned: %-40s %llu\n",
			"failed after the check had passed",
			(unsigned long long)st->failed_passed);
	for (int i = 0; i < HM_WBLIND_MAX; i++)	/* docs/SECURITY.md */
		if (st->blind[i])
			fprintf(f, "  trail blind after: %-34s %llu (first in "
				"%s)\n", hm_walk_blind_names[i],
				(unsigned long long)st->blind[i],
				st->blind_domain[i] ? st->blind_domain[i] : "?");
}

/* Every input is readable before anything is read: a run with one bad
 * input among several fails before it changes anything, naming it. */
static int check_files(const char *cmd, const struct hm_cli_input *in)
{
	for (size_t i = 0; i < in->n_files; i++) {
		int fd;

		if (!strcmp(in->files[i], "-"))
			continue;
		fd = open(in->files[i], O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			warnx("%s: %s: %s", cmd, in->files[i], strerror(e));
			return -e;
		}
		close(fd);
	}
	return 0;
}

int hm_cli_open_input(const char *cmd, const struct hm_cli_input *in,
		      struct hm_collector_opts *o, struct hm_collector **out)
{
	int r = check_files(cmd, in);

	if (r < 0)
		return r;
	if (in->follow)
		r = hm_collector_open_follow(out, in->follow, o);
	else if (in->plugin)
		r = hm_collector_open_plugin(out, o);
	else
		r = hm_collector_open_files(out, (const char *const *)in->files,
					    in->n_files, o);
	if (r < 0)
		warnx("%s: cannot open %s: %s", cmd,
		      in->follow ? in->follow :
		      in->plugin ? "stdin" : in->files[0], strerror(-r));
	return r;
}

int hm_cli_no_records(const char *cmd, const struct hm_cli_input *in,
		      const struct hm_collector_stats *st)
{
	if (st->records || in->follow || in->plugin)
		return 0;
	warnx("%s: not one audit record in %s", cmd,
	      in->n_files > 1 ? "the inputs" : "the input");
	return -ENODATA;
}

int hm_cli_mkdir_p(const char *dir, mode_t mode)
{
	return hm_mkdir_p(dir, mode);
}

int hm_cli_dialect_option(const char *cmd, const char *arg, int *out)
{
	int d = hm_dialect_parse(arg);

	if (d < 0)
		return hm_cli_usage_error(cmd, "unknown dialect '%s' (tomoyo, "
					  "tomoyo-2.1 or tomoyo-1.8)", arg);
	*out = d;
	return 0;
}

int hm_cli_load_provenance(const char *cmd, const char *dir, bool must,
			   struct hm_provenance **out)
{
	struct hm_diag d = { 0 };
	char *path = NULL;
	int r;

	*out = NULL;
	if (asprintf(&path, "%s/%s", dir, HM_PROVENANCE_FILE) < 0 ||
	    hm_provenance_new(out)) {
		free(path);
		warnx("%s: out of memory", cmd);
		return HM_EXIT_FAIL;
	}
	r = hm_provenance_read(*out, path, &d);
	hm_cli_print_diag(&d, stderr);
	if (r && (r != -ENOENT || must))
		warnx("%s: %s: %s%s", cmd, path, strerror(-r), r == -ENOENT ?
		      " (provenance comes from histmac merge)" : "");
	free(path);
	if (r == -ENOENT && !must) {
		hm_provenance_free(*out);
		*out = NULL;
		r = 0;
	}
	r = r ? HM_EXIT_FAIL : d.n_errors ? HM_EXIT_FINDINGS : HM_EXIT_OK;
	hm_diag_free(&d);
	return r;
}
