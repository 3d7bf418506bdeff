// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_events.c - `histmac events`: print the normalised events the
 * collector makes of audit logs, a followed log or auditd's plugin feed,
 * one per line, as TSV or JSON.  Strings are printed TOMOYO-encoded
 * (hm_encode), so a line never holds a tab, newline or non-ASCII byte.
 * All source handling is the collector's; this file only prints.
 */
#include <arpa/inet.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "cli.h"
#include "histmac/collector.h"
#include "histmac/pattern.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t reload_flag;

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void on_hup(int sig)
{
	(void)sig;
	reload_flag = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: histmac events -i LOG... | --follow LOG [--checkpoint FILE] | --plugin\n"
"                      [--resolve] [--resolve-root DIR] [--format tsv|json]\n"
"                      [--verbose] [--stats] [-o FILE]\n"
"\n"
"Print the normalised events the collector makes of the audit trail, one\n"
"per line.  Every record is parsed by libauparse; an event is one serial.\n"
"\n"
"  -i, --input LOG...    read these logs in order, oldest first, as one\n"
"                        stream (a rotated set: audit.log.4 ... audit.log);\n"
"                        '-' is stdin.  Names after the options are logs too\n"
"      --follow LOG      follow LOG like tail -F, across auditd's rotations\n"
"      --checkpoint FILE with --follow: resume from and keep FILE (inode,\n"
"                        offset, serials; written atomically)\n"
"      --plugin          read auditd's plugin feed on stdin (format = string)\n"
"                        SIGTERM: flush and exit; SIGHUP: reopen -o FILE\n"
"      --resolve         resolve symlinks in object paths through this\n"
"                        host's filesystem (default with --follow/--plugin)\n"
"      --no-resolve      never resolve\n"
"      --resolve-root DIR  resolve against DIR, an image of the log's host\n"
"  -f, --format FMT      tsv (default) or json (one object per line)\n"
"  -o, --output FILE     write events to FILE (appended in plugin mode)\n"
"  -v, --verbose         list every skipped line or field on stderr\n"
"  -s, --stats           print counters on stderr at the end\n"
"  -h, --help            show this help\n"
"\n"
"TSV columns (a missing value is '-'; strings TOMOYO-encoded):\n"
"   1 time      SEC.MSEC of msg=audit()       11 euid\n"
"   2 serial                                  12 gid\n"
"   3 node      node= or '-'                  13 egid\n"
"   4 kind      exec open unlink rmdir mkdir  14 auid\n"
"               mknod symlink link rename     15 ses\n"
"               truncate chmod chown mount    16 comm\n"
"               umount pivot_root chroot      17 exe\n"
"               socket bind listen connect    18 path1  first object\n"
"               accept send recv signal       19 path2  second object\n"
"               fanotify decision fork other     (rename/link new name,\n"
"   5 syscall   name, or number                  mount target, ...)\n"
"   6 success   yes/no                        20 details: space-separated\n"
"   7 exit      return value                     key=value, by kind:\n"
"   8 pid                                        argv= (args joined by ','),\n"
"   9 ppid                                       interp=, flags=, mode=,\n"
"  10 uid                                        created=1, dev=MAJ:MIN,\n"
"                                                owner=UID:GID, linkto=,\n"
"     mflags=, family=, type=, addr=, port=, unix=, fd=, sig=, target=,\n"
"     tcomm=, fan=, cwd=\n"
"\n"
"Exit status: 0 clean, 1 some input was skipped (see --verbose),\n"
"2 usage error, 3 could not run.\n");
}

/* ---- printing helpers */

static char *encbuf;
static size_t encbuf_cap;

