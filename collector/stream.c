// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stream.c - between the bytes of a log and auparse.
 *
 * Bytes are cut into lines here (an incomplete last line waits for more),
 * lines that auparse could not use are skipped and counted (no audit
 * stamp, NUL bytes, over-long).  The only thing read from a line is its
 * prefix
 *	[node=N ]type=T msg=audit(SEC.MSEC:SERIAL):
 * which tells which event (serial) it belongs to; auparse parses every
 * record.
 *
 * Why not feed auparse the log as it is: auparse 3.0.9 keeps every event
 * it has started in one list, closes one early only when its last record
 * is PROCTITLE, EOE, a type below 1300 or from 2100 on, KERNEL or
 * MAC_UNLBL*..MAC_CALIPSO*, and scans the list for every record.  Any
 * other event stays open until the end-of-event timeout (2 s of log
 * time) and the events behind it pile up: one crash (ANOM_ABEND, a single
 * record) per 5000 events makes a log read 40 times slower.  Records of
 * one event are not always adjacent either: a task that sleeps while its
 * records are emitted (audit backlog full) lets thousands of lines of
 * other events in between (up to 34656 lines in bench/RESULTS.md's logs),
 * with the same effect.
 *
 * So lines wait here, grouped by event, in the order events first appear
 * (a queue with a hash on the stamp), and auparse is fed whole events
 * from the head of the queue, each as soon as it and every event before
 * it is complete.  An event is complete when its last record is one that
 * auparse closes on; a record of a type that is always a whole event
 * (ANOM_ABEND, SECCOMP: audited outside any system call) completes it
 * and gets an EOE line after it; an event at the head that is still open
 * when a record 2 s later in log time arrives (auparse's own rule), or
 * HM_EOE_WINDOW lines later, or when the queue holds too much, is closed
 * with an EOE line.  auparse thus holds one event at a time, no event is
 * lost or split, and events come out in the order of their first record:
 * auparse hands back the oldest event it holds first, so an event older
 * than one before it in what it is fed is fed apart (mark_order(), struct
 * hm_cuts), or the order would depend on where a read ended.
 * An event that starts while none waits is the head at once: its lines
 * are written straight to what auparse is fed next (most events of a
 * quiet log), and held back only when a feed comes before it is whole.
 *
 * Owns: the partial line, the queue of pending events and their lines,
 * the type-name cache, the latest quiet place (a line end where no event
 * was open: the collector asks for it after each feed, for the
 * checkpoint).  Writes counters and skips into the report it was given.
 * Next: auparse calls the collector's callback; or, reading files on
 * several threads, the sink (parallel.c) takes the whole events.
 */
#include <errno.h>
#include <libaudit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define HM_EOE_WINDOW	262144		/* lines; 7x the largest gap seen */
#define EOE_TIMEOUT	2		/* seconds of log time, as auparse */
#define QUEUE_MAX	65536		/* events waiting */
#define BYTES_MAX	(64u << 20)	/* bytes of lines waiting */
#define HASH_SIZE	4096
#define NODE_MAX	255
#define TYPE_CACHE	256
#define NONE		UINT64_MAX

/* An event whose lines wait in the queue. */
struct pend {
	int64_t sec;
	uint32_t msec;
	uint64_t serial;
	uint32_t node_hash;
	uint16_t node_len;
	bool complete;
	bool need_eoe;		/* closed here, not by its last record */
	uint32_t nrec;
	uint64_t last_line;
	uint64_t hnext;		/* next seq in the hash chain, or NONE */
	struct hm_sbuf lines;	/* its records, ENRICHED part cut off */
	size_t in_out;		/* or, bytes of them at the end of out */
	bool direct;		/* its records go to out (it is the head) */
};

struct type_slot {
	char name[32];
	int type;
};

struct hm_stream {
	auparse_state_t *au;	/* NULL: whole events go to the sink */
	hm_stream_sink_fn sink;
	void *sink_user;
	struct hm_report *rep;
	uint64_t quiet_off;	/* consumed at the latest quiet place */
	uint64_t quiet_gen;	/* quiet places seen */
	int64_t newest_sec;	/* of this file's records so far */
	uint64_t newest_serial;
	bool said_backwards;	/* once per file */
	struct pend *q;		/* ring: seq & (cap - 1) */
	size_t cap;
	uint64_t head, tail;	/* seqs: [head, tail) wait */
	uint64_t hash[HASH_SIZE]; /* open events by stamp, chains of seqs */
	size_t open;		/* events in the hash */
	size_t bytes;		/* bytes of lines waiting */
	uint64_t line_no;
	struct hm_sbuf partial;
	struct hm_sbuf out;	/* whole events for auparse, then the
				 * head's records so far (struct pend.direct) */
	struct hm_cuts cuts;	/* where out is fed apart */
	int64_t out_sec;	/* stamp of the last event put in out */
	uint32_t out_msec;
	uint64_t out_serial;
	struct hm_sbuf held;	/* those records, over a flush */
	struct hm_sbuf fix;	/* a line with its unpaired quotes cut */
	bool skipping_long;	/* inside an over-long line */
	uint64_t consumed;	/* bytes of whole lines in this file */
	size_t carried;		/* bytes of a skipped long line so far */
	bool proctitle;		/* PROCTITLE is decoded: hm_record_use() */
	struct type_slot types[TYPE_CACHE];
};

/* The stamp of one line. */
struct stamp {
	const char *node;
	size_t node_len;
	const char *type;
	size_t type_len;
	int64_t sec;
	uint32_t msec;
	uint64_t serial;
	const char *end;	/* after the stamp's ')' */
};

struct hm_stream *hm_stream_new(auparse_state_t *au, struct hm_report *rep,
				bool proctitle)
{
	struct hm_stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->au = au;
	s->rep = rep;
	s->proctitle = proctitle;
	s->cap = 256;
	s->q = calloc(s->cap, sizeof(*s->q));
	if (!s->q) {
		free(s);
		return NULL;
	}
	for (size_t i = 0; i < HASH_SIZE; i++)
		s->hash[i] = NONE;
	return s;
}

void hm_stream_set_sink(struct hm_stream *s, hm_stream_sink_fn fn,
			void *user)
{
	s->au = NULL;
	s->sink = fn;
	s->sink_user = user;
}

void hm_stream_free(struct hm_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->cap; i++)
		hm_sbuf_free(&s->q[i].lines);
	free(s->q);
	hm_sbuf_free(&s->partial);
	hm_sbuf_free(&s->out);
	free(s->cuts.at);
	hm_sbuf_free(&s->held);
	hm_sbuf_free(&s->fix);
	free(s);
}

static bool digits(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	uint64_t x = 0;

	if (q >= end || *q < '0' || *q > '9')
		return false;
	while (q < end && *q >= '0' && *q <= '9') {
		if (x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*q++ - '0');
	}
	*p = q;
	*v = x;
	return true;
}

static bool word(const char **p, const char *end, const char *key,
		 size_t klen, const char **val, size_t *vlen)
{
	const char *q = *p;
	const char *sp;

	if ((size_t)(end - q) < klen || memcmp(q, key, klen))
		return false;
	q += klen;
	sp = memchr(q, ' ', (size_t)(end - q));
	if (!sp || sp == q)
		return false;
	*val = q;
	*vlen = (size_t)(sp - q);
	*p = sp + 1;
	return true;
}

/*
 * Where libauparse 3.0.9 looks for a line's stamp (extract_timestamp()):
 * in its first 80 bytes, 340 when it starts with 'n' (node=), in a word of
 * at least 19 bytes.  A line whose stamp ends beyond that is no record to
 * auparse: it drops it.  The stream drops it too, so that no event it
 * thinks closed by such a line waits open in auparse (and, read in
 * batches, in one parser's auparse for ever: tests/fuzz/corpus/collector/
 * stamp-past-80).
 */
static bool auparse_reads_stamp(const char *line, const char *msg,
				const char *close, const char *end)
{
	size_t win = line[0] == 'n' ? 340 : 80;
	const char *sp = memchr(msg, ' ', (size_t)(end - msg));
	size_t word = (size_t)((sp ? sp : end) - msg);

	if ((size_t)(msg - line) + word > win)
		word = win - (size_t)(msg - line);
	return (size_t)(close - line) < win && word > 18;
}

/*
 * A type name read alike by auparse and by type_of(): letters, digits and
 * '_', or auditd's "UNKNOWN[N]".  auparse 3.0.9 reads some other names as
 * known types (it drops a last ')', ',', ':' or '\'': "SOCKADDR)" is a
 * SOCKADDR record to it, not to libaudit's lookup), so the stream and
 * auparse would close events apart (tests/fuzz/corpus/collector/
 * type-name-paren): no log holds such a name, and its line is skipped.
 */
static bool clean_type_name(const char *t, size_t len)
{
	size_t i = 0;

	if (len > 9 && !memcmp(t, "UNKNOWN[", 8) && t[len - 1] == ']') {
		i = 8;
		len--;
	}
	for (; i < len; i++)
		if (!(t[i] == '_' || (t[i] >= '0' && t[i] <= '9') ||
		      ((t[i] | 0x20) >= 'a' && (t[i] | 0x20) <= 'z')))
			return false;
	return true;
}

/* Parse "[node=N ]type=T msg=audit(S.M:N):" at the start of a line. */
static bool parse_stamp(const char *p, const char *end, struct stamp *st)
{
	const char *line = p, *msg;
	uint64_t sec, msec;

	st->node = NULL;
	st->node_len = 0;
	if (end - p > 5 && !memcmp(p, "node=", 5) &&
	    !word(&p, end, "node=", 5, &st->node, &st->node_len))
		return false;
	if (!word(&p, end, "type=", 5, &st->type, &st->type_len) ||
	    !clean_type_name(st->type, st->type_len))
		return false;
	if (end - p < 10 || memcmp(p, "msg=audit(", 10))
		return false;
	msg = p;
	p += 10;
	if (!digits(&p, end, &sec) || p >= end || *p++ != '.' ||
	    !digits(&p, end, &msec) || p >= end || *p++ != ':' ||
	    !digits(&p, end, &st->serial) || p >= end || *p != ')' ||
	    !auparse_reads_stamp(line, msg, p, end))
		return false;
	if (st->node_len > NODE_MAX || sec > INT64_MAX || msec > 999)
		return false;
	st->sec = (int64_t)sec;
	st->msec = (uint32_t)msec;
	st->end = p + 1;
	return true;
}

/* A record type from its name, through a small cache. */
static int type_lookup(struct hm_stream *s, const char *name, size_t len)
{
	uint32_t h = hm_hash_bytes(name, len);
	struct type_slot *t = &s->types[h % TYPE_CACHE];
	char buf[32];
	int type;

	if (len >= sizeof(buf))
		return -1;
	if (!strncmp(t->name, name, len) && t->name[len] == '\0')
		return t->type;
	memcpy(buf, name, len);
	buf[len] = '\0';
	type = audit_name_to_msg_type(buf);
	memcpy(t->name, buf, len + 1);
	t->type = type;
	return type;
}


static int type_of(struct hm_stream *s, const char *name, size_t len)
{
	/* the usual records of a syscall event, without a lookup */
	switch (len) {
	case 3:
		if (!memcmp(name, "CWD", 3))
			return AUDIT_CWD;
		break;
	case 4:
		if (!memcmp(name, "PATH", 4))
			return AUDIT_PATH;
		break;
	case 7:
		if (!memcmp(name, "SYSCALL", 7))
			return AUDIT_SYSCALL;
		break;
	case 9:
		if (!memcmp(name, "PROCTITLE", 9))
			return AUDIT_PROCTITLE;
		break;
	}
	return type_lookup(s, name, len);
}

/* Does auparse close an event whose last record has this type? */
static bool closes_event(int type)
{
	return type == AUDIT_PROCTITLE || type == AUDIT_EOE ||
	       type < AUDIT_FIRST_EVENT || type >= AUDIT_FIRST_USER_MSG2 ||
	       type == AUDIT_KERNEL ||
	       (type >= AUDIT_MAC_UNLBL_ALLOW && type <= AUDIT_MAC_CALIPSO_DEL);
}

/*
 * Is an event of this type always one record, emitted outside any system
 * call (so no SYSCALL record can share its serial)?  A core dump is
 * audited while a signal is delivered; seccomp audits before the system
 * call is entered.
 */
static bool standalone(int type)
{
	return type == AUDIT_ANOM_ABEND || type == AUDIT_SECCOMP;
}

static struct pend *at(struct hm_stream *s, uint64_t seq)
{
	return &s->q[seq & (s->cap - 1)];
}

static size_t bucket(const struct stamp *st, uint32_t node_hash)
{
	return (size_t)((st->serial * 0x9E3779B97F4A7C15ull ^ (uint64_t)st->sec ^
			 node_hash) % HASH_SIZE);
}

static bool same(const struct pend *e, const struct stamp *st,
		 uint32_t node_hash)
{
	return e->serial == st->serial && e->sec == st->sec &&
	       e->msec == st->msec && e->node_len == st->node_len &&
	       e->node_hash == node_hash;
}

/* The open event @st belongs to, or NONE. */
static uint64_t find(struct hm_stream *s, const struct stamp *st,
		     uint32_t node_hash)
{
	for (uint64_t q = s->hash[bucket(st, node_hash)]; q != NONE;
	     q = at(s, q)->hnext)
		if (same(at(s, q), st, node_hash))
			return q;
	return NONE;
}

/* Take @seq out of the hash: it is complete. */
static void unhash(struct hm_stream *s, uint64_t seq)
{
	struct pend *e = at(s, seq);
	struct stamp st = { .sec = e->sec, .msec = e->msec,
			    .serial = e->serial };
	uint64_t *p = &s->hash[bucket(&st, e->node_hash)];

	while (*p != NONE && *p != seq)
		p = &at(s, *p)->hnext;
	if (*p == seq)
		*p = e->hnext;
	e->hnext = NONE;
	s->open--;
}

static void complete(struct hm_stream *s, uint64_t seq, bool eoe)
{
	struct pend *e = at(s, seq);

	if (e->complete)
		return;
	unhash(s, seq);
	e->complete = true;
	e->need_eoe = eoe;
}

/* Double the ring, keeping every seq's slot = seq & (cap - 1). */
static int grow(struct hm_stream *s)
{
	size_t cap = s->cap * 2;
	struct pend *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (uint64_t q = s->head; q != s->tail; q++)
		n[q & (cap - 1)] = *at(s, q);
	/* buffers of free slots are dropped; live ones moved */
	for (size_t i = 0; i < s->cap; i++) {
		uint64_t q = s->head + ((i - s->head) & (s->cap - 1));

		if (q >= s->tail)
			hm_sbuf_free(&s->q[i].lines);
	}
	free(s->q);
	s->q = n;
	s->cap = cap;
	return 0;
}

/* An EOE line after @e's records, whose first line is @l (@len bytes of
 * records). */
static int feed_eoe(struct hm_stream *s, const struct pend *e, const char *l,
		    size_t len)
{
	char buf[NODE_MAX + 96];
	size_t node = 0;
	int n;

	/* the node= prefix, as the event's first line has it (@l may
	 * point into out: copied before out grows) */
	if (e->node_len && len > 5 && !memcmp(l, "node=", 5)) {
		node = 5 + e->node_len + 1;
		memcpy(buf, l, node);
	}
	n = snprintf(buf + node, sizeof(buf) - node,
		     "type=EOE msg=audit(%lld.%03u:%llu): \n",
		     (long long)e->sec, e->msec, (unsigned long long)e->serial);
	return hm_sbuf_add(&s->out, buf, node + (size_t)n);
}

/*
 * @e's records go to out next: to be fed apart from the events before it
 * there when it is older than the last of them, or of its stamp (a record
 * auparse ends an event on, then more of that stamp: auparse would hand
 * back the two in the order of its own list), struct hm_cuts.
 */
static int mark_order(struct hm_stream *s, const struct pend *e)
{
	bool older = e->sec != s->out_sec ? e->sec < s->out_sec :
		     e->msec != s->out_msec ? e->msec < s->out_msec :
		     e->serial <= s->out_serial;

	s->out_sec = e->sec;
	s->out_msec = e->msec;
	s->out_serial = e->serial;
	if (!older || !s->out.len)
		return 0;
	if (HM_ARRAY_GROW(&s->cuts.at, &s->cuts.cap, s->cuts.n + 1))
		return -ENOMEM;
	s->cuts.at[s->cuts.n++] = s->out.len;
	return 0;
}

int hm_feed_pieces(__typeof__(auparse_feed) *feed, auparse_state_t *au,
		   const struct hm_sbuf *text, const struct hm_cuts *cuts)
{
	size_t from = 0;

	for (size_t i = 0; i <= cuts->n; i++) {
		size_t to = i < cuts->n ? cuts->at[i] : text->len;

		if (feed(au, text->s + from, to - from) < 0 ||
		    feed(au, "", 0) < 0)
			return -ENOMEM;
		from = to;
	}
	return 0;
}

/* Hand auparse the complete events at the head of the queue. */
static int drain(struct hm_stream *s)
{
	while (s->head != s->tail && at(s, s->head)->complete) {
		struct pend *e = at(s, s->head);
		size_t len = e->direct ? e->in_out : e->lines.len;
		const char *l = e->direct ? s->out.s + s->out.len - len :
					    e->lines.s;

		/* a direct event's records are there already, at the end */
		if (!e->direct && (mark_order(s, e) < 0 ||
				   hm_sbuf_add(&s->out, l, len) < 0))
			return -ENOMEM;
		if (e->need_eoe) {
			if (feed_eoe(s, e, l, len) < 0)
				return -ENOMEM;
			s->rep->st.eoe_injected++;
		}
		s->bytes -= len;
		hm_sbuf_reset(&e->lines);
		e->in_out = 0;
		e->direct = false;
		s->head++;
	}
	return 0;
}

/* Close the head while it blocks more than auparse itself would allow. */
static void unblock(struct hm_stream *s, const struct stamp *st)
{
	while (s->head != s->tail) {
		struct pend *e = at(s, s->head);

		if (!e->complete &&
		    s->line_no - e->last_line <= HM_EOE_WINDOW &&
		    st->sec <= e->sec + EOE_TIMEOUT &&
		    s->tail - s->head <= QUEUE_MAX && s->bytes <= BYTES_MAX)
			return;
		if (!e->complete) {
			complete(s, s->head, true);
			s->rep->st.eoe_window++;
		}
		if (drain(s) < 0)
			return;
	}
}

/* A new event at the tail of the queue. */
static int push(struct hm_stream *s, const struct stamp *st,
		uint32_t node_hash, uint64_t *out)
{
	struct pend *e;
	size_t b;

	if (s->tail - s->head == s->cap && grow(s) < 0)
		return -ENOMEM;
	e = at(s, s->tail);
	e->sec = st->sec;
	e->msec = st->msec;
	e->serial = st->serial;
	e->node_hash = node_hash;
	e->node_len = (uint16_t)st->node_len;
	e->complete = false;
	e->need_eoe = false;
	e->nrec = 0;
	hm_sbuf_reset(&e->lines);
	/* the only event waiting: its records need not wait apart, as
	 * nothing goes to out before it is complete (one copy less) */
	e->direct = s->head == s->tail;
	e->in_out = 0;
	if (e->direct && mark_order(s, e) < 0)
		return -ENOMEM;
	b = bucket(st, node_hash);
	e->hnext = s->hash[b];
	s->hash[b] = s->tail;
	s->open++;
	*out = s->tail++;
	return 0;
}

/*
 * Time going backwards within one input: a record older (by more than
 * auparse's 2 s) and with a lower serial than one before it.  A system
 * call that blocked is stamped when it began, so an older time alone is
 * normal; with the serial going back too, the file holds logs joined out
 * of order (cat audit.log audit.log.1), which are read as they are.
 */
static void check_order(struct hm_stream *s, const struct stamp *st)
{
	if (st->sec + EOE_TIMEOUT < s->newest_sec &&
	    st->serial < s->newest_serial && !s->said_backwards) {
		hm_report_warn(s->rep, "time goes backwards: audit(%lld:%llu) "
			       "after audit(%lld:%llu); are logs joined out "
			       "of order?", (long long)st->sec,
			       (unsigned long long)st->serial,
			       (long long)s->newest_sec,
			       (unsigned long long)s->newest_serial);
		s->said_backwards = true;
	}
	if (st->sec > s->newest_sec)
		s->newest_sec = st->sec;
	if (st->serial > s->newest_serial)
		s->newest_serial = st->serial;
}

/*
 * How much of a line auparse is given.  Never the ENRICHED part: what
 * follows 0x1d is auparse's interpretation text, which the collector
 * never reads (a raw record never holds 0x1d: audit hex-encodes control
 * bytes).  Of a record whose content the collector does not read
 * (hm_record_use(): most of all PROCTITLE, a sixth of a log's bytes),
 * only its stamp, "[node=N ]type=T msg=audit(S.M:N):": auparse makes the
 * same record of it, with less to parse and copy.  @end: the line's end,
 * or its 0x1d.
 */
static size_t record_len(struct hm_stream *s, int type,
			 const struct stamp *st, const char *line,
			 const char *end)
{
	switch (hm_record_use(type, s->proctitle)) {
	case HM_REC_CHECKED:
		/* a value "%malformed%" the assembler would count */
		if (memchr(line, '%', (size_t)(end - line)))
			break;
		/* fall through */
	case HM_REC_TYPE:
		if (st->end < end && *st->end == ':')
			return (size_t)(st->end + 1 - line);
		break;
	default:
		break;
	}
	return (size_t)(end - line);
}

/*
 * Queue one good line under its event; complete the event if it ends.
 * @end: the line's end, or its 0x1d.
 */
static int track(struct hm_stream *s, const struct stamp *st,
		 const char *line, const char *end)
{
	int type = type_of(s, st->type, st->type_len);
	uint32_t node_hash = st->node_len ? hm_hash_bytes(st->node,
							  st->node_len) : 0;
	struct hm_sbuf *to;
	struct pend *e;
	uint64_t seq;
	size_t len;
	int rc;

	s->line_no++;
	check_order(s, st);
	seq = find(s, st, node_hash);
	if (seq != NONE && at(s, seq)->nrec >= HM_COLLECTOR_MAX_RECORDS) {
		hm_report_skip(s->rep, HM_SKIP_EVENT_SPLIT,
				  "event %llu has over %u records",
				  (unsigned long long)st->serial,
				  HM_COLLECTOR_MAX_RECORDS);
		complete(s, seq, true);
		seq = NONE;
	}
	if (seq == NONE && (rc = push(s, st, node_hash, &seq)) < 0)
		return rc;
	e = at(s, seq);
	len = record_len(s, type, st, line, end);
	to = e->direct ? &s->out : &e->lines;
	if (hm_sbuf_reserve(to, len + 1) < 0)
		return -ENOMEM;
	memcpy(to->s + to->len, line, len);
	to->s[to->len + len] = '\n';
	to->len += len + 1;
	if (e->direct)
		e->in_out += len + 1;
	s->bytes += len + 1;
	e->nrec++;
	e->last_line = s->line_no;
	if (standalone(type) && e->nrec == 1)
		complete(s, seq, true);
	else if (closes_event(type))
		complete(s, seq, false);
	unblock(s, st);
	return drain(s);
}

/* No event is open after the line just consumed: a place to resume at. */
static void quiet(struct hm_stream *s)
{
	s->quiet_off = s->consumed;
	s->quiet_gen++;
}

/*
 * The kernel writes a value holding a quote, space or control byte in
 * hex, so in a sound record quotes come in pairs (up to the 0x1d that
 * starts auditd's enriched part).  libauparse 3.0.9 leaks memory on some
 * lines with an unpaired quote, so it never gets to see one.  @end: the
 * line's end, or its 0x1d.
 */
static bool quotes_paired(const char *line, const char *end)
{
	return !(hm_memcount(line, (size_t)(end - line), '"') & 1);
}

/*
 * Where the value of the field at @p ends, and whether its quotes pair:
 * a quoted value ends at the next quote, which a blank, a "'" (the end of
 * a USER record's msg='...') or the end of the line must follow; any
 * other value ends at the next blank and pairs when it holds an even
 * number of quotes.  A value that does not pair ends at the next blank.
 */
static const char *value_end(const char *p, const char *end, bool *ok)
{
	const char *q;
	size_t n = 0;

	if (p < end && *p == '"') {
		q = memchr(p + 1, '"', (size_t)(end - p - 1));
		if (q && (q + 1 == end || q[1] == ' ' || q[1] == '\'')) {
			*ok = true;
			return q + 1;
		}
	}
	for (q = p; q < end && *q != ' '; q++)
		n += *q == '"';
	*ok = !(n & 1) && *p != '"';
	return q;
}

/*
 * A line whose quotes do not pair: the value of each field whose quotes
 * do not pair becomes HM_MALFORMED_VALUE (the assembler counts it if the
 * event needs that field), so one bad field nothing uses (a key= with a
 * stray quote) does not cost the record, as ausearch reads it.  The
 * repaired line goes to @out; returns the number of fields repaired, or
 * -1 when the line still does not pair (then it is skipped).
 */
static int repair_quotes(struct hm_stream *s, const char *line,
			 const char *nl)
{
	const char *gs = memchr(line, 0x1d, (size_t)(nl - line));
	const char *end = gs ? gs : nl;
	const char *p = line;
	struct hm_sbuf *out = &s->fix;
	int fixed = 0;

	out->len = 0;
	if (hm_sbuf_reserve(out, (size_t)(nl - line) + 16) < 0)
		return -1;
	while (p < end) {
		const char *eq, *ve;
		bool ok;

		while (p < end && *p == ' ')
			if (hm_sbuf_add(out, p++, 1) < 0)
				return -1;
		eq = p;
		while (eq < end && *eq != '=' && *eq != ' ')
			eq++;
		if (eq == end || *eq != '=') {
			eq = p;		/* no name: the whole word is a value */
		} else {
			eq++;
		}
		ve = value_end(eq, end, &ok);
		if (hm_sbuf_add(out, p, (size_t)(eq - p)) < 0)
			return -1;
		if (ok) {
			if (hm_sbuf_add(out, eq, (size_t)(ve - eq)) < 0)
				return -1;
		} else {
			fixed++;
			hm_report_skip(s->rep, HM_SKIP_STRAY_QUOTE,
				       "value of '%.*s' has an unpaired quote: "
				       "dropped", (int)(eq - p), p);
			if (hm_sbuf_add(out, HM_MALFORMED_VALUE,
				       strlen(HM_MALFORMED_VALUE)) < 0)
				return -1;
		}
		p = ve;
	}
	return quotes_paired(out->s, out->s + out->len) ? fixed : -1;
}

/* Does the space-separated word at @p (up to @end) name a field "cwd" as
 * libauparse 3.0.9 reads names: a "msg='" before it and one '(' are cut
 * off (parse_up_record), so "msg='cwd=" and "(cwd=" count too. */
static bool cwd_word(const char *p, const char *end)
{
	if (end - p > 5 && !memcmp(p, "msg='", 5))
		p += 5;
	if (p < end && *p == '(')
		p++;
	return end - p >= 4 && !memcmp(p, "cwd=", 4);
}

/*
 * The kernel writes one cwd= per CWD record.  libauparse 3.0.9 keeps the
 * value of each without freeing the one before (found by fuzz_collector),
 * so a CWD record with two is damaged input it must not see.  Only CWD
 * records: auparse keeps no other record's cwd=, and searching every
 * line for it cost 4 % of a learn.  Words are counted as auparse splits
 * them (at spaces), with its reading of a field's name (cwd_word).
 */
static bool two_cwds(const char *line, const char *nl)
{
	const char *p = line;
	int n = 0;

	if (nl - p > 5 && !memcmp(p, "node=", 5)) {
		p = memchr(p, ' ', (size_t)(nl - p));
		if (!p)
			return false;
		p++;
	}
	if (nl - p < 9 || memcmp(p, "type=CWD ", 9))
		return false;
	for (p += 9; p < nl; p++) {
		const char *end = memchr(p, ' ', (size_t)(nl - p));

		if (!end)
			end = nl;
		if (cwd_word(p, end) && ++n > 1)
			return true;
		p = end;
	}
	return false;
}

/* One complete line [line, nl] (nl at its '\n'), holding a NUL byte or
 * not (@nul): queue it or skip it. */
static int one_line(struct hm_stream *s, const char *line, const char *nl,
		    bool nul)
{
	size_t len = (size_t)(nl - line) + 1;
	/* the raw record, without auditd's enriched part: one search */
	const char *gs = memchr(line, 0x1d, (size_t)(nl - line));
	const char *raw = gs ? gs : nl;
	bool paired = true;
	struct stamp st;
	enum hm_skip_reason why;
	int rc = 0;

	s->rep->line++;
	s->rep->st.lines++;
	if (nul) {
		why = HM_SKIP_GARBAGE;
	} else if (two_cwds(line, nl)) {
		why = HM_SKIP_BAD_VALUE;
	} else if (!(paired = quotes_paired(line, raw)) &&
		   repair_quotes(s, line, nl) < 0) {
		why = HM_SKIP_BAD_VALUE;
	} else {
		if (!paired) {
			line = s->fix.s;
			nl = raw = s->fix.s + s->fix.len;
		}
		if (!parse_stamp(line, nl, &st)) {
			why = HM_SKIP_NO_STAMP;
		} else {
			s->rep->stamped++;
			rc = track(s, &st, line, raw);
			goto done;
		}
	}
	hm_report_skip(s->rep, why, "%s", hm_skip_names[why]);
done:
	s->consumed += len + s->carried;
	s->carried = 0;
	if (rc == 0 && s->head == s->tail)
		quiet(s);
	return rc;
}

/*
 * Hand what was queued to auparse (its callbacks run in here), or to the
 * sink (parallel.c: whole events, parsed on another thread).
 */
static int flush_out(struct hm_stream *s)
{
	const struct pend *h = s->head != s->tail ? at(s, s->head) : NULL;
	/* an open head's records stay: only whole events go */
	size_t keep = h && h->direct ? h->in_out : 0;
	int rc = 0;

	if (s->out.len == keep)
		return 0;
	hm_sbuf_reset(&s->held);
	if (keep && hm_sbuf_add(&s->held, s->out.s + s->out.len - keep,
				keep) < 0)
		return -ENOMEM;
	s->out.len -= keep;
	/* the head's own cut: what is before it goes now */
	while (s->cuts.n && s->cuts.at[s->cuts.n - 1] >= s->out.len)
		s->cuts.n--;
	if (s->sink)
		rc = s->sink(s->sink_user, &s->out, &s->cuts);
	else
		rc = hm_feed_pieces(auparse_feed, s->au, &s->out, &s->cuts);
	hm_sbuf_reset(&s->out);
	s->cuts.n = 0;
	if (keep && hm_sbuf_add(&s->out, s->held.s, keep) < 0)
		return -ENOMEM;
	return rc;
}

/*
 * auparse hands out an event completed by its last record only when it is
 * next called: an empty feed does that now, so nothing fed is held back
 * (a checkpoint relies on it, and so does latency).
 */
static int poke(struct hm_stream *s)
{
	return s->au && auparse_feed(s->au, "", 0) < 0 ? -ENOMEM : 0;
}

/* The rest of a line begun in an earlier call: 1 done, 0 need more. */
static int finish_partial(struct hm_stream *s, const char **pp, size_t len)
{
	const char *p = *pp;
	const char *nl = memchr(p, '\n', len);
	size_t take = nl ? (size_t)(nl - p) + 1 : len;
	int rc = 0;

	if (s->skipping_long) {
		s->carried += take;
	} else if (s->partial.len + take > HM_COLLECTOR_MAX_LINE) {
		s->skipping_long = true;
		s->carried = s->partial.len + take;
		hm_sbuf_reset(&s->partial);
	} else if (hm_sbuf_add(&s->partial, p, take) < 0) {
		return -ENOMEM;
	}
	if (!nl)
		return 0;
	*pp = nl + 1;
	if (s->skipping_long) {
		s->skipping_long = false;
		s->rep->line++;
		s->rep->st.lines++;
		hm_report_skip(s->rep, HM_SKIP_LONG_LINE, "line over %u bytes",
				  HM_COLLECTOR_MAX_LINE);
		s->consumed += s->carried;
		s->carried = 0;
		if (s->head == s->tail)
			quiet(s);
	} else {
		const char *q = s->partial.s;

		s->carried = 0;
		rc = one_line(s, q, q + s->partial.len - 1,
			      memchr(q, '\0', s->partial.len));
		hm_sbuf_reset(&s->partial);
	}
	return rc < 0 ? rc : 1;
}

int hm_stream_feed(struct hm_stream *s, const char *p, size_t len)
{
	const char *end = p + len, *nul;
	int rc;

	if (s->partial.len || s->skipping_long) {
		rc = finish_partial(s, &p, len);
		if (rc <= 0)
			return rc;
	}
	/* the next NUL byte: looked for once a read, not once a line */
	nul = memchr(p, '\0', (size_t)(end - p));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			break;
		if ((rc = one_line(s, p, nl, nul && nul < nl)) < 0)
			return rc;
		p = nl + 1;
		if (nul && nul < p)
			nul = memchr(p, '\0', (size_t)(end - p));
	}
	if ((rc = flush_out(s)) < 0 || (rc = poke(s)) < 0)
		return rc;
	if (p < end) {
		if ((size_t)(end - p) > HM_COLLECTOR_MAX_LINE) {
			s->skipping_long = true;
			s->carried = (size_t)(end - p);
		} else if (hm_sbuf_add(&s->partial, p, (size_t)(end - p)) < 0) {
			return -ENOMEM;
		}
	}
	return 0;
}

