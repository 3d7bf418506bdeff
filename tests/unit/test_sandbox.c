// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_sandbox.c - the TOMOYO -> Landlock translation table of
 * docs/SANDBOX.md, one row per case, against a small file tree made
 * here (objects that exist, a directory, a script and its interpreter,
 * a missing path); the subtree and per-domain tables; the table checker;
 * and applying a table with the real Landlock in a child process (the
 * objects the table names lexically, opened then: missing ones on their
 * nearest existing parent); what each exec edge says of its program so
 * that the preload need not read it (static or not through "#!", the
 * files' identity, stale once one changed).  The whole chain is
 * t_sandbox_chain.sh's; the preload's side of the edges is
 * t_sandbox_execread.sh's.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <elf.h>

#include "histmac/collector.h"
#include "histmac/learn.h"
#include "histmac/policy_io.h"
#include "histmac/sandbox.h"
#include "../../sandbox/landlock_abi.h"
#include "../../sandbox/internal.h"
#include "../../sandbox/table.h"

static char root[64];

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* An ELF at @rel whose program interpreter is @interp (a dynamic one),
 * or with none if NULL (a static one): an ELF header and one program
 * header, nothing else (enough for hm_exec_interp(), hm_sbx_inspect()). */
static void put_elf(const char *rel, const char *interp)
{
	struct {
		Elf64_Ehdr e;
		Elf64_Phdr ph;
		char interp[32];
	} f = { 0 };
	char p[256];
	int fd;

	memcpy(f.e.e_ident, ELFMAG, SELFMAG);
	f.e.e_ident[EI_CLASS] = ELFCLASS64;
	f.e.e_ident[EI_DATA] = ELFDATA2LSB;
	f.e.e_ident[EI_VERSION] = EV_CURRENT;
	f.e.e_type = ET_DYN;	/* a PIE */
	f.e.e_phoff = offsetof(__typeof__(f), ph);
	f.e.e_ehsize = sizeof(f.e);
	f.e.e_phentsize = sizeof(f.ph);
	f.e.e_phnum = 1;
	f.ph.p_type = interp ? PT_INTERP : PT_LOAD;
	if (interp) {
		f.ph.p_offset = offsetof(__typeof__(f), interp);
		f.ph.p_filesz = strlen(interp) + 1;
		snprintf(f.interp, sizeof(f.interp), "%s", interp);
	}
	snprintf(p, sizeof(p), "%s%s", root, rel);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, &f, sizeof(f)), (ssize_t)sizeof(f));
	close(fd);
}

