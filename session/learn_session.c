// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * learn_session.c - a learning session: the loop that takes events from
 * the collector into the learner, the periodic save of a live learner,
 * the reload on SIGHUP, and the order of a save: policy, then process
 * table, then checkpoint, so a crash repeats learning (harmless: it
 * merges) and never loses any.
 *
 * Owns: the model and the learner (a reload swaps the model).  Borrows
 * the collector.  Next: the caller prints progress and diagnostics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/stat.h>

#include "histmac/fs.h"
#include "histmac/packages.h"
#include "histmac/rebase.h"
#include "histmac/session.h"
#include "histmac/tracker.h"

struct hm_learn_session {
	struct hm_learn_session_opts o;
	struct hm_model *m;
	struct hm_learner *l;
	struct hm_collector *c;
	struct hm_model *base;		/* the policy as loaded or last saved */
	struct stat seen[3];		/* its files as we left them */
	struct hm_convert_stats conv;
	time_t last_save;
	unsigned long n;		/* events since the last PROGRESS */
};

/* The files an administrator edits; a change to one means an edit. */
static const char *const edited[] = {
	HM_DOMAIN_POLICY, HM_EXCEPTION_POLICY, HM_PROFILE_CONF,
};

static void stat_files(const struct hm_learn_session *s, struct stat *st)
{
	char path[4096];

	for (size_t i = 0; i < HM_ARRAY_SIZE(edited); i++) {
		snprintf(path, sizeof(path), "%s/%s", s->o.policy, edited[i]);
		if (stat(path, &st[i]) < 0)
			memset(&st[i], 0, sizeof(st[i]));
	}
}

static void remember(struct hm_learn_session *s)
{
	stat_files(s, s->seen);
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Has someone changed the policy files since we loaded or saved them? */
static bool edited_on_disk(const struct hm_learn_session *s)
{
	struct stat now[HM_ARRAY_SIZE(edited)];

	stat_files(s, now);
	for (size_t i = 0; i < HM_ARRAY_SIZE(edited); i++)
		if (!same_file(&now[i], &s->seen[i]))
			return true;
	return false;
}

int hm_learn_session_new(struct hm_learn_session **out,
			 const struct hm_learn_session_opts *o,
			 struct hm_model *m, struct hm_learner *l,
			 struct hm_collector *c)
{
	struct hm_learn_session *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->o = *o;
	s->m = m;
	s->l = l;
	s->c = c;
	s->last_save = time(NULL);
	if (hm_model_copy(m, &s->base)) {
		free(s);
		return -ENOMEM;
	}
	remember(s);
	*out = s;
	return 0;
}

void hm_learn_session_free(struct hm_learn_session *s)
{
	if (!s)
		return;
	hm_learner_free(s->l);
	hm_model_free(s->m);
	hm_model_free(s->base);
	free(s);
}

struct hm_model *hm_learn_session_model(const struct hm_learn_session *s)
{
	return s->m;
}

struct hm_learner *hm_learn_session_learner(const struct hm_learn_session *s)
{
	return s->l;
}

const struct hm_convert_stats *
hm_learn_session_converted(const struct hm_learn_session *s)
{
	return &s->conv;
}

/* Describe a failure of @what on @file; returns @r. */
static int failed(struct hm_learn_session *s, const char *file,
		  const char *what, int r)
{
	hm_diag_add(s->o.diag, HM_DIAG_ERROR, file, 0, "%s: %s", what,
		    strerror(-r));
	return r;
}

/* Learn on into @n (the directory's policy) instead of the current model. */
static int install(struct hm_learn_session *s, struct hm_model *n)
{
	int r;

	n->inherit_profile = s->m->inherit_profile;
	if (s->o.max_entry >= 0)
		n->max_learning_entry = (uint32_t)s->o.max_entry;
	r = hm_learner_set_model(s->l, n, s->o.lo);
	if (r)
		return r;
	hm_model_free(s->m);
	s->m = n;
	return 0;
}

/*
 * The directory's policy as it is on disk now, with what we learned since
 * the base added: the administrator's edits (profiles, deleted entries and
 * domains, the exception policy, rewrite rules) survive our next save.  A
 * policy that does not load is left alone; learning goes on.
 */
/*
 * An editor that writes a file in place (truncate, then write) leaves a
 * moment when it is empty or half written; reading it then and saving
 * would make that the policy.  So the files are read only once none was
 * changed in the last SETTLE_MS, and the read counts only if no file
 * changed while it was read; else it is tried again, for up to
 * SETTLE_TRIES * SETTLE_MS, then taken as it is (with a warning).
 */
#define SETTLE_MS 100
#define SETTLE_TRIES 30

static bool settled(const struct stat *st)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	for (size_t i = 0; i < HM_ARRAY_SIZE(edited); i++) {
		int64_t age_ms = (now.tv_sec - st[i].st_mtim.tv_sec) * 1000 +
				 (now.tv_nsec - st[i].st_mtim.tv_nsec) / 1000000;

		if (st[i].st_ino && age_ms < SETTLE_MS)
			return false;
	}
	return true;
}

static bool same_files(const struct stat *a, const struct stat *b)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(edited); i++)
		if (!same_file(&a[i], &b[i]))
			return false;
	return true;
}