/*
 * A log read whole (-i, a descriptor, a buffer: @whole) may end without a
 * final newline, and ausearch reads that last line: so is it taken here.
 * A followed log or the plugin feed may be cut in the middle of a line
 * being written: that part is dropped and counted.
 */
int hm_stream_end_file(struct hm_stream *s, bool whole)
{
	int rc = 0;

	if (s->partial.len && !s->skipping_long && whole) {
		const char *q = s->partial.s;

		s->carried = 0;
		rc = one_line(s, q, q + s->partial.len,
			      memchr(q, '\0', s->partial.len));
		if (rc == 0)
			rc = flush_out(s);
		if (rc == 0)
			rc = poke(s);
	} else if (s->partial.len || s->skipping_long) {
		s->rep->line++;
		hm_report_skip(s->rep, s->skipping_long ? HM_SKIP_LONG_LINE :
				  HM_SKIP_TRUNCATED, "%s",
				  s->skipping_long ? "line too long" :
				  "incomplete last line");
	}
	/* one input of several that holds nothing to learn from is named;
	 * reading commands refuse a run where no input has a record.  Not
	 * a followed log's file: resumed at its checkpoint, or rotated
	 * twice with nothing between, the rest of it may hold no record */
	if (whole && !s->rep->stamped && !s->rep->file_ended && s->rep->diag)
		hm_diag_add(s->rep->diag, HM_DIAG_WARNING, s->rep->file, 0,
			    "no audit records");
	s->rep->file_ended = true;
	hm_sbuf_reset(&s->partial);
	s->skipping_long = false;
	s->carried = 0;
	s->consumed = 0;
	s->newest_sec = 0;
	s->newest_serial = 0;
	s->said_backwards = false;
	return rc;
}

int hm_stream_close_open(struct hm_stream *s)
{
	int rc;

	for (uint64_t q = s->head; q != s->tail; q++)
		if (!at(s, q)->complete) {
			complete(s, q, true);
			s->rep->st.eoe_window++;
		}
	if ((rc = drain(s)) < 0)
		return rc;
	if ((rc = flush_out(s)) < 0)
		return rc;
	return poke(s);
}

void hm_stream_flush(struct hm_stream *s)
{
	hm_stream_close_open(s);
	if (s->au)
		auparse_flush_feed(s->au);
}

uint64_t hm_stream_quiet(const struct hm_stream *s, uint64_t *off)
{
	*off = s->quiet_off;
	return s->quiet_gen;
}

uint64_t hm_stream_consumed(const struct hm_stream *s)
{
	return s->consumed;
}

size_t hm_stream_open_count(const struct hm_stream *s)
{
	return (size_t)(s->tail - s->head);
}
