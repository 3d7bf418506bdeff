// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decision.c - the text of the audit user record the enforcer writes for
 * a decision, and its inverse.  Values that auditd would not keep as
 * they are (spaces, quotes, bytes outside 0x21-0x7e) are hex-encoded as
 * auditd's own untrusted fields are, so the collector decodes them with
 * the same code.  Owns nothing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "histmac/decision.h"
#include "histmac/sbuf.h"

#define TAG "op=histmac-decision"
/* The operations a decision record may name. */
#define PERMS (1u << HM_FILE_EXECUTE | 1u << HM_FILE_READ |		\
	       1u << HM_FILE_WRITE | 1u << HM_FILE_APPEND |		\
	       1u << HM_FILE_TRUNCATE)

const char *const hm_decision_result_names[HM_DECISION_RESULT_MAX] = {
#define X(e, s) [HM_DECISION_##e] = s,
	HM_DECISION_RESULTS(X)
#undef X
};

static bool needs_hex(const char *s, size_t len)
{
	if (!len)
		return true;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f || c == '"' || c == '\'')
			return true;
	}
	return false;
}

static void put_value(struct hm_sbuf *b, const char *key, const char *s,
		      size_t len)
{
	hm_sbuf_printf(b, " %s=", key);
	if (!needs_hex(s, len)) {
		hm_sbuf_printf(b, "\"%.*s\"", (int)len, s);
		return;
	}
	for (size_t i = 0; i < len; i++)
		hm_sbuf_printf(b, "%02X", (unsigned char)s[i]);
}

int hm_decision_format(const struct hm_decision *d, char **out)
{
	struct hm_sbuf b = { 0 };

	hm_sbuf_printf(&b, TAG " result=%s perm=",
		       d->result < HM_DECISION_RESULT_MAX ?
			       hm_decision_result_names[d->result] : "?");
	if (!(d->perm & PERMS))
		hm_sbuf_adds(&b, "open");
	for (int op = 0, n = 0; op < HM_FILE_OP_MAX; op++)
		if (d->perm & PERMS & (1u << op))
			hm_sbuf_printf(&b, "%s%s", n++ ? "," : "",
				       hm_file_op_names[op]);
	hm_sbuf_printf(&b, " profile=%u opid=%" PRId64, d->profile, d->pid);
	put_value(&b, "domain", d->domain, d->domain_len);
	put_value(&b, "path", d->path, d->path_len);
	if (b.oom) {
		hm_sbuf_free(&b);
		return -ENOMEM;
	}
	*out = b.s;	/* taken over: the caller frees it with free() */
	return 0;
}

/* Decode value @v (@n bytes, quoted or hex) into @buf. */
static int value(const char *v, size_t n, char *buf, size_t *out_len)
{
	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		memcpy(buf, v + 1, n - 2);
		*out_len = n - 2;
		return 0;
	}
	if (!n || !hm_hex_decode(buf, v, n))
		return -EINVAL;
	*out_len = n / 2;
	return 0;
}

static bool key_is(const char *k, size_t kn, const char *want)
{
	return kn == strlen(want) && !memcmp(k, want, kn);
}

/* "open", or operation names joined with ','. */
static int parse_perm(const char *v, size_t n, uint32_t *out)
{
	size_t i = 0;

	*out = 0;
	if (key_is(v, n, "open"))
		return 0;
	while (i < n) {
		size_t j = i;
		int op;

		while (j < n && v[j] != ',')
			j++;
		for (op = 0; op < HM_FILE_OP_MAX; op++)
			if ((PERMS & (1u << op)) &&
			    key_is(v + i, j - i, hm_file_op_names[op]))
				break;
		if (op == HM_FILE_OP_MAX)
			return -EINVAL;
		*out |= 1u << op;
		i = j + 1;
	}
	return *out ? 0 : -EINVAL;
}

static int field(const char *k, size_t kn, const char *v, size_t vn,
		 char **bufp, struct hm_decision *d, unsigned *seen)
{
	size_t len;
	int r;

	if (key_is(k, kn, "result")) {
		for (int i = 0; i < HM_DECISION_RESULT_MAX; i++)
			if (key_is(v, vn, hm_decision_result_names[i])) {
				d->result = (enum hm_decision_result)i;
				*seen |= 1;
				return 0;
			}
		return -EINVAL;
	}
	if (key_is(k, kn, "perm")) {
		*seen |= 2;
		return parse_perm(v, vn, &d->perm);
	}
	if (key_is(k, kn, "profile")) {
		d->profile = vn == 1 && v[0] >= '0' && v[0] <= '3' ?
				     (uint8_t)(v[0] - '0') : 0;
		return 0;
	}
	if (key_is(k, kn, "opid")) {
		d->pid = strtoll(v, NULL, 10);
		return 0;
	}
	if (!key_is(k, kn, "domain") && !key_is(k, kn, "path"))
		return 0;
	r = value(v, vn, *bufp, &len);
	if (r)
		return r;
	if (k[0] == 'd') {
		d->domain = *bufp;
		d->domain_len = len;
		*seen |= 4;
	} else {
		d->path = *bufp;
		d->path_len = len;
		*seen |= 8;
	}
	(*bufp)[len] = '\0';
	*bufp += len + 1;
	return 0;
}

int hm_decision_parse(const char *text, size_t len, char *buf,
		      struct hm_decision *out)
{
	const char *p = memmem(text, len, TAG, strlen(TAG));
	const char *end = text + len;
	struct hm_decision d = { 0 };
	unsigned seen = 0;

	if (!p)
		return -EINVAL;
	p += strlen(TAG);
	while (p < end && *p != '\'') {
		const char *k, *eq, *v;
		int r;

		while (p < end && *p == ' ')
			p++;
		k = p;
		while (p < end && *p != ' ' && *p != '\'')
			p++;
		eq = memchr(k, '=', (size_t)(p - k));
		if (!eq)
			continue;
		v = eq + 1;
		r = field(k, (size_t)(eq - k), v, (size_t)(p - v), &buf, &d,
			  &seen);
		if (r)
			return r;
	}
	if (seen != 15)
		return -EINVAL;
	*out = d;
	return 0;
}
