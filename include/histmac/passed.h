/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * passed.h (analyzer) - did TOMOYO's check pass?  TOMOYO checks in the LSM
 * hook, before the protocol or file-system work, so a call can fail after
 * its check passed (a non-blocking connect() returns EINPROGRESS).  One
 * table, per event kind, of the results that mean "the check was reached
 * and passed"; learn and check both ask it (docs/PASSED.md explains each
 * row).
 */
#ifndef HISTMAC_PASSED_H
#define HISTMAC_PASSED_H

#include "event.h"

enum hm_outcome {
	HM_OUTCOME_PASSED,	/* succeeded, or failed after the check */
	HM_OUTCOME_ATTEMPT,	/* EACCES/EPERM/ENOENT before or at a check:
				 * an attempt, evidence, never an access */
	HM_OUTCOME_FAILED,	/* failed otherwise: nothing to judge */
};

/**
 * hm_passed_outcome() - what the result of @ev says about TOMOYO's check.
 * @ev: the event; its kind, success flag and exit (-errno on failure).
 * Returns: the outcome.
 */
enum hm_outcome hm_passed_outcome(const struct hm_event *ev);

/**
 * hm_passed_errnos() - the failures (positive errno values) that still
 * passed the check of @kind.
 * Returns: a static array ending in 0 (empty when none).
 */
const int *hm_passed_errnos(enum hm_event_kind kind);

#endif /* HISTMAC_PASSED_H */
