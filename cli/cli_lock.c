// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cli_lock.c - opening a policy directory's store (store.h) for a
 * subcommand: the lock's holder named on failure, --wait[=SECONDS] parsed
 * one way for all, loads and saves said the same way.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "histmac/procfs.h"
#include "histmac/store.h"

/* Our own command line, for the next writer's error message. */
static void own_command(char *buf, size_t size)
{
	ssize_t n = hm_procfs_cmdline(0, buf, size);

	if (n <= 0) {
		snprintf(buf, size, "histmac");
		return;
	}
	buf[n] = '\0';
	for (ssize_t i = 0; i < n; i++)
		if (buf[i] == '\0' || buf[i] == '\n')
			buf[i] = ' ';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

/* What the store said (bad lines, failed writes), said once. */
static void print_diag(struct hm_store *s)
{
	struct hm_diag *d = hm_store_diag(s);

	if (!d)
		return;
	hm_cli_print_diag(d, stderr);
	hm_diag_free(d);
}

int hm_cli_open_store(const char *cmd, const char *dir, int wait_s,
		      int dialect, bool learning, struct hm_diag *diag,
		      struct hm_store **out)
{
	char what[1024];
	struct hm_store_opts o = {
		.dir = dir, .holder = what, .wait_s = wait_s, .hold = true,
		.learning = learning, .read_dialect = dialect,
		.dialect = dialect, .diag = diag,
	};
	const struct hm_lock_holder *h;
	int r;

	own_command(what, sizeof(what));
	r = hm_store_open(&o, out);
	if (!r)
		return HM_EXIT_OK;
	h = *out ? hm_store_holder(*out) : NULL;
	if (r == -EWOULDBLOCK && h && h->pid)
		warnx("%s: %s is being written by pid %ld (%s)%s", cmd, dir,
		      (long)h->pid, h->command,
		      wait_s ? "; gave up waiting" : "; try --wait");
	else if (r == -EWOULDBLOCK)
		warnx("%s: %s is being written by another process%s", cmd,
		      dir, wait_s ? "; gave up waiting" : "; try --wait");
	else
		warnx("%s: cannot lock %s: %s", cmd, dir, strerror(-r));
	hm_store_close(*out, true);
	*out = NULL;
	return HM_EXIT_FAIL;
}

void hm_cli_close_store(struct hm_store *s, bool failed)
{
	struct hm_diag *d = s ? hm_store_diag(s) : NULL;
	size_t said = d ? d->n_msgs : 0;

	hm_store_close(s, failed);
	if (d)		/* the diag is the caller's: still there */
		hm_cli_print_diag_from(d, said, stderr);
}

int hm_cli_store_load(const char *cmd, struct hm_store *s,
		      bool may_be_missing, struct hm_model **out)
{
	const char *dir = hm_store_dir(s);
	int r = hm_store_load(s, may_be_missing, out);

	print_diag(s);
	if (r == -ENOENT) {
		warnx("%s: %s: no policy (no domain_policy.conf or "
		      "exception_policy.conf)", cmd, dir);
		return HM_EXIT_FAIL;
	}
	if (r < 0) {
		warnx("%s: cannot load policy %s: %s", cmd, dir, strerror(-r));
		return HM_EXIT_FAIL;
	}
	if (r > 0) {
		warnx("%s: %s: %d error%s in the policy", cmd, dir, r,
		      r == 1 ? "" : "s");
		return HM_EXIT_POLICY;
	}
	return HM_EXIT_OK;
}

int hm_cli_store_save(const char *cmd, struct hm_store *s,
		      const struct hm_model *m, const struct hm_file_out *extra,
		      size_t n_extra)
{
	const char *dir = hm_store_dir(s);
	int r = hm_store_save(s, m, extra, n_extra);

	print_diag(s);
	/* refused before its commit, or an edit met while it committed
	 * (kept; the other files of the commit are this command's) */
	if (r == -ESTALE) {
		warnx("%s: %s was edited while this command ran; the edit is "
		      "kept, and this command's change may not be saved (run "
		      "it again)", cmd, dir);
		return HM_EXIT_FAIL;
	}
	if (r) {
		warnx("%s: saving %s: %s", cmd, dir, strerror(-r));
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}

int hm_cli_wait_option(const char *cmd, const char *arg, int *out)
{
	uint64_t v;

	if (!arg) {
		*out = -1;	/* --wait alone: as long as it takes */
		return 0;
	}
	if (hm_cli_parse_u64(arg, 1u << 30, &v) < 0)
		return hm_cli_usage_error(cmd, "--wait takes seconds, not '%s'",
					  arg);
	*out = (int)v;
	return 0;
}

int hm_cli_take_target(const char *cmd, const char *dir,
		       const struct hm_cli_target *t, struct hm_diag *diag, struct hm_store **s,
		       bool *had_policy)
{
	int r = hm_cli_open_store(cmd, dir, t->wait_s, HM_DIALECT_AUTO,
				  false, diag, s);

	if (r != HM_EXIT_OK)
		return r;
	*had_policy = hm_store_has_policy(*s);
	if (*had_policy && !t->force && !t->append) {
		warnx("%s: %s already holds a policy; --append adds to it, "
		      "--force replaces it", cmd, dir);
		hm_store_close(*s, true);
		*s = NULL;
		return HM_EXIT_FAIL;
	}
	return HM_EXIT_OK;
}
