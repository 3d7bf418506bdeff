/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * event_write.h (formats) - normalised audit events as text, one line per
 * event: TSV (the columns `histmac events --help` lists) or JSON (one
 * object per line).  Strings are TOMOYO-encoded (hm_encode()), so a line
 * never holds a tab, a newline or a non-ASCII byte.  formats/events.c.
 */
#ifndef HISTMAC_EVENT_WRITE_H
#define HISTMAC_EVENT_WRITE_H

#include <stdio.h>

#include "histmac/event.h"

enum hm_event_format {
	HM_EVENT_TSV,
	HM_EVENT_JSON,
};

struct hm_event_writer;

/**
 * hm_event_writer_new() - a writer of @fmt lines.
 * @out: the new writer.
 * @fmt: an enum hm_event_format.
 * Returns: 0 or -ENOMEM.  Caller frees with hm_event_writer_free().
 */
int hm_event_writer_new(struct hm_event_writer **out,
			enum hm_event_format fmt);

/**
 * hm_event_write() - write @ev as one line to @f.
 * @w: the writer (its buffers are reused from line to line).
 * @ev: the event; only read.
 * @f: the stream.
 * Returns: 0, -ENOMEM, or -EIO when the stream failed.
 */
int hm_event_write(struct hm_event_writer *w, const struct hm_event *ev,
		   FILE *f);

/** hm_event_writer_free() - free @w; NULL is a no-op. */
void hm_event_writer_free(struct hm_event_writer *w);

#endif /* HISTMAC_EVENT_WRITE_H */
