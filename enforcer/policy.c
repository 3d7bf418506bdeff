// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * policy.c - the enforcer's policy: loaded at start (a policy with errors
 * refuses to enforce, unless --mode permissive), reloaded on SIGHUP by a
 * loader thread while the main loop keeps answering, learned into in
 * learning mode and saved atomically on a timer and at exit.  Owns the
 * model, its decision index and the generalizer (all in struct
 * hm_enforcer); the swap happens in the main loop, between batches.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforcer.h"
#include "histmac/policy_io.h"

uint8_t hm_enf_profile(const struct hm_enforcer *E, uint8_t own)
{
	if (E->o.mode != HM_ENF_MODE_PER_DOMAIN)
		return (uint8_t)E->o.mode;
	/* profile.conf may define more; histmac knows the default four */
	return own <= HM_PROFILE_ENFORCING ? own : HM_PROFILE_PERMISSIVE;
}

static void print_diag(struct hm_enforcer *E, const struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		hm_enf_log(E, "%s", s ? s : "(out of memory)");
		free(s);
	}
	if (d->n_dropped)
		hm_enf_log(E, "... and %lu more messages", d->n_dropped);
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

static int new_generalizer(struct hm_enforcer *E, struct hm_model *m,
			   struct hm_generalizer **out)
{
	struct hm_diag d = { 0 };
	int r = hm_generalizer_new(m, &E->o.lo, &d, out);

	print_diag(E, &d);
	hm_diag_free(&d);
	return r;
}

int hm_enf_policy_load(struct hm_enforcer *E)
{
	struct hm_diag d = { 0 };
	struct stat st;
	int r;

	if (stat(E->o.policy, &st) < 0 || !S_ISDIR(st.st_mode)) {
		hm_enf_log(E, "%s: not a policy directory", E->o.policy);
		return -ENOENT;
	}
	r = load(E->o.policy, &d, &E->m, &E->ix);
	print_diag(E, &d);
	hm_diag_free(&d);
	if (r < 0) {
		hm_enf_log(E, "cannot load policy %s: %s", E->o.policy,
			   strerror(-r));
		return r;
	}
	if (r > 0 && E->o.mode != HM_PROFILE_PERMISSIVE &&
	    !E->o.dry_run) {
		hm_enf_log(E, "%s: %d error%s in the policy (see above): "
			   "refusing to enforce it; fix it (histmac policy "
			   "check -p %s) or run with --mode permissive",
			   E->o.policy, r, r == 1 ? "" : "s", E->o.policy);
		return -EINVAL;
	}
	if (r > 0)
		hm_enf_log(E, "%s: %d error%s in the policy: going on "
			   "(permissive)", E->o.policy, r, r == 1 ? "" : "s");
	E->dialect = E->o.dialect >= 0 ? E->o.dialect : (int)E->m->dialect;
	return new_generalizer(E, E->m, &E->g);
}

/* ------------------------------------------------------------- reload */

static void *loader(void *arg)
{
	struct hm_enforcer *E = arg;
	struct hm_diag *d = calloc(1, sizeof(*d));

	E->loaded_status = d ? load(E->o.policy, d, &E->loaded_m,
				    &E->loaded_ix) : -ENOMEM;
	E->loaded_diag = d;
	/* the flag, then the signal (read through the loop's signalfd):
	 * a SIGUSR2 from anyone else finds the flag clear */
	atomic_store(&E->loaded_done, true);
	kill(getpid(), SIGUSR2);
	return NULL;
}

int hm_enf_reload_start(struct hm_enforcer *E)
{
	int r;

	if (E->loading)
		return 0;	/* one at a time; this HUP joins it */
	if (E->dirty)
		hm_enf_save(E);	/* keep what was learned */
	r = pthread_create(&E->loader, NULL, loader, E);
	if (r)
		return -r;
	E->loading = true;
	hm_enf_log(E, "reloading %s", E->o.policy);
	return 0;
}

