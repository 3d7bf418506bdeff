// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_policy_io.c - TOMOYO policy text in, model, text out: every ACL
 * kind and operation in every dialect (exact round trips), conversions
 * between dialects with their comments and counts, merging on load,
 * dialect detection, bad input with its message and line number, whole
 * files and policy directories.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "histmac/common.h"
#include "histmac/policy_io.h"
#include "tomoyo_private.h"

#define D26 HM_DIALECT_26
#define D21 HM_DIALECT_21
#define D18 HM_DIALECT_18

static struct hm_domain *D(struct hm_model *m, const char *s)
{
	struct hm_domain *d;

	assert_true(hm_model_domain(m, s, strlen(s), true, &d) >= 0);
	return d;
}

static void print_diag(const struct hm_diag *d)
{
	for (size_t i = 0; i < d->n_msgs; i++) {
		char *s = hm_diag_format(&d->msgs[i]);

		fprintf(stderr, "  diag: %s\n", s);
		free(s);
	}
}

/* Parse @line into a fresh domain of @m; returns the one entry. */
static const struct hm_acl_head *parse_one(struct hm_model *m,
					   enum hm_dialect d, const char *line)
{
	struct hm_diag diag = { 0 };
	struct hm_domain *dom = D(m, "<kernel> /t");
	int r = hm_acl_parse_line(m, dom, line, strlen(line), d, "t", 1, &diag);

	if (r != 1) {
		fprintf(stderr, "parse of '%s' gave %d\n", line, r);
		print_diag(&diag);
	}
	assert_int_equal(r, 1);
	assert_int_equal(diag.n_errors, 0);
	hm_diag_free(&diag);
	assert_int_equal(dom->n_acl, 1);
	return dom->acl;
}

static char *format(struct hm_model *m, const struct hm_acl_head *e,
		    enum hm_dialect d, bool *is_comment)
{
	char *s = NULL;

	assert_int_equal(hm_acl_format(m, e, d, &s, is_comment), 0);
	return s;
}

/* ------------------------------------------------------ exact round trips */

static const struct {
	enum hm_dialect d;
	const char *line;
} round_trips[] = {
	/* 2.6: every file operation, grouped by operand shape */
	{ D26, "file execute /bin/sh" },
	{ D26, "file read/write/append/unlink/getattr/rmdir/truncate/symlink/"
	       "chroot/unmount /x" },
	{ D26, "file read /etc/\\*.conf" },
	{ D26, "file read /srv/a\\040b/\\{\\*\\}/" },
	{ D26, "file create/mkdir/mkfifo/mksock/ioctl/chmod/chown/chgrp /x "
	       "0644" },
	{ D26, "file create /var/run/apache2.pid 0644" },
	{ D26, "file mkdir /tmp/d/ 0700" },
	{ D26, "file ioctl /dev/tty 0x5401-0x54FF" },
	{ D26, "file chown /x 0-999" },
	{ D26, "file chgrp /x 100" },
	{ D26, "file mkblock /dev/sda1 0660 8 1" },
	{ D26, "file mkblock/mkchar /dev/x 0600-0666 1-2 0" },
	{ D26, "file link/rename/pivot_root /a /b" },
	{ D26, "file rename @TMP /var/x" },
	{ D26, "file mount /dev/sda1 /mnt/ ext4 0" },
	{ D26, "file mount @DEVS @DIRS @FS @FLAGS" },
	{ D26, "file mount none /proc/ proc 0xE" },
	{ D26, "file read @LIBS" },
	{ D26, "network inet stream bind/listen/connect 127.0.0.1 80" },
	{ D26, "network inet stream connect ::1 22" },
	{ D26, "network inet stream connect 2001:db8::1-2001:db8::ff "
	       "1024-65535" },
	{ D26, "network inet dgram bind/send 10.0.0.0-10.255.255.255 53" },
	{ D26, "network inet raw bind/send 0.0.0.0 255" },
	{ D26, "network inet stream bind @ADDRS @PORTS" },
	{ D26, "network unix stream bind/listen/connect /run/x.sock" },
	{ D26, "network unix dgram bind/send \\000abstract" },
	{ D26, "network unix seqpacket bind/listen/connect @SOCKS" },
	{ D26, "misc env HOME" },
	{ D26, "misc env LC_\\*" },
	/* 2.6 conditions */
	{ D26, "file execute /bin/sh exec.realpath=\"/bin/dash\" "
	       "exec.argv[0]=\"sh\"" },
	{ D26, "file read /etc/shadow task.uid=0" },
	{ D26, "file read /x task.uid=0-999 task.gid!=100" },
	{ D26, "file read /x path1.uid=task.uid path1.type=directory" },
	{ D26, "file read /x path1.perm=0644 path1.parent.uid=0" },
	{ D26, "file read /x task.uid=@UIDS" },
	{ D26, "file read /x exec.realpath=@PROGS" },
	{ D26, "file read /x exec.envp[\"HOME\"]=NULL grant_log=no" },
	{ D26, "file read /x exec.argc=2 exec.envc=0-3 exec.argv[1]=\"\"" },
	{ D26, "file symlink /x symlink.target=\"/y\"" },
	{ D26, "file execute /bin/x keep" },
	{ D26, "file execute /bin/x <kernel> /bin/y task.uid=0" },
	{ D26, "file execute /bin/x /virtual/name" },
	{ D26, "network inet stream connect 1.2.3.4 80 task.euid=33" },
	{ D26, "misc env PATH task.uid=0" },
	/* 1.8 adds accept, recv, signals and some conditions */
	{ D18, "network inet stream bind/listen/connect/accept 1.2.3.4 80" },
	{ D18, "network inet dgram bind/send/recv 1.2.3.4 53" },
	{ D18, "network inet raw recv ::1 58" },
	{ D18, "network unix stream accept /x" },
	{ D18, "network unix seqpacket accept \\000x" },
	{ D18, "ipc signal 9 <kernel> /sbin/init" },
	{ D18, "ipc signal 1-15 <kernel> /usr/sbin/httpd /bin/sh" },
	{ D18, "ipc signal @SIGS <kernel>" },
	{ D18, "file read /x task.type=execute_handler" },
	{ D18, "file execute /x task.domain=\"<kernel>\\040/x\"" },
	{ D18, "file getattr /x" },
	/* 2.1, the 2007 posting */
	{ D21, "1 /bin/sh" },
	{ D21, "2 /var/log/x" },
	{ D21, "3 /x" },
	{ D21, "4 /etc/apache2/apache2.conf" },
	{ D21, "5 /x" },
	{ D21, "6 /var/log/apache2/access.log" },
	{ D21, "7 /x" },
	{ D21, "4 @LIBS" },
	{ D21, "allow_unlink /var/run/apache2.pid" },
	{ D21, "allow_rmdir /x/" },
	{ D21, "allow_truncate /x" },
	{ D21, "allow_symlink /x" },
	{ D21, "allow_chroot /x/" },
	{ D21, "allow_create /var/run/apache2.pid" },
	{ D21, "allow_mkdir /x/" },
	{ D21, "allow_mkfifo /x" },
	{ D21, "allow_mksock /x" },
	{ D21, "allow_mkblock /dev/x" },
	{ D21, "allow_mkchar /dev/y" },
	{ D21, "allow_link /a /b" },
	{ D21, "allow_rename /a /b" },
	{ D21, "allow_pivot_root /a/ /b/" },
	{ D21, "allow_mount /dev/sda1 /mnt/ ext4" },
	{ D21, "allow_mount /dev/sda1 /mnt/ ext4 0x1" },
	{ D21, "allow_network TCP bind 192.168.1.135 80" },
	{ D21, "allow_network TCP listen 192.168.1.135 80" },
	{ D21, "allow_network TCP connect ::1 80" },
	{ D21, "allow_network TCP accept 192.168.1.1 1024-65535" },
	{ D21, "allow_network UDP bind 0.0.0.0 68" },
	{ D21, "allow_network UDP connect 10.0.0.1 53" },
	{ D21, "allow_network RAW bind 0.0.0.0 1" },
	{ D21, "allow_network RAW connect 10.0.0.1 1" },
	{ D21, "allow_network TCP connect @SERVERS 80" },
	{ D21, "allow_signal 9 <kernel> /sbin/init" },
	{ D21, "allow_env HOME" },
	{ D21, "allow_argv0 /bin/busybox ls" },
};