static int setup(void **state)
{
	char p[256];

	(void)state;
	strcpy(root, "/tmp/hm-test-sandbox.XXXXXX");
	assert_non_null(mkdtemp(root));
	for (const char *d = "/etc\0/dir\0/bin\0/proc\0"; *d; d += strlen(d) + 1) {
		snprintf(p, sizeof(p), "%s%s", root, d);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	put("/etc/f", "x\n", 0644);
	put("/bin/prog", "#!/bin/interp -x\necho\n", 0755);
	put("/bin/interp", "not an ELF\n", 0755);
	put("/bin/static", "\177ELF\2\1\1 no program interpreter", 0755);
	/* a dynamic PIE (/usr/bin/env) and its loader, itself static */
	put("/bin/ld.so", "\177ELF\2\1\1 no program interpreter", 0755);
	put_elf("/bin/dyn", "/bin/ld.so");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static const char *const net_names[4] = {
	"net.bind_tcp", "net.connect_tcp", "net.bind_udp",
	"net.connect_send_udp",
};

/* "fs.a,fs.b PATH [w1,w2]" or "net.x PORT[-MAX]", joined with "; ". */
static void describe(const struct hm_sbx_xlat *x, char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	for (size_t i = 0; i < x->n; i++) {
		const struct hm_sbx_grant *g = &x->grants[i];
		const char *sep = "";

		n += snprintf(out + n, cap - n, "%s", i ? "; " : "");
		for (unsigned b = 0; g->path && b < 64; b++)
			if (g->access & (1ULL << b)) {
				n += snprintf(out + n, cap - n, "%s%s", sep,
					      hm_sbx_fs_right_names[b]);
				sep = ",";
			}
		if (g->path)
			n += snprintf(out + n, cap - n, " %s", g->path);
		for (unsigned b = 0; !g->path && b < 4; b++)
			if (g->access & (1ULL << b)) {
				n += snprintf(out + n, cap - n, "%s%s", sep,
					      net_names[b]);
				sep = ",";
			}
		if (!g->path)
			n += snprintf(out + n, cap - n, " %lu",
				      (unsigned long)g->port);
		if (!g->path && g->port_max > g->port)
			n += snprintf(out + n, cap - n, "-%lu",
				      (unsigned long)g->port_max);
		sep = " [";
		for (unsigned w = 0; w < HM_SBX_W_MAX; w++)
			if (g->widen & (1u << w)) {
				n += snprintf(out + n, cap - n, "%s%s", sep,
					      hm_sbx_widen_words[w]);
				sep = ",";
			}
		if (*sep == ',')
			n += snprintf(out + n, cap - n, "]");
	}
}

static const struct {
	const char *line;
	const char *grants;
	enum hm_sbx_unenforced ne;
} rows[] = {
	{ "file read /etc/f", "fs.read_file /etc/f" },
	{ "file read /dir/", "fs.read_dir /dir [dir]" },
	{ "file write/append /etc/f", "fs.write_file /etc/f" },
	{ "file truncate /etc/f", "fs.truncate /etc/f" },
	{ "file read/write/truncate /etc/f",
	  "fs.write_file,fs.read_file,fs.truncate /etc/f" },
	{ "file execute /bin/prog",
	  "fs.execute,fs.read_file /bin/prog [exec-read]; "
	  "fs.execute,fs.read_file /bin/interp [exec-read]" },
	{ "file create /dir/new 0644", "fs.make_reg /dir [parent]" },
	{ "file unlink /etc/f", "fs.remove_file /etc [parent]" },
	{ "file mkdir /dir/sub/ 0755", "fs.make_dir /dir [parent]" },
	{ "file rmdir /dir/", "fs.remove_dir / [parent]" },
	{ "file symlink /dir/l", "fs.make_sym /dir [parent]" },
	{ "file mkfifo /dir/p 0600", "fs.make_fifo /dir [parent]" },
	{ "file mksock /dir/s 0600", "fs.make_sock /dir [parent]" },
	{ "file mkchar /dir/c 0600 1 3", "fs.make_char /dir [parent]" },
	{ "file rename /etc/f /dir/g",
	  "fs.remove_file,fs.refer /etc [parent]; "
	  "fs.make_reg,fs.refer /dir [parent]" },
	{ "file rename /dir/a /dir/b", "fs.remove_file,fs.make_reg /dir [parent]" },
	{ "file link /etc/f /dir/g",
	  "fs.refer /etc [parent]; fs.make_reg,fs.refer /dir [parent]" },
	{ "file read /dir/\\*.conf", "fs.read_file /dir [pattern]" },
	{ "file read /dir/\\*/x", "fs.read_file /dir [pattern]" },
	{ "file create /dir/\\*/x 0600", "fs.make_reg /dir [parent,pattern]" },
	{ "file read /dir/missing/deeper", "fs.read_file /dir [missing]" },
	{ "file read proc:/self/status", "fs.read_file /proc [proc]" },
	{ "file read proc:/cpuinfo", "fs.read_file /proc [missing]" },
	/* file systems named by type: where this host mounts them */
	{ "file read devpts:/0", "fs.read_file / [missing]" },
	{ "file read /etc/f task.uid=0", "fs.read_file /etc/f [condition]" },
	{ "file getattr /etc/f", "", HM_SBX_NE_ATTR },
	{ "file chmod /etc/f 0644", "", HM_SBX_NE_ATTR },
	{ "file ioctl /etc/f 0x5401", "", HM_SBX_NE_IOCTL },
	{ "file chroot /dir/", "", HM_SBX_NE_CHROOT },
	{ "file mount /dev/sda /dir/ ext4 0", "", HM_SBX_NE_MOUNT },
	{ "file read socket:[1234]", "", HM_SBX_NE_NOT_PATH },
	{ "network inet stream connect 127.0.0.1 8080",
	  "net.connect_tcp 8080 [address]" },
	{ "network inet stream bind/connect 0.0.0.0-255.255.255.255 1024-2048",
	  "net.bind_tcp,net.connect_tcp 1024-2048" },
	{ "network inet stream bind/listen :: 80", "net.bind_tcp 80",
	  HM_SBX_NE_SOCKET },
	{ "network inet stream bind 127.0.0.1 80", "net.bind_tcp 80 [address]" },
	/* UDP and pathname unix connect: rights of ABI 10 and 9, cut by
	 * build.c where the kernel lacks them */
	{ "network inet dgram send 0.0.0.0 53",
	  "net.connect_send_udp 53 [address]" },
	{ "network inet dgram bind 0.0.0.0 5353", "net.bind_udp 5353" },
	{ "network inet raw send 0.0.0.0 1", "", HM_SBX_NE_SOCKET },
	{ "network unix stream bind /dir/sock", "fs.make_sock /dir [parent]" },
	{ "network unix stream connect /etc/f", "fs.resolve_unix /etc/f" },
	{ "network unix stream connect /dir/sock",
	  "fs.resolve_unix /dir [missing]" },
	{ "network unix dgram send /etc/f", "fs.resolve_unix /etc/f" },
	{ "network unix stream listen /dir/sock", "", HM_SBX_NE_SOCKET },
	{ "network unix stream connect \\000abstract", "", HM_SBX_NE_SOCKET },
	{ "misc env HOME", "", HM_SBX_NE_ENV },
};

static void parse(struct hm_model *m, struct hm_domain *d, const char *line)
{
	struct hm_diag diag = { 0 };
	int r = hm_acl_parse_line(m, d, line, strlen(line), HM_DIALECT_26,
				  NULL, 0, &diag);

	if (r < 0) {
		char *s = diag.n_msgs ? hm_diag_format(&diag.msgs[0]) : NULL;

		fail_msg("cannot parse '%s': %s", line, s ? s : "?");
	}
	hm_diag_free(&diag);
}

static void test_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(rows); i++) {
		struct hm_model *m = hm_model_new();
		struct hm_domain *d;
		struct hm_sbx_xlat x;
		char got[1024];

		assert_non_null(m);
		assert_true(hm_model_domain(m, "<kernel>", 8, true, &d) >= 0);
		parse(m, d, rows[i].line);
		assert_int_equal(d->n_acl, 1);
		assert_int_equal(hm_sbx_translate(m, d->acl, root, HM_SBX_LOOKUP, &x), 0);
		describe(&x, got, sizeof(got));
		if (strcmp(got, rows[i].grants) || x.unenforced != rows[i].ne)
			fail_msg("'%s':\n  got  '%s' (unenforced %d)\n  want "
				 "'%s' (unenforced %d)", rows[i].line, got,
				 x.unenforced, rows[i].grants, rows[i].ne);
		hm_sbx_xlat_fini(&x);
		hm_model_free(m);
	}
}

static void test_scopes(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d;
	struct hm_sbx_xlat x;

	(void)state;
	assert_true(hm_model_domain(m, "<kernel>", 8, true, &d) >= 0);
	parse(m, d, "network unix dgram send \\000x");
	assert_int_equal(hm_sbx_translate(m, d->acl, root, HM_SBX_LOOKUP, &x), 0);
	assert_true(x.scope_abstract);
	assert_false(x.scope_signal);
	hm_sbx_xlat_fini(&x);
	/* a static program cannot load the preload: reported */
	parse(m, d, "file execute /bin/static");
	assert_int_equal(hm_sbx_translate(m, d->acl->next, root, 0, &x), 0);
	assert_true(x.static_exec);
	hm_sbx_xlat_fini(&x);
	parse(m, d, "file execute /bin/prog");
	assert_int_equal(hm_sbx_translate(m, d->acl->next->next, root, 0, &x), 0);
	assert_false(x.static_exec);
	hm_sbx_xlat_fini(&x);
	/* a dynamic PIE is not static because its ld.so is (issue 25 #5:
	 * --explain called /usr/bin/env static); the loader is granted */
	parse(m, d, "file execute /bin/dyn");
	assert_int_equal(hm_sbx_translate(m, d->acl->next->next->next, root, 0,
					  &x), 0);
	assert_false(x.static_exec);
	assert_int_equal(x.n, 2);
	assert_non_null(strstr(x.grants[1].path, "/bin/ld.so"));
	hm_sbx_xlat_fini(&x);
	hm_model_free(m);
}

