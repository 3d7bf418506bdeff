// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live.c - the enforcer's live policy: loaded at start (a policy with errors
 * refuses to enforce, unless --mode permissive), reloaded on SIGHUP by a
 * loader thread while the main loop keeps answering, learned into in
 * learning mode and saved atomically on a timer and at exit.  Owns the
 * model, its decision index and the generalizer (struct hm_live); the
 * swap happens in the main loop, between batches, and the caller then
 * flushes what was cached from the old policy.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforcer_private.h"
#include "histmac/lock.h"
#include "histmac/policy_io.h"
#include "histmac/profile.h"

/**
 * hm_live_profile() - the profile that applies to a domain.
 * @L: the live policy.
 * @own: the domain's own profile.
 * Returns: --mode's, else @own (an unknown one as permissive).
 */
uint8_t hm_live_profile(const struct hm_live *L, uint8_t own)
{
	if (L->o->mode != HM_ENFORCER_MODE_PER_DOMAIN)
		return (uint8_t)L->o->mode;
	/* profile.conf may define more; histmac knows the default four */
	return own <= HM_PROFILE_ENFORCING ? own : HM_PROFILE_PERMISSIVE;
}

static void print_diag(const struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		hm_log("%s", s ? s : "(out of memory)");
		free(s);
	}
	if (d->n_dropped)
		hm_log("... and %lu more messages", d->n_dropped);
}

/*
 * Load the policy directory into a new model and index.
 * Returns 0, a positive number of errors in the policy (*out set), or a
 * negative errno.
 */
static int load(const char *dir, struct hm_diag *d, struct hm_model **out,
		struct hm_enf_index **ix)
{
	struct hm_model *m = hm_model_new();
	int r;

	*out = NULL;
	*ix = NULL;
	if (!m)
		return -ENOMEM;
	r = hm_policy_load_dir(m, dir, HM_DIALECT_AUTO, d);
	if (r >= 0) {
		int e = hm_enf_index_new(m, ix);

		if (e)
			r = e;
	}
	if (r < 0) {
		hm_model_free(m);
		return r;
	}
	*out = m;
	return r;
}

static int new_generalizer(struct hm_live *L, struct hm_model *m,
			   struct hm_generalizer **out)
{
	struct hm_diag d = { 0 };
	int r = hm_generalizer_new(m, &L->o->lo, &d, out);

	print_diag(&d);
	hm_diag_free(&d);
	return r;
}

static int first_load(struct hm_live *L)
{
	const struct hm_enforcer_opts *o = L->o;
	struct hm_diag d = { 0 };
	struct stat st;
	int r;

	if (stat(o->policy, &st) < 0 || !S_ISDIR(st.st_mode)) {
		hm_log("%s: not a policy directory", o->policy);
		return -ENOENT;
	}
	r = load(o->policy, &d, &L->m, &L->ix);
	print_diag(&d);
	hm_diag_free(&d);
	if (r < 0) {
		hm_log("cannot load policy %s: %s", o->policy, strerror(-r));
		return r;
	}
	if (r > 0 && o->mode != HM_PROFILE_PERMISSIVE && !o->dry_run) {
		hm_log("%s: %d error%s in the policy (see above): refusing "
		       "to enforce it; fix it (histmac policy check -p %s) or "
		       "run with --mode permissive", o->policy, r,
		       r == 1 ? "" : "s", o->policy);
		return -EINVAL;
	}
	if (r > 0)
		hm_log("%s: %d error%s in the policy: going on (permissive)",
		       o->policy, r, r == 1 ? "" : "s");
	L->dialect = o->dialect >= 0 ? o->dialect : (int)L->m->dialect;
	return new_generalizer(L, L->m, &L->g);
}

/**
 * hm_live_load() - load @o's policy directory to enforce it.  A policy
 * with errors is refused unless --mode permissive or --dry-run.
 * @o: the options; borrowed, must outlive the policy.
 * @c: counters (reloads, saves); borrowed.
 * @out: caller frees with hm_live_free().
 * Returns: 0, -EINVAL (errors in the policy), or -errno; logged.
 */
int hm_live_load(const struct hm_enforcer_opts *o,
		 struct hm_enforcer_counters *c, struct hm_live **out)
{
	struct hm_live *L = calloc(1, sizeof(*L));
	int r;

	if (!L)
		return -ENOMEM;
	L->o = o;
	L->c = c;
	L->last_save_ns = hm_now_ns();
	r = first_load(L);
	if (r) {
		hm_live_free(L);
		return r;
	}
	*out = L;
	return 0;
}