static void test_round_trips(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(round_trips); i++) {
		struct hm_model *m = hm_model_new();
		const struct hm_acl_head *e =
			parse_one(m, round_trips[i].d, round_trips[i].line);
		bool comment = true;
		char *s = format(m, e, round_trips[i].d, &comment);

		if (strcmp(s, round_trips[i].line))
			fprintf(stderr, "case %zu: '%s' came back as '%s'\n", i,
				round_trips[i].line, s);
		assert_string_equal(s, round_trips[i].line);
		assert_false(comment);
		free(s);
		hm_model_free(m);
	}
}

/* ------------------------------------------------------- conversions */

#define NOT26 "# not in TOMOYO 2.6 "
#define NOT21 "# not in TOMOYO 2.1 "
#define NOT18 "# not in TOMOYO 1.8 "

static const struct {
	enum hm_dialect from;
	const char *in;
	enum hm_dialect to;
	const char *out;
	bool is_comment;
} conversions[] = {
	/* the same entry in other words */
	{ D21, "6 /x", D26, "file read/write /x", false },
	{ D21, "7 /x", D26, "file execute /x\nfile read/write /x", false },
	{ D26, "file execute/read /x", D26, "file execute /x\nfile read /x",
	  false },
	{ D21, "6 /x", D18, "file read/write /x", false },
	{ D26, "network inet dgram send 1.2.3.4 53", D21,
	  "allow_network UDP connect 1.2.3.4 53", false },
	{ D26, "network inet raw send 1.2.3.4 1", D21,
	  "allow_network RAW connect 1.2.3.4 1", false },
	{ D26, "network inet stream bind/listen 1.2.3.4 80", D21,
	  "allow_network TCP bind 1.2.3.4 80\n"
	  "allow_network TCP listen 1.2.3.4 80", false },
	{ D26, "file read/unlink /x", D21, "4 /x\nallow_unlink /x", false },
	{ D18, "ipc signal 9 <kernel> /x", D21, "allow_signal 9 <kernel> /x",
	  false },
	{ D26, "file execute /bin/busybox exec.argv[0]=\"ls\"", D21,
	  "allow_argv0 /bin/busybox ls", false },
	{ D21, "allow_argv0 /bin/busybox ls", D26,
	  "file execute /bin/busybox exec.argv[0]=\"ls\"", false },
	{ D26, "misc env HOME", D21, "allow_env HOME", false },
	/* 2.1 lacks a detail: widest on the way in, dropped on the way out */
	{ D21, "allow_create /x", D26, "file create /x 0-07777", false },
	{ D21, "allow_mkdir /x/", D26, "file mkdir /x/ 0-07777", false },
	{ D21, "allow_mkblock /dev/x", D26,
	  "file mkblock /dev/x 0-07777 0-4095 0-1048575", false },
	{ D21, "allow_mount /dev/x /mnt/ ext4", D26,
	  "file mount /dev/x /mnt/ ext4 0x0-0xFFFFFFFFFFFFFFFF", false },
	{ D26, "file create /x 0644", D21, "allow_create /x", false },
	{ D26, "file mkchar /dev/x 0600 1 3", D21, "allow_mkchar /dev/x",
	  false },
	{ D26, "file mount /dev/x /mnt/ ext4 0", D21,
	  "allow_mount /dev/x /mnt/ ext4 0", false },
	{ D26, "file append /x", D21, "2 /x", false },
	{ D26, "file read/append /x", D21, "6 /x", false },
	{ D26, "file write/append /x", D21, "2 /x", false },
	/* what the target cannot say: a comment in its closest words */
	{ D26, "file getattr /x", D21,
	  NOT21 "(no such operation in TOMOYO 2.1): file getattr /x", true },
	{ D26, "file read/getattr /x", D21,
	  "4 /x\n" NOT21 "(no such operation in TOMOYO 2.1): file getattr /x",
	  false },
	{ D26, "file ioctl /dev/tty 0x5401", D21,
	  NOT21 "(no such operation in TOMOYO 2.1): file ioctl /dev/tty "
	  "0x5401", true },
	{ D26, "file read /x task.uid=0", D21,
	  NOT21 "(TOMOYO 2.1 has no conditions): 4 /x task.uid=0", true },
	{ D26, "file execute/read /bin/x exec.argv[0]=\"x\"", D21,
	  "allow_argv0 /bin/x x\n" NOT21 "(TOMOYO 2.1 has no conditions): "
	  "4 /bin/x exec.argv[0]=\"x\"", false },
	{ D26, "network unix stream connect /x", D21,
	  NOT21 "(no unix sockets in TOMOYO 2.1): network unix stream "
	  "connect /x", true },
	{ D26, "network inet stream connect 1.2.3.4 @PORTS", D21,
	  NOT21 "(no number_group in TOMOYO 2.1): allow_network TCP connect "
	  "1.2.3.4 @PORTS", true },
	{ D18, "ipc signal 1-9 <kernel> /x", D21,
	  NOT21 "(TOMOYO 2.1 signals are single numbers): allow_signal 1-9 "
	  "<kernel> /x", true },
	{ D18, "network inet dgram recv 1.2.3.4 53", D21,
	  NOT21 "(no such operation in TOMOYO 2.1): network inet dgram recv "
	  "1.2.3.4 53", true },
	{ D18, "network inet stream accept 1.2.3.4 80", D26,
	  NOT26 "(accept and recv are TOMOYO 1.8 and 2.1 only): network inet "
	  "stream accept 1.2.3.4 80", true },
	{ D18, "network inet stream bind/accept 1.2.3.4 80", D26,
	  "network inet stream bind 1.2.3.4 80\n"
	  NOT26 "(accept and recv are TOMOYO 1.8 and 2.1 only): network inet "
	  "stream accept 1.2.3.4 80", false },
	{ D21, "allow_network TCP accept 192.168.1.1 1024-65535", D26,
	  NOT26 "(accept and recv are TOMOYO 1.8 and 2.1 only): network inet "
	  "stream accept 192.168.1.1 1024-65535", true },
	{ D18, "ipc signal 9 <kernel> /x", D26,
	  NOT26 "(signals are TOMOYO 1.8 and 2.1 only): ipc signal 9 "
	  "<kernel> /x", true },
	{ D18, "file read /x task.type=execute_handler", D26,
	  NOT26 "(a condition keyword is TOMOYO 1.8 only): file read /x "
	  "task.type=execute_handler", true },
	{ D21, "allow_signal 9 <kernel> /x", D18, "ipc signal 9 <kernel> /x",
	  false },
};