/* Load a little policy text into a model. */
static struct hm_model *policy(const char *text, const char *exc)
{
	struct hm_model *m = hm_model_new();
	struct hm_diag diag = { 0 };

	assert_non_null(m);
	assert_int_equal(hm_policy_parse_exception(m, exc, strlen(exc),
						   HM_DIALECT_26, "exc", &diag), 0);
	assert_int_equal(hm_policy_parse_domain(m, text, strlen(text),
						HM_DIALECT_26, "dom", &diag), 0);
	assert_int_equal(diag.n_msgs, 0);
	hm_diag_free(&diag);
	hm_model_relink(m);
	return m;
}

static const struct hm_domain *dom(struct hm_model *m, const char *name)
{
	struct hm_domain *d = NULL;

	hm_model_domain(m, name, strlen(name), false, &d);
	assert_non_null(d);
	return d;
}

/* Subtree: children by name, execute entries through initialize_domain;
 * a domain's ruleset is the union of its subtree, cut to the ABI. */
static void test_subtree_table(void **state)
{
	char text[1024];
	struct hm_model *m;
	const struct hm_domain **v;
	struct hm_sbx_opts o = { .abi = 3, .root = root };
	struct hm_sbx_summary s;
	const struct hm_sbx_thdr *h;
	void *blob;
	size_t n, size;

	(void)state;
	snprintf(text, sizeof(text),
		 "<kernel> /a\n"
		 "file execute /bin/prog\n"
		 "file execute /bin/daemon\n"
		 "file read /etc/f\n"
		 "network inet stream connect 127.0.0.1 80\n"
		 "\n<kernel> /a /bin/prog\n"
		 "file write /dir/\n"
		 "\n<kernel> /bin/daemon\n"
		 "file truncate /etc/f\n"
		 "\n<kernel> /other\n"
		 "file read /dir/\n");
	m = policy(text, "initialize_domain /bin/daemon from any\n");
	assert_int_equal(hm_sbx_subtree(m, dom(m, "<kernel> /a"), &v, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(v[0]->name->str, "<kernel> /a");
	assert_string_equal(v[1]->name->str, "<kernel> /a /bin/prog");
	assert_string_equal(v[2]->name->str, "<kernel> /bin/daemon");
	free(v);

	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, &s), 0);
	assert_true(hm_sbx_table_check(blob, size));
	h = blob;
	assert_int_equal(h->n_domains, 3);
	assert_int_equal(s.domains, 3);
	assert_int_equal(s.entries, 6);
	/* ABI 3: no network rules, no scoping, truncate handled */
	assert_int_equal(hm_sbx_tdom(h, 0)->handled_net, 0);
	assert_int_equal(hm_sbx_tdom(h, 0)->scoped, 0);
	assert_true(hm_sbx_tdom(h, 0)->handled_fs & HM_LL_FS_TRUNCATE);
	assert_false(hm_sbx_tdom(h, 0)->handled_fs & HM_LL_FS_IOCTL_DEV);
	/* the root holds /etc/f for read (its own) and truncate (daemon's) */
	for (uint32_t i = 0; i < hm_sbx_tdom(h, 0)->n_rules; i++) {
		const struct hm_sbx_trule *r = hm_sbx_trule(h, i);

		if (!strcmp(hm_sbx_tstr(h, r->path), "/etc/f"))
			assert_int_equal(r->access, HM_LL_FS_READ_FILE |
					 HM_LL_FS_TRUNCATE);
	}
	/* /a's edges: /bin/prog and /bin/daemon (initialize_domain) */
	assert_int_equal(hm_sbx_tdom(h, 0)->n_edges, 3);
	/* the daemon's own ruleset: only /etc/f truncate */
	assert_int_equal(hm_sbx_tdom(h, 2)->n_rules, 1);
	/* a flipped byte in an offset is refused */
	((struct hm_sbx_thdr *)blob)->str_off += 8;
	assert_false(hm_sbx_table_check(blob, size));
	free(blob);

	/* ABI 6: TCP ports and scoping (no signal or abstract entries) */
	o.abi = 6;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, &s), 0);
	h = blob;
	assert_int_equal(hm_sbx_tdom(h, 0)->handled_net,
			 HM_LL_NET_BIND_TCP | HM_LL_NET_CONNECT_TCP);
	assert_int_equal(hm_sbx_tdom(h, 0)->scoped,
			 HM_LL_SCOPE_SIGNAL | HM_LL_SCOPE_ABSTRACT_UNIX);
	assert_int_equal(s.widened[HM_SBX_W_ADDRESS], 1);
	free(blob);
	hm_model_free(m);
}

/* Too many ports for one right: that right is left unrestricted. */
/* An exec that stays in its domain is an edge to itself: keep_domain,
 * and an initialize_domain program executing itself (sshd -R). */
static void test_self_edges(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n"
				    "file execute /bin/tool\n"
				    "file execute /bin/daemon\n"
				    "\n<kernel> /bin/daemon\n"
				    "file execute /bin/daemon\n",
				    "keep_domain <kernel> /a\n"
				    "initialize_domain /bin/daemon from any\n");
	struct hm_sbx_opts o = { .abi = 3, .root = root };
	const struct hm_sbx_thdr *h;
	const struct hm_sbx_tdom *d;
	void *blob;
	size_t size;
	int self = 0;

	(void)state;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, NULL), 0);
	h = blob;
	assert_int_equal(h->n_domains, 2);
	for (uint32_t k = 0; k < 2; k++) {
		d = hm_sbx_tdom(h, k);
		for (uint32_t i = 0; i < d->n_edges; i++) {
			const struct hm_sbx_tedge *e =
				hm_sbx_tedge(h, d->edge_first + i);
			const char *p = hm_sbx_tstr(h, e->program);

			if (k == 0 && !strcmp(p, "/bin/tool"))
				self += e->child == 0;
			if (k == 1 && !strcmp(p, "/bin/daemon"))
				self += e->child == 1;
		}
	}
	assert_int_equal(self, 2);
	free(blob);
	hm_model_free(m);
}

