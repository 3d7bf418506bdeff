// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memo.c - records a parser has decoded before are not parsed again.
 *
 * Most PATH and CWD records of a log repeat byte for byte after their
 * stamp: the same libraries, configuration files and working directories,
 * the same inode, device, mode and owner (samples/audit's recorded log:
 * three in four PATH records, all but three CWD records), and so does a
 * quarter of its SYSCALL records (a process making the same call with the
 * same arguments again).  Each worker (parallel.c) keeps what decoding
 * such a record gave, keyed by its type and its bytes after the stamp.
 * Before a batch goes to auparse, hm_memo_cut() takes out every line it
 * knows, and hm_assemble_decode() puts what it gave back in its place:
 * auparse parses each distinct record once per worker instead of every
 * time (bench/RESULTS.md).
 *
 * Decoding one of these records depends on its bytes alone (a SYSCALL
 * record's, on an event it starts: it is kept and put back only as an
 * event's first record); a record is kept only when decoding it told
 * nothing (no bad value, no cut), so what a kept one gives back is what
 * decoding it again would give.  Where it goes back: a line is taken out
 * only when the next line of the batch has the same stamp, so it is never
 * the last record of its event, and auparse, which closes no event on
 * these records, hands back the records of a batch in its order; the cut
 * line goes back just before the record that followed it (struct
 * hm_memo_ref.line).  auparse hands back first the oldest event it holds
 * (auparse_timestamp_compare()), and with fewer lines it holds other
 * events at a time: a batch whose events are not in the order of their
 * stamps (a system call that blocked, logs joined out of order, clocks of
 * several nodes) is fed whole; the stream cuts a batch in pieces before
 * each such event (struct hm_cuts), and parallel.c gives each piece here
 * on its own.  Two events of one stamp (a record auparse ends an event
 * on, such as LOGIN, then more records of that stamp) are cut apart too;
 * in one input, none of their lines is cut, the rest of it is.  Should a
 * batch still come back out of step (its serials checked), parallel.c
 * parses it again whole.
 *
 * A line looked up and not found is fed with its hash (struct
 * hm_memo_fed), so keeping what decoding it gave hashes nothing again.
 *
 * Bounds: PATH_SLOTS PATH and CWD records and SC_SLOTS SYSCALL records
 * of at most MEMO_BODY_MAX bytes each (a longer one is always parsed),
 * each replaced by the next one of the same hash, and kept only the
 * second time its hash is seen: at most about 13 MiB per parser whatever
 * the log (a record, its decoded strings and what it gave: 1.3 KiB at
 * most; a log's PATH records are a few hundred bytes), and little for a
 * log of records seen once (bench/RESULTS.md has the peak RSS).  A log
 * holds a few thousand distinct PATH and CWD records (5,405 in 100 MB of
 * the bench's): with 2,048 slots for them, 3 % fewer records were found
 * than with 8,192.
 *
 * Owns: the slots and their copies.  Next: parallel.c feeds auparse what
 * is left; assemble.c splices and fills.
 */
#include <errno.h>
#include <libaudit.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define PATH_SLOTS	8192		/* PATH and CWD; a power of 2 */
#define SC_SLOTS	2048		/* SYSCALL; a power of 2 */
#define MEMO_BODY_MAX	512

/* A record kept: its hm_memo_rec (as much as its type needs), its bytes,
 * then its strings, in one allocation. */
struct memo_slot {
	uint64_t hash;
	char *blob;			/* NULL: empty */
	uint32_t len;			/* of its bytes */
	int type;
};

/* SYSCALL records apart: they are many and mostly new, and would push
 * the PATH and CWD records, fewer and mostly old, out. */
struct hm_memo {
	struct memo_slot path[PATH_SLOTS], sc[SC_SLOTS];
	uint64_t path_seen[PATH_SLOTS], sc_seen[SC_SLOTS]; /* seen once,
							      * by hash */
};

struct hm_memo *hm_memo_new(void)
{
	return calloc(1, sizeof(struct hm_memo));
}

void hm_memo_free(struct hm_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < PATH_SLOTS; i++)
		free(m->path[i].blob);
	for (size_t i = 0; i < SC_SLOTS; i++)
		free(m->sc[i].blob);
	free(m);
}

/* How much of a struct hm_memo_rec a record of @type keeps (aligned). */
static size_t rec_size(int type)
{
	size_t n = offsetof(struct hm_memo_rec, u);

	if (type == AUDIT_SYSCALL)
		n = sizeof(struct hm_memo_rec);
	else if (type == AUDIT_PATH)
		n += sizeof(struct hm_dec_item);
	return (n + 7) & ~(size_t)7;
}

static const char *slot_body(const struct memo_slot *s)
{
	return s->blob + rec_size(s->type);
}

static inline uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xFF51AFD7ED558CCDull;
	return h ^ (h >> 29);
}

/* Four lanes of eight bytes at a time: this runs over every SYSCALL,
 * PATH and CWD record, and one lane waits on its multiply. */
static uint64_t hash(const char *p, size_t len, int type)
{
	uint64_t h[4] = { 0x9E3779B97F4A7C15ull ^ len, (uint64_t)type,
			  0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull };
	uint64_t w[4];

	for (; len >= 32; p += 32, len -= 32) {
		memcpy(w, p, 32);
		for (int i = 0; i < 4; i++)
			h[i] = mix(h[i], w[i]);
	}
	for (int i = 0; len; i++) {
		size_t n = len < 8 ? len : 8;

		w[0] = 0;
		memcpy(w, p, n);
		h[i] = mix(h[i], w[0]);
		p += n;
		len -= n;
	}
	return mix(mix(h[0], h[1]), mix(h[2], h[3]) * 0xC4CEB9FE1A85EC53ull);
}

/*
 * A line's parts: the node= prefix before "type=", the type's name, the
 * stamp "audit(...)" and the body after its ':'.  false: not a line
 * shaped as the stream cut it.
 */
struct line_parts {
	const char *type;
	size_t type_len;
	const char *stamp;		/* "audit(" ... ")" */
	size_t stamp_len;
	size_t node_len;		/* bytes before "type=" */
	const char *body;
	size_t body_len;
};

static bool split_line(const char *l, const char *end, struct line_parts *lp)
{
	const char *p = l, *q;

	if (end - p > 5 && !memcmp(p, "node=", 5)) {
		p = memchr(p, ' ', (size_t)(end - p));
		if (!p)
			return false;
		p++;
	}
	lp->node_len = (size_t)(p - l);
	if (end - p < 6 || memcmp(p, "type=", 5))
		return false;
	lp->type = p + 5;
	q = memchr(lp->type, ' ', (size_t)(end - lp->type));
	if (!q || end - q < 11 || memcmp(q, " msg=audit(", 11))
		return false;
	lp->type_len = (size_t)(q - lp->type);
	lp->stamp = q + 5;
	q = memchr(lp->stamp, ')', (size_t)(end - lp->stamp));
	if (!q || q + 1 >= end || q[1] != ':')
		return false;
	lp->stamp_len = (size_t)(q + 1 - lp->stamp);
	lp->body = q + 2;
	lp->body_len = (size_t)(end - lp->body);
	return true;
}

static int memo_type(const struct line_parts *lp)
{
	if (lp->type_len == 4 && !memcmp(lp->type, "PATH", 4))
		return AUDIT_PATH;
	if (lp->type_len == 3 && !memcmp(lp->type, "CWD", 3))
		return AUDIT_CWD;
	if (lp->type_len == 7 && !memcmp(lp->type, "SYSCALL", 7))
		return AUDIT_SYSCALL;
	return 0;
}

static struct memo_slot *slot(struct hm_memo *m, int type, uint64_t h)
{
	if (type == AUDIT_SYSCALL)
		return &m->sc[h & (SC_SLOTS - 1)];
	return &m->path[h & (PATH_SLOTS - 1)];
}

static struct memo_slot *find(struct hm_memo *m, int type, const char *body,
			      size_t len, uint64_t h)
{
	struct memo_slot *s = slot(m, type, h);

	if (s->blob && s->type == type && s->hash == h && s->len == len &&
	    !memcmp(slot_body(s), body, len))
		return s;
	return NULL;
}

static bool same_stamp(const char *l, const struct line_parts *a,
		       const char *n, const struct line_parts *b)
{
	return a->node_len == b->node_len && a->stamp_len == b->stamp_len &&
	       !memcmp(a->stamp, b->stamp, a->stamp_len) &&
	       !memcmp(l, n, a->node_len);
}

/* "audit(SEC.MSEC:SERIAL)" as auparse orders events: false if not so. */
static bool stamp_key(const struct line_parts *lp, uint64_t k[3])
{
	const char *c = lp->stamp + 6, *end = lp->stamp + lp->stamp_len;

	for (int i = 0; i < 3; i++, c++) {
		const char *d = c;

		for (k[i] = 0; c < end && *c >= '0' && *c <= '9' && c - d < 19;
		     c++)
			k[i] = k[i] * 10 + (uint64_t)(*c - '0');
		if (c == d || c == end || *c != ".:)"[i])
			return false;
	}
	return true;
}

/* Is @k after @last (auparse_timestamp_compare())? */
static bool later(const uint64_t k[3], const uint64_t last[3])
{
	for (int i = 0; i < 3; i++)
		if (k[i] != last[i])
			return k[i] > last[i];
	return false;
}

/* A copy of what @s keeps, its strings in @a (the batch's memory): 0 or
 * -ENOMEM. */
static int ref_add(struct hm_memo_refs *refs, const struct memo_slot *s,
		   uint64_t line, uint64_t serial, struct hm_arena *a)
{
	const struct hm_memo_rec *r = (const struct hm_memo_rec *)s->blob;
	struct hm_memo_ref *f;

	if (HM_ARRAY_GROW(&refs->v, &refs->cap, refs->n + 1))
		return -ENOMEM;
	f = &refs->v[refs->n];
	f->line = line;
	f->serial = serial;
	memcpy(&f->rec, r, rec_size(s->type));
	for (size_t i = 0; i < HM_ARRAY_SIZE(r->s); i++) {
		if (!r->s[i].s)
			continue;
		f->rec.s[i].s = hm_arena_strndup(a, r->s[i].s, r->s[i].len);
		if (!f->rec.s[i].s)
			return -ENOMEM;
	}
	refs->n++;
	return 0;
}

/* One line of a batch: where it is, and its parts (ok: it has a stamp). */
struct line {
	const char *l;
	const char *nl;			/* its '\n', NULL: none */
	bool ok;
	struct line_parts p;
	int type;			/* memo_type(): 0, not one kept */
	uint64_t hash;			/* of its body, when of a type kept */
};

/* ...and the slot its hash leads to asked for now, so that it is in the
 * cache when the line is looked up (the table is larger than the L1). */
static void line_at(struct hm_memo *m, struct line *x, const char *l,
		    const char *end)
{
	x->l = l;
	x->nl = l < end ? memchr(l, '\n', (size_t)(end - l)) : NULL;
	x->ok = x->nl && split_line(l, x->nl, &x->p);
	x->type = x->ok ? memo_type(&x->p) : 0;
	x->hash = 0;
	if (x->type && x->p.body_len <= MEMO_BODY_MAX) {
		x->hash = hash(x->p.body, x->p.body_len, x->type);
		__builtin_prefetch(slot(m, x->type, x->hash));
	}
}

static bool same_event(const struct line *a, const struct line *b)
{
	return a->ok && b->ok && same_stamp(a->l, &a->p, b->l, &b->p);
}

/*
 * Might auparse end an event at this line (au_check_events(): PROCTITLE,
 * EOE, a type below 1300 or from 1700 on, an unknown one)?  Then a next
 * line with its stamp starts another event of the same time, and auparse
 * hands back first whichever of the two sits first in its own list.
 */
static bool may_close(const struct line *x)
{
	char name[40];
	int t;

	if (x->type)
		return false;	/* SYSCALL, PATH, CWD: most lines */
	if (x->p.type_len >= sizeof(name))
		return true;
	memcpy(name, x->p.type, x->p.type_len);
	name[x->p.type_len] = '\0';
	t = audit_name_to_msg_type(name);
	return t < AUDIT_FIRST_EVENT || t >= AUDIT_FIRST_ANOM_MSG ||
	       t == AUDIT_PROCTITLE || t == AUDIT_EOE;
}

/*
 * May @cur (of @type) be taken out: the next line has its stamp and is no
 * EOE (alone, auparse would drop it), and a SYSCALL record starts its
 * event (@first)?
 */
static bool may_cut(const struct line *cur, const struct line *next,
		    int type, bool first)
{
	if (!type || cur->p.body_len > MEMO_BODY_MAX ||
	    !same_event(cur, next) ||
	    (next->p.type_len == 3 && !memcmp(next->p.type, "EOE", 3)))
		return false;
	return type != AUDIT_SYSCALL || first;
}

/* Line @kept fed to auparse (hash 0: not looked up); 0 or -ENOMEM. */
static int fed_add(struct hm_memo_refs *refs, uint64_t kept, uint64_t h,
		   const struct line *x)
{
	if (HM_ARRAY_GROW(&refs->lines, &refs->lines_cap, kept + 1))
		return -ENOMEM;
	refs->lines[kept] = (struct hm_memo_fed){ h,
						  (size_t)(x->nl - x->l) };
	refs->nlines = kept + 1;
	return 0;
}

uint64_t hm_memo_fed_hash(const struct hm_memo_refs *refs, const char *text)
{
	const struct hm_memo_fed *f;

	if (!refs || !refs->fed || refs->fed > refs->nlines)
		return 0;
	f = &refs->lines[refs->fed - 1];
	return f->hash && strlen(text) == f->len ? f->hash : 0;
}

/* Where a batch's cut stood at an event's first line (hm_memo_cut()). */
struct cut_mark {
	size_t out_len;
	const char *keep;
	uint64_t kept;
	size_t nrefs;
};

int hm_memo_cut(struct hm_memo *m, const char *in, size_t len,
		struct hm_sbuf *out, struct hm_memo_refs *refs,
		struct hm_arena *a)
{
	const char *end = in + len, *keep = in;
	struct line prev = { 0 }, cur, next;
	uint64_t kept = 0, key[3], last[3] = { 0 }, in_stamp = 0;
	struct cut_mark mark = { 0, in, 0, 0 };
	bool hold = false;

	refs->n = refs->next = 0;
	refs->fed = 0;
	refs->nlines = 0;
	refs->bad = false;
	hm_sbuf_reset(out);
	for (line_at(m, &cur, in, end); cur.l < end;
	     prev = cur, cur = next, in_stamp++) {
		const struct memo_slot *s = NULL;
		uint64_t h = 0;
		bool first;

		if (!cur.ok)
			return 1;
		line_at(m, &next, cur.nl + 1, end);
		first = !same_event(&cur, &prev);
		if (first) {
			/* a new event: auparse hands back the oldest first */
			if (!stamp_key(&cur.p, key) ||
			    (prev.l && !later(key, last)))
				return 1;
			memcpy(last, key, sizeof(last));
			mark = (struct cut_mark){ out->len, keep, kept,
						  refs->n };
			in_stamp = 0;
			hold = false;
		}
		/* two events of one stamp: which comes first is auparse's,
		 * so they go as they came, none of their lines cut */
		if (!hold && same_event(&cur, &next) && may_close(&cur)) {
			out->len = mark.out_len;
			keep = mark.keep;
			refs->n = mark.nrefs;
			/* fed now, not looked up (hash 0: no length read) */
			for (kept = mark.kept; kept < mark.kept + in_stamp;
			     kept++)
				if (fed_add(refs, kept, 0, &cur) < 0)
					return -ENOMEM;
			hold = true;
		}
		if (!hold && may_cut(&cur, &next, cur.type, first)) {
			h = cur.hash;
			s = find(m, cur.type, cur.p.body, cur.p.body_len, h);
		}
		if (!s) {
			if (fed_add(refs, kept++, h, &cur) < 0)
				return -ENOMEM;
			continue;
		}
		/* the kept lines before this one, then this one's place */
		if (hm_sbuf_add(out, keep, (size_t)(cur.l - keep)) < 0 ||
		    ref_add(refs, s, kept, key[2], a) < 0)
			return -ENOMEM;
		keep = next.l;
	}
	return hm_sbuf_add(out, keep, (size_t)(end - keep));
}

int hm_memo_put(struct hm_memo *m, int type, const char *text,
		const struct hm_memo_rec *r, uint64_t h)
{
	size_t head = rec_size(type), strs = 0, off;
	struct hm_memo_rec *kept;
	struct line_parts lp = { 0 };
	struct memo_slot *s;
	uint64_t *seen;
	char *blob;

	if (!h) {
		if (!split_line(text, text + strlen(text), &lp) ||
		    lp.body_len > MEMO_BODY_MAX)
			return 0;
		h = hash(lp.body, lp.body_len, type);
	}
	/* one of this hash is kept (this one, put earlier in its batch) */
	s = slot(m, type, h);
	if (s->blob && s->type == type && s->hash == h)
		return 0;
	/*
	 * Kept from the second time: most SYSCALL records, and in a flood of
	 * new names every PATH record, are seen once, and keeping them would
	 * only churn the memory.
	 */
	seen = type == AUDIT_SYSCALL ? &m->sc_seen[h & (SC_SLOTS - 1)] :
				       &m->path_seen[h & (PATH_SLOTS - 1)];
	if (*seen != h) {
		*seen = h;
		return 0;
	}
	if (!lp.body && !split_line(text, text + strlen(text), &lp))
		return 0;
	for (size_t i = 0; i < HM_ARRAY_SIZE(r->s); i++)
		strs += r->s[i].s ? r->s[i].len + 1 : 0;
	blob = malloc(head + lp.body_len + strs);
	if (!blob)
		return -ENOMEM;
	kept = (struct hm_memo_rec *)blob;
	memcpy(kept, r, head);
	memcpy(blob + head, lp.body, lp.body_len);
	off = head + lp.body_len;
	for (size_t i = 0; i < HM_ARRAY_SIZE(r->s); i++) {
		if (!r->s[i].s)
			continue;
		memcpy(blob + off, r->s[i].s, r->s[i].len);
		blob[off + r->s[i].len] = '\0';
		kept->s[i].s = blob + off;
		off += r->s[i].len + 1;
	}
	free(s->blob);
	s->blob = blob;
	s->hash = h;
	s->len = (uint32_t)lp.body_len;
	s->type = type;
	return 0;
}