/* The TOMOYO encoding of @b, or "-"; valid until the next call. */
static const char *enc(const struct hm_bytes *b)
{
	size_t need;

	if (!b || !b->s)
		return "-";
	need = hm_encode_len(b->s, b->len) + 1;
	if (need > encbuf_cap) {
		char *n = realloc(encbuf, need);

		if (!n)
			return "?";
		encbuf = n;
		encbuf_cap = need;
	}
	hm_encode(encbuf, b->s, b->len);
	return encbuf;
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

/* kind-specific key=value pairs (TSV column 20) */
static void details_tsv(FILE *f, const struct hm_event *ev)
{
	const char *sep = "";
	char a[INET6_ADDRSTRLEN];

#define KV(...) do { fputs(sep, f); fprintf(f, __VA_ARGS__); sep = " "; } while (0)
	if (ev->kind == HM_EV_EXEC) {
		KV("argv=");
		for (uint32_t i = 0; i < ev->argc; i++)
			fprintf(f, "%s%s", i ? "," : "", enc(&ev->argv[i]));
		if (ev->argv_truncated)
			KV("argv_truncated=1");
		for (uint32_t i = 1; i < ev->n_paths; i++)
			KV("interp=%s", enc(&ev->paths[i].path));
	}
	if (ev->has_open_flags)
		KV("flags=0%o", ev->open_flags);
	if (ev->mode)
		KV("mode=0%o", ev->mode);
	if (ev->created)
		KV("created=1");
	if (ev->kind == HM_EV_MKNOD)
		KV("dev=%u:%u", ev->dev_major, ev->dev_minor);
	if (ev->kind == HM_EV_CHOWN)
		KV("owner=%d:%d", (int)ev->owner_uid, (int)ev->owner_gid);
	if (ev->removedir)
		KV("removedir=1");
	if (ev->fstype.s)
		KV("fstype=%s", enc(&ev->fstype));
	if (ev->link_target.s)
		KV("linkto=%s", enc(&ev->link_target));
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
			KV("unix=%s", enc(&ev->sa.unix_path));
	}
	if (ev->kind == HM_EV_SIGNAL) {
		KV("sig=%d target=%lld", ev->sig, (long long)ev->target_pid);
		if (ev->target_comm.s)
			KV("tcomm=%s", enc(&ev->target_comm));
	}
	if (ev->fan_response)
		KV("fan=%d", ev->fan_response);
	if (ev->kind == HM_EV_HM_DECISION)
		KV("domain=%s", enc(&ev->decision_domain));
	if (ev->cwd.s)
		KV("cwd=%s", enc(&ev->cwd));
#undef KV
	if (!*sep)
		fputc('-', f);
}

static void print_tsv(FILE *f, const struct hm_event *ev)
{
	fprintf(f, "%lld.%03u\t%llu\t%s\t%s\t", (long long)ev->sec, ev->msec,
		(unsigned long long)ev->serial, enc(&ev->node),
		hm_event_kind_names[ev->kind]);
	if (!ev->has_syscall)
		fputs("-\t-\t-\t", f);
	else if (ev->syscall_name)
		fprintf(f, "%s\t%s\t%lld\t", ev->syscall_name,
			ev->success ? "yes" : "no", (long long)ev->exit);
	else
		fprintf(f, "%d\t%s\t%lld\t", ev->syscall,
			ev->success ? "yes" : "no", (long long)ev->exit);
	fprintf(f, "%lld\t%lld\t%u\t%u\t%u\t%u\t%u\t%u\t", (long long)ev->pid,
		(long long)ev->ppid, ev->uid, ev->euid, ev->gid, ev->egid,
		ev->auid, ev->ses);
	fprintf(f, "%s\t", enc(&ev->comm));
	fprintf(f, "%s\t", enc(&ev->exe));
	fprintf(f, "%s\t", ev->n_paths > 0 ? enc(&ev->paths[0].path) : "-");
	fprintf(f, "%s\t",
		ev->n_paths > 1 && ev->kind != HM_EV_EXEC ?
		enc(&ev->paths[1].path) : "-");
	details_tsv(f, ev);
	fputc('\n', f);
}