static void test_port_cap(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n"
				    "network inet stream connect 127.0.0.1 1-5000\n"
				    "network inet stream bind 127.0.0.1 8080\n", "");
	struct hm_sbx_opts o = { .abi = 7, .root = root, .max_ports = 4096 };
	struct hm_sbx_summary s;
	void *blob;
	size_t size;

	(void)state;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, &s), 0);
	assert_int_equal(hm_sbx_tdom(blob, 0)->handled_net, HM_LL_NET_BIND_TCP);
	assert_true(s.ports_too_wide_connect);
	assert_false(s.ports_too_wide_bind);
	free(blob);
	hm_model_free(m);
}

static void test_enter_domain(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n",
				    "initialize_domain /bin/daemon from any\n"
				    "keep_domain /bin/keep from <kernel> /a\n");
	char *out = NULL;

	(void)state;
	assert_int_equal(hm_sbx_enter_domain(m, "<kernel> /a", "/bin/x", &out), 0);
	assert_string_equal(out, "<kernel> /a /bin/x");
	free(out);
	assert_int_equal(hm_sbx_enter_domain(m, "<kernel> /a", "/bin/daemon",
					     &out), 0);
	assert_string_equal(out, "<kernel> /bin/daemon");
	free(out);
	assert_int_equal(hm_sbx_enter_domain(m, "<kernel> /a", "/bin/keep",
					     &out), 0);
	assert_string_equal(out, "<kernel> /a");
	free(out);
	assert_int_equal(hm_sbx_enter_domain(m, "<kernel> /a", "/a b", &out), 0);
	assert_string_equal(out, "<kernel> /a /a\\040b");
	free(out);
	assert_int_equal(hm_sbx_enter_domain(m, "not a domain", "/x", &out),
			 -EINVAL);
	hm_model_free(m);
}

static void test_normalize(void **state)
{
	static const char *const cases[][2] = {
		{ "/a/./b//c/", "/a/b/c" }, { "/a/../../b", "/b" },
		{ "/", "/" }, { "/..", "/" }, { "/a/b/..", "/a" },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		char buf[64];

		strcpy(buf, cases[i][0]);
		hm_sbx_normalize(buf);
		assert_string_equal(buf, cases[i][1]);
	}
}

/* Landlock's audit records as this kernel (ABI 7) wrote them in the
 * end-to-end test: libaudit 3.0.9 names them UNKNOWN[1423] / [1424]. */
static const char landlock_log[] =
"type=UNKNOWN[1423] msg=audit(1796316286.001:1863665): domain=14b554e54 blockers=fs.read_file path=\"/srv/w/etc/secret\" dev=\"vda\" ino=10970164\n"
"type=SYSCALL msg=audit(1796316286.001:1863665): arch=c000003e syscall=257 success=no exit=-13 a0=ffffff9c a1=56346c10bc20 a2=0 a3=0 items=1 ppid=32133 pid=32159 auid=4294967295 uid=65534 gid=65534 euid=65534 suid=65534 fsuid=65534 egid=65534 sgid=65534 fsgid=65534 tty=(none) ses=4294967295 comm=\"script.sh\" exe=\"/usr/bin/bash\" key=\"hm_open\"\x1d" "ARCH=x86_64 SYSCALL=openat\n"
"type=CWD msg=audit(1796316286.001:1863665): cwd=\"/srv/w\"\n"
"type=PATH msg=audit(1796316286.001:1863665): item=0 name=\"/srv/w/etc/secret\" inode=10970164 dev=fe:00 mode=0100644 ouid=0 ogid=0 rdev=00:00 nametype=NORMAL cap_fp=0 cap_fi=0 cap_fe=0 cap_fver=0 cap_frootid=0\n"
"type=EOE msg=audit(1796316286.001:1863665): \n"
"type=UNKNOWN[1423] msg=audit(1796316286.021:1863738): domain=14b554e54 blockers=net.connect_tcp daddr=127.0.0.1 dest=24678\n"
"type=SYSCALL msg=audit(1796316286.021:1863738): arch=c000003e syscall=42 success=no exit=-13 a0=5 a1=56346c10c490 a2=10 a3=7f44c6503ac0 items=0 ppid=32133 pid=32161 auid=4294967295 uid=65534 gid=65534 euid=65534 suid=65534 fsuid=65534 egid=65534 sgid=65534 fsgid=65534 tty=(none) ses=4294967295 comm=\"script.sh\" exe=\"/usr/bin/bash\" key=\"hm_net\"\n"
"type=SOCKADDR msg=audit(1796316286.021:1863738): saddr=020060667F0000010000000000000000\n"
"type=EOE msg=audit(1796316286.021:1863738): \n"
"type=UNKNOWN[1424] msg=audit(1796316286.041:1863792): domain=14b554e57 status=deallocated denials=1\n";

