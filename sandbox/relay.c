// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * relay.c - what the preload reports on the sandbox's FIFO (table.h
 * HM_SBX_LOST_KINDS: a program that could not narrow, a domain kept at
 * its parent's bound for a set-id program, an environment put back),
 * said on stderr once per kind and program while COMMAND runs, and
 * counted for --stats.  The reporters are confined processes: their
 * lines are read as text only and any that does not parse is dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

#define X(k, text) #k,
static const char *const lost_words[HM_SBX_LOST_MAX + 1] = {
	HM_SBX_LOST_KINDS(X) HM_SBX_SETID
};
#undef X
#define X(k, text) text,
static const char *const lost_text[HM_SBX_LOST_MAX + 1] = {
	HM_SBX_LOST_KINDS(X) HM_SBX_SETID_TEXT
};
#undef X

int hm_sbx_relay_open(struct hm_sbx_relay *rl, const char *fifo)
{
	memset(rl, 0, sizeof(*rl));
	/* read end first (non-blocking), and a write end of our own so that
	 * the FIFO never reads as hung up between two reporters */
	rl->fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	rl->wfd = rl->fd < 0 ? -1 : open(fifo, O_WRONLY | O_CLOEXEC);
	if (rl->wfd < 0) {
		int e = errno;

		hm_sbx_relay_fini(rl);
		return -e;
	}
	return 0;
}

/* Was "KIND PROGRAM" @key said already?  Remembers it if not. */
static bool relay_seen(struct hm_sbx_relay *rl, const char *key)
{
	char **n;

	for (size_t i = 0; i < rl->n_seen; i++)
		if (!strcmp(rl->seen[i], key))
			return true;
	if (rl->n_seen >= 10000)	/* bounded: say again rather than grow */
		return false;
	n = realloc(rl->seen, (rl->n_seen + 1) * sizeof(*n));
	if (!n)
		return false;
	rl->seen = n;
	rl->seen[rl->n_seen] = strdup(key);
	if (rl->seen[rl->n_seen])
		rl->n_seen++;
	return false;
}

/* The reporter is a confined process: print its words as text only. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			*s = '?';
}

/* One line "KIND R PID PROGRAM" from the preload. */
static void relay_line(struct hm_sbx_relay *rl, char *line)
{
	char kind[16], key[PIPE_BUF + 16], r;
	int pid, off = 0;
	unsigned k;

	sanitize(line);
	if (sscanf(line, "%15s %c %d %n", kind, &r, &pid, &off) != 3 || !off)
		return;
	if (!strcmp(kind, HM_SBX_ENV_RESTORED)) {
		rl->restored++;
		return;
	}
	for (k = 0; k <= HM_SBX_LOST_MAX && strcmp(kind, lost_words[k]); k++)
		;
	if (k > HM_SBX_LOST_MAX)
		return;
	rl->refused += r == 'r';
	if (!line[off] || snprintf(key, sizeof(key), "%s %s", kind,
				   line + off) >= (int)sizeof(key) ||
	    relay_seen(rl, key))
		return;
	rl->programs[k]++;
	fprintf(stderr, "histmac sandbox: %s (pid %d) %s: %s\n", line + off,
		pid, r == 'r' ? "refused (--strict), it cannot narrow" :
		"keeps its parent's bound", lost_text[k]);
}

void hm_sbx_relay_read(struct hm_sbx_relay *rl)
{
	ssize_t n;

	while ((n = read(rl->fd, rl->buf + rl->len,
			 sizeof(rl->buf) - rl->len - 1)) > 0) {
		char *nl, *p = rl->buf;

		rl->len += (size_t)n;
		rl->buf[rl->len] = '\0';
		while ((nl = strchr(p, '\n'))) {
			*nl = '\0';
			relay_line(rl, p);
			p = nl + 1;
		}
		rl->len -= (size_t)(p - rl->buf);
		memmove(rl->buf, p, rl->len);
		if (rl->len == sizeof(rl->buf) - 1)
			rl->len = 0;	/* a line too long: not ours */
	}
}

void hm_sbx_relay_stats(const struct hm_sbx_relay *rl)
{
	uint64_t total = 0;

	for (unsigned k = 0; k < HM_SBX_LOST_MAX; k++)
		total += rl->programs[k];
	fprintf(stderr, "sandbox: programs that could not narrow: %lu",
		(unsigned long)total);
	for (unsigned k = 0; k < HM_SBX_LOST_MAX; k++)
		fprintf(stderr, " %s %lu", lost_words[k],
			(unsigned long)rl->programs[k]);
	fprintf(stderr, "; execs refused (--strict): %lu\n",
		(unsigned long)rl->refused);
	fprintf(stderr, "sandbox: programs that kept their parent's bound for "
		"a set-id program (" HM_SBX_SETID "): %lu\n",
		(unsigned long)rl->programs[HM_SBX_LOST_MAX]);
	fprintf(stderr, "sandbox: execs whose environment lacked the preload "
		"and got it back: %lu\n", (unsigned long)rl->restored);
}

void hm_sbx_relay_fini(struct hm_sbx_relay *rl)
{
	for (size_t i = 0; i < rl->n_seen; i++)
		free(rl->seen[i]);
	free(rl->seen);
	rl->seen = NULL;
	rl->n_seen = 0;
	if (rl->fd >= 0)
		close(rl->fd);
	if (rl->wfd >= 0)
		close(rl->wfd);
	rl->fd = rl->wfd = -1;
}