/* A JSON string from an encoded (ASCII) name: only " and \ need care. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void json_bytes(FILE *f, const char *key, const struct hm_bytes *b)
{
	if (!b->s)
		return;
	fprintf(f, ",\"%s\":", key);
	json_str(f, enc(b));
}

static void print_json(FILE *f, const struct hm_event *ev)
{
	char a[INET6_ADDRSTRLEN];

	fprintf(f, "{\"time\":\"%lld.%03u\",\"serial\":%llu,\"kind\":\"%s\"",
		(long long)ev->sec, ev->msec, (unsigned long long)ev->serial,
		hm_event_kind_names[ev->kind]);
	json_bytes(f, "node", &ev->node);
	if (ev->has_syscall) {
		if (ev->syscall_name)
			fprintf(f, ",\"syscall\":\"%s\"", ev->syscall_name);
		else
			fprintf(f, ",\"syscall\":%d", ev->syscall);
		fprintf(f, ",\"arch\":\"%x\",\"success\":%s,\"exit\":%lld",
			(unsigned int)ev->arch, ev->success ? "true" : "false",
			(long long)ev->exit);
		fprintf(f, ",\"pid\":%lld,\"ppid\":%lld,\"uid\":%u,\"euid\":%u,"
			"\"gid\":%u,\"egid\":%u,\"auid\":%u,\"ses\":%u",
			(long long)ev->pid, (long long)ev->ppid, ev->uid,
			ev->euid, ev->gid, ev->egid, ev->auid, ev->ses);
	}
	json_bytes(f, "comm", &ev->comm);
	json_bytes(f, "exe", &ev->exe);
	json_bytes(f, "key", &ev->key);
	json_bytes(f, "cwd", &ev->cwd);
	if (ev->n_paths) {
		fputs(",\"paths\":[", f);
		for (uint32_t i = 0; i < ev->n_paths; i++) {
			const struct hm_ev_path *p = &ev->paths[i];

			fputs(i ? ",{\"path\":" : "{\"path\":", f);
			if (p->path.s)
				json_str(f, enc(&p->path));
			else
				fputs("null", f);
			fprintf(f, ",\"nametype\":\"%s\",\"mode\":\"0%o\"",
				nametype_name(p->nametype), p->mode);
			if (p->has_inode)
				fprintf(f, ",\"inode\":%llu,\"dev\":\"%x:%x\","
					"\"ouid\":%u,\"ogid\":%u",
					(unsigned long long)p->ino,
					p->dev_major, p->dev_minor, p->ouid,
					p->ogid);
			fputc('}', f);
		}
		fputc(']', f);
	}
	if (ev->kind == HM_EV_EXEC) {
		fputs(",\"argv\":[", f);
		for (uint32_t i = 0; i < ev->argc; i++) {
			if (i)
				fputc(',', f);
			json_str(f, enc(&ev->argv[i]));
		}
		fprintf(f, "],\"argv_truncated\":%s",
			ev->argv_truncated ? "true" : "false");
	}
	if (ev->has_open_flags)
		fprintf(f, ",\"open_flags\":%u", ev->open_flags);
	if (ev->mode)
		fprintf(f, ",\"mode\":%u", ev->mode);
	if (ev->created)
		fputs(",\"created\":true", f);
	if (ev->removedir)
		fputs(",\"removedir\":true", f);
	if (ev->kind == HM_EV_MKNOD)
		fprintf(f, ",\"dev\":\"%u:%u\"", ev->dev_major, ev->dev_minor);
	if (ev->kind == HM_EV_CHOWN)
		fprintf(f, ",\"owner_uid\":%d,\"owner_gid\":%d",
			(int)ev->owner_uid, (int)ev->owner_gid);
	json_bytes(f, "fstype", &ev->fstype);
	json_bytes(f, "link_target", &ev->link_target);
	if (ev->kind == HM_EV_MOUNT || ev->kind == HM_EV_UMOUNT)
		fprintf(f, ",\"mount_flags\":%llu",
			(unsigned long long)ev->mount_flags);
	if (is_net(ev->kind)) {
		fprintf(f, ",\"fd\":%d", ev->fd);
		if (family_name(ev->sock_family))
			fprintf(f, ",\"sock_family\":\"%s\"",
				family_name(ev->sock_family));
		if (type_name(ev->sock_type))
			fprintf(f, ",\"sock_type\":\"%s\"",
				type_name(ev->sock_type));
	}
	if (ev->sa.family) {
		fprintf(f, ",\"sockaddr\":{\"family\":\"%s\"",
			family_name(ev->sa.family));
		if (addr_str(&ev->sa, a, sizeof(a)))
			fprintf(f, ",\"addr\":\"%s\",\"port\":%u", a,
				ev->sa.port);
		if (ev->sa.family == AF_UNIX) {
			fputs(",\"path\":", f);
			json_str(f, enc(&ev->sa.unix_path));
		}
		fputc('}', f);
	}
	if (ev->kind == HM_EV_SIGNAL) {
		fprintf(f, ",\"sig\":%d,\"target_pid\":%lld", ev->sig,
			(long long)ev->target_pid);
		json_bytes(f, "target_comm", &ev->target_comm);
	}
	if (ev->fan_response)
		fprintf(f, ",\"fan_response\":%d", ev->fan_response);
	json_bytes(f, "decision_domain", &ev->decision_domain);
	json_bytes(f, "decision", &ev->decision_text);
	json_bytes(f, "proctitle", &ev->proctitle);
	fputs("}\n", f);
}

static void print_stats(const struct hm_collector_stats *st, FILE *f)
{
	fprintf(f,
		"events %llu records %llu lines %llu bytes %llu files %llu "
		"eoe-injected %llu eoe-window %llu\n"
		"resolved %llu resolve-mismatch %llu dirfd-relative %llu "
		"dircache hit %llu miss %llu evict %llu\n"
		"socket-table hit %llu miss %llu evict %llu checkpoints %llu\n",
		(unsigned long long)st->events, (unsigned long long)st->records,
		(unsigned long long)st->lines, (unsigned long long)st->bytes,
		(unsigned long long)st->files,
		(unsigned long long)st->eoe_injected,
		(unsigned long long)st->eoe_window,
		(unsigned long long)st->resolved,
		(unsigned long long)st->resolve_mismatch,
		(unsigned long long)st->dirfd_relative,
		(unsigned long long)st->dircache_hits,
		(unsigned long long)st->dircache_misses,
		(unsigned long long)st->dircache_evictions,
		(unsigned long long)st->sock_hits,
		(unsigned long long)st->sock_misses,
		(unsigned long long)st->sock_evictions,
		(unsigned long long)st->checkpoints);
}

static int install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, NULL) < 0 ||
	    sigaction(SIGINT, &sa, NULL) < 0)
		return -1;
	sa.sa_handler = on_hup;
	return sigaction(SIGHUP, &sa, NULL);
}

static FILE *open_output(const char *path, bool append)
{
	FILE *f = fopen(path, append ? "ae" : "we");

	if (!f)
		warn("events: %s", path);
	return f;
}

int cmd_events(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "follow", required_argument, NULL, 'F' },
		{ "checkpoint", required_argument, NULL, 'c' },
		{ "plugin", no_argument, NULL, 'P' },
		{ "resolve", no_argument, NULL, 'r' },
		{ "no-resolve", no_argument, NULL, 'n' },
		{ "resolve-root", required_argument, NULL, 'R' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "stats", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hm_cli_input in = { 0 };
	struct hm_collector_opts o;
	struct hm_collector *c = NULL;
	struct hm_diag diag = { 0 };
	const struct hm_event *ev;
	const char *outpath = NULL;
	bool json = false, stats = false, bad_input = false;
	FILE *out = stdout;
	int ch, rc, status = HM_EXIT_OK;

	hm_collector_opts_init(&o);
	in.files = calloc((size_t)argc + 1, sizeof(*in.files));
	if (!in.files)
		err(HM_EXIT_FAIL, "events");
	while ((ch = getopt_long(argc, argv, "i:f:o:vsh", opts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			in.files[in.n_files++] = optarg;
			break;
		case 'F':
			in.follow = optarg;
			break;
		case 'c':
			o.checkpoint = optarg;
			break;
		case 'P':
			in.plugin = true;
			break;
		case 'r':
			o.resolve = 1;
			break;
		case 'n':
			o.resolve = 0;
			break;
		case 'R':
			o.resolve_root = optarg;
			break;
		case 'f':
			if (!strcmp(optarg, "json"))
				json = o.proctitle = true;
			else if (strcmp(optarg, "tsv"))
				return hm_cli_usage_error("events",
					"unknown format '%s'", optarg);
			break;
		case 'o':
			outpath = optarg;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 's':
			stats = true;
			break;
		case 'h':
			usage(stdout);
			free(in.files);
			return hm_cli_finish(HM_EXIT_OK);
		default:
			free(in.files);
			return hm_cli_usage_error("events", "bad option");
		}
	}
	if (in.n_files)
		while (optind < argc)
			in.files[in.n_files++] = argv[optind++];
	if (optind < argc || (!!in.n_files + !!in.follow + in.plugin) != 1) {
		free(in.files);
		return hm_cli_usage_error("events",
			"give exactly one of -i LOG..., --follow LOG, --plugin");
	}
	if (o.checkpoint && !in.follow) {
		free(in.files);
		return hm_cli_usage_error("events",
					  "--checkpoint needs --follow");
	}
	o.diag = &diag;
	if (in.follow || in.plugin) {
		o.stop = &stop_flag;
		o.reload = &reload_flag;
		if (install_signals() < 0)
			err(HM_EXIT_FAIL, "events: sigaction");
	}
	if (outpath) {
		out = open_output(outpath, in.plugin || in.follow);
		if (!out) {
			free(in.files);
			return HM_EXIT_FAIL;
		}
	}
	if (in.follow || in.plugin)
		setvbuf(out, NULL, _IOLBF, 0);
	if (hm_cli_open_input("events", &in, &o, &c) < 0) {
		free(in.files);
		return HM_EXIT_FAIL;
	}
	for (;;) {
		rc = hm_collector_next(c, &ev);
		if (rc > 0) {
			if (json)
				print_json(out, ev);
			else
				print_tsv(out, ev);
			continue;
		}
		if (rc == 0)
			break;
		if (rc == -EINTR) {
			/* SIGHUP: reopen the output (log rotation) */
			if (outpath && out != stdout) {
				FILE *n = open_output(outpath, true);

				if (n) {
					fclose(out);
					out = n;
					setvbuf(out, NULL, _IOLBF, 0);
				}
			}
			continue;
		}
		if (rc == -EAGAIN)
			continue;
		warnx("events: %s", strerror(-rc));
		if (rc == -ENOMEM) {
			status = HM_EXIT_FAIL;
			break;
		}
		/* an unreadable file: the others are still read */
		status = HM_EXIT_FAIL;
	}
	hm_cli_print_diag(&diag, stderr);
	for (int i = 0; i < HM_SKIP_MAX; i++)
		if (hm_collector_stats(c)->skipped[i] &&
		    (i <= HM_SKIP_TRUNCATED || i == HM_SKIP_BAD_VALUE ||
		     i == HM_SKIP_MISSING_FIELD))
			bad_input = true;
	if (stats || bad_input) {
		if (stats)
			print_stats(hm_collector_stats(c), stderr);
		hm_cli_print_collector_skips(hm_collector_stats(c), stderr);
	}
	if (bad_input && status == HM_EXIT_OK)
		status = HM_EXIT_FINDINGS;
	hm_collector_free(c);
	hm_diag_free(&diag);
	free(in.files);
	free(encbuf);
	if (out != stdout && fclose(out) != 0) {
		warn("events: %s", outpath);
		status = HM_EXIT_FAIL;
	}
	return hm_cli_finish(status);
}