static void test_conversions(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(conversions); i++) {
		struct hm_model *m = hm_model_new();
		const struct hm_acl_head *e =
			parse_one(m, conversions[i].from, conversions[i].in);
		bool comment = !conversions[i].is_comment;
		char *s = format(m, e, conversions[i].to, &comment);

		if (strcmp(s, conversions[i].out))
			fprintf(stderr, "case %zu: '%s' -> '%s'\n", i,
				conversions[i].in, s);
		assert_string_equal(s, conversions[i].out);
		assert_int_equal(comment, conversions[i].is_comment);
		free(s);
		hm_model_free(m);
	}
}

/* Condition items the checker evaluates get their enum hm_cond_var. */
static void test_cond_vars(void **state)
{
	static const struct {
		const char *line;
		uint8_t var;
		bool negate;
		uint32_t index;
		uint64_t min;
		uint64_t max;
		const char *str;
	} cases[] = {
		{ "file read /x task.uid=0", HM_COND_TASK_UID, false, 0, 0, 0 },
		{ "file read /x task.euid!=0-999", HM_COND_TASK_EUID, true, 0, 0,
		  999 },
		{ "file read /x task.fsgid=0x10", HM_COND_TASK_FSGID, false, 0,
		  16, 16 },
		{ "file read /x task.ppid=1", HM_COND_TASK_PPID, false, 0, 1, 1 },
		{ "file read /x exec.argc=2-3", HM_COND_EXEC_ARGC, false, 0, 2, 3 },
		{ "file execute /x exec.realpath=\"/bin/dash\"",
		  HM_COND_EXEC_REALPATH, false, 0, 0, 0, "/bin/dash" },
		{ "file execute /x exec.argv[12]=\"-\\*\"", HM_COND_EXEC_ARGV,
		  false, 12, 0, 0, "-\\*" },
		{ "file symlink /x symlink.target!=\"/y\"",
		  HM_COND_SYMLINK_TARGET, true, 0, 0, 0, "/y" },
		{ "file read /x path1.uid=task.uid", HM_COND_OTHER, false, 0, 0,
		  0 },
		{ "file read /x task.uid=path1.uid", HM_COND_OTHER, false, 0, 0,
		  0 },
		{ "file read /x exec.realpath=@P", HM_COND_OTHER, false, 0, 0, 0 },
		{ "file read /x grant_log=yes", HM_COND_OTHER, false, 0, 0, 0 },
		{ "file execute /x keep", HM_COND_OTHER, false, 0, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_model *m = hm_model_new();
		const struct hm_acl_head *e = parse_one(m, D26, cases[i].line);
		const struct hm_cond_item *it;

		assert_non_null(e->cond);
		assert_int_equal(e->cond->n_items, 1);
		it = &e->cond->items[0];
		if (it->var != cases[i].var)
			fprintf(stderr, "case %zu: var %u\n", i, it->var);
		assert_int_equal(it->var, cases[i].var);
		assert_int_equal(it->negate, cases[i].negate);
		assert_non_null(it->text);
		assert_non_null(strstr(cases[i].line, it->text->str));
		if (it->var == HM_COND_OTHER) {
			hm_model_free(m);
			continue;
		}
		assert_int_equal(it->index, cases[i].index);
		if (cases[i].str) {
			assert_non_null(it->str);
			assert_string_equal(it->str->str, cases[i].str);
		} else {
			assert_int_equal(it->num.min, cases[i].min);
			assert_int_equal(it->num.max, cases[i].max);
		}
		hm_model_free(m);
	}
}

/* ----------------------------------------------------------- bad input */

enum which { DOM, EXC, RW };

static const struct {
	enum which file;
	int dialect;
	const char *text;
	unsigned long line;
	const char *msg;
} errors[] = {
	{ DOM, D26, "file read /x\n", 1, "before any domain" },
	{ DOM, D26, "<kernel>\nfile reed /x\n", 2,
	  "unknown file operation 'reed'" },
	{ DOM, D26, "<kernel>\nfile read/create /x 0644\n", 2,
	  "'create' takes other operands" },
	{ DOM, D26, "<kernel>\nfile read\n", 2, "missing path" },
	{ DOM, D26, "<kernel>\nfile mkblock /x 0644 8\n", 2, "missing minor" },
	{ DOM, D26, "<kernel>\nfile read /a\\q\n", 2, "bad escape" },
	{ DOM, D26, "<kernel>\nfile read /a\\101\n", 2, "bad name" },
	{ DOM, D26, "<kernel>\nfile read /a/\\{b/\n", 2, "bad name" },
	{ DOM, D26, "<kernel>\nfile read /a/b\\}/\n", 2, "bad name" },
	{ DOM, D26, "<kernel>\nfile read /a\\\n", 2, "bad name" },
	{ DOM, D26, "<kernel>\nfile create /x 0999\n", 2, "bad number '0999'" },
	{ DOM, D26, "<kernel>\nfile create /x 10-5\n", 2,
	  "minimum above maximum" },
	{ DOM, D26, "<kernel>\nfile create /x 99999999999999999999\n", 2,
	  "bad number" },
	{ DOM, D26, "<kernel>\nnetwork inet stream bind 1.2.3 80\n", 2,
	  "bad address '1.2.3'" },
	{ DOM, D26, "<kernel>\nnetwork inet stream bind 1.2.3.4-::1 80\n", 2,
	  "bad address" },
	{ DOM, D26, "<kernel>\nnetwork inet stream bind 1.2.3.9-1.2.3.4 80\n",
	  2, "minimum above maximum" },
	{ DOM, D26, "<kernel>\nnetwork inet dgram listen 1.2.3.4 80\n", 2,
	  "not an operation TOMOYO checks" },
	{ DOM, D26, "<kernel>\nnetwork inet seqpacket bind 1.2.3.4 80\n", 2,
	  "bad socket type" },
	{ DOM, D26, "<kernel>\nnetwork inet stream accept 1.2.3.4 80\n", 2,
	  "TOMOYO 1.8 syntax, not TOMOYO 2.6" },
	{ DOM, D26, "<kernel>\nipc signal 9 <kernel>\n", 2,
	  "ipc signal is not TOMOYO 2.6 syntax" },
	{ DOM, D26, "<kernel>\nmisc foo X\n", 2, "unknown keyword 'misc'" },
	{ DOM, D26, "<kernel>\nfile read /x task.uid\n", 2,
	  "expected left=right" },
	{ DOM, D26, "<kernel>\nfile read /x foo.bar=1\n", 2,
	  "unknown keyword 'foo.bar'" },
	{ DOM, D26, "<kernel>\nfile read /x task.uid=\"a\"\n", 2,
	  "bad number" },
	{ DOM, D26, "<kernel>\nfile read /x exec.realpath=5\n", 2,
	  "bad condition value" },
	{ DOM, D26, "<kernel>\nfile read /x keep\n", 2, "expected left=right" },
	{ DOM, D26, "<kernel>\nfile read /x task.type=execute_handler\n", 2,
	  "not TOMOYO 2.6 syntax" },
	{ DOM, D26, "<kernel>\nfile read @G\nfile create /x @G\n", 3,
	  "'G' is a path_group, not a number_group" },
	{ DOM, D26, "<kernel>\nuse_profile 256\n", 2, "0 to 255" },
	{ DOM, D26, "<kernel>\nuse_group x\n", 2, "0 to 255" },
	{ DOM, D26, "<kernel> pipe:[1]\n", 1, "bad domain name" },
	{ DOM, D26, "kernel /x\n", 1, "before any domain" },
	{ DOM, D26, "<kernel>\nallow_read /x\n", 2,
	  "'allow_read' is TOMOYO 2.1 syntax" },
	{ DOM, D26, "<kernel>\n4 /x\n", 2, "TOMOYO 2.1 syntax" },
	{ DOM, D21, "<kernel>\nfile read /x\n", 2,
	  "'file' is TOMOYO 2.6 syntax, not TOMOYO 2.1" },
	{ DOM, D21, "<kernel>\n4 /x task.uid=0\n", 2, "no conditions" },
	{ DOM, D21, "<kernel>\n8 /x\n", 2, "unknown keyword '8'" },
	{ DOM, D21, "<kernel>\nallow_create /x 0644\n", 2, "unexpected '0644'" },
	{ DOM, D21, "<kernel>\nallow_network TCP send 1.2.3.4 80\n", 2,
	  "bad operation" },
	{ DOM, D21, "<kernel>\nallow_network SCTP bind 1.2.3.4 80\n", 2,
	  "expected TCP, UDP or RAW" },
	{ DOM, D21, "<kernel>\nallow_network TCP bind 1.2.3.4 @P\n", 2,
	  "number groups" },
	{ DOM, D21, "<kernel>\nuse_group 0\n", 2, "unknown keyword" },
	{ DOM, D26, "<kernel>\nfile read /a\001b\n", 2, "raw byte 0x01" },
	{ DOM, D26, "<kernel>\nfile read /caf\xc3\xa9\n", 2, "raw byte 0xc3" },
	{ DOM, D26, "<kernel>\nfile read /a b\n", 2, "expected left=right" },
	{ EXC, D26, "foo bar\n", 1, "unknown exception policy keyword 'foo'" },
	{ EXC, D26, "acl_group 256 file read /x\n", 1, "0 to 255" },
	{ EXC, D26, "acl_group 3\n", 1, "missing ACL" },
	{ EXC, D26, "acl_group 3 file bad /x\n", 1, "unknown file operation" },
	{ EXC, D26, "path_group G @H\n", 1, "cannot hold a group" },
	{ EXC, D26, "path_group G\n", 1, "expected two names" },
	{ EXC, D26, "number_group N abc\n", 1, "bad number 'abc'" },
	{ EXC, D26, "address_group A 1.2.3.4-::1\n", 1, "bad address" },
	{ EXC, D26, "path_group G /x\nnumber_group G 1\n", 2,
	  "is a path_group, not a number_group" },
	{ EXC, D26, "aggregator /a /b/\\*\n", 1, "may not hold wildcards" },
	{ EXC, D26, "aggregator /a\n", 1, "expected two names" },
	{ EXC, D26, "initialize_domain pipe:[1] from any\n", 1, "not a path" },
	{ EXC, D26, "initialize_domain /x /y from any\n", 1,
	  "more than one word" },
	{ EXC, D26, "keep_domain any from <kernel>  pipe:[1]\n", 1,
	  "bad domain name" },
	{ EXC, D26, "initialize_domain\n", 1, "missing program" },
	{ EXC, D26, "deny_autobind 0-1023\n", 1, "TOMOYO 1.8 syntax" },
	{ EXC, D26, "alias /a /b\n", 1, "TOMOYO 2.1 syntax" },
	{ EXC, D26, "allow_read /x\n", 1, "TOMOYO 2.1 syntax" },
	{ EXC, D26, "<foo> acl_group 0 file read /x\n", 1,
	  "namespace '<foo>'" },
	{ EXC, D21, "acl_group 0 file read /x\n", 1, "TOMOYO 2.6 and 1.8" },
	{ EXC, D21, "reset_domain /x from any\n", 1, "TOMOYO 2.6 and 1.8" },
	{ EXC, D21, "number_group N 1\n", 1, "TOMOYO 2.6 and 1.8" },
	{ EXC, D21, "alias /a /b/\\*\n", 1, "may not hold wildcards" },
	{ EXC, D18, "deny_autobind 1-2\ndeny_autobind 3-4\n", 2,
	  "only one range" },
	{ EXC, D18, "deny_autobind 0\n", 1, "ports are 1 to 65535" },
	{ RW, D26, "(unclosed\tx\n", 1, "bad regex at offset" },
	{ RW, D26, "# c\n\nno tab here\n", 3, "REGEX<TAB>REPLACEMENT" },
};

static int parse(struct hm_model *m, enum which file, int dialect,
		 const char *text, size_t len, struct hm_diag *diag)
{
	switch (file) {
	case DOM:
		return hm_policy_parse_domain(m, text, len, dialect, "f", diag);
	case EXC:
		return hm_policy_parse_exception(m, text, len, dialect, "f",
						 diag);
	default:
		return hm_policy_parse_rewrite(m, text, len, "f", diag);
	}
}

static void test_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(errors); i++) {
		struct hm_model *m = hm_model_new();
		struct hm_diag diag = { 0 };
		int r = parse(m, errors[i].file, errors[i].dialect,
			      errors[i].text, strlen(errors[i].text), &diag);

		if (r != 1 || diag.n_msgs != 1 ||
		    diag.msgs[0].line != errors[i].line ||
		    !strstr(diag.msgs[0].text, errors[i].msg)) {
			fprintf(stderr, "case %zu ('%s'): r=%d\n", i,
				errors[i].text, r);
			print_diag(&diag);
		}
		assert_int_equal(r, 1);
		assert_int_equal(diag.n_errors, 1);
		assert_int_equal(diag.msgs[0].line, errors[i].line);
		assert_string_equal(diag.msgs[0].file, "f");
		assert_non_null(strstr(diag.msgs[0].text, errors[i].msg));
		hm_diag_free(&diag);
		hm_model_free(m);
	}
}

