// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_events.c - `histmac events`: print the normalised events the
 * collector makes of audit logs, a followed log or auditd's plugin feed,
 * one per line, as TSV or JSON.  All source handling is the collector's
 * and the lines are the events writer's (formats/events.c); this file
 * parses options and prints.
 */
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "histmac/collector.h"
#include "histmac/event_write.h"

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
"usage: histmac events [[-i] LOG...] | --follow LOG [--checkpoint FILE] | --plugin\n"
"                      [--resolve] [--resolve-root DIR] [--format tsv|json]\n"
"                      [--verbose] [--stats] [--threads N] [-o FILE]\n"
"\n"
"Print the normalised events the collector makes of the audit trail, one\n"
"per line.  Every record is parsed by libauparse; an event is one serial.\n"
"\n"
"  -i, --input LOG...    read these logs in order, oldest first, as one\n"
"                        stream (a rotated set: audit.log.4 ... audit.log);\n"
"                        '-' is stdin.  Names after the options are logs too;\n"
"                        with no log at all, stdin is read\n"
"      --follow LOG      follow LOG like tail -F, across auditd's rotations\n"
"      --checkpoint FILE with --follow: resume from and keep FILE (inode,\n"
"                        offset, serials; written atomically)\n"
"      --plugin          read auditd's plugin feed on stdin (format = string)\n"
"                        SIGTERM: flush and exit; SIGHUP: reopen -o FILE\n"
"      --resolve         resolve symlinks in object paths through this\n"
"                        host's filesystem (the default, for every source)\n"
"      --no-resolve      never resolve\n"
"      --resolve-root DIR  resolve against DIR, an image of the log's host\n"
"      --threads N       parse LOGs on N threads (default: one per online\n"
"                        CPU; 1: one thread); the same events in the same\n"
"                        order.  --follow and --plugin use one (latency)\n"
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
"               fanotify decision fork           (rename/link new name,\n"
"               mount-api namespace set-mm       mount target, ...)\n"
"               io-uring (docs/SECURITY.md)\n"
"               other\n"
"   5 syscall   name, or number\n"
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

static void print_stats(const struct hm_collector_stats *st, FILE *f)
{
	fprintf(f,
		"events %llu records %llu lines %llu bytes %llu files %llu "
		"eoe-injected %llu eoe-window %llu\n"
		"resolved %llu resolve-mismatch %llu resolve-overlay %llu "
		"resolve-unproven %llu "
		"magic-link %llu dirfd-relative %llu "
		"chrooted %llu dircache hit %llu miss %llu evict %llu "
		"recheck %llu\n"
		"namecache hit %llu miss %llu evict %llu\n"
		"socket-table hit %llu miss %llu evict %llu checkpoints %llu\n",
		(unsigned long long)st->events, (unsigned long long)st->records,
		(unsigned long long)st->lines, (unsigned long long)st->bytes,
		(unsigned long long)st->files,
		(unsigned long long)st->eoe_injected,
		(unsigned long long)st->eoe_window,
		(unsigned long long)st->resolved,
		(unsigned long long)st->resolve_mismatch,
		(unsigned long long)st->resolve_overlay,
		(unsigned long long)st->resolve_unproven,
		(unsigned long long)st->magic_links,
		(unsigned long long)st->dirfd_relative,
		(unsigned long long)st->chrooted,
		(unsigned long long)st->dircache_hits,
		(unsigned long long)st->dircache_misses,
		(unsigned long long)st->dircache_evictions,
		(unsigned long long)st->dircache_rechecks,
		(unsigned long long)st->namecache_hits,
		(unsigned long long)st->namecache_misses,
		(unsigned long long)st->namecache_evictions,
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
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hm_cli_input in = { 0 };
	struct hm_collector_opts o;
	struct hm_collector *c = NULL;
	struct hm_event_writer *w = NULL;
	struct hm_diag diag = { 0 };
	const struct hm_event *ev;
	const char *outpath = NULL;
	bool json = false, stats = false, bad_input = false;
	FILE *out = stdout;
	unsigned int threads = 0;
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
		case 'T':
			if (hm_cli_threads_option("events", optarg, &threads)) {
				free(in.files);
				return HM_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			free(in.files);
			return HM_EXIT_OK;
		default:
			free(in.files);
			return hm_cli_usage_error("events", "bad option");
		}
	}
	/* words after the options are logs; no input at all is stdin */
	if (!in.follow && !in.plugin) {
		while (optind < argc)
			in.files[in.n_files++] = argv[optind++];
		if (!in.n_files)
			in.files[in.n_files++] = "-";
	}
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
	o.threads = hm_cli_threads(threads);
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
	if (hm_event_writer_new(&w, json ? HM_EVENT_JSON : HM_EVENT_TSV) < 0)
		err(HM_EXIT_FAIL, "events");
	if (hm_cli_open_input("events", &in, &o, &c) < 0) {
		hm_event_writer_free(w);
		free(in.files);
		return HM_EXIT_FAIL;
	}
	/* the checkpoint holds the output's size: exactly once on resume */
	if (out != stdout && (rc = hm_collector_set_output(c, fileno(out))))
		warnx("events: %s: %s", outpath, strerror(-rc));
	for (;;) {
		rc = hm_collector_next(c, &ev);
		if (rc > 0) {
			rc = hm_event_write(w, ev, out);
			if (rc == 0)
				continue;
			warnx("events: writing: %s", strerror(-rc));
			status = HM_EXIT_FAIL;
			break;
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
					hm_collector_set_output(c, fileno(out));
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
	hm_event_writer_free(w);
	if (out != stdout && fclose(out) != 0) {
		warn("events: %s", outpath);
		status = HM_EXIT_FAIL;
	}
	return status;
}
