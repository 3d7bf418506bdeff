// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * events.c - the events writer: one normalised audit event (struct
 * hm_event, from the collector) per line, as TSV or JSON.  Every string
 * goes through hm_encode() first, so it is ASCII without space, tab or
 * newline; JSON strings are then quoted by hm_sbuf_add_json_text().
 *
 * Owns: the line being built and the encoding scratch buffer, both
 * reused.  Reads the event only.  Next: the caller's stream.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "histmac/event_write.h"
#include "histmac/word.h"
#include "histmac/sbuf.h"

struct hm_event_writer {
	enum hm_event_format fmt;
	struct hm_sbuf line;
	char *enc;		/* hm_encode() output */
	size_t enc_cap;
	bool oom;
};

int hm_event_writer_new(struct hm_event_writer **out,
			enum hm_event_format fmt)
{
	struct hm_event_writer *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	w->fmt = fmt;
	*out = w;
	return 0;
}

void hm_event_writer_free(struct hm_event_writer *w)
{
	if (!w)
		return;
	hm_sbuf_free(&w->line);
	free(w->enc);
	free(w);
}

/* The TOMOYO encoding of @b, or "-"; valid until the next call. */
static const char *enc(struct hm_event_writer *w, const struct hm_bytes *b)
{
	size_t need;

	if (!b || !b->s)
		return "-";
	need = hm_encode_len(b->s, b->len) + 1;
	if (need > w->enc_cap) {
		char *n = realloc(w->enc, need);

		if (!n) {
			w->oom = true;
			return "?";
		}
		w->enc = n;
		w->enc_cap = need;
	}
	hm_encode(w->enc, b->s, b->len);
	return w->enc;
}

static const char *family_name(int f)
{
	switch (f) {
	case AF_INET:
		return "inet";
	case AF_INET6:
		return "inet6";
	case AF_UNIX:
		return "unix";
	case AF_NETLINK:
		return "netlink";
	case 0:
		return NULL;
	default:
		return "other";
	}
}

static const char *type_name(int t)
{
	switch (t) {
	case SOCK_STREAM:
		return "stream";
	case SOCK_DGRAM:
		return "dgram";
	case SOCK_RAW:
		return "raw";
	case SOCK_SEQPACKET:
		return "seqpacket";
	default:
		return NULL;
	}
}

static const char *addr_str(const struct hm_ev_sockaddr *sa, char *buf,
			    size_t n)
{
	if (sa->family == AF_INET)
		return inet_ntop(AF_INET, sa->addr, buf, (socklen_t)n);
	if (sa->family == AF_INET6)
		return inet_ntop(AF_INET6, sa->addr, buf, (socklen_t)n);
	return NULL;
}

static const char *nametype_name(uint8_t t)
{
	static const char *const n[] = { "UNKNOWN", "NORMAL", "CREATE",
					 "DELETE", "PARENT" };

	return t < HM_ARRAY_SIZE(n) ? n[t] : "UNKNOWN";
}

static bool is_net(enum hm_event_kind k)
{
	return k >= HM_EV_SOCKET && k <= HM_EV_RECV;
}

/* ----------------------------------------------------------------- TSV */