/* A NUL byte, an over-long line and an over-long word: reported, the
 * rest of the file still loads. */
static void test_hostile_lines(void **state)
{
	static const char head[] = "<kernel>\nfile read /a\0b\nfile read /ok\n";
	size_t big = HM_MAX_LINE + 100;
	size_t word = HM_MAX_WORD + 10;
	char *text = malloc(sizeof(head) + big + word + 100);
	struct hm_model *m = hm_model_new();
	struct hm_diag diag = { 0 };
	size_t n = sizeof(head) - 1;
	int r;

	(void)state;
	memcpy(text, head, n);
	memset(text + n, 'a', big);	/* line 4: too long */
	n += big;
	text[n++] = '\n';
	n += (size_t)sprintf(text + n, "file read /");	/* line 5 */
	memset(text + n, 'w', word);
	n += word;
	n += (size_t)sprintf(text + n, "\nfile write /ok\n");	/* line 6 */
	r = hm_policy_parse_domain(m, text, n, D26, "f", &diag);
	assert_int_equal(r, 3);
	assert_int_equal(diag.msgs[0].line, 2);
	assert_non_null(strstr(diag.msgs[0].text, "NUL byte"));
	assert_int_equal(diag.msgs[1].line, 4);
	assert_non_null(strstr(diag.msgs[1].text, "longer than 65536"));
	assert_int_equal(diag.msgs[2].line, 5);
	assert_non_null(strstr(diag.msgs[2].text, "longer than 8192"));
	assert_int_equal(m->n_domains, 1);
	assert_int_equal(m->domains[0]->n_acl, 1);
	assert_int_equal(m->domains[0]->acl->perm,
			 (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE));
	hm_diag_free(&diag);
	hm_model_free(m);
	free(text);
}