void hm_enf_reload_finish(struct hm_enforcer *E)
{
	struct hm_generalizer *g = NULL;
	int r;

	if (!E->loading || !atomic_load(&E->loaded_done))
		return;
	atomic_store(&E->loaded_done, false);
	pthread_join(E->loader, NULL);
	E->loading = false;
	if (E->loaded_diag) {
		print_diag(E, E->loaded_diag);
		hm_diag_free(E->loaded_diag);
		free(E->loaded_diag);
		E->loaded_diag = NULL;
	}
	r = E->loaded_status;
	if (r > 0 && E->o.mode != HM_PROFILE_PERMISSIVE)
		r = -EINVAL;
	if (!r && E->loaded_m)
		r = new_generalizer(E, E->loaded_m, &g);
	if (r) {
		E->c.reload_failures++;
		hm_enf_log(E, "reload refused (%s): the old policy stays",
			   r == -EINVAL ? "errors in the policy" :
					  strerror(r < 0 ? -r : r));
		hm_enf_index_free(E->loaded_ix);
		hm_model_free(E->loaded_m);
		E->loaded_ix = NULL;
		E->loaded_m = NULL;
		return;
	}
	hm_tracker_set_model(E->t, E->loaded_m);
	hm_enf_index_free(E->ix);
	hm_generalizer_free(E->g);
	hm_model_free(E->m);
	E->m = E->loaded_m;
	E->ix = E->loaded_ix;
	E->g = g;
	E->loaded_m = NULL;
	E->loaded_ix = NULL;
	E->dirty = false;
	hm_dcache_invalidate(E->cache);
	hm_enf_ignore_clear(E);
	E->c.reloads++;
	hm_enf_log(E, "policy reloaded: %zu domains", E->m->n_domains);
}

/* ------------------------------------------------------------ learning */

/* A domain created by learning inherits use_group and use_profile from
 * its parent, as TOMOYO's (and the tracker's) do. */
static int learn_domain(struct hm_enforcer *E, const struct hm_name *name,
			struct hm_domain **out)
{
	int r = hm_model_domain(E->m, name->str, name->len, true, out);

	if (r == 1) {
		const struct hm_domain *near = (*out)->parent;

		if (!near) {
			struct hm_name parent = *name;
			const char *sp = memrchr(name->str, ' ', name->len);

			if (sp) {
				parent.len = (uint32_t)(sp - name->str);
				near = hm_enf_nearest(E->m, &parent);
			}
		}
		if (near) {
			memcpy((*out)->groups, near->groups,
			       sizeof((*out)->groups));
			if (E->m->inherit_profile)
				(*out)->profile = near->profile;
		}
		/* processes already in it must find it */
		hm_tracker_set_model(E->t, E->m);
	}
	return r < 0 ? r : 0;
}

int hm_enf_learn(struct hm_enforcer *E, const struct hm_name *domain_name,
		 uint32_t perm, const struct hm_name *path,
		 const struct hm_cond_ctx *ctx)
{
	struct hm_request req = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
				  .name1 = path, .ctx = ctx };
	union hm_acl_any e;
	struct hm_acl_head *in;
	struct hm_domain *d;
	int r = learn_domain(E, domain_name, &d);

	if (r)
		return r;
	if (E->m->max_learning_entry && d->n_acl >= E->m->max_learning_entry) {
		if (!(d->flags & HM_DOMAIN_QUOTA_EXCEEDED))
			hm_enf_log(E, "%s: max_learning_entry (%u) reached; "
				   "learning stops for this domain",
				   d->name->str, E->m->max_learning_entry);
		d->flags |= HM_DOMAIN_QUOTA_EXCEEDED;
		return 0;
	}
	r = hm_generalize_request(E->g, E->m, &req, NULL, &e);
	if (r)
		return r;
	e.head.perm = perm ? perm : 1u << HM_FILE_READ;
	r = hm_domain_add(E->m, d, &e.head, &in);
	if (r <= 0)
		return r;
	E->dirty = true;
	return hm_enf_index_add(E->ix, d, in);
}

int hm_enf_save(struct hm_enforcer *E)
{
	struct hm_convert_stats st = { 0 };
	int r = hm_policy_save_dir(E->m, E->o.policy,
				   (enum hm_dialect)E->dialect, 0, &st);

	E->last_save_ns = hm_now_ns();
	if (r) {
		hm_enf_log(E, "saving %s: %s", E->o.policy, strerror(-r));
		return r;
	}
	E->dirty = false;
	E->c.saves++;
	hm_enf_log(E, "policy saved to %s", E->o.policy);
	return 0;
}
