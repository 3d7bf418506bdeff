// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * evaluable.c - which conditions the enforcer can evaluate: what it reads
 * of the opener and the file at a fanotify permission event (model.h
 * hm_acl_unevaluable(); `histmac policy lint` and the enforcer's index
 * ask).
 */
#include "histmac/kernel_names.h"
#include "histmac/model.h"

/* Does the enforcer judge anything by @e (an open or an exec)? */
static bool judged(const struct hm_acl_head *e)
{
	if (e->kind == HM_ACL_PATH_NUMBER)
		return e->perm & (1u << HM_FILE_CREATE);
	return e->kind == HM_ACL_PATH &&
	       (e->perm & (HM_ENF_OPEN_OPS | 1u << HM_FILE_EXECUTE));
}

/* A value the enforcer supplies: task.* (/proc/PID/status) and path1.*
 * (the event's file). */
static bool supplied(enum hm_cond_value v)
{
	return v != HM_CV_NONE && v != HM_CV_EXEC_ARGC &&
	       v != HM_CV_EXEC_ENVC && v < HM_CV_MAX;
}

/* A value the enforcer supplies for entry kind @kind. */
static bool supplied_for(enum hm_cond_value v, uint8_t kind)
{
	if (v >= HM_CV_PATH1_UID && kind != HM_ACL_PATH)
		return false;	/* create: no file yet (create_match()) */
	return supplied(v);
}

static bool item_evaluable(const struct hm_cond_item *it, uint8_t kind,
			   uint32_t perm)
{
	switch (it->var) {
	case HM_COND_EXEC_REALPATH:
		/* the path of an exec; nothing for an open */
		return !(perm & ~(1u << HM_FILE_EXECUTE));
	case HM_COND_EXEC_ARGV:
	case HM_COND_EXEC_ARGC:
	case HM_COND_SYMLINK_TARGET:
		return false;
	case HM_COND_OTHER:
		if (it->test == HM_CT_INERT)
			return true;
		if (it->test != HM_CT_NUM)
			return false;
		break;
	default:
		break;
	}
	return supplied_for(it->lval ? it->lval : HM_CV_TASK_UID + it->var,
			    kind) &&
	       (!it->rval || supplied_for(it->rval, kind));
}

const struct hm_cond_item *hm_acl_unevaluable(const struct hm_acl_head *e)
{
	if (!e->cond || !judged(e))
		return NULL;
	for (uint32_t i = 0; i < e->cond->n_items; i++)
		if (!item_evaluable(&e->cond->items[i], e->kind, e->perm))
			return &e->cond->items[i];
	return NULL;
}