/* Load the directory into @n once its files hold still; 0 or -errno. */
static int load_settled(struct hm_learn_session *s, struct hm_model **n)
{
	struct stat before[HM_ARRAY_SIZE(edited)], after[HM_ARRAY_SIZE(edited)];
	int r;

	for (int i = 0; i < SETTLE_TRIES; i++) {
		stat_files(s, before);
		if (settled(before)) {
			*n = hm_model_new();
			if (!*n)
				return -ENOMEM;
			/* no diagnostics from a read that may not count */
			r = hm_policy_load_dir(*n, s->o.policy, s->o.dialect,
					       NULL);
			stat_files(s, after);
			if (same_files(before, after) && !r)
				return 0;
			if (same_files(before, after))
				break;	/* errors: read again, saying them */
			hm_model_free(*n);
			*n = NULL;
		}
		usleep(SETTLE_MS * 1000);
	}
	if (!*n)
		hm_diag_add(s->o.diag, HM_DIAG_WARNING, s->o.policy, 0,
			    "the policy files keep changing; reading them as "
			    "they are");
	hm_model_free(*n);
	*n = hm_model_new();
	return *n ? hm_policy_load_dir(*n, s->o.policy, s->o.dialect,
				       s->o.diag) : -ENOMEM;
}

static int sync_disk(struct hm_learn_session *s)
{
	struct hm_model *n = NULL;
	int r = load_settled(s, &n);

	if (!n)
		return failed(s, s->o.policy, "reloading", -ENOMEM);
	if (r) {
		hm_diag_add(s->o.diag, HM_DIAG_WARNING, s->o.policy, 0,
			    "reload failed%s%s; learning goes on with the old "
			    "policy", r < 0 ? ": " : "",
			    r < 0 ? strerror(-r) : "");
		hm_model_free(n);
		return 0;
	}
	r = hm_model_rebase(n, s->m, s->base);
	if (!r)
		r = install(s, n);
	if (r) {
		hm_model_free(n);
		return failed(s, s->o.policy, "reloading", r);
	}
	return 0;
}

/* After a save: what is on disk is the new base. */
static int new_base(struct hm_learn_session *s)
{
	struct hm_model *b;
	int r = hm_model_copy(s->m, &b);

	if (r)
		return failed(s, s->o.policy, "saving", r);
	hm_model_free(s->base);
	s->base = b;
	remember(s);
	return 0;
}

/* The policy and the path rule its object names follow, in one commit;
 * each domain stamped with its program's package where the names are
 * this host's or an image's (not a foreign log's read as written). */
static int save_policy(struct hm_learn_session *s, enum hm_dialect dialect)
{
	struct hm_file_out rule = { 0 };
	const struct hm_path_rule *p = s->o.paths;
	int r = p ? hm_path_rule_text(p, &rule) : 0;

	if (!r && (!p || p->resolve))
		r = hm_packages_stamp(s->m, p && p->root ? p->root : "/");

	if (!r)
		r = hm_policy_save_dir_with(s->m, s->o.policy, dialect, 0,
					    &s->conv, &rule, rule.text ? 1 : 0);
	free((char *)rule.text);
	return r;
}

int hm_learn_session_save(struct hm_learn_session *s)
{
	enum hm_dialect dialect;
	int r;

	s->last_save = time(NULL);
	if (edited_on_disk(s) && (r = sync_disk(s)))
		return r;
	dialect = s->o.dialect >= 0 ? (enum hm_dialect)s->o.dialect :
				      s->m->dialect;
	r = hm_mkdir_p(s->o.policy, 0700);
	if (r)
		return failed(s, s->o.policy, "creating", r);
	r = save_policy(s, dialect);
	if (r)
		return failed(s, s->o.policy, "saving", r);
	r = new_base(s);
	if (r)
		return r;
	if (s->o.state) {
		r = hm_tracker_save(hm_walker_tracker(hm_learner_walker(s->l)),
				    s->o.state);
		if (r)
			return failed(s, s->o.state, "saving", r);
	}
	/* last: the events it says are done are in the files above */
	r = s->c ? hm_collector_checkpoint(s->c) : 0;
	if (r)
		return failed(s, "checkpoint", "saving", r);
	return 0;
}

/* SIGHUP: learn on into the directory's policy as it is now, and save. */
static int reload(struct hm_learn_session *s)
{
	int r = sync_disk(s);

	return r ? r : hm_learn_session_save(s);
}

static bool save_due(const struct hm_learn_session *s)
{
	return s->o.save_interval &&
	       time(NULL) - s->last_save >= (time_t)s->o.save_interval;
}

int hm_learn_session_run(struct hm_learn_session *s)
{
	const struct hm_event *ev;
	int r;

	for (;;) {
		r = hm_collector_next(s->c, &ev);
		if (r == 1) {
			r = hm_learner_event(s->l, ev);
			if (r < 0)
				return failed(s, s->o.policy, "learning", r);
			if (++s->n == HM_SESSION_BATCH) {
				s->n = 0;
				return HM_SESSION_PROGRESS;
			}
		} else if (r == -EINTR) {
			r = reload(s);
			return r ? r : HM_SESSION_SAVED;
		} else if (r == 0) {
			return HM_SESSION_END;
		} else if (r != -EAGAIN) {
			return failed(s, "audit records", "reading", r);
		}
		if (save_due(s)) {
			r = hm_learn_session_save(s);
			return r ? r : HM_SESSION_SAVED;
		}
		if (r == -EAGAIN)
			return HM_SESSION_IDLE;
	}
}