/* kind-specific key=value pairs (TSV column 20) */
static void details_tsv(struct hm_event_writer *w, const struct hm_event *ev)
{
	struct hm_sbuf *b = &w->line;
	const char *sep = "";
	char a[INET6_ADDRSTRLEN];

#define KV(...) do {							\
		hm_sbuf_adds(b, sep);					\
		hm_sbuf_printf(b, __VA_ARGS__);				\
		sep = " ";						\
	} while (0)
	if (ev->kind == HM_EV_EXEC) {
		KV("argv=");
		for (uint32_t i = 0; i < ev->argc; i++)
			hm_sbuf_printf(b, "%s%s", i ? "," : "",
				       enc(w, &ev->argv[i]));
		if (ev->argv_truncated)
			KV("argv_truncated=1");
		for (uint32_t i = 1; i < ev->n_paths; i++)
			KV("interp=%s", enc(w, &ev->paths[i].path));
	}
	if (ev->has_open_flags)
		KV("flags=0%o", ev->open_flags);
	if (ev->mode)
		KV("mode=0%o", ev->mode);
	if (ev->created)
		KV("created=1");
	for (uint32_t i = 0; i < ev->n_paths && i < 2; i++)
		if (ev->paths[i].proof != HM_PROOF_OBJECT)	/* PATHS.md */
			KV("path%u=%s", i + 1,
			   ev->paths[i].proof == HM_PROOF_DIRS ? "dirs-only" :
								 "not-proven");
	if (ev->kind == HM_EV_MKNOD)
		KV("dev=%u:%u", ev->dev_major, ev->dev_minor);
	if (ev->kind == HM_EV_CHOWN)
		KV("owner=%d:%d", (int)ev->owner_uid, (int)ev->owner_gid);
	if (ev->removedir)
		KV("removedir=1");
	if (ev->fstype.s)
		KV("fstype=%s", enc(w, &ev->fstype));
	if (ev->link_target.s)
		KV("linkto=%s", enc(w, &ev->link_target));
	if (ev->kind == HM_EV_MOUNT || ev->kind == HM_EV_UMOUNT)
		KV("mflags=0x%llx", (unsigned long long)ev->mount_flags);
	if (is_net(ev->kind)) {
		if (family_name(ev->sock_family))
			KV("family=%s", family_name(ev->sock_family));
		if (type_name(ev->sock_type))
			KV("type=%s", type_name(ev->sock_type));
		if (ev->fd >= 0)
			KV("fd=%d", ev->fd);
	}
	if (ev->sa.family) {
		if (!is_net(ev->kind) || ev->sa.family != ev->sock_family)
			KV("safamily=%s", family_name(ev->sa.family));
		if (addr_str(&ev->sa, a, sizeof(a)))
			KV("addr=%s port=%u", a, ev->sa.port);
		if (ev->sa.family == AF_UNIX)
			KV("unix=%s", enc(w, &ev->sa.unix_path));
	}
	if (ev->kind == HM_EV_SIGNAL) {
		KV("sig=%d target=%lld", ev->sig, (long long)ev->target_pid);
		if (ev->target_comm.s)
			KV("tcomm=%s", enc(w, &ev->target_comm));
	}
	if (ev->fan_response)
		KV("fan=%d", ev->fan_response);
	if (ev->kind == HM_EV_HM_DECISION)
		KV("domain=%s", enc(w, &ev->decision_domain));
	if (ev->cwd.s)
		KV("cwd=%s", enc(w, &ev->cwd));
#undef KV
	if (!*sep)
		hm_sbuf_addc(b, '-');
}

/* A number the records carried (@bit of ev->present), or "-". */
static void num_tsv(struct hm_sbuf *b, const struct hm_event *ev,
		    unsigned int bit, long long v)
{
	if (ev->present & bit)
		hm_sbuf_printf(b, "%lld\t", v);
	else
		hm_sbuf_adds(b, "-\t");
}

static void tsv(struct hm_event_writer *w, const struct hm_event *ev)
{
	struct hm_sbuf *b = &w->line;

	hm_sbuf_printf(b, "%lld.%03u\t%llu\t%s\t%s\t", (long long)ev->sec,
		       ev->msec, (unsigned long long)ev->serial,
		       enc(w, &ev->node), hm_event_kind_names[ev->kind]);
	if (!ev->has_syscall) {
		hm_sbuf_adds(b, "-\t-\t-\t");
	} else {
		if (ev->syscall_name)
			hm_sbuf_printf(b, "%s\t", ev->syscall_name);
		else
			hm_sbuf_printf(b, "%d\t", ev->syscall);
		hm_sbuf_printf(b, "%s\t", !(ev->present & HM_EVP_SUCCESS) ?
			       "-" : ev->success ? "yes" : "no");
		num_tsv(b, ev, HM_EVP_EXIT, ev->exit);
	}
	num_tsv(b, ev, HM_EVP_PID, ev->pid);
	num_tsv(b, ev, HM_EVP_PPID, ev->ppid);
	num_tsv(b, ev, HM_EVP_UID, ev->uid);
	num_tsv(b, ev, HM_EVP_UID, ev->euid);
	num_tsv(b, ev, HM_EVP_UID, ev->gid);
	num_tsv(b, ev, HM_EVP_UID, ev->egid);
	num_tsv(b, ev, HM_EVP_AUID, ev->auid);
	num_tsv(b, ev, HM_EVP_SES, ev->ses);
	hm_sbuf_printf(b, "%s\t", enc(w, &ev->comm));
	hm_sbuf_printf(b, "%s\t", enc(w, &ev->exe));
	hm_sbuf_printf(b, "%s\t",
		       ev->n_paths > 0 ? enc(w, &ev->paths[0].path) : "-");
	hm_sbuf_printf(b, "%s\t",
		       ev->n_paths > 1 && ev->kind != HM_EV_EXEC ?
		       enc(w, &ev->paths[1].path) : "-");
	details_tsv(w, ev);
	hm_sbuf_addc(b, '\n');
}

