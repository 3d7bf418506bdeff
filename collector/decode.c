// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * decode.c - turn audit field values into bytes and numbers: quoted or
 * hex-encoded strings, (null), decimal/hex/octal numbers, and SOCKADDR's
 * saddr.  Values come from auparse_get_field_str(); nothing here assumes a
 * field is well formed.  Owns no state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <linux/audit.h>

#include "internal.h"

/*
 * Numbers are parsed here rather than with strtoull(): no locale, no
 * blanks, no sign for unsigned, every character must be a digit, and
 * overflow is an error.  This runs for most fields of every record.
 */
bool hm_parse_u64(const char *s, int base, uint64_t *out)
{
	/* digits that always fit in 64 bits, per base */
	size_t safe = base == 16 ? 16 : base == 10 ? 19 : 21;
	uint64_t v = 0;
	const char *p = s;
	size_t n = 0;

	if (!p || !*p)
		return false;
	if (base == 16 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[2])
		p += 2;
	for (; *p; p++, n++) {
		int d = hm_hex_digit(*p);

		if (d < 0 || d >= base)
			return false;
		if (n >= safe &&
		    (__builtin_mul_overflow(v, (uint64_t)base, &v) ||
		     __builtin_add_overflow(v, (uint64_t)d, &v)))
			return false;
		if (n < safe)
			v = v * (uint64_t)base + (uint64_t)d;
	}
	*out = v;
	return true;
}

bool hm_parse_i64(const char *s, int64_t *out)
{
	uint64_t v;
	bool neg = s && *s == '-';

	if (!hm_parse_u64(neg ? s + 1 : s, 10, &v))
		return false;
	if (v > (uint64_t)INT64_MAX + neg)
		return false;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return true;
}

int hm_field_bytes(struct hm_sbuf *b, const char *v, size_t max)
{
	size_t n;

	if (!v || !*v || !strcmp(v, "(null)") || !strcmp(v, "(none)"))
		return 0;
	n = strlen(v);
	if (v[0] == '"') {
		if (n < 2 || v[n - 1] != '"')
			return -EINVAL;
		if (b->len + n - 2 > max)
			return -E2BIG;
		return hm_sbuf_add(b, v + 1, n - 2) < 0 ? -ENOMEM : 1;
	}
	if (n % 2)
		return -EINVAL;
	if (b->len + n / 2 > max)
		return -E2BIG;
	if (hm_sbuf_reserve(b, n / 2) < 0)
		return -ENOMEM;
	if (!hm_hex_decode(b->s + b->len, v, n))
		return -EINVAL;
	b->len += n / 2;
	b->s[b->len] = '\0';
	return 1;
}

/*
 * saddr is the struct sockaddr in hex, in the byte order of the host that
 * wrote it: sa_family is little endian on x86 and arm64, big endian on
 * ppc64 (arch=80000015) and s390x (arch=80000016); ports and IPv4/IPv6
 * addresses are in network order inside.  @arch is the SYSCALL record's
 * AUDIT_ARCH_* (its __AUDIT_ARCH_LE bit says the order), or 0 when the
 * event has none: then the order is the one that gives a family in the
 * low byte values (every family number is below 256).
 */
int hm_sockaddr_decode(const char *hex, int arch, struct hm_ev_sockaddr *sa,
		       struct hm_arena *a)
{
	unsigned char raw[128];
	size_t n = hex ? strlen(hex) : 0;

	memset(sa, 0, sizeof(*sa));
	if (n < 4 || n % 2 || n / 2 > sizeof(raw))
		return -EINVAL;
	if (!hm_hex_decode(raw, hex, n))
		return -EINVAL;
	return hm_sockaddr_raw(raw, n / 2, arch, sa, a);
}

int hm_sockaddr_raw(const unsigned char *raw, size_t len, int arch,
		    struct hm_ev_sockaddr *sa, struct hm_arena *a)
{
	bool big;

	memset(sa, 0, sizeof(*sa));
	if (len < 2)
		return -EINVAL;
	if (arch)
		big = !((uint32_t)arch & __AUDIT_ARCH_LE);
	else
		big = raw[0] == 0 && raw[1] != 0;
	sa->family = big ? raw[0] << 8 | raw[1] : raw[0] | raw[1] << 8;
	switch (sa->family) {
	case AF_INET:
		if (len < 8)
			return -EINVAL;
		sa->port = (uint16_t)(raw[2] << 8 | raw[3]);
		memcpy(sa->addr, raw + 4, 4);
		return 0;
	case AF_INET6:
		if (len < 24)
			return -EINVAL;
		sa->port = (uint16_t)(raw[2] << 8 | raw[3]);
		memcpy(sa->addr, raw + 8, 16);
		return 0;
	case AF_UNIX: {
		size_t plen = len - 2;
		char *p;

		if (plen && raw[2] != 0) {
			/* pathname socket: up to the first NUL */
			const unsigned char *z = memchr(raw + 2, 0, plen);

			if (z)
				plen = (size_t)(z - (raw + 2));
		}
		p = hm_arena_strndup(a, (const char *)raw + 2, plen);
		if (!p)
			return -ENOMEM;
		sa->unix_path.s = p;
		sa->unix_path.len = plen;
		return 0;
	}
	default:
		return 0;
	}
}