static void test_landlock_records(void **state)
{
	struct hm_collector *c = NULL;
	const struct hm_event *ev;
	struct hm_model *m = policy("<kernel> /a\n", "");
	struct hm_learn_opts lo = { 0 };
	struct hm_diag diag = { 0 };
	struct hm_checker *ck = NULL;
	const struct hm_violation *const *v;
	int seen = 0;
	size_t n;

	(void)state;
	hm_learn_opts_default(&lo);
	assert_int_equal(hm_checker_new(m, &lo, &diag, &ck), 0);
	assert_int_equal(hm_collector_open_buffer(&c, landlock_log,
						  strlen(landlock_log),
						  "landlock", NULL), 0);
	while (hm_collector_next(c, &ev) > 0) {
		switch (ev->serial) {
		case 1863665:
			assert_int_equal(ev->kind, HM_EV_OPEN);
			assert_false(ev->success);
			assert_string_equal(ev->landlock_blockers.s,
					    "fs.read_file");
			assert_true(ev->landlock_domain == 0x14b554e54ULL);
			break;
		case 1863738:
			assert_int_equal(ev->kind, HM_EV_CONNECT);
			assert_string_equal(ev->landlock_blockers.s,
					    "net.connect_tcp");
			break;
		case 1863792:	/* a domain freed: no system call */
			assert_null(ev->landlock_blockers.s);
			assert_true(ev->landlock_domain == 0x14b554e57ULL);
			break;
		default:
			fail_msg("unexpected serial %llu",
				 (unsigned long long)ev->serial);
		}
		seen++;
		assert_true(hm_checker_event(ck, ev) >= 0);
	}
	assert_int_equal(seen, 3);
	assert_int_equal(hm_collector_stats(c)->skipped[HM_SKIP_UNKNOWN_RECORD], 0);
	/* both failed calls are listed (other failed calls are not), as
	 * enforced, in the unobserved process's domain */
	v = hm_checker_violations(ck, &n);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(v[i]->domain->str, "<kernel> /usr/bin/bash");
		assert_int_equal(v[i]->enforced, 1);
	}
	hm_collector_free(c);
	hm_checker_free(ck);
	hm_diag_free(&diag);
	hm_model_free(m);
}

/* Without HM_SBX_LOOKUP the build names objects as the policy does and
 * asks the file system nothing; the lookup is --explain's (and the
 * applier's). */
static void test_lexical(void **state)
{
	static const char *const lines[][3] = {
		{ "file read /dir/missing/deeper", "fs.read_file /dir/missing/deeper",
		  "fs.read_file /dir [missing]" },
		{ "file create /dir/missing/new 0600",
		  "fs.make_reg /dir/missing [parent]",
		  "fs.make_reg /dir [parent,missing]" },
		{ "file read /etc/f", "fs.read_file /etc/f", "fs.read_file /etc/f" },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(lines); i++) {
		for (unsigned look = 0; look < 2; look++) {
			struct hm_model *m = hm_model_new();
			struct hm_domain *d;
			struct hm_sbx_xlat x;
			char got[256];

			assert_true(hm_model_domain(m, "<kernel>", 8, true, &d) >= 0);
			parse(m, d, lines[i][0]);
			assert_int_equal(hm_sbx_translate(m, d->acl, root,
							  look ? HM_SBX_LOOKUP : 0,
							  &x), 0);
			describe(&x, got, sizeof(got));
			assert_string_equal(got, lines[i][1 + look]);
			hm_sbx_xlat_fini(&x);
			hm_model_free(m);
		}
	}
}

/* This kernel's Landlock ABI for a test that applies a ruleset (capped at
 * what histmac knows); skips without Landlock, except in CI where the
 * kernel must have it.  valgrind 3.19 does not emulate the Landlock system
 * calls (it answers ENOSYS); scripts/valgrind.sh says so, and the plain
 * and ASan runs still apply the ruleset. */
static int landlock_abi_or_skip(void)
{
	int abi = hm_sbx_abi();

	if (abi >= 0)
		return abi > HM_LL_ABI_MAX ? HM_LL_ABI_MAX : abi;
	if (getenv("HM_UNDER_VALGRIND")) {
		print_message("valgrind has no Landlock\n");
		skip();
	}
	if (getenv("CI") && !strcmp(getenv("CI"), "true"))
		fail_msg("no Landlock in CI: %s", strerror(-abi));
	skip();
	return -1;
}

/* Fork; the child applies domain 0 of @blob (exit 10 if it cannot) and
 * exits with @try's answer on what it may do beneath @r.  Returns the
 * child's exit status (0: all as expected). */
static int in_child(const void *blob, const char *r,
		    int (*try)(const struct hm_sbx_apply_stats *as,
			       const void *blob, const char *r))
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		struct hm_sbx_apply_stats as;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    hm_sbx_apply(blob, 0, &as))
			_exit(10);
		_exit(try(&as, blob, r));
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* In a child under a table of lexical rules: what it allows (0: all as
 * expected). */
static int try_lexical(const struct hm_sbx_apply_stats *as, const void *blob,
		       const char *r)
{
	static const struct { const char *rel; int err; } tries[] = {
		{ "/etc/f", 0 }, { "/etc/g", 0 },
		{ "/etc/viaroot", 0 },	/* root's link to /etc/g */
		{ "/dir/other", 0 },	/* beneath /dir: missing's parent */
		{ "/etc/h", EACCES }, { "/bin/prog", EACCES },
		/* through the planted link to "/": not granted */
		{ "/etc/cfg/etc/hostname", EACCES },
		/* a learned file, a directory now: not granted */
		{ "/bin/was_file/secret", EACCES },
	};
	char p[256];

	(void)blob;
	if (as->rules != 4 || as->missing != 1 || as->not_dir != 1 ||
	    as->unreachable != 0 || as->symlinks != 2 || as->not_file != 1)
		return 11;
	for (size_t i = 0; i < HM_ARRAY_SIZE(tries); i++) {
		int fd;

		snprintf(p, sizeof(p), "%s%s", r, tries[i].rel);
		fd = open(p, O_RDONLY);
		if (fd >= 0)
			close(fd);
		if (fd >= 0 ? tries[i].err != 0 : errno != tries[i].err)
			return 20 + (int)i;
	}
	return 0;
}

