// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cmd_rules.c - `histmac rules`: print the auditctl rules that produce
 * every record the collector and learner use (docs/ARCHITECTURE.md
 * "Events learned"),
 * with a rule that keeps histmac's own activity out of the trail.
 * samples/audit/histmac.rules is this output for /usr/local/bin/histmac;
 * tests/golden/t_rules.sh checks that the two agree.
 */
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* Where the binary's path goes: the header line naming it, its exclusion. */
static const char header_mark[] = "header";
static const char exclude_mark[] = "exclude";

static const char *const rules[] = {
	"## histmac.rules - audit rules that produce every record histmac learns from.",
	header_mark,	/* ## Generated ... for <this binary>; a */
	"## test checks that the two agree.  Load with:  auditctl -R histmac.rules",
	"## or drop into /etc/audit/rules.d/ and run augenrules --load.",
	"##",
	"## No -D, -e or -f: the file can be layered on a site's own rule set.",
	"## Raise the backlog on a busy machine (auditctl -b 8192 or more).",
	"## No auid or success filter: daemons matter, and failed attempts are part",
	"## of what a domain needs.  Every group has a b64 and a b32 rule, so a",
	"## 32-bit program cannot bypass them.",
	"",
	"## --- 0. Exclusions: histmac itself, the audit daemon, its consumers --------",
	"## The first matching rule wins, so these come first.  exe= matches the",
	"## resolved path of the executable, which any user can run (with",
	"## LD_PRELOAD, say): so each is left out only when root runs it (the",
	"## daemon, the learner, the plugin, the enforcer).  What a user does",
	"## through any of them is audited like anything else.",
	exclude_mark,	/* -a never,exit -F exe=<this binary> -F uid=0 */
	"-a never,exit -F exe=/usr/sbin/auditd -F uid=0",
	"-a never,exit -F exe=/usr/sbin/laurel -F uid=0",
	"-a never,exit -F exe=/usr/sbin/audisp-syslog -F uid=0",
	"",
	"## --- 1. Program execution (domain transitions) -----------------------------",
	"-a always,exit -F arch=b64 -S execve,execveat -k hm_exec",
	"-a always,exit -F arch=b32 -S execve,execveat -k hm_exec",
	"## A child starts in its parent's domain: without the fork, a daemon whose",
	"## parent exits before the child's first audited call would lose its chain.",
	"-a always,exit -F arch=b64 -S clone,clone3,fork,vfork -k hm_fork",
	"-a always,exit -F arch=b32 -S clone,clone3,fork,vfork -k hm_fork",
	"",
	"## --- 2. File open / create -------------------------------------------------",
	"-a always,exit -F arch=b64 -S open,openat,openat2,creat -k hm_open",
	"-a always,exit -F arch=b32 -S open,openat,openat2,creat -k hm_open",
	"",
	"## --- 3. Namespace-changing file operations ---------------------------------",
	"-a always,exit -F arch=b64 -S unlink,unlinkat,rename,renameat,renameat2 -k hm_fsmod",
	"-a always,exit -F arch=b32 -S unlink,unlinkat,rename,renameat,renameat2 -k hm_fsmod",
	"-a always,exit -F arch=b64 -S mkdir,mkdirat,rmdir,mknod,mknodat -k hm_fsmod",
	"-a always,exit -F arch=b32 -S mkdir,mkdirat,rmdir,mknod,mknodat -k hm_fsmod",
	"-a always,exit -F arch=b64 -S symlink,symlinkat,link,linkat -k hm_fsmod",
	"-a always,exit -F arch=b32 -S symlink,symlinkat,link,linkat -k hm_fsmod",
	"",
	"## --- 4. Attribute changes: truncate, chmod, chown --------------------------",
	"## 452 is fchmodat2 (kernel 6.6+), unknown to libaudit 3.0.9 by name.",
	"-a always,exit -F arch=b64 -S truncate,ftruncate -k hm_attr",
	"-a always,exit -F arch=b32 -S truncate,ftruncate,truncate64,ftruncate64 -k hm_attr",
	"-a always,exit -F arch=b64 -S chmod,fchmod,fchmodat,452 -k hm_attr",
	"-a always,exit -F arch=b32 -S chmod,fchmod,fchmodat,452 -k hm_attr",
	"-a always,exit -F arch=b64 -S chown,fchown,fchownat,lchown -k hm_attr",
	"-a always,exit -F arch=b32 -S chown,fchown,fchownat,lchown,chown32,fchown32,lchown32 -k hm_attr",
	"",
	"## --- 5. Network ------------------------------------------------------------",
	"## socket() gives the type (stream/dgram/raw) of the fd that later calls",
	"## use; bind/listen/accept are the server role, connect/sendto the client",
	"## role.  i386 has no accept(2); socketcall(2) multiplexes all of them",
	"## (a0: 1 socket, 2 bind, 3 connect, 4 listen, 5 accept, 11 sendto,",
	"## 12 recvfrom, 18 accept4).",
	"-a always,exit -F arch=b64 -S socket,bind,connect,listen,accept,accept4 -k hm_net",
	"-a always,exit -F arch=b32 -S socket,bind,connect,listen,accept4 -k hm_net",
	"-a always,exit -F arch=b32 -S socketcall -k hm_net",
	"-a always,exit -F arch=b64 -S sendto,recvfrom -k hm_net_send",
	"-a always,exit -F arch=b32 -S sendto,recvfrom -k hm_net_send",
	"",
	"## --- 6. Mounts and root changes --------------------------------------------",
	"## Classic mount API only; fsopen/fsmount/move_mount are not covered.",
	"-a always,exit -F arch=b64 -S mount,umount2,pivot_root,chroot -k hm_mount",
	"-a always,exit -F arch=b32 -S mount,umount,umount2,pivot_root,chroot -k hm_mount",
	"",
	"## --- 7. Signals ------------------------------------------------------------",
	"-a always,exit -F arch=b64 -S kill,tkill,tgkill -k hm_signal",
	"-a always,exit -F arch=b32 -S kill,tkill,tgkill -k hm_signal",
	"",
	"## --- 8. Calls after which the trail cannot name what a process reaches ---",
	"## A mount of the new API or another namespace changes what a name means",
	"## for the process, prctl(PR_SET_MM) (a0=35) its exe=, and io_uring opens",
	"## files with no system call audit sees.  Not learned: learn and check",
	"## count them and name the first domain of each kind.",
	"-a always,exit -F arch=b64 -S open_tree,move_mount,fsopen,fsmount,fspick,mount_setattr -k hm_blind",
	"-a always,exit -F arch=b32 -S open_tree,move_mount,fsopen,fsmount,fspick,mount_setattr -k hm_blind",
	"-a always,exit -F arch=b64 -S unshare,setns,io_uring_setup -k hm_blind",
	"-a always,exit -F arch=b32 -S unshare,setns,io_uring_setup -k hm_blind",
	"-a always,exit -F arch=b64 -S prctl -F a0=35 -k hm_blind",
	"-a always,exit -F arch=b32 -S prctl -F a0=35 -k hm_blind",
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: histmac rules [--arch b64|b32|both] [--exe PATH]\n"
		"\n"
		"Print the audit rules that make auditd record what histmac\n"
		"learns from: execve, open/creat, unlink/rename/mkdir/rmdir/\n"
		"mknod/symlink/link, truncate/chmod/chown, socket/bind/listen/\n"
		"connect/accept/sendto/recvfrom, mount/umount2/pivot_root/\n"
		"chroot, kill/tkill/tgkill, and the calls after which the\n"
		"trail cannot name what a process reaches (the new mount API,\n"
		"unshare/setns, prctl(PR_SET_MM), io_uring_setup).  Load with\n"
		"  histmac rules > /etc/audit/rules.d/histmac.rules && augenrules --load\n"
		"or  histmac rules | auditctl -R /dev/stdin\n"
		"\n"
		"  -a, --arch ARCH   b64, b32 or both (default): which ABIs to audit\n"
		"  -e, --exe PATH    the histmac binary to leave out of the trail\n"
		"                    (default: this binary, %s)\n"
		"  -h, --help        show this help\n",
		"/proc/self/exe");
}

