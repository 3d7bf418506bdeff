/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model_private.h - what model.c and acl.c share and nobody else sees. */
#ifndef HISTMAC_ANALYZER_MODEL_PRIVATE_H
#define HISTMAC_ANALYZER_MODEL_PRIVATE_H

#include "histmac/model.h"

/* hm_acl_index_free() - free @d's lookup index (acl.c). */
void hm_acl_index_free(struct hm_model *m, struct hm_domain *d);

#endif