/* ------------------------------------------------------ the line reader */

/* Lines of @text read from @f (a FILE, read ahead a chunk at a time) and
 * from the buffer: the same lines, cut, flagged and numbered alike. */
static void same_lines(const char *text, size_t len, size_t *count)
{
	struct hm_lines a, b;
	FILE *f = fmemopen((void *)text, len, "r");
	int ra, rb;

	assert_non_null(f);
	assert_int_equal(hm_lines_open(&a, f, NULL, 0), 0);
	assert_int_equal(hm_lines_open(&b, NULL, text, len), 0);
	*count = 0;
	do {
		ra = hm_lines_next(&a);
		rb = hm_lines_next(&b);
		assert_int_equal(ra, rb);
		if (ra <= 0)
			break;
		assert_int_equal(a.n, b.n);
		assert_int_equal(a.too_long, b.too_long);
		assert_int_equal(a.has_nul, b.has_nul);
		assert_int_equal(a.lineno, b.lineno);
		assert_memory_equal(a.line, b.line, a.n + 1);
		(*count)++;
	} while (1);
	assert_int_equal(hm_lines_rewind(&a), 0);	/* and again */
	assert_int_equal(hm_lines_next(&a), *count ? 1 : 0);
	assert_int_equal(a.lineno, *count ? 1 : 0);
	hm_lines_close(&a);
	hm_lines_close(&b);
	fclose(f);
}

static void test_lines_file(void **state)
{
	size_t big = HM_MAX_LINE + 70000, cap = 3 * big, n = 0, count;
	char *text = malloc(cap);

	(void)state;
	assert_non_null(text);
	n += (size_t)sprintf(text + n, "<kernel>\n\nfile read /a");
	text[n++] = '\0';	/* a NUL in line 3 */
	n += (size_t)sprintf(text + n, "b\n");
	memset(text + n, 'x', big);	/* line 4: too long, over chunks */
	n += big;
	text[n++] = '\n';
	while (n < 3 * 65536 - 5)	/* a line across a chunk's end */
		n += (size_t)sprintf(text + n, "file read /%zu\n", n);
	n += (size_t)sprintf(text + n, "file write /last");	/* no '\n' */
	assert_true(n < cap);
	same_lines(text, n, &count);
	assert_true(count > 4);
	same_lines(text, n - 16, &count);	/* ends with its '\n' */
	same_lines("", 0, &count);
	assert_int_equal(count, 0);
	free(text);
}

/* ------------------------------------------------------ merge, CRLF */

static void test_merge_on_load(void **state)
{
	static const char text[] =
		"# a comment\r\n"
		"<kernel> /sbin/init\r\n"
		"use_profile 3\r\n"
		"file read /x\r\n"
		"\tfile   write    /x  \r\n"
		"\r\n"
		"<kernel>   /sbin/init\n"
		"file read /x\n"
		"file read /x task.uid=0\n"
		"network inet stream bind 1.2.3.4 80\n"
		"network inet stream listen 1.2.3.4 80\n";
	struct hm_model *m = hm_model_new();
	struct hm_diag diag = { 0 };
	struct hm_domain *d;

	(void)state;
	assert_int_equal(hm_policy_parse_domain(m, text, sizeof(text) - 1,
						HM_DIALECT_AUTO, "f", &diag), 0);
	print_diag(&diag);
	assert_int_equal(m->n_domains, 1);
	d = m->domains[0];
	assert_int_equal(d->profile, 3);
	assert_int_equal(d->n_acl, 3);
	assert_int_equal(d->acl->perm,
			 (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE));
	assert_non_null(d->acl->next->cond);
	assert_int_equal(d->acl->next->next->perm,
			 (1u << HM_NET_BIND) | (1u << HM_NET_LISTEN));
	hm_diag_free(&diag);
	hm_model_free(m);
}

/* ------------------------------------------------------------ detection */

static const struct {
	const char *text;
	int dialect;
} detections[] = {
	{ "<kernel>\nuse_profile 1\nfile read /x\n", D26 },
	{ "<kernel>\nuse_profile 1\n4 /x\n", D21 },
	{ "<kernel>\nallow_read /x\nfile read /y\n", D21 },
	{ "<kernel>\nfile read /x\nnetwork inet stream accept 1.2.3.4 80\n",
	  D18 },
	{ "<kernel>\nipc signal 9 <kernel>\n", D18 },
	{ "acl_group 0 file read /x\ndeny_autobind 1-1023\n", D18 },
	{ "initialize_domain /x\nfile_pattern /tmp/\\*\n", D21 },
	{ "initialize_domain /x from any\nacl_group 0 file read /x\n", D26 },
	{ "<kernel> acl_group 0 file read /x\n", D26 },
	{ "<kernel>\nuse_profile 1\n", HM_DIALECT_AUTO },
	{ "# histmac 0.1.0 tomoyo-1.8\n<kernel>\nuse_profile 1\n", D18 },
	{ "# histmac 0.1.0 tomoyo-2.1\n<kernel>\nfile read /x\n", D26 },
	{ "# histmac 0.1.0 tomoyo-1.8\n<kernel>\nfile read /x\n", D18 },
	{ "", HM_DIALECT_AUTO },
};