/**
 * hm_live_free() - wait for a reload under way, and free it all.
 * @L: may be NULL.
 */
void hm_live_free(struct hm_live *L)
{
	if (!L)
		return;
	if (L->loading) {
		pthread_join(L->loader, NULL);
		hm_enf_index_free(L->loaded_ix);
		hm_model_free(L->loaded_m);
		if (L->loaded_diag)
			hm_diag_free(L->loaded_diag);
		free(L->loaded_diag);
	}
	hm_generalizer_free(L->g);
	hm_enf_index_free(L->ix);
	hm_model_free(L->m);
	free(L);
}

/* ------------------------------------------------------------- reload */

static void *loader(void *arg)
{
	struct hm_live *L = arg;
	struct hm_diag *d = calloc(1, sizeof(*d));

	L->loaded_status = d ? load(L->o->policy, d, &L->loaded_m,
				    &L->loaded_ix) : -ENOMEM;
	L->loaded_diag = d;
	/* the flag, then the signal (read through the loop's signalfd):
	 * a SIGUSR2 from anyone else finds the flag clear */
	atomic_store(&L->loaded_done, true);
	kill(getpid(), SIGUSR2);
	return NULL;
}

/**
 * hm_live_reload_start() - save what was learned, then load the policy
 * directory again in a thread; SIGUSR2 says it is done.
 * @L: the live policy.
 * Returns: 0 (also when a reload is under way already) or -errno.
 */
int hm_live_reload_start(struct hm_live *L)
{
	int r;

	if (L->loading)
		return 0;	/* one at a time; this HUP joins it */
	if (L->dirty)
		hm_live_save(L);	/* keep what was learned */
	r = pthread_create(&L->loader, NULL, loader, L);
	if (r)
		return -r;
	L->loading = true;
	hm_log("reloading %s", L->o->policy);
	return 0;
}

/**
 * hm_live_reload_finish() - put the reloaded policy in place when the
 * loader is done and it has no errors (else the old one stays).
 * @L: the live policy.
 * Returns: 1 swapped (the caller flushes what it cached), 0 nothing to
 * take, or a negative errno (-EINVAL: errors in it) when refused.
 */
int hm_live_reload_finish(struct hm_live *L)
{
	struct hm_generalizer *g = NULL;
	int r;

	if (!L->loading || !atomic_load(&L->loaded_done))
		return 0;
	atomic_store(&L->loaded_done, false);
	pthread_join(L->loader, NULL);
	L->loading = false;
	if (L->loaded_diag) {
		print_diag(L->loaded_diag);
		hm_diag_free(L->loaded_diag);
		free(L->loaded_diag);
		L->loaded_diag = NULL;
	}
	r = L->loaded_status;
	if (r > 0 && L->o->mode != HM_PROFILE_PERMISSIVE)
		r = -EINVAL;
	if (!r && L->loaded_m)
		r = new_generalizer(L, L->loaded_m, &g);
	if (r) {
		L->c->reload_failures++;
		hm_log("reload refused (%s): the old policy stays",
		       r == -EINVAL ? "errors in the policy" :
				      strerror(r < 0 ? -r : r));
		hm_enf_index_free(L->loaded_ix);
		hm_model_free(L->loaded_m);
		L->loaded_ix = NULL;
		L->loaded_m = NULL;
		return r < 0 ? r : -EINVAL;
	}
	if (L->t)
		hm_tracker_set_model(L->t, L->loaded_m);
	hm_enf_index_free(L->ix);
	hm_generalizer_free(L->g);
	hm_model_free(L->m);
	L->m = L->loaded_m;
	L->ix = L->loaded_ix;
	L->g = g;
	L->loaded_m = NULL;
	L->loaded_ix = NULL;
	L->dirty = false;
	L->c->reloads++;
	hm_log("policy reloaded: %zu domains", L->m->n_domains);
	return 1;
}

/* ------------------------------------------------------------ learning */

/* A domain created by learning inherits use_group and use_profile from
 * its nearest ancestor, as TOMOYO's (and the tracker's) do. */
static int learn_domain(struct hm_live *L, const struct hm_name *name,
			struct hm_domain **out)
{
	int r = hm_model_domain(L->m, name->str, name->len, true, out);

