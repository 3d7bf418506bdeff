// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * config.c - the histmac.conf parser.  It owns a copy of the file's text,
 * cut into NUL-terminated keys and values in place, and the list of
 * accepted lines.  What a key means is the caller's business (cli/ maps
 * keys to each subcommand's options); this file only says which lines are
 * well-formed, and where the others are.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "histmac/config.h"

struct hm_config {
	char *text;			/* the file, cut in place */
	struct hm_config_item *items;
	size_t n_items;
	size_t cap;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char *trim(char *s, char *end)
{
	while (s < end && is_blank(*s))
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	*end = '\0';
	return s;
}

static bool key_ok(const char *k)
{
	if (!*k)
		return false;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') ||
		      *k == '_'))
			return false;
	return true;
}

/* No control characters (NUL included) but tab and the CR of CRLF. */
static bool text_ok(const char *s, const char *end)
{
	for (; s < end; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\r')
			return false;
	return true;
}

static bool key_known(const char *const *keys, const char *k)
{
	for (; *keys; keys++)
		if (!strcmp(*keys, k))
			return true;
	return false;
}

static int add_item(struct hm_config *c, const char *k, const char *v,
		    unsigned long line)
{
	if (c->n_items == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		void *n = realloc(c->items, cap * sizeof(*c->items));

		if (!n)
			return -ENOMEM;
		c->items = n;
		c->cap = cap;
	}
	c->items[c->n_items++] = (struct hm_config_item){ k, v, line };
	return 0;
}

/* One line, [s, end) with *end writable; refused lines go to @diag. */
static int parse_line(struct hm_config *c, char *s, char *end,
		      const char *name, unsigned long line,
		      const char *const *keys, struct hm_diag *diag)
{
	char *eq, *k, *v;
	const char *why = NULL;

	if (end - s > HM_CONFIG_MAX_LINE)
		why = "line too long";
	else if (!text_ok(s, end))
		why = "control character in line";
	*end = '\0';
	s = trim(s, end);
	if (!why && (!*s || *s == '#'))
		return 0;
	eq = why ? NULL : strchr(s, '=');
	if (!why && !eq)
		why = "expected 'key = value'";
	else if (!why && eq == s)
		why = "missing key before '='";
	if (why) {
		hm_diag_add(diag, HM_DIAG_ERROR, name, line, "%s", why);
		return 0;
	}
	k = trim(s, eq);
	v = trim(eq + 1, end);
	if (!key_ok(k))
		why = "bad key (lower-case letters, digits and '_')";
	else if (!key_known(keys, k))
		why = "unknown key";
	else if (hm_config_get(c, k))
		why = "key given twice";
	else if (!*v)
		why = "empty value";
	if (why) {
		hm_diag_add(diag, HM_DIAG_ERROR, name, line, "%s: '%.64s'",
			    why, k);
		return 0;
	}
	return add_item(c, k, v, line);
}

int hm_config_parse(const char *text, size_t len, const char *name,
		    const char *const *keys, struct hm_diag *diag,
		    struct hm_config **out)
{
	struct hm_config *c;
	unsigned long line = 0;
	char *s, *end;
	int rc = 0;

	if (len > HM_CONFIG_MAX_SIZE)
		return -EFBIG;
	c = calloc(1, sizeof(*c));
	if (!c || !(c->text = malloc(len + 1))) {
		free(c);
		return -ENOMEM;
	}
	memcpy(c->text, text, len);
	c->text[len] = '\0';
	end = c->text + len;
	for (s = c->text; s < end && !rc; s++) {
		char *nl = memchr(s, '\n', end - s);

		if (!nl)
			nl = end;
		rc = parse_line(c, s, nl, name, ++line, keys, diag);
		s = nl;
	}
	if (rc) {
		hm_config_free(c);
		return rc;
	}
	*out = c;
	return 0;
}

int hm_config_read(const char *path, const char *const *keys,
		   struct hm_diag *diag, struct hm_config **out)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	ssize_t n = 1;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		close(fd);
		return rc;
	}
	/* one byte more than allowed tells a file that grew too large */
	buf = malloc(HM_CONFIG_MAX_SIZE + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got <= HM_CONFIG_MAX_SIZE && n > 0) {
		n = read(fd, buf + got, HM_CONFIG_MAX_SIZE + 1 - got);
		if (n > 0)
			got += n;
		else if (n < 0 && errno == EINTR)
			n = 1;
	}
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (!rc)
		rc = hm_config_parse(buf, got, path, keys, diag, out);
	free(buf);
	return rc;
}

const char *hm_config_get(const struct hm_config *c, const char *key)
{
	for (size_t i = 0; c && i < c->n_items; i++)
		if (!strcmp(c->items[i].key, key))
			return c->items[i].value;
	return NULL;
}

const struct hm_config_item *hm_config_items(const struct hm_config *c,
					     size_t *n)
{
	*n = c ? c->n_items : 0;
	return *n ? c->items : NULL;
}

void hm_config_free(struct hm_config *c)
{
	if (!c)
		return;
	free(c->items);
	free(c->text);
	free(c);
}