/* ---------------------------------------------------------------- JSON */

/* An encoded (ASCII) string, quoted. */
static void json_enc(struct hm_event_writer *w, const struct hm_bytes *b)
{
	const char *s = enc(w, b);

	hm_sbuf_add_json_text(&w->line, s, strlen(s));
}

static void json_bytes(struct hm_event_writer *w, const char *key,
		       const struct hm_bytes *b)
{
	if (!b->s)
		return;
	hm_sbuf_printf(&w->line, ",\"%s\":", key);
	json_enc(w, b);
}

static void json_paths(struct hm_event_writer *w, const struct hm_event *ev)
{
	struct hm_sbuf *b = &w->line;

	hm_sbuf_adds(b, ",\"paths\":[");
	for (uint32_t i = 0; i < ev->n_paths; i++) {
		const struct hm_ev_path *p = &ev->paths[i];

		hm_sbuf_adds(b, i ? ",{\"path\":" : "{\"path\":");
		if (p->path.s)
			json_enc(w, &p->path);
		else
			hm_sbuf_adds(b, "null");
		hm_sbuf_printf(b, ",\"nametype\":\"%s\",\"mode\":\"0%o\"",
			       nametype_name(p->nametype), p->mode);
		if (p->has_inode)
			hm_sbuf_printf(b, ",\"inode\":%llu,\"dev\":\"%x:%x\","
				       "\"ouid\":%u,\"ogid\":%u",
				       (unsigned long long)p->ino,
				       p->dev_major, p->dev_minor, p->ouid,
				       p->ogid);
		hm_sbuf_addc(b, '}');
	}
	hm_sbuf_addc(b, ']');
}

static void json_net(struct hm_event_writer *w, const struct hm_event *ev)
{
	struct hm_sbuf *b = &w->line;
	char a[INET6_ADDRSTRLEN];

	if (is_net(ev->kind)) {
		hm_sbuf_printf(b, ",\"fd\":%d", ev->fd);
		if (family_name(ev->sock_family))
			hm_sbuf_printf(b, ",\"sock_family\":\"%s\"",
				       family_name(ev->sock_family));
		if (type_name(ev->sock_type))
			hm_sbuf_printf(b, ",\"sock_type\":\"%s\"",
				       type_name(ev->sock_type));
	}
	if (ev->sa.family) {
		hm_sbuf_printf(b, ",\"sockaddr\":{\"family\":\"%s\"",
			       family_name(ev->sa.family));
		if (addr_str(&ev->sa, a, sizeof(a)))
			hm_sbuf_printf(b, ",\"addr\":\"%s\",\"port\":%u", a,
				       ev->sa.port);
		if (ev->sa.family == AF_UNIX) {
			hm_sbuf_adds(b, ",\"path\":");
			json_enc(w, &ev->sa.unix_path);
		}
		hm_sbuf_addc(b, '}');
	}
}

static void json_syscall(struct hm_sbuf *b, const struct hm_event *ev)
{
	if (ev->syscall_name)
		hm_sbuf_printf(b, ",\"syscall\":\"%s\"", ev->syscall_name);
	else
		hm_sbuf_printf(b, ",\"syscall\":%d", ev->syscall);
	hm_sbuf_printf(b, ",\"arch\":\"%x\",\"success\":%s,\"exit\":%lld",
		       (unsigned int)ev->arch, ev->success ? "true" : "false",
		       (long long)ev->exit);
}

