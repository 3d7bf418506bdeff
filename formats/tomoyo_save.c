// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_save.c - saving a policy directory so that histmac and a real
 * TOMOYO can load it: exception_policy.conf, domain_policy.conf,
 * rewrite.conf, and (2.6/1.8, when absent) profile.conf and manager.conf
 * as /usr/lib/tomoyo/init_policy writes them.  Every file is rendered in
 * memory first; then all are replaced together by hm_atomic_write_set()
 * (new files fsynced, a redo journal as the commit point, renames), so an
 * error or a crash leaves the old policy or, once hm_policy_load_dir()
 * has rolled the journal forward, the new one - never a mix.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histmac/history.h"
#include "tomoyo_private.h"

/* As /usr/lib/tomoyo/init_policy writes it (tomoyo-tools 2.6). */
static const struct {
	const char *title;
	const char *mode;
} profiles[] = {
	{ "Disabled", "disabled" },
	{ "Learning", "learning" },
	{ "Permissive", "permissive" },
	{ "Enforcing", "enforcing" },
};

/*
 * Kinds TOMOYO checks that histmac cannot learn: no audit record carries
 * them (stat, ioctl numbers, environment names).  Left on, a learning
 * kernel would add entries histmac never has, and an enforcing one would
 * deny every stat() of a loaded histmac policy.  Profiles 1-3 switch them
 * off; the kernel oracle (tests/vm) runs with the same lines.
 */
static const char *const unlearned_kinds[] = {
	"file::getattr", "file::ioctl", "misc::env",
};

static void profile_text(struct hm_sbuf *b, const struct hm_model *m)
{
	/* TOMOYO stops learning at max_learning_entry; 0 means no limit
	 * in the model, so it is written as the largest value. */
	unsigned long max = m->max_learning_entry ? m->max_learning_entry :
						    UINT32_MAX;

	hm_sbuf_adds(b, "PROFILE_VERSION=20150505\n");
	for (unsigned i = 0; i < HM_ARRAY_SIZE(profiles); i++) {
		hm_sbuf_printf(b, "%u-COMMENT=-----%s Mode-----\n", i,
			       profiles[i].title);
		hm_sbuf_printf(b, "%u-PREFERENCE={ max_audit_log=1024 "
			       "max_learning_entry=%lu }\n", i, max);
		hm_sbuf_printf(b, "%u-CONFIG={ mode=%s grant_log=no "
			       "reject_log=yes }\n", i, profiles[i].mode);
		for (unsigned k = 0; i && k < HM_ARRAY_SIZE(unlearned_kinds); k++)
			hm_sbuf_printf(b, "%u-CONFIG::%s={ mode=disabled }\n",
				       i, unlearned_kinds[k]);
	}
}

static const char manager_text[] =
	"/usr/sbin/tomoyo-loadpolicy\n"
	"/usr/sbin/tomoyo-editpolicy\n"
	"/usr/sbin/tomoyo-setlevel\n"
	"/usr/sbin/tomoyo-setprofile\n"
	"/usr/sbin/tomoyo-queryd\n";

int hm_policy_format_rewrite(const struct hm_model *m, char **out,
			     size_t *out_len)
{
	struct hm_sbuf b = { 0 };

	hm_sbuf_printf(&b, "# histmac %s rewrite rules: REGEX<TAB>"
		       "REPLACEMENT (PCRE2), applied in this order\n",
		       HM_VERSION);
	for (const struct hm_rewrite_rule *r = m->ex.rewrites; r; r = r->next)
		hm_sbuf_printf(&b, "%s\t%s\n", r->regex_src, r->replacement);
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	*out = b.s;
	*out_len = b.len;
	return 0;
}


/* One file to save: its name and rendered text (NULL: leave it alone). */
struct out_file {
	const char *name;
	char *text;
	size_t len;
};

static bool exists_in(const char *dir, const char *name)
{
	char *p;
	bool r;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return true;	/* do not overwrite what we cannot check */
	r = access(p, F_OK) == 0;
	free(p);
	return r;
}