	if (r == 1) {
		hm_domain_inherit(L->m, *out);
		/* processes already in it must find it */
		if (L->t)
			hm_tracker_set_model(L->t, L->m);
	}
	return r < 0 ? r : 0;
}

/* Folding freed entries the index points to: build it again. */
static int reindex(struct hm_live *L)
{
	struct hm_enf_index *ix;
	int r = hm_enf_index_new(L->m, &ix);

	if (r)
		return r;
	hm_enf_index_free(L->ix);
	L->ix = ix;
	return 0;
}

/**
 * hm_live_learn() - add what a learning domain did to the policy, as the
 * learner would (generalized), within max_learning_entry.
 * @L: the live policy.
 * @domain_name: the process's domain (created when missing).
 * @perm: bitmask of enum hm_file_op; 0: read.
 * @path: the object's name.
 * @ctx: task values for a condition; may be NULL.
 * Returns: 0 or -errno.
 */
int hm_live_learn(struct hm_live *L, const struct hm_name *domain_name,
		  uint32_t perm, const struct hm_name *path,
		  const struct hm_cond_ctx *ctx)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path, .ctx = ctx };
	struct hm_learn_added res;
	union hm_acl_any e;
	union hm_acl_any *pe = NULL;
	struct hm_domain *d;
	int r = learn_domain(L, domain_name, &d);

	if (r)
		return r;
	/* At the quota only an entry the domain holds may widen: a name the
	 * model lacks would be interned for nothing (unbounded growth). */
	if (!hm_learn_full(L->m, d) ||
	    hm_name_lookup(L->m->names, path->str, path->len)) {
		r = hm_generalize_request(L->g, L->m, &req, NULL, &e);
		if (r)
			return r;
		e.head.perm = perm ? perm : 1u << HM_FILE_READ;
		pe = &e;
	}
	r = hm_learn_add(L->m, d, pe, &res);	/* learn's own path */
	if (r || res.what == HM_LEARN_KNOWN)
		return r;
	if (res.what == HM_LEARN_QUOTA) {
		if (res.first_quota_hit)
			hm_log("%s: max_learning_entry (%u) reached; learning "
			       "stops for this domain", d->name->str,
			       L->m->max_learning_entry);
		return 0;
	}
	L->dirty = true;
	return res.folded ? reindex(L) : hm_enf_index_add(L->ix, d, res.in);
}

/**
 * hm_live_save() - save the policy atomically into its directory.
 * @L: the live policy.
 * Returns: 0 or -errno (logged).
 */
int hm_live_save(struct hm_live *L)
{
	struct hm_convert_stats st = { 0 };
	struct hm_lock_holder h;
	struct hm_lock *lock;
	int r;

	/* One writer at a time: held for the save only, so a learner or
	 * an administrator's command is not kept out for the daemon's
	 * life; a save that finds the lock taken is tried again later. */
	L->last_save_ns = hm_now_ns();
	r = hm_lock_take(L->o->policy, "histmac enforce (learning save)", 0,
			 &h, &lock);
	if (r == -EWOULDBLOCK)
		hm_log("saving %s: being written by pid %ld (%s); will try "
		       "again", L->o->policy, (long)h.pid, h.command);
	else if (r)
		hm_log("saving %s: %s", L->o->policy, strerror(-r));
	if (r)
		return r;
	r = hm_policy_save_dir(L->m, L->o->policy, (enum hm_dialect)L->dialect,
			       0, &st);
	hm_lock_release(lock, false);
	if (r) {
		hm_log("saving %s: %s", L->o->policy, strerror(-r));
		return r;
	}
	L->dirty = false;
	L->c->saves++;
	hm_log("policy saved to %s", L->o->policy);
	return 0;
}

/**
 * hm_live_acl_line() - the entry learning would add for @perm on @path,
 * as a policy line (for logs and supervisor queries).
 * @L: the live policy.
 * @path: the object's name.
 * @perm: bitmask of enum hm_file_op; 0: read.
 * Returns: the line (caller frees with free()) or NULL (no memory).
 */
char *hm_live_acl_line(struct hm_live *L, const struct hm_name *path,
		       uint32_t perm)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path };
	union hm_acl_any a;
	char *line = NULL;

	if (!perm)
		perm = 1u << HM_FILE_READ;
	if (hm_generalize_request(L->g, L->m, &req, NULL, &a))
		return NULL;
	a.head.perm = perm;
	if (hm_acl_format(L->m, &a.head, L->m->dialect, &line, NULL))
		return NULL;
	return line;
}
