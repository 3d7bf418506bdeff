// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * saves.c - the text of POLICYDIR/histmac_saves.conf (history.h): a
 * learner's saves, one line each, written from and read into the model's
 * struct hm_save_rec list.  Owns nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/history.h"
#include "histmac/sbuf.h"
#include "tomoyo_private.h"

int hm_saves_text(const struct hm_model *m, struct hm_file_out *out)
{
	struct hm_sbuf b = { 0 };

	*out = (struct hm_file_out){ HM_SAVES_FILE, NULL, 0 };
	if (!m->n_saves)
		return 0;
	hm_sbuf_adds(&b, "# histmac learning saves (not read by TOMOYO): per "
		     "save TIME EVENTS ADDED WIDENED\n# (the newest audit "
		     "event then, in seconds; events learned, entries added,\n"
		     "# entries widened since the save before)\n");
	for (size_t i = 0; i < m->n_saves; i++) {
		const struct hm_save_rec *r = &m->saves[i];

		hm_sbuf_printf(&b, "%" PRId64 " %" PRIu64 " %" PRIu64 " %"
			       PRIu64 "\n", r->time, r->events, r->added,
			       r->widened);
	}
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	out->text = b.s;
	out->len = b.len;
	return 0;
}

/* One line: 0 read or skipped (warned), -ENOMEM. */
static int read_line(struct hm_model *m, const char *path,
		     const struct hm_lines *l, struct hm_diag *diag)
{
	struct hm_save_rec r;
	long long t;
	unsigned long long e, a, w;
	int end = 0;

	if (!l->n || l->line[0] == '#' || l->line[0] == '\n')
		return 0;
	if (l->too_long || l->has_nul ||
	    sscanf(l->line, "%lld %llu %llu %llu%n", &t, &e, &a, &w,
		   &end) != 4 || t < 0 ||
	    strspn(l->line + end, " \t\r\n") != strlen(l->line + end)) {
		hm_diag_add(diag, HM_DIAG_WARNING, path, l->lineno,
			    "expected TIME EVENTS ADDED WIDENED; line skipped");
		return 0;
	}
	r = (struct hm_save_rec){ t, e, a, w };
	return hm_model_add_save(m, &r);
}

int hm_saves_read(struct hm_model *m, const char *dir, struct hm_diag *diag)
{
	struct hm_lines l;
	char *path = NULL;
	FILE *f;
	int r = hm_side_open(dir, HM_SAVES_FILE, &path, &f);

	if (r || !f) {
		free(path);
		return r;
	}
	m->n_saves = 0;		/* the file is the whole list */
	r = hm_lines_open(&l, f, NULL, 0);
	while (!r && (r = hm_lines_next(&l)) > 0)
		r = read_line(m, path, &l, diag);
	hm_lines_close(&l);
	fclose(f);
	free(path);
	return r;
}