static int render_tomoyo_files(const struct hm_model *m, const char *dir,
			       unsigned flags, struct out_file *f)
{
	struct hm_sbuf b = { 0 };

	if (flags & HM_SAVE_PROFILE || !exists_in(dir, HM_PROFILE_CONF)) {
		profile_text(&b, m);
		if (b.oom) {
			hm_sbuf_free(&b);
			return -ENOMEM;
		}
		f[0].text = b.s;
		f[0].len = b.len;
	}
	if (!exists_in(dir, HM_MANAGER_CONF)) {
		f[1].text = strdup(manager_text);
		if (!f[1].text)
			return -ENOMEM;
		f[1].len = sizeof(manager_text) - 1;
	}
	return 0;
}

static int render_all(const struct hm_model *m, const char *dir,
		      enum hm_dialect dialect, unsigned flags,
		      struct hm_convert_stats *st, struct out_file *f)
{
	int r = hm_policy_format_exception(m, dialect, &f[0].text, &f[0].len,
					   st);

	if (!r)
		r = hm_policy_format_domain(m, dialect, &f[1].text, &f[1].len,
					    st);
	if (!r)
		r = hm_policy_format_rewrite(m, &f[2].text, &f[2].len);
	if (!r && dialect != HM_DIALECT_21)
		r = render_tomoyo_files(m, dir, flags, &f[3]);
	return r;
}

/*
 * The entries' history (histmac_entries.conf) is rendered on a thread of
 * its own while this one renders the policy: they are the two largest
 * files of a save (14 and 10 MB after a 1 GB log) and only read the
 * model.  A learner's last save runs after the parsers are done, with a
 * core idle.  When no thread can be made, it is rendered here after.
 */
struct history_job {
	const struct hm_model *m;
	struct hm_history_part h;
	int r;
};

static void *render_history(void *arg)
{
	struct history_job *j = arg;

	j->r = hm_history_entries(j->m, &j->h);
	return NULL;
}

/* The job's buffers start in this thread's malloc arena: realloc() grows
 * a block in the arena it came from (hm_history_entries()).  A failure
 * here is met again there. */
static void reserve_history(struct history_job *j)
{
	hm_sbuf_reserve(&j->h.b, 4096);
	if (!j->h.late)	/* late, the stamp's list of them comes */
		(void)HM_ARRAY_GROW(&j->h.named.v, &j->h.named.cap, 4096);
}

/*
 * The package stamp (packages.h) of a save that asks for it looks its
 * owners up on a third thread, while the policy and the history's
 * entries render: none of them shows a stamp, and all only read the
 * model (75 of a learner's 190 ms last save, after a 1 GB log, were the
 * stamp's alone).  The stamps are set once all three are done, before
 * the history's package lines are put in.  The database is read as it
 * is during the save, as it was read before the save when the stamp
 * came first: a dpkg run meanwhile is seen or not, the same either way.
 */
struct stamp_job {
	const struct hm_model *m;
	const char *root;
	struct hm_pkg_lookup *k;
	int r;
};

static void *look_up_owners(void *arg)
{
	struct stamp_job *j = arg;

	j->r = hm_packages_lookup(j->m, j->root, &j->k);
	return NULL;
}

/* @fn(@arg) on a thread of its own (*@t; true), or false: the caller
 * runs it itself when it needs the result (done()). */
static bool start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	return !pthread_create(t, NULL, fn, arg);
}

static void done(pthread_t t, bool threaded, void *(*fn)(void *), void *arg)
{
	if (threaded)
		pthread_join(t, NULL);
	else
		fn(arg);
}

/* Everything a save renders, the stamp set on @m (@root: NULL none). */
static int render_set(struct hm_model *m, const char *dir,
		      enum hm_dialect dialect, unsigned flags,
		      struct hm_convert_stats *st, const char *root,
		      struct out_file *f)
{
	struct history_job hj = { .m = m, .h.late = root != NULL };
	struct stamp_job sj = { .m = m, .root = root };
	struct hm_file_out h = { 0 };
	bool th, ts = false;
	pthread_t t, u;
	int r;