static void test_apply(void **state)
{
	char text[1024];
	struct hm_sbx_opts o = { .root = "" };
	struct hm_model *m;
	void *blob;
	size_t size;

	(void)state;
	o.abi = landlock_abi_or_skip();
	put("/etc/g", "g\n", 0644);
	put("/etc/h", "h\n", 0644);
	put("/dir/other", "o\n", 0644);
	snprintf(text, sizeof(text), "%s/bin/was_file", root);
	assert_int_equal(mkdir(text, 0755), 0);
	put("/bin/was_file/secret", "s\n", 0644);
	snprintf(text, sizeof(text), "%s/etc/loop", root);
	assert_int_equal(symlink("loop", text), 0);
	snprintf(text, sizeof(text), "%s/etc/cfg", root);
	assert_int_equal(symlink("/", text), 0);
	/* planted by a confined user: not root's, never followed */
	assert_int_equal(lchown(text, 65534, 65534), 0);
	{
		char target[256];

		snprintf(target, sizeof(target), "%s/etc/g", root);
		snprintf(text, sizeof(text), "%s/etc/viaroot", root);
		assert_int_equal(symlink(target, text), 0);
	}
	/* sorted: /bin/was_file (learned as a file, a directory now: refused,
	 * or everything beneath it would be granted), /dir/missing/deeper,
	 * /etc/cfg (planted: a link to "/"),
	 * /etc/f (also as a directory: the directory right is dropped),
	 * /etc/g, /etc/loop (a symlink loop), /etc/viaroot (root's link in
	 * root's directory: followed to /etc/g): five share /etc; the loop
	 * and the planted link are skipped rather than followed or widened */
	snprintf(text, sizeof(text),
		 "<kernel> /a\n"
		 "file read %1$s/etc/f\n"
		 "file read %1$s/etc/f/\n"
		 "file read %1$s/etc/g\n"
		 "file read %1$s/dir/missing/deeper\n"
		 "file read %1$s/etc/loop\n"
		 "file read %1$s/etc/cfg\n"
		 "file read %1$s/etc/viaroot\n"
		 "file read %1$s/bin/was_file\n", root);
	m = policy(text, "");
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, NULL), 0);
	assert_int_equal(hm_sbx_tdom(blob, 0)->n_rules, 7);
	assert_int_equal(in_child(blob, root, try_lexical), 0);
	free(blob);
	hm_model_free(m);
}

/* In a child under domain 0 of @blob: create (O_CREAT|O_APPEND)
 * @r/logs/a.log (no `file create`: EACCES) and @r/spool/b.log (created).
 * 0: as expected, and the missing a.log counted and named. */
static int try_uncreatable(const struct hm_sbx_apply_stats *as,
			   const void *blob, const char *r)
{
	char p[256];
	int fd;

	snprintf(p, sizeof(p), "%s/logs/a.log", r);
	if (as->missing != 2 || as->uncreatable != 1 ||
	    strcmp(hm_sbx_tstr(blob, as->uncreatable_first), p))
		return 11;
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0 || errno != EACCES)
		return 12;
	snprintf(p, sizeof(p), "%s/spool/b.log", r);
	fd = open(p, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return 13;
	close(fd);
	return 0;
}

/* A learned file to append to that is missing at apply: its parent gets
 * the write right ("missing"), but only a `file create` entry lets the
 * program make it; the one it cannot is counted and named. */
static void test_uncreatable(void **state)
{
	char text[1024];
	struct hm_sbx_opts o = { .root = "" };
	struct hm_model *m;
	void *blob;
	size_t size;

	(void)state;
	o.abi = landlock_abi_or_skip();
	snprintf(text, sizeof(text), "%s/logs", root);
	assert_int_equal(mkdir(text, 0755), 0);
	snprintf(text, sizeof(text), "%s/spool", root);
	assert_int_equal(mkdir(text, 0755), 0);
	snprintf(text, sizeof(text),
		 "<kernel> /a\n"
		 "file append %1$s/logs/a.log\n"
		 "file append %1$s/spool/b.log\n"
		 "file create %1$s/spool/b.log 0644\n", root);
	m = policy(text, "");
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, NULL), 0);
	assert_int_equal(in_child(blob, root, try_uncreatable), 0);
	free(blob);
	hm_model_free(m);
}

/* --no-truncate: truncate is not handled, and entries granting it are
 * counted as not enforced (not as the ABI's). */
static void test_no_truncate(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n"
				    "file read/truncate /etc/f\n"
				    "file read /etc/g\n", "");
	struct hm_sbx_opts o = { .abi = 7, .root = root };
	struct hm_sbx_summary s;
	void *blob;
	size_t size;

	(void)state;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, &s), 0);
	assert_true(hm_sbx_tdom(blob, 0)->handled_fs & HM_LL_FS_TRUNCATE);
	assert_int_equal(s.truncate_unenforced, 0);
	free(blob);
	o.no_truncate = true;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, &s), 0);
	assert_false(hm_sbx_tdom(blob, 0)->handled_fs & HM_LL_FS_TRUNCATE);
	assert_true(hm_sbx_tdom(blob, 0)->handled_fs & HM_LL_FS_READ_FILE);
	assert_int_equal(hm_sbx_trule(blob, 0)->access, HM_LL_FS_READ_FILE);
	assert_int_equal(s.truncate_unenforced, 1);
	assert_int_equal(s.abi_unenforced, 0);
	free(blob);
	hm_model_free(m);
}

/* A grant a directory's grant above it holds is dropped (fewer rules,
 * cheaper lookups, nothing more granted); not below a name learned as a
 * file (refused if it is a directory), nor one needing more rights. */
static void test_covered(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n"
				    "file read /etc/\\*\n"	/* /etc, pattern */
				    "file read /etc/f\n"	/* covered */
				    "file read/write /etc/g\n"	/* write: kept */
				    "file read /var/log\n"	/* a file */
				    "file read /var/log/x\n"	/* kept */
				    "file read /dir/x\n", "");
	static const char *const want[] = {
		"/dir/x", "/etc", "/etc/g", "/var/log", "/var/log/x",
	};
	struct hm_sbx_opts o = { .abi = 7, .root = root };
	const struct hm_sbx_tdom *d;
	void *blob;
	size_t size;

	(void)state;
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, NULL), 0);
	d = hm_sbx_tdom(blob, 0);
	assert_int_equal(d->n_rules, HM_ARRAY_SIZE(want));
	for (uint32_t i = 0; i < d->n_rules; i++)
		assert_string_equal(hm_sbx_tstr(blob, hm_sbx_trule(blob,
				    d->rule_first + i)->path), want[i]);
	free(blob);
	hm_model_free(m);
}

