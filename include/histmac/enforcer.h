/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * enforcer.h (enforcer) - the enforcer daemon (libhm_enforce): `histmac
 * enforce` is one call, hm_enforcer_run().  The pure decision code it uses
 * (what the policy says about one open or exec, the decision cache, the
 * audit record) is in decide.h under the hm_enf_ prefix; the daemon's own
 * names start with hm_enforcer_ (here) or with the name of its part
 * (enforcer/enforcer_private.h).
 */
#ifndef HISTMAC_ENFORCER_H
#define HISTMAC_ENFORCER_H

#include <stdbool.h>
#include <stddef.h>

#include "learn.h"

/* Profiles as --mode names them; -1: each domain's own. */
#define HM_ENFORCER_MODE_PER_DOMAIN (-1)

/* What `histmac enforce` was asked to do. */
struct hm_enforcer_opts {
	const char *policy;		/* policy directory */
	const char **marks;		/* --mark PATH, n_marks of them */
	size_t n_marks;
	int mode;			/* enum hm_profile, or PER_DOMAIN */
	const char *supervisor;		/* socket path, or NULL */
	unsigned query_timeout_ms;	/* default 10000 */
	unsigned decision_timeout_ms;	/* watchdog deadline, default 1000 */
	bool default_deny;		/* internal errors: deny */
	bool default_given;		/* --default was given: the watchdog
					 * answers with it; else deny when
					 * something is enforced */
	bool strict;			/* execs of unobserved history are
					 * judged in <kernel> EXE */
	bool strict_given;		/* --strict or --no-strict given;
					 * else strict when something is
					 * enforced */
	bool dry_run;			/* notification marks only */
	const char *state;		/* learner process table, or NULL */
	unsigned save_interval;		/* seconds; learning saves */
	bool record_use;		/* count uses into the directory */
	size_t cache_slots;
	unsigned cache_ttl_ms;		/* a cached allow lives this long */
	size_t ignore_max;		/* kernel ignore marks; 0: none */
	int proc_buffer;		/* proc connector socket buffer */
	bool audit;			/* FAN_AUDIT + user records */
	const char *pidfile;
	const char *metrics_file;	/* text format, or NULL */
	unsigned metrics_interval;	/* seconds between its writes */
	const char *ready_file;		/* written once marks are in place */
	bool verbose;
	int dialect;			/* of saved policy; AUTO: as loaded */
	struct hm_learn_opts lo;
};

/**
 * hm_enforcer_opts_init() - the defaults of `histmac enforce`.
 * @o: filled in.
 */
void hm_enforcer_opts_init(struct hm_enforcer_opts *o);

/**
 * hm_enforcer_run() - enforce @o's policy on its marks until SIGTERM or
 * SIGINT.  Logs to stderr (it is the daemon).
 * @o: borrowed for the call.
 * Returns: an exit status: 0 stopped cleanly, 1 the policy has errors,
 * 2 a --mark was refused, 3 could not run.
 */
int hm_enforcer_run(const struct hm_enforcer_opts *o);

#endif /* HISTMAC_ENFORCER_H */
