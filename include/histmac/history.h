/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * history.h (formats) - POLICYDIR/histmac_entries.conf: when each entry was
 * learned and used, and per domain the events since its last new
 * entry.  Saved with the policy in the same commit
 * (hm_policy_save_dir_with()), read by hm_policy_load_dir(), combined by
 * merge; never read by TOMOYO's tools.  The stamps live in the model (struct
 * hm_acl_hist, hm_domain's quiet_events); this file is only their text.
 *
 * Format, one line each:
 *   # comment
 *   <kernel> ...                       a domain; its lines follow
 *   quiet N                            events since its last new entry
 *   package NAME VERSION               the Debian package of its program
 *                                      when last learned (packages.h)
 *   LEARNED GROWN USES USED ENTRY      audit seconds (0: unknown), the
 *                                      entry as TOMOYO 1.8 text
 *   object NAME VERSION FILE           after the domains: the Debian
 *                                      package of a file entries name,
 *                                      when last learned (owners.h)
 */
#ifndef HISTMAC_HISTORY_H
#define HISTMAC_HISTORY_H

#include "histmac/common.h"
#include "histmac/model.h"

#define HM_HISTORY_FILE "histmac_entries.conf"

/**
 * hm_history_text() - @m's stamps as the file's text, domains and entries
 * sorted.  @out: named; text malloc'd (caller frees), or NULL when @m has
 * no stamp at all (then a save leaves the file alone).
 * Returns: 0 or -ENOMEM.
 */
int hm_history_text(const struct hm_model *m, struct hm_file_out *out);

/**
 * hm_history_read() - stamp @m's entries from @dir's file, if it has one.
 * Lines naming a domain or entry @m lacks (edited away) are skipped; a bad
 * line is a warning FILE:LINE in @diag (the stamps are not the policy).
 * Returns: 0 (also without the file), -errno of reading, -ENOMEM.
 */
int hm_history_read(struct hm_model *m, const char *dir, struct hm_diag *diag);

/*
 * POLICYDIR/histmac_saves.conf: one line per save of a learner (learn,
 * the auditd plugin's periodic saves), struct hm_save_rec in order:
 *   # comment
 *   TIME EVENTS ADDED WIDENED
 * A directory without it (learned before it was kept, or a merge) loads
 * as one without saves.
 */
#define HM_SAVES_FILE "histmac_saves.conf"

/**
 * hm_saves_text() - @m's save records as the file's text.  @out: named;
 * text malloc'd (caller frees), or NULL when @m has none (then a save
 * leaves the file alone).
 * Returns: 0 or -ENOMEM.
 */
int hm_saves_text(const struct hm_model *m, struct hm_file_out *out);

/**
 * hm_saves_read() - @dir's save records into @m, if it has the file.  A
 * bad line is a warning FILE:LINE in @diag and is skipped.
 * Returns: 0 (also without the file), -errno of reading, -ENOMEM.
 */
int hm_saves_read(struct hm_model *m, const char *dir, struct hm_diag *diag);

#endif /* HISTMAC_HISTORY_H */