/* ------------------------------------------- what exec edges say */

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t ctime_of(const char *rel)
{
	char p[256];
	struct stat sb;

	snprintf(p, sizeof(p), "%s%s", root, rel);
	assert_int_equal(stat(p, &sb), 0);
	return (int64_t)sb.st_ctim.tv_sec * 1000000000 + sb.st_ctim.tv_nsec;
}

/* Under /x: programs the table's exec edges look at, older than the
 * second the build does not vouch for. */
static void exec_tree(void)
{
	static bool made;
	char p[256];

	if (made)
		return;
	made = true;
	snprintf(p, sizeof(p), "%s/x", root);
	assert_int_equal(mkdir(p, 0755), 0);
	put_elf("/x/ld.so", NULL);
	put_elf("/x/dyn", "/x/ld.so");
	put_elf("/x/static", NULL);
	put("/x/script", "#!/x/dyn -x\n", 0755);
	put("/x/sscript", "#! /x/static\n", 0755);
	put("/x/chain", "#!/x/sscript\n", 0755);	/* script, script, static */
	put("/x/deep3", "#!/x/chain\n", 0755);	/* the 4th file is static */
	put("/x/deep4", "#!/x/deep3\n", 0755);	/* a 5th is not read */
	put("/x/text", "just text\n", 0755);
	/* set-group-ID with group execute: a set-id program; without
	 * group execute the bit means mandatory locking, not set-id */
	put_elf("/x/sgid", "/x/ld.so");
	put_elf("/x/lock", "/x/ld.so");
	snprintf(p, sizeof(p), "%s/x/sgid", root);
	assert_int_equal(chmod(p, 02755), 0);
	snprintf(p, sizeof(p), "%s/x/lock", root);
	assert_int_equal(chmod(p, 02745), 0);
	while (now_ns() - ctime_of("/x/text") < 1100000000LL)
		usleep(50000);
}

static const char progs[][16] = { "/x/dyn", "/x/static", "/x/script",
				  "/x/sscript", "/x/chain", "/x/deep3", "/x/deep4",
				  "/x/text", "/x/missing", "/x/fresh" };

/* The table of "<kernel> /a", which executes every one of progs[]. */
static void *exec_table(size_t *size)
{
	char text[2048];
	size_t n = snprintf(text, sizeof(text), "<kernel> /a\n");
	struct hm_sbx_opts o = { .abi = 3, .root = root };
	struct hm_sbx_summary s;
	struct hm_model *m;
	void *blob;

	for (size_t i = 0; i < HM_ARRAY_SIZE(progs); i++)
		n += snprintf(text + n, sizeof(text) - n, "file execute %s\n",
			      progs[i]);
	for (size_t i = 0; i < HM_ARRAY_SIZE(progs); i++)
		n += snprintf(text + n, sizeof(text) - n,
			      "\n<kernel> /a %s\nfile read /x/text\n",
			      progs[i]);
	exec_tree();
	m = policy(text, "");
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      size, &s), 0);
	assert_true(hm_sbx_table_check(blob, *size));
	hm_model_free(m);
	return blob;
}

/* The root domain's (first) edge for @prog. */
static struct hm_sbx_tedge *edge_for(void *blob, const char *prog)
{
	const struct hm_sbx_thdr *h = blob;
	const struct hm_sbx_tdom *d = hm_sbx_tdom(h, 0);

	for (uint32_t i = 0; i < d->n_edges; i++) {
		const struct hm_sbx_tedge *e = hm_sbx_tedge(h, d->edge_first + i);

		if (!strcmp(hm_sbx_tstr(h, e->program), prog))
			return (struct hm_sbx_tedge *)e;
	}
	fail_msg("no edge for %s", prog);
	return NULL;
}

/* Edge @prog: @flags, the chain @files ("a b c"), current or not. */
static void expect_edge(void *blob, const char *prog, uint32_t flags,
		   const char *files, bool current)
{
	const struct hm_sbx_thdr *h = blob;
	const struct hm_sbx_tedge *e = edge_for(blob, prog);
	char got[512] = "";
	size_t n = 0;

	for (uint32_t i = 0; i < e->n_files; i++)
		n += snprintf(got + n, sizeof(got) - n, "%s%s", i ? " " : "",
			      hm_sbx_tstr(h, e->files[i].path));
	if (e->flags != flags || strcmp(got, files) ||
	    hm_sbx_edge_current(root, h, e) != current)
		fail_msg("%s: flags %u files '%s' current %d; want %u '%s' %d",
			 prog, e->flags, got, hm_sbx_edge_current(root, h, e),
			 flags, files, current);
}

#define KNOWN HM_SBX_EXEC_KNOWN
#define STATIC (HM_SBX_EXEC_KNOWN | HM_SBX_EXEC_STATIC)

/* Every edge says what its program is, as the preload needed to read. */
static void test_exec_edges(void **state)
{
	size_t size;
	void *blob;
	int64_t fresh, built;

	(void)state;
	exec_tree();
	put("/x/fresh", "#!/x/static\n", 0755);	/* changed just now */
	fresh = ctime_of("/x/fresh");
	blob = exec_table(&size);
	built = now_ns();
	expect_edge(blob, "/x/dyn", KNOWN, "/x/dyn", true);
	expect_edge(blob, "/x/static", STATIC, "/x/static", true);
	expect_edge(blob, "/x/script", KNOWN, "/x/script /x/dyn", true);
	expect_edge(blob, "/x/sscript", STATIC, "/x/sscript /x/static", true);
	expect_edge(blob, "/x/chain", STATIC,
	       "/x/chain /x/sscript /x/static", true);
	expect_edge(blob, "/x/deep3", STATIC,
	       "/x/deep3 /x/chain /x/sscript /x/static", true);
	expect_edge(blob, "/x/deep4", KNOWN,
	       "/x/deep4 /x/deep3 /x/chain /x/sscript", true);
	expect_edge(blob, "/x/text", KNOWN, "/x/text", true);
	/* changed just before the build (a deploy, then a restart): looked
	 * at again once a second old, and vouched for */
	expect_edge(blob, "/x/fresh", STATIC, "/x/fresh /x/static", true);
	assert_true(built - fresh >= 1000000000LL);
	/* not vouched for: the preload reads it at the exec */
	expect_edge(blob, "/x/missing", 0, "", false);
	free(blob);
}

