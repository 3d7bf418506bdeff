/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * policy_fixture.h - a model parsed from TOMOYO 2.6 domain policy text,
 * for the unit tests that start from a written policy (test_rebase.c,
 * test_patternize.c).  Include after <cmocka.h>; all static.
 */
#ifndef HISTMAC_TESTS_POLICY_FIXTURE_H
#define HISTMAC_TESTS_POLICY_FIXTURE_H

#include <string.h>

#include "histmac/model.h"
#include "histmac/policy_io.h"

static struct hm_model *parse(const char *text)
{
	struct hm_model *m = hm_model_new();

	assert_non_null(m);
	assert_int_equal(hm_policy_parse_domain(m, text, strlen(text),
						HM_DIALECT_26, "t", NULL), 0);
	hm_model_relink(m);
	return m;
}

#endif