static void test_detect(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(detections); i++) {
		int d = hm_policy_detect(detections[i].text,
					 strlen(detections[i].text));

		if (d != detections[i].dialect)
			fprintf(stderr, "case %zu: got %d\n", i, d);
		assert_int_equal(d, detections[i].dialect);
	}
}

/* ------------------------------------------------------- whole files */

static const char dom18[] =
	"<kernel>\n"
	"use_profile 0\n"
	"use_group 0\n"
	"\n"
	"<kernel> /sbin/init\n"
	"use_profile 1\n"
	"use_group 0\n"
	"use_group 7\n"
	"quota_exceeded\n"
	"transition_failed\n"
	"# histmac: history_unobserved events=42 first_seen=1700000000 "
	"last_seen=1700000100\n"
	"file execute /etc/init.d/rc\n"
	"file read/write /dev/console\n"
	"file getattr /\n"
	"file create /run/x 0644\n"
	"file ioctl /dev/tty @IOCTLS\n"
	"network inet stream bind/accept 0.0.0.0 22\n"
	"network unix dgram send /dev/log\n"
	"ipc signal 15 <kernel> /usr/sbin/sshd\n"
	"misc env TERM\n"
	"<kernel> /sbin/init /etc/init.d/rc\n"
	"use_profile 2\n"
	"file append /var/log/boot.log\n"
	"file read /etc/x task.type=execute_handler\n"
	"file execute/read /bin/sh exec.argv[0]=\"sh\"\n";
static const char exc18[] =
	"path_group LIBS /lib/\\*.so\\*\n"
	"path_group LIBS /usr/lib/\\*.so\\*\n"
	"number_group IOCTLS 0x5401\n"
	"number_group IOCTLS 0x5403-0x5404\n"
	"address_group LAN 10.0.0.0-10.255.255.255\n"
	"address_group LAN fe80::-fe80::ffff\n"
	"aggregator /etc/rc\\?.d/\\?\\+\\+x /etc/init.d/x\n"
	"initialize_domain /usr/sbin/sshd from any\n"
	"no_initialize_domain /usr/sbin/sshd from <kernel> /bin/login\n"
	"keep_domain any from <kernel> /usr/sbin/sshd\n"
	"no_keep_domain /bin/su from /bin/bash\n"
	"reset_domain /sbin/x from any\n"
	"no_reset_domain any from <kernel> /y\n"
	"acl_group 0 file read @LIBS\n"
	"acl_group 0 file getattr /\n"
	"acl_group 7 network inet stream connect @LAN 443\n"
	"deny_autobind 1-1023\n";
static const char dom21[] =
	"<kernel> /sbin/init\n"
	"use_profile 1\n"
	"1 /etc/init.d/rc\n"
	"6 /dev/console\n"
	"allow_create /run/x\n"
	"allow_network TCP accept 0.0.0.0 22\n"
	"allow_signal 15 <kernel> /usr/sbin/sshd\n"
	"<kernel> /sbin/init /etc/init.d/rc\n"
	"use_profile 2\n"
	"ignore_global_allow_read\n"
	"2 /var/log/boot.log\n"
	"allow_argv0 /bin/busybox sh\n";
static const char exc21[] =
	"allow_read /etc/ld.so.cache\n"
	"allow_read @LIBS\n"
	"path_group LIBS /lib/\\*.so\\*\n"
	"address_group LAN 10.0.0.0-10.255.255.255\n"
	"file_pattern /tmp/\\*\n"
	"deny_rewrite /var/log/\\*\n"
	"alias /usr/bin/vi /usr/bin/vim.basic\n"
	"aggregator /etc/rc\\?.d/\\?\\+\\+x /etc/init.d/x\n"
	"initialize_domain /usr/sbin/sshd\n"
	"initialize_domain /usr/sbin/cron from <kernel> /sbin/init\n"
	"keep_domain <kernel> /usr/sbin/sshd\n"
	"no_keep_domain /bin/su from /bin/bash\n";

struct texts {
	char *dom;
	char *exc;
};

static void format_all(struct hm_model *m, enum hm_dialect d,
		       struct texts *t, struct hm_convert_stats *st)
{
	size_t n;

	assert_int_equal(hm_policy_format_domain(m, d, &t->dom, &n, st), 0);
	assert_int_equal(strlen(t->dom), n);
	assert_int_equal(hm_policy_format_exception(m, d, &t->exc, &n, st), 0);
}

static struct hm_model *load_texts(const char *dom, const char *exc,
				   int dialect)
{
	struct hm_model *m = hm_model_new();
	struct hm_diag diag = { 0 };

	assert_int_equal(hm_policy_parse_domain(m, dom, strlen(dom), dialect,
						"dom", &diag), 0);
	assert_int_equal(hm_policy_parse_exception(m, exc, strlen(exc),
						   dialect, "exc", &diag), 0);
	print_diag(&diag);
	assert_int_equal(diag.n_msgs, 0);
	hm_diag_free(&diag);
	return m;
}

/* @s without its "# not in" comment lines; caller frees. */
static char *strip_not_in(const char *s)
{
	char *out = malloc(strlen(s) + 1);
	char *o = out;

	assert_non_null(out);
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);

		if (strncmp(s, "# not in ", 9)) {
			memcpy(o, s, n);
			o += n;
		}
		s += n;
	}
	*o = '\0';
	return out;
}

static void file_round_trip(const char *dom, const char *exc, int from,
			    enum hm_dialect to)
{
	struct hm_model *a = load_texts(dom, exc, from);
	struct hm_convert_stats st = { 0 };
	struct texts t1;
	struct texts t2;
	struct hm_policy_counts ca;
	struct hm_policy_counts cb;
	struct hm_model *b;

	format_all(a, to, &t1, &st);
	b = load_texts(t1.dom, t1.exc, HM_DIALECT_AUTO);
	assert_int_equal(b->dialect, to);
	format_all(b, to, &t2, NULL);
	/* What the target cannot say was written as "# not in" comments;
	 * 2.6 reads them back, so its text is stable; 2.1 loses them. */
	if (to == D21) {
		char *s = strip_not_in(t1.dom);

		assert_string_equal(s, t2.dom);
		free(s);
		s = strip_not_in(t1.exc);
		assert_string_equal(s, t2.exc);
		free(s);
	} else {
		assert_string_equal(t1.dom, t2.dom);
		assert_string_equal(t1.exc, t2.exc);
	}
	hm_policy_count(a, &ca);
	hm_policy_count(b, &cb);
	if (from == (int)to) {
		assert_int_equal(st.n_commented, 0);
		assert_int_equal(st.n_widened, 0);
		assert_memory_equal(&ca, &cb, sizeof(ca));
	}
	free(t1.dom);
	free(t1.exc);
	free(t2.dom);
	free(t2.exc);
	hm_model_free(a);
	hm_model_free(b);
}