/*
 * A program changed after the build is no longer current, whatever
 * file of its chain changed: the preload reads it again, and finds a
 * now-static program static (a stale "dynamic" would be a narrowing
 * failure nobody reports).
 */
static void test_exec_stale(void **state)
{
	struct hm_sbx_exec_info info;
	char a[256], b[256];
	size_t size;
	void *blob = exec_table(&size);

	(void)state;
	/* replaced by a static one (a new inode, as a package upgrade) */
	put_elf("/x/new", NULL);
	snprintf(a, sizeof(a), "%s/x/new", root);
	snprintf(b, sizeof(b), "%s/x/dyn", root);
	assert_int_equal(rename(a, b), 0);
	expect_edge(blob, "/x/dyn", KNOWN, "/x/dyn", false);
	expect_edge(blob, "/x/script", KNOWN, "/x/script /x/dyn", false);
	assert_int_equal(hm_sbx_inspect(root, "/x/dyn", &info), 0);
	assert_true(info.is_static);
	assert_int_equal(hm_sbx_inspect(root, "/x/script", &info), 0);
	assert_true(info.is_static);
	/* rewritten in place (same inode): its ctime moved */
	put("/x/static", "#!/x/ld.so\n", 0755);
	expect_edge(blob, "/x/static", STATIC, "/x/static", false);
	expect_edge(blob, "/x/chain", STATIC,
	       "/x/chain /x/sscript /x/static", false);
	/* a chmod is a change too */
	snprintf(a, sizeof(a), "%s/x/text", root);
	assert_int_equal(chmod(a, 0700), 0);
	expect_edge(blob, "/x/text", KNOWN, "/x/text", false);
	free(blob);
}

/* The table domain named @name, or fail. */
static const struct hm_sbx_tdom *tdom_named(const void *blob, const char *name)
{
	const struct hm_sbx_thdr *h = blob;

	for (uint32_t i = 0; i < h->n_domains; i++)
		if (!strcmp(hm_sbx_tstr(h, hm_sbx_tdom(h, i)->name), name))
			return hm_sbx_tdom(h, i);
	fail_msg("no table domain %s", name);
	return NULL;
}

/*
 * A domain that executes a set-id program, and every domain above it,
 * is marked (it keeps its parent's bound below a root sandbox); its
 * sibling, the set-id program's own domain, and a domain running a
 * set-group-ID file without group execute (not a set-id) are not.
 */
static void test_setid_marks(void **state)
{
	struct hm_model *m = policy("<kernel> /a\n"
				    "file execute /x/dyn\n"
				    "file execute /x/script\n"
				    "\n<kernel> /a /x/dyn\n"
				    "file execute /x/sgid\n"
				    "\n<kernel> /a /x/dyn /x/sgid\n"
				    "file read /x/text\n"
				    "\n<kernel> /a /x/script\n"
				    "file execute /x/lock\n"
				    "\n<kernel> /a /x/script /x/lock\n"
				    "file read /x/text\n", "");
	struct hm_sbx_opts o = { .abi = 3, .root = root };
	const struct hm_sbx_thdr *h;
	const struct hm_sbx_tedge *e;
	void *blob;
	size_t size;

	(void)state;
	exec_tree();
	assert_int_equal(hm_sbx_table(m, dom(m, "<kernel> /a"), &o, &blob,
				      &size, NULL), 0);
	assert_true(hm_sbx_table_check(blob, size));
	h = blob;
	assert_int_equal(h->n_domains, 5);
	assert_true(tdom_named(blob, "<kernel> /a")->flags & HM_SBX_DOM_SETID);
	assert_true(tdom_named(blob, "<kernel> /a /x/dyn")->flags &
		    HM_SBX_DOM_SETID);
	assert_false(tdom_named(blob, "<kernel> /a /x/dyn /x/sgid")->flags &
		     HM_SBX_DOM_SETID);
	assert_false(tdom_named(blob, "<kernel> /a /x/script")->flags &
		     HM_SBX_DOM_SETID);
	assert_false(tdom_named(blob, "<kernel> /a /x/script /x/lock")->flags &
		     HM_SBX_DOM_SETID);
	/* each edge (by name, by the execute entry) says what it runs */
	for (uint32_t i = 0; i < h->n_edges; i++) {
		const char *p;

		e = hm_sbx_tedge(h, i);
		p = hm_sbx_tstr(h, e->program);
		assert_int_equal(e->flags, !strcmp(p, "/x/sgid") ?
				 HM_SBX_EXEC_KNOWN | HM_SBX_EXEC_SETID :
				 HM_SBX_EXEC_KNOWN);
	}
	free(blob);
	hm_model_free(m);
}

/* The preload trusts an edge's files only inside the table. */
static void test_exec_check(void **state)
{
	size_t size;
	void *blob = exec_table(&size);
	struct hm_sbx_tedge *e = edge_for(blob, "/x/chain");
	const struct hm_sbx_thdr *h = blob;
	uint32_t n = e->n_files, p = e->files[1].path;

	(void)state;
	e->n_files = HM_SBX_CHAIN + 1;
	assert_false(hm_sbx_table_check(blob, size));
	e->n_files = n;
	e->files[1].path = h->str_len;
	assert_false(hm_sbx_table_check(blob, size));
	e->files[1].path = p;
	assert_true(hm_sbx_table_check(blob, size));
	free(blob);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_subtree_table),
		cmocka_unit_test(test_self_edges),
		cmocka_unit_test(test_port_cap),
		cmocka_unit_test(test_lexical),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_uncreatable),
		cmocka_unit_test(test_no_truncate),
		cmocka_unit_test(test_covered),
		cmocka_unit_test(test_enter_domain),
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_landlock_records),
		cmocka_unit_test(test_exec_edges),
		cmocka_unit_test(test_exec_check),
		cmocka_unit_test(test_setid_marks),
		cmocka_unit_test(test_exec_stale),	/* changes /x: last */
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