	reserve_history(&hj);
	th = start(&t, render_history, &hj);
	if (root)
		ts = start(&u, look_up_owners, &sj);
	r = render_all(m, dir, dialect, flags, st, f);
	done(t, th, render_history, &hj);
	if (root)
		done(u, ts, look_up_owners, &sj);
	if (root && !sj.r) {	/* stamped, as before a save that fails */
		int a = hm_packages_apply(m, sj.k, &hj.h.named);

		r = r ? r : a;
	}
	if (!r)
		r = hj.r ? hj.r : sj.r;
	if (r) {
		hm_history_part_free(&hj.h);
		return r;
	}
	r = hm_history_finish(m, &hj.h, &h);
	f[5].text = (char *)h.text;
	f[5].len = h.len;
	if (!r)
		r = hm_saves_text(m, &h);
	f[6].text = (char *)h.text;
	f[6].len = h.len;
	return r;
}

/* Files saved with a policy: its path rule, a merge's provenance. */
#define HM_SAVE_EXTRA_MAX 4

int hm_policy_save_dir(const struct hm_model *m, const char *dir,
		       enum hm_dialect dialect, unsigned flags,
		       struct hm_convert_stats *st)
{
	return hm_policy_save_dir_with(m, dir, dialect, flags, st, NULL, 0);
}

/* hm_policy_save_dir_with(), stamping @m first when @root is not NULL. */
static int save_dir(struct hm_model *m, const char *dir,
		    enum hm_dialect dialect, unsigned flags,
		    struct hm_convert_stats *st, const struct hm_file_out *extra,
		    size_t n_extra, const char *root,
		    const struct hm_commit_guard *guard)
{
	/* The order files are replaced in: see policy_io.h. */
	struct out_file f[] = {
		{ HM_EXCEPTION_POLICY }, { HM_DOMAIN_POLICY },
		{ HM_REWRITE_CONF }, { HM_PROFILE_CONF }, { HM_MANAGER_CONF },
		{ HM_HISTORY_FILE },	/* the entries' stamps (history.h) */
		{ HM_SAVES_FILE },	/* a learner's saves (history.h) */
	};
	int r;

	if ((int)dialect < 0 || dialect >= HM_DIALECT_MAX)
		return -EINVAL;
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	r = render_set(m, dir, dialect, flags, st, root, f);
	if (!r && n_extra > HM_SAVE_EXTRA_MAX)
		r = -EINVAL;
	if (!r) {
		struct hm_file_out set[HM_ARRAY_SIZE(f) + HM_SAVE_EXTRA_MAX];
		size_t n = 0;

		for (size_t i = 0; i < HM_ARRAY_SIZE(f); i++)
			set[n++] = (struct hm_file_out){ f[i].name, f[i].text,
							 f[i].len };
		for (size_t i = 0; i < n_extra; i++)
			set[n++] = extra[i];
		r = hm_atomic_write_set_guarded(dir, set, n, guard);
	}
	for (size_t i = 0; i < HM_ARRAY_SIZE(f); i++)
		free(f[i].text);
	return r;
}

int hm_policy_save_dir_with(const struct hm_model *m, const char *dir,
			    enum hm_dialect dialect, unsigned flags,
			    struct hm_convert_stats *st,
			    const struct hm_file_out *extra, size_t n_extra)
{
	/* without a stamp nothing changes @m */
	return save_dir((struct hm_model *)m, dir, dialect, flags, st, extra,
			n_extra, NULL, NULL);
}

int hm_policy_save_dir_stamped(struct hm_model *m, const char *dir,
			       enum hm_dialect dialect,
			       struct hm_convert_stats *st,
			       const struct hm_file_out *extra, size_t n_extra,
			       const char *root,
			       const struct hm_commit_guard *guard)
{
	return save_dir(m, dir, dialect, 0, st, extra, n_extra, root, guard);
}