static void test_file_round_trips(void **state)
{
	(void)state;
	file_round_trip(dom18, exc18, D18, D18);
	file_round_trip(dom21, exc21, D21, D21);
	/* conversions settle after one step too */
	file_round_trip(dom18, exc18, D18, D26);
	file_round_trip(dom18, exc18, D18, D21);
	file_round_trip(dom21, exc21, D21, D26);
	file_round_trip(dom21, exc21, D21, D18);
}

/* Cases the fuzzers found (tests/fuzz/corpus/policy/crash-*). */
static void test_fuzz_regressions(void **state)
{
	struct hm_model *m = hm_model_new();
	char *s;
	size_t n;

	(void)state;
	/* crash-empty-model: no domains at all (memcpy from NULL). */
	for (int d = 0; d < HM_DIALECT_MAX; d++) {
		assert_int_equal(hm_policy_format_domain(m, (enum hm_dialect)d,
							 &s, &n, NULL), 0);
		assert_non_null(strstr(s, hm_dialect_names[d]));
		free(s);
	}
	hm_model_free(m);
	/* crash-blank-after-comments: a domain whose entries are all
	 * comments in the target gets no blank line for them. */
	file_round_trip("<kernel> /x\nipc signal 9 <kernel>\n", "", D18, D26);
	file_round_trip("<kernel> /x\nnetwork unix stream bind /s\n", "",
			D26, D21);
	/* crash-21-mode-groups: 2.1 drops modes, so entries that differ in
	 * mode are written (and read back) as one. */
	file_round_trip("<kernel> /x\nfile create /run/initctl 0601\n"
			"file mkfifo /run/initctl 0600\n"
			"file create/mkdir /run/initctl 0600\n"
			"file mkblock /dev/a 0600 1 2\n"
			"file mkblock /dev/a 0600 1 3\n", "", D26, D21);
}

/* What each conversion of the 1.8 and 2.1 samples comments out. */
static const struct {
	const char *dom;
	const char *exc;
	int from;
	enum hm_dialect to;
	unsigned long commented[HM_CONV_MAX];
	unsigned long widened[HM_CONV_MAX];
} counts[] = {
	{ dom18, exc18, D18, D26,
	  .commented = {
		  [HM_CONV_ACL_INET] = 1,	/* accept */
		  [HM_CONV_ACL_SIGNAL] = 1,
		  [HM_CONV_ACL_PATH] = 1,	/* task.type */
		  [HM_CONV_DENY_AUTOBIND] = 1,
	  } },
	{ dom18, exc18, D18, D21,
	  .commented = {
		  [HM_CONV_ACL_PATH] = 4,	/* getattr x2, task.type, read
						   with argv[0] */
		  [HM_CONV_ACL_PATH_NUMBER] = 1, /* ioctl */
		  [HM_CONV_ACL_UNIX] = 1,
		  [HM_CONV_ACL_INET] = 1,	/* acl_group 7 */
		  [HM_CONV_DOMAIN_FLAG] = 2,
		  [HM_CONV_USE_GROUP] = 1,	/* use_group 7 */
		  [HM_CONV_NUMBER_GROUP] = 2,
		  [HM_CONV_TRANSITION] = 2,	/* reset, no_reset */
		  [HM_CONV_DENY_AUTOBIND] = 1,
	  },
	  .widened = {
		  [HM_CONV_ACL_PATH] = 1,	/* append */
		  [HM_CONV_ACL_PATH_NUMBER] = 1, /* create mode */
	  } },
	{ dom21, exc21, D21, D26,
	  .commented = {
		  [HM_CONV_ACL_INET] = 1,	/* accept */
		  [HM_CONV_ACL_SIGNAL] = 1,
		  [HM_CONV_FILE_PATTERN] = 1,
		  [HM_CONV_DENY_REWRITE] = 1,
		  [HM_CONV_ALIAS] = 1,
	  } },
	{ dom21, exc21, D21, D18,
	  .commented = {
		  [HM_CONV_FILE_PATTERN] = 1,
		  [HM_CONV_DENY_REWRITE] = 1,
		  [HM_CONV_ALIAS] = 1,
	  } },
};

static void test_conversion_counts(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(counts); i++) {
		struct hm_model *m = load_texts(counts[i].dom, counts[i].exc,
						counts[i].from);
		struct hm_convert_stats st = { 0 };
		struct texts t;
		unsigned long total = 0;

		format_all(m, counts[i].to, &t, &st);
		for (int k = 0; k < HM_CONV_MAX; k++) {
			if (st.commented[k] != counts[i].commented[k] ||
			    st.widened[k] != counts[i].widened[k])
				fprintf(stderr, "case %zu %s: %lu/%lu\n%s%s", i,
					hm_conv_what_name(k),
					st.commented[k], st.widened[k],
					t.dom, t.exc);
			assert_int_equal(st.commented[k],
					 counts[i].commented[k]);
			assert_int_equal(st.widened[k], counts[i].widened[k]);
			total += st.commented[k];
		}
		assert_int_equal(st.n_commented, total);
		free(t.dom);
		free(t.exc);
		hm_model_free(m);
	}
}

/* 2.1's global allow_read: every domain uses acl_group 0, unless it says
 * ignore_global_allow_read. */
static void test_global_allow_read(void **state)
{
	struct hm_model *m = load_texts(dom21, exc21, D21);
	const struct hm_name *n;
	struct hm_domain *a;
	struct hm_domain *b;

	(void)state;
	assert_int_equal(hm_model_intern(m, "<kernel> /sbin/init", 19, &n), 0);
	a = hm_model_find_domain(m, n);
	assert_int_equal(hm_model_intern(m, "<kernel> /sbin/init "
					 "/etc/init.d/rc", 34, &n), 0);
	b = hm_model_find_domain(m, n);
	assert_non_null(a);
	assert_non_null(b);
	assert_int_equal(a->groups[0] & 1, 1);
	assert_int_equal(b->groups[0] & 1, 0);
	assert_non_null(m->ex.acl_groups[0]);
	assert_int_equal(m->ex.acl_groups[0]->n_acl, 2);
	hm_model_free(m);
}

/* ----------------------------------------------------------- directory */

