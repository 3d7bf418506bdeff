/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loop.h - one fanotify event being judged, shared by the two halves of
 * the decision loop: loop.c reads a batch and judges each event,
 * verdict.c answers what was judged (not a public header).
 */
#ifndef HISTMAC_ENFORCER_LOOP_H
#define HISTMAC_ENFORCER_LOOP_H

#include <sys/fanotify.h>
#include <sys/stat.h>

#include "enforcer_private.h"

/* A read returns whole events, and ours carry no info records
 * (FAN_REPORT_TID adds none): a buffer this size never holds more than
 * HM_LOOP_BATCH of them, so every event read is judged. */
#define BATCH_BYTES (HM_LOOP_BATCH * FAN_EVENT_METADATA_LEN)
#define PERM_MASK (FAN_OPEN_PERM | FAN_OPEN_EXEC_PERM)

/* One event of a batch as it was read. */
struct taken {
	struct hm_slot_ref ref;
	int fd;
	int32_t tid;		/* FAN_REPORT_TID: the opening thread */
	bool exec;
	bool dry;		/* notification only (--dry-run) */
	int flags_r;		/* read_modes(): 1 not read, else what */
	uint64_t flags;		/* hm_opener_flags() returned */
};

/* The event being judged. */
struct ev {
	struct hm_slot_ref ref;
	int fd;
	int32_t tid;		/* the thread that opens */
	int32_t pid;		/* its process (thread group) */
	bool exec;
	bool dry;
	bool done;
	bool late;		/* the watchdog had answered it already */
	bool gone;		/* the process vanished while judged */
	bool reported;		/* logged by report() */
	bool foreign;		/* reached through a mount that is not
				 * ours: named by hm_mnt_own_name() */
	struct statx stx;
	struct hm_proc_view v;
	size_t raw_len;
	char *name;
	struct hm_name nm;
	struct hm_dcache_key key;
	bool cache_ok;
	struct hm_cond_ctx ctx;
	bool has_ctx;
	bool unknown;		/* the open's mode could not be read */
	int flags_r;		/* struct taken's */
	uint64_t flags;
	uint32_t ask;		/* open: hm_enf_open_ops(); 0: not read */
	uint32_t perm;		/* violations: what was asked and not
				 * granted (hm_file_op) */
	uint32_t append_learns;	/* an O_APPEND open: hm_append_learns() */
	char raw[PATH_MAX];	/* last: not cleared per event */
};

struct hm_loop {
	struct hm_loop_cfg cfg;
	struct hm_enforcer_counters *c;
	uint64_t now_ns;	/* when the loop last woke */
	struct hm_mounts *mounts;	/* names files (hm_mnt_own_name()) */
	struct taken taken[HM_LOOP_BATCH];
	struct ev ev;
	char buf[BATCH_BYTES] __attribute__((aligned(8)));
};

/* verdict.c: the answer (once; a late one is counted) */
void hm_ev_finish(struct hm_loop *l, struct ev *e, bool allow, bool audit);
void hm_ev_finish_default(struct hm_loop *l, struct ev *e);
/* the process left while it was judged */
void hm_ev_gone(struct hm_loop *l, struct ev *e);
/* a late event no violation report told about */
void hm_ev_report_late(struct hm_loop *l, const struct ev *e);
/* not allowed by the policy: what profile @prof says */
void hm_ev_violation(struct hm_loop *l, struct ev *e, uint8_t prof,
		     const struct hm_enf_answer *a);
/* a file of a foreign mount with no certain name (-EXDEV, -ETIME) */
void hm_ev_unnamed(struct hm_loop *l, struct ev *e, int r);
/* an exec answered as part of one judged before, or let through
 * unjudged (unobserved history, not strict): true when answered */
bool hm_ev_exec_shortcut(struct hm_loop *l, struct ev *e);
/* a read-only plain open of an object of the process's judged exec */
bool hm_ev_exec_open(struct hm_loop *l, struct ev *e);
/* the decision cache answers (counted for --record-use) */
bool hm_ev_cached(struct hm_loop *l, struct ev *e);
/* --record-use counts an allowed decision: may it be cached? */
bool hm_ev_count_decision(struct hm_loop *l, struct ev *e,
			  const struct hm_enf_answer *a);
/* an allowed open of a learning domain */
void hm_ev_seen(struct hm_loop *l, const struct ev *e, uint8_t prof);
/* an exec let through enters by @program (@allowed: by an entry) */
void hm_ev_set_pending(struct hm_loop *l, struct ev *e,
		       const struct hm_name *program, bool allowed);
/* the flags of the open @tid waits in (struct hm_loop_cfg open_flags) */
int hm_ev_read_flags(struct hm_loop *l, int32_t tid, uint64_t *flags);
/* what the open asks (hm_enf_open_ops()), read once */
uint32_t hm_ev_ask_of(struct hm_loop *l, struct ev *e);

#endif /* HISTMAC_ENFORCER_LOOP_H */