int cmd_rules(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "arch", required_argument, NULL, 'a' },
		{ "exe", required_argument, NULL, 'e' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char self[PATH_MAX];
	const char *exe = NULL;
	const char *drop = NULL;
	int ch;

	while ((ch = getopt_long(argc, argv, "a:e:h", opts, NULL)) != -1) {
		switch (ch) {
		case 'a':
			if (!strcmp(optarg, "b64"))
				drop = "arch=b32";
			else if (!strcmp(optarg, "b32"))
				drop = "arch=b64";
			else if (strcmp(optarg, "both"))
				return hm_cli_usage_error("rules",
					"--arch must be b64, b32 or both");
			break;
		case 'e':
			exe = optarg;
			break;
		case 'h':
			usage(stdout);
			return HM_EXIT_OK;
		default:
			return hm_cli_usage_error("rules", "bad option");
		}
	}
	if (optind < argc)
		return hm_cli_usage_error("rules", "unexpected argument '%s'",
					  argv[optind]);
	if (!exe) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n < 0) {
			warn("rules: /proc/self/exe");
			return HM_EXIT_FAIL;
		}
		self[n] = '\0';
		exe = self;
	}
	if (exe[0] != '/' || strpbrk(exe, " \t\n"))
		return hm_cli_usage_error("rules",
			"--exe needs an absolute path without blanks");
	for (size_t i = 0; i < HM_ARRAY_SIZE(rules); i++) {
		if (rules[i] == header_mark) {
			printf("## Generated by `histmac rules --arch both` for %s; a\n",
			       exe);
			continue;
		}
		if (rules[i] == exclude_mark) {
			printf("-a never,exit -F exe=%s -F uid=0\n", exe);
			continue;
		}
		if (drop && strstr(rules[i], drop))
			continue;
		puts(rules[i]);
	}
	return HM_EXIT_OK;
}