static char *read_all(const char *dir, const char *name)
{
	char path[512];
	FILE *f;
	char *buf = calloc(1, 1 << 16);
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f) {
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_save_load_dir(void **state)
{
	char dir[] = "/tmp/hm-test-policy-XXXXXX";
	struct hm_model *a = load_texts(dom18, exc18, D18);
	struct hm_model *b = hm_model_new();
	struct hm_diag diag = { 0 };
	struct texts ta;
	struct texts tb;
	char *s;

	(void)state;
	assert_non_null(mkdtemp(dir));
	a->max_learning_entry = 777;
	assert_int_equal(hm_model_add_rewrite(a, "^/home/[^/]+/",
					      "/home/\\\\*/", 0), 1);
	write_file(dir, HM_MANAGER_CONF, "/usr/sbin/mine\n");
	assert_int_equal(hm_policy_save_dir(a, dir, D18, 0, NULL), 0);
	s = read_all(dir, HM_PROFILE_CONF);
	assert_non_null(strstr(s, "PROFILE_VERSION=20150505\n"));
	assert_non_null(strstr(s, "1-PREFERENCE={ max_audit_log=1024 "
			       "max_learning_entry=777 }\n"));
	assert_non_null(strstr(s, "3-CONFIG={ mode=enforcing grant_log=no "
			       "reject_log=yes }\n"));
	free(s);
	s = read_all(dir, HM_MANAGER_CONF);
	assert_string_equal(s, "/usr/sbin/mine\n");	/* left alone */
	free(s);
	assert_int_equal(hm_policy_load_dir(b, dir, HM_DIALECT_AUTO, &diag), 0);
	print_diag(&diag);
	assert_int_equal(b->dialect, D18);
	assert_int_equal(b->max_learning_entry, 777);
	assert_non_null(b->ex.rewrites);
	assert_string_equal(b->ex.rewrites->regex_src, "^/home/[^/]+/");
	assert_string_equal(b->ex.rewrites->replacement, "/home/\\\\*/");
	format_all(a, D18, &ta, NULL);
	format_all(b, D18, &tb, NULL);
	assert_string_equal(ta.dom, tb.dom);
	assert_string_equal(ta.exc, tb.exc);
	s = read_all(dir, HM_DOMAIN_POLICY);
	assert_string_equal(s, ta.dom);
	free(s);
	free(ta.dom);
	free(ta.exc);
	free(tb.dom);
	free(tb.exc);
	hm_diag_free(&diag);
	hm_model_free(a);
	hm_model_free(b);
	/* A missing file is empty; a missing directory is an error. */
	b = hm_model_new();
	write_file(dir, HM_REWRITE_CONF, "x(\ty\n");
	unlink(strcat(strcat(strcpy((char[600]){ 0 }, dir), "/"),
		      HM_EXCEPTION_POLICY));
	assert_int_equal(hm_policy_load_dir(b, dir, HM_DIALECT_AUTO, &diag), 1);
	assert_non_null(strstr(diag.msgs[0].file, HM_REWRITE_CONF));
	assert_int_equal(diag.msgs[0].line, 1);
	assert_int_equal(b->n_domains, 3);
	hm_diag_free(&diag);
	hm_model_free(b);
	b = hm_model_new();
	assert_int_equal(hm_policy_load_dir(b, "/nonexistent/hm", -1, &diag),
			 -ENOENT);
	hm_model_free(b);
	for (const char *const *f = (const char *const[]){
		     HM_DOMAIN_POLICY, HM_EXCEPTION_POLICY, HM_REWRITE_CONF,
		     HM_PROFILE_CONF, HM_MANAGER_CONF, NULL };
	     *f; f++) {
		char path[600];

		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	assert_int_equal(rmdir(dir), 0);
}

/* A directory's dialect comes from both files: 1.8 when either needs it. */
static void test_dir_dialect(void **state)
{
	static const struct {
		const char *dom;
		const char *exc;
		int dialect;
		unsigned long errors;
	} cases[] = {
		{ "<kernel>\nfile read /x\n", "deny_autobind 1-1023\n", D18, 0 },
		{ "<kernel>\nipc signal 9 <kernel>\n", "acl_group 0 misc env X\n",
		  D18, 0 },
		{ "<kernel>\n4 /x\n", "initialize_domain /x\n", D21, 0 },
		{ "<kernel>\n", "file_pattern /tmp/\\*\n", D21, 0 },
		{ "<kernel>\n4 /x\n", "acl_group 0 file read /y\n", D21, 1 },
		{ "<kernel>\nfile read /x\n", "allow_read /y\n", D26, 1 },
		{ "<kernel>\n", "", D26, 0 },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		char dir[] = "/tmp/hm-test-dialect-XXXXXX";
		struct hm_model *m = hm_model_new();
		struct hm_diag diag = { 0 };
		char path[600];
		int r;

		assert_non_null(mkdtemp(dir));
		write_file(dir, HM_DOMAIN_POLICY, cases[i].dom);
		write_file(dir, HM_EXCEPTION_POLICY, cases[i].exc);
		r = hm_policy_load_dir(m, dir, HM_DIALECT_AUTO, &diag);
		if (r != (int)cases[i].errors || (int)m->dialect != cases[i].dialect)
			fprintf(stderr, "case %zu: r=%d dialect=%d\n", i, r,
				m->dialect);
		assert_int_equal(r, cases[i].errors);
		assert_int_equal(m->dialect, cases[i].dialect);
		hm_diag_free(&diag);
		hm_model_free(m);
		snprintf(path, sizeof(path), "%s/%s", dir, HM_DOMAIN_POLICY);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", dir, HM_EXCEPTION_POLICY);
		unlink(path);
		assert_int_equal(rmdir(dir), 0);
	}
}

/* ----------------------------------------------------- API edge cases */

static void test_parse_line_api(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel> /x");
	struct hm_diag diag = { 0 };
	static const char nul[] = "file read /a\0b";

	(void)state;
	assert_int_equal(hm_acl_parse_line(m, d, "file read /a", 12, D26,
					   NULL, 0, &diag), 1);
	assert_int_equal(hm_acl_parse_line(m, d, "  file  read /a ", 16, D26,
					   NULL, 0, &diag), 0);
	assert_int_equal(hm_acl_parse_line(m, d, "4 /a", 4, D21, NULL, 0,
					   &diag), 0);
	assert_int_equal(hm_acl_parse_line(m, d, "2 /a", 4, D21, NULL, 0,
					   &diag), 1);
	assert_int_equal(diag.n_errors, 0);
	assert_int_equal(hm_acl_parse_line(m, d, nul, sizeof(nul) - 1, D26,
					   "sup", 9, &diag), -EINVAL);
	assert_int_equal(hm_acl_parse_line(m, d, "", 0, D26, NULL, 0, &diag),
			 -EINVAL);
	assert_int_equal(hm_acl_parse_line(m, d, "use_profile 1", 13, D26,
					   NULL, 0, &diag), -EINVAL);
	assert_int_equal(diag.n_errors, 3);
	assert_string_equal(diag.msgs[0].file, "sup");
	assert_int_equal(diag.msgs[0].line, 9);
	assert_int_equal(d->n_acl, 1);
	assert_int_equal(d->acl->perm,
			 (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE));
	assert_int_equal(hm_dialect_parse("tomoyo-2.1"), D21);
	assert_int_equal(hm_dialect_parse("2.6"), D26);
	assert_int_equal(hm_dialect_parse("tomoyo-3"), -EINVAL);
	hm_diag_free(&diag);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trips),
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_cond_vars),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hostile_lines),
		cmocka_unit_test(test_lines_file),
		cmocka_unit_test(test_merge_on_load),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_file_round_trips),
		cmocka_unit_test(test_fuzz_regressions),
		cmocka_unit_test(test_conversion_counts),
		cmocka_unit_test(test_global_allow_read),
		cmocka_unit_test(test_save_load_dir),
		cmocka_unit_test(test_dir_dialect),
		cmocka_unit_test(test_parse_line_api),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