/* The task's ids, those the records carried (a lone record has none). */
static void json_process(struct hm_sbuf *b, const struct hm_event *ev)
{
	if (ev->present & HM_EVP_PID)
		hm_sbuf_printf(b, ",\"pid\":%lld", (long long)ev->pid);
	if (ev->present & HM_EVP_PPID)
		hm_sbuf_printf(b, ",\"ppid\":%lld", (long long)ev->ppid);
	if (ev->present & HM_EVP_UID)
		hm_sbuf_printf(b, ",\"uid\":%u,\"euid\":%u,\"gid\":%u,"
			       "\"egid\":%u", ev->uid, ev->euid, ev->gid,
			       ev->egid);
	if (ev->present & HM_EVP_AUID)
		hm_sbuf_printf(b, ",\"auid\":%u", ev->auid);
	if (ev->present & HM_EVP_SES)
		hm_sbuf_printf(b, ",\"ses\":%u", ev->ses);
	if (ev->damaged)
		hm_sbuf_adds(b, ",\"damaged\":true");
}

static void json_argv(struct hm_event_writer *w, const struct hm_event *ev)
{
	hm_sbuf_adds(&w->line, ",\"argv\":[");
	for (uint32_t i = 0; i < ev->argc; i++) {
		if (i)
			hm_sbuf_addc(&w->line, ',');
		json_enc(w, &ev->argv[i]);
	}
	hm_sbuf_printf(&w->line, "],\"argv_truncated\":%s",
		       ev->argv_truncated ? "true" : "false");
}

static void json(struct hm_event_writer *w, const struct hm_event *ev)
{
	struct hm_sbuf *b = &w->line;

	hm_sbuf_printf(b, "{\"time\":\"%lld.%03u\",\"serial\":%llu,"
		       "\"kind\":\"%s\"", (long long)ev->sec, ev->msec,
		       (unsigned long long)ev->serial,
		       hm_event_kind_names[ev->kind]);
	json_bytes(w, "node", &ev->node);
	if (ev->has_syscall)
		json_syscall(b, ev);
	json_process(b, ev);
	json_bytes(w, "comm", &ev->comm);
	json_bytes(w, "exe", &ev->exe);
	json_bytes(w, "key", &ev->key);
	json_bytes(w, "cwd", &ev->cwd);
	if (ev->n_paths)
		json_paths(w, ev);
	if (ev->kind == HM_EV_EXEC)
		json_argv(w, ev);
	if (ev->has_open_flags)
		hm_sbuf_printf(b, ",\"open_flags\":%u", ev->open_flags);
	if (ev->mode)
		hm_sbuf_printf(b, ",\"mode\":%u", ev->mode);
	if (ev->created)
		hm_sbuf_adds(b, ",\"created\":true");
	if (ev->removedir)
		hm_sbuf_adds(b, ",\"removedir\":true");
	if (ev->kind == HM_EV_MKNOD)
		hm_sbuf_printf(b, ",\"dev\":\"%u:%u\"", ev->dev_major,
			       ev->dev_minor);
	if (ev->kind == HM_EV_CHOWN)
		hm_sbuf_printf(b, ",\"owner_uid\":%d,\"owner_gid\":%d",
			       (int)ev->owner_uid, (int)ev->owner_gid);
	json_bytes(w, "fstype", &ev->fstype);
	json_bytes(w, "link_target", &ev->link_target);
	if (ev->kind == HM_EV_MOUNT || ev->kind == HM_EV_UMOUNT)
		hm_sbuf_printf(b, ",\"mount_flags\":%llu",
			       (unsigned long long)ev->mount_flags);
	json_net(w, ev);
	if (ev->kind == HM_EV_SIGNAL) {
		hm_sbuf_printf(b, ",\"sig\":%d,\"target_pid\":%lld", ev->sig,
			       (long long)ev->target_pid);
		json_bytes(w, "target_comm", &ev->target_comm);
	}
	if (ev->fan_response)
		hm_sbuf_printf(b, ",\"fan_response\":%d", ev->fan_response);
	json_bytes(w, "decision_domain", &ev->decision_domain);
	json_bytes(w, "decision", &ev->decision_text);
	json_bytes(w, "proctitle", &ev->proctitle);
	hm_sbuf_adds(b, "}\n");
}

int hm_event_write(struct hm_event_writer *w, const struct hm_event *ev,
		   FILE *f)
{
	w->line.len = 0;
	w->line.oom = false;
	w->oom = false;
	if (w->fmt == HM_EVENT_JSON)
		json(w, ev);
	else
		tsv(w, ev);
	if (w->line.oom || w->oom)
		return -ENOMEM;
	if (fwrite(w->line.s, 1, w->line.len, f) != w->line.len)
		return -EIO;
	return 0;
}
