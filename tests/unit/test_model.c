// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_model.c - interning, domains, ACL merge/remove/fold, the indexed
 * lookup (checked against a plain scan of the same entries) and the kind
 * table every entry operation is derived from.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "histmac/learn.h"
#include "histmac/model.h"
#include "histmac/word.h"

static const struct hm_name *N(struct hm_model *m, const char *s)
{
	const struct hm_name *n;

	assert_int_equal(hm_model_intern(m, s, strlen(s), &n), 0);
	return n;
}

static struct hm_domain *D(struct hm_model *m, const char *s)
{
	struct hm_domain *d;

	assert_true(hm_model_domain(m, s, strlen(s), true, &d) >= 0);
	return d;
}

static int add_path(struct hm_model *m, struct hm_domain *d, unsigned op,
		    const char *path)
{
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << op } };

	e.name.name = N(m, path);
	return hm_domain_add(m, d, &e.head, NULL);
}

static bool allows_path(struct hm_model *m, struct hm_domain *d, unsigned op,
			const char *path)
{
	struct hm_name n = { .str = path, .len = (uint32_t)strlen(path) };
	struct hm_request r = { .kind = HM_ACL_PATH, .op = op, .name1 = &n };

	hm_name_fill(&n);
	return hm_domain_allows(m, d, &r, NULL);
}

static void test_intern(void **state)
{
	struct hm_model *m = hm_model_new();
	const struct hm_name *a = N(m, "/etc/passwd");
	const struct hm_name *b = N(m, "/etc/passwd");
	const struct hm_name *p = N(m, "/usr/lib/lib\\*.so\\*");
	const struct hm_name *e = N(m, "/srv/a\\040b/");
	const struct hm_name *out;

	(void)state;
	assert_ptr_equal(a, b);
	assert_false(a->is_patterned);
	assert_int_equal(a->const_len, a->len);
	assert_true(p->is_patterned);
	assert_int_equal(p->const_len, strlen("/usr/lib/lib"));
	assert_false(e->is_patterned);	/* \040 is a byte, not a wildcard */
	assert_true(e->is_dir);
	assert_int_equal(hm_model_intern(m, "a\0b", 3, &out), -EINVAL);
	/* Many names force the table to grow; all stay findable. */
	for (int i = 0; i < 5000; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "/x/%d", i);
		N(m, buf);
	}
	assert_ptr_equal(hm_name_lookup(m->names, "/x/4999", 7), N(m, "/x/4999"));
	assert_ptr_equal(a, N(m, "/etc/passwd"));
	assert_true(m->mem.bytes[HM_MEM_NAMES] > 5000 * 8);
	hm_model_free(m);
}

static void test_domains(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *k = D(m, "<kernel>");
	struct hm_domain *child;
	struct hm_domain *found;

	(void)state;
	/* A child created before its parent is linked by relink. */
	child = D(m, "<kernel> /sbin/init /usr/sbin/sshd");
	assert_null(child->parent);
	found = D(m, "<kernel> /sbin/init");
	assert_ptr_equal(found->parent, k);
	hm_model_relink(m);
	assert_ptr_equal(child->parent, found);
	assert_int_equal(hm_model_domain(m, "<kernel>", 8, true, &found), 0);
	assert_ptr_equal(found, k);
	assert_int_equal(m->n_domains, 3);
	assert_int_equal(k->profile, HM_PROFILE_LEARNING);
	hm_model_free(m);
}

static void test_merge_and_remove(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel> /bin/x");
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_WRITE } };

	(void)state;
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/etc/a"), 1);
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/etc/a"), 0);
	assert_int_equal(add_path(m, d, HM_FILE_WRITE, "/etc/a"), 1);
	assert_int_equal(d->n_acl, 1);
	assert_int_equal(d->acl->perm,
			 (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE));
	assert_true(allows_path(m, d, HM_FILE_WRITE, "/etc/a"));
	e.name.name = N(m, "/etc/a");
	assert_int_equal(hm_domain_remove(m, d, &e.head), 1);
	assert_false(allows_path(m, d, HM_FILE_WRITE, "/etc/a"));
	assert_true(allows_path(m, d, HM_FILE_READ, "/etc/a"));
	e.head.perm = 1u << HM_FILE_READ;
	assert_int_equal(hm_domain_remove(m, d, &e.head), 1);
	assert_int_equal(d->n_acl, 0);
	assert_null(d->acl);
	assert_false(allows_path(m, d, HM_FILE_READ, "/etc/a"));
	assert_int_equal(hm_domain_remove(m, d, &e.head), 0);
	/* fanotify cannot tell read from write: any of a mask will do */
	assert_int_equal(add_path(m, d, HM_FILE_APPEND, "/etc/a"), 1);
	{
		struct hm_name n = { .str = "/etc/a", .len = 6 };
		struct hm_request r = { .kind = HM_ACL_PATH, .name1 = &n,
					.op = HM_FILE_READ,
					.op_mask = (1u << HM_FILE_READ) |
						   (1u << HM_FILE_APPEND) };

		hm_name_fill(&n);
		assert_true(hm_domain_allows(m, d, &r, NULL));
		r.op_mask = (1u << HM_FILE_READ) | (1u << HM_FILE_WRITE);
		assert_false(hm_domain_allows(m, d, &r, NULL));
	}
	e.head.perm = 1u << HM_FILE_APPEND;
	assert_int_equal(hm_domain_remove(m, d, &e.head), 1);
	/* Adding after removing everything keeps the list consistent. */
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/etc/b"), 1);
	assert_ptr_equal(d->acl_tail, &d->acl->next);
	hm_model_free(m);
}

static void test_conditions_distinct(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel>");
	struct hm_cond_item it = { 0 };
	const struct hm_cond *cond;
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_EXECUTE } };
	struct hm_name n = { .str = "/bin/sh", .len = 7 };
	struct hm_request r = { .kind = HM_ACL_PATH, .op = HM_FILE_EXECUTE,
				.name1 = &n };
	struct hm_cond_ctx ctx = { .has_task = true };

	(void)state;
	hm_name_fill(&n);
	it.var = HM_COND_TASK_UID;
	it.num.min = it.num.max = 0;
	it.text = N(m, "task.uid=0");
	assert_int_equal(hm_model_cond_items(m, it.text, &it, 1, &cond), 0);
	e.name.name = N(m, "/bin/sh");
	e.head.cond = cond;
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	e.head.cond = NULL;
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	assert_int_equal(d->n_acl, 2);
	assert_int_equal(hm_domain_remove(m, d, &e.head), 1);
	r.ctx = &ctx;
	ctx.uid = 0;
	assert_true(hm_domain_allows(m, d, &r, NULL));
	ctx.uid = 1000;
	assert_false(hm_domain_allows(m, d, &r, NULL));
	hm_model_free(m);
}

/* Pattern, group and acl_group lookups; each checked against a scan. */
static void test_lookup_kinds(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel> /usr/sbin/httpd");
	struct hm_domain *g0;
	struct hm_group *pg;
	struct hm_group_member mb = { 0 };
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_READ } };
	static const struct {
		const char *path;
		bool want;
	} cases[] = {
		{ "/usr/lib/libc.so.6", true },	  /* pattern in /usr/lib/ */
		{ "/usr/lib/x/libc.so.6", false }, /* \* never crosses / */
		{ "/var/www/index.html", true },  /* path_group member */
		{ "/var/www/a/b.html", false },
		{ "/etc/ld.so.cache", true },	  /* acl_group 0 */
		{ "/etc/shadow", false },
		{ "proc:/self/stat", true },	  /* empty dir prefix: \*:/ */
		{ "/srv/data", false },
	};

	(void)state;
	e.name.name = N(m, "/usr/lib/lib\\*.so\\*");
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	assert_int_equal(hm_model_group(m, HM_GROUP_PATH, "WEB", 3, &pg), 0);
	mb.name = N(m, "/var/www/\\*.html");
	assert_int_equal(hm_group_add(m, pg, &mb), 1);
	assert_int_equal(hm_group_add(m, pg, &mb), 0);
	e.name.name = NULL;
	e.name.group = pg;
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	e.name.group = NULL;
	e.name.name = N(m, "\\*:/self/stat");
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	assert_int_equal(hm_model_acl_group(m, 0, &g0), 0);
	assert_int_equal(add_path(m, g0, HM_FILE_READ, "/etc/ld.so.cache"), 1);
	d->groups[0] |= 1;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_name n = { .str = cases[i].path,
				     .len = (uint32_t)strlen(cases[i].path) };
		struct hm_request r = { .kind = HM_ACL_PATH, .op = HM_FILE_READ,
					.name1 = &n };
		bool scan = false;

		hm_name_fill(&n);
		for (const struct hm_acl_head *x = d->acl; x; x = x->next)
			scan |= hm_acl_matches(m, x, &r);
		for (const struct hm_acl_head *x = g0->acl; x; x = x->next)
			scan |= hm_acl_matches(m, x, &r);
		assert_int_equal(hm_domain_allows(m, d, &r, NULL), cases[i].want);
		assert_int_equal(scan, cases[i].want);
		r.op = HM_FILE_WRITE;	/* wrong permission never matches */
		assert_false(hm_domain_allows(m, d, &r, NULL));
	}
	hm_model_free(m);
}

static void test_network_and_numbers(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel>");
	struct hm_acl_inet e = { .head = { .kind = HM_ACL_INET,
					   .perm = 1u << HM_NET_BIND } };
	struct hm_request r = { .kind = HM_ACL_INET, .op = HM_NET_BIND,
				.proto = HM_PROTO_STREAM, .port = 80 };

	(void)state;
	e.proto = HM_PROTO_STREAM;
	e.addr.min[0] = 127;
	e.addr.max[0] = 127;
	e.addr.max[3] = 255;	/* 127.0.0.0-127.0.0.255 */
	e.port.min = 80;
	e.port.max = 80;
	assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
	r.addr[0] = 127;
	r.addr[3] = 1;
	assert_true(hm_domain_allows(m, d, &r, NULL));
	r.port = 81;
	assert_false(hm_domain_allows(m, d, &r, NULL));
	r.port = 80;
	r.proto = HM_PROTO_DGRAM;
	assert_false(hm_domain_allows(m, d, &r, NULL));
	r.proto = HM_PROTO_STREAM;
	r.addr[0] = 10;
	assert_false(hm_domain_allows(m, d, &r, NULL));
	r.addr[0] = 127;
	r.is_ipv6 = true;	/* v6 never matches a v4 range */
	assert_false(hm_domain_allows(m, d, &r, NULL));
	hm_model_free(m);
}

static void test_fold(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel>");
	struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
					   .perm = 1u << HM_FILE_READ } };
	struct hm_acl_head *pat;

	(void)state;
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/tmp/tmp.Ab12Cd"), 1);
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/tmp/tmp.Xy98Zw"), 1);
	assert_int_equal(add_path(m, d, HM_FILE_WRITE, "/tmp/tmp.Xy98Zw"), 1);
	assert_int_equal(add_path(m, d, HM_FILE_READ, "/tmp/other"), 1);
	e.name.name = N(m, "/tmp/tmp.\\*");
	assert_int_equal(hm_domain_add(m, d, &e.head, &pat), 1);
	assert_int_equal(hm_domain_fold(m, d, pat), 2);
	/* The write on one literal stays; reads folded; /tmp/other kept. */
	assert_int_equal(d->n_acl, 3);
	assert_true(allows_path(m, d, HM_FILE_READ, "/tmp/tmp.Ab12Cd"));
	assert_true(allows_path(m, d, HM_FILE_WRITE, "/tmp/tmp.Xy98Zw"));
	assert_false(allows_path(m, d, HM_FILE_WRITE, "/tmp/tmp.Ab12Cd"));
	assert_true(allows_path(m, d, HM_FILE_READ, "/tmp/other"));
	hm_model_free(m);
}

static void test_sorted(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel>");
	const char *paths[] = { "/c", "/a", "/b" };
	const struct hm_acl_head **v;
	struct hm_domain **dv;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		add_path(m, d, HM_FILE_READ, paths[i]);
	v = hm_domain_sorted_acl(d);
	assert_string_equal(((const struct hm_acl_path *)(const void *)v[0])
				    ->name.name->str, "/a");
	assert_string_equal(((const struct hm_acl_path *)(const void *)v[2])
				    ->name.name->str, "/c");
	free(v);
	D(m, "<kernel> /z");
	D(m, "<kernel> /a");
	dv = hm_model_sorted_domains(m);
	assert_string_equal(dv[0]->name->str, "<kernel>");
	assert_string_equal(dv[1]->name->str, "<kernel> /a");
	free(dv);
	hm_model_free(m);
}

/* Many entries: indexed answer == scan answer for a mix of hits/misses. */
static void test_index_vs_scan(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = D(m, "<kernel>");
	char buf[64];

	(void)state;
	for (int i = 0; i < 2000; i++) {
		snprintf(buf, sizeof(buf), "/data/d%d/f%d", i % 50, i);
		add_path(m, d, i % 2 ? HM_FILE_READ : HM_FILE_WRITE, buf);
	}
	for (int i = 0; i < 50; i++) {
		snprintf(buf, sizeof(buf), "/data/d%d/\\*.log", i);
		add_path(m, d, HM_FILE_APPEND, buf);
	}
	for (int i = 0; i < 4000; i++) {
		struct hm_name n;
		struct hm_request r = { .kind = HM_ACL_PATH, .name1 = &n };
		bool scan = false;

		if (i % 3 == 0)
			snprintf(buf, sizeof(buf), "/data/d%d/f%d", i % 60, i);
		else if (i % 3 == 1)
			snprintf(buf, sizeof(buf), "/data/d%d/x%d.log", i % 60, i);
		else
			snprintf(buf, sizeof(buf), "/data/d%d/f%d", (i / 2) % 50, i / 2);
		n.str = buf;
		n.len = (uint32_t)strlen(buf);
		hm_name_fill(&n);
		r.op = (unsigned[]){ HM_FILE_READ, HM_FILE_WRITE,
				     HM_FILE_APPEND }[i % 3 == 1 ? 2 : i % 2];
		for (const struct hm_acl_head *x = d->acl; x; x = x->next)
			scan |= hm_acl_matches(m, x, &r);
		assert_int_equal(hm_domain_allows(m, d, &r, NULL), scan);
	}
	hm_model_free(m);
}

/* Size of the entry field of an operand of @type. */
static size_t operand_size(unsigned type)
{
	static const size_t size[] = {
		[HM_OT_NAME] = sizeof(struct hm_name_op),
		[HM_OT_NUMBER] = sizeof(struct hm_number),
		[HM_OT_ADDR] = sizeof(struct hm_addr),
		[HM_OT_WORD] = sizeof(const struct hm_name *),
		[HM_OT_DOMAIN] = sizeof(const struct hm_name *),
		[HM_OT_PROTO] = sizeof(uint8_t),
	};

	assert_true(type < HM_ARRAY_SIZE(size));
	return size[type];
}

/* The kind table is consistent: what acl.c and the formats rely on. */
static void test_kind_table(void **state)
{
	(void)state;
	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		const struct hm_kind *kd = &hm_kinds[k];
		int n = 0;
		int protos = 0;

		assert_non_null(kd->id);
		assert_non_null(kd->title);
		assert_non_null(kd->family);
		assert_true(kd->dialects);
		for (unsigned j = 0; j < k; j++)
			assert_string_not_equal(kd->id, hm_kinds[j].id);
		hm_for_each_operand(o, k) {
			assert_non_null(o->what);
			assert_true(o->offset >= sizeof(struct hm_acl_head));
			assert_true(o->offset + operand_size(o->type) <=
				    hm_acl_size(k));
			assert_true(o->req < sizeof(struct hm_request));
			assert_true(o->in21 == HM_IN21_YES ||
				    (o->type == HM_OT_NUMBER && o->widest));
			for (const struct hm_operand *p = kd->opnd; p < o; p++) {
				assert_string_not_equal(p->id, o->id);
				assert_true(p->offset + operand_size(p->type) <=
					    o->offset);	/* policy order */
			}
			protos += o->type == HM_OT_PROTO;
			n++;
		}
		assert_true(n >= 1 && n <= HM_MAX_OPERANDS);
		assert_true(protos <= 1);
		if (kd->key != HM_NO_KEY) {
			assert_true(kd->key >= 0 && kd->key < n);
			assert_true(kd->opnd[kd->key].type == HM_OT_NAME ||
				    kd->opnd[kd->key].type == HM_OT_WORD);
		}
	}
}

/* Give request field of operand @o a value; @alt: a different one. */
static void set_request(struct hm_model *m, struct hm_request *r,
			const struct hm_operand *o, bool alt)
{
	char *f = (char *)r + o->req;

	switch (o->type) {
	case HM_OT_NAME:
	case HM_OT_WORD:
		*(const struct hm_name **)(void *)f = N(m, alt ? "/b" : "/a/");
		break;
	case HM_OT_DOMAIN:
		*(const struct hm_name **)(void *)f =
			N(m, alt ? "<kernel> /b" : "<kernel> /a");
		break;
	case HM_OT_NUMBER:
		*(uint64_t *)(void *)f = alt ? 7 : 6;
		break;
	case HM_OT_ADDR:
		r->addr[0] = alt ? 10 : 127;
		break;
	default:
		r->proto = alt ? HM_PROTO_DGRAM : HM_PROTO_STREAM;
		break;
	}
}

/*
 * Every kind, through the table alone: learn an entry from a request,
 * find it through the index, and miss as soon as any one operand of the
 * request differs.
 */
static void test_every_kind_matches(void **state)
{
	struct hm_generalizer *g;
	struct hm_model *m = hm_model_new();

	(void)state;
	assert_int_equal(hm_generalizer_new(m, NULL, NULL, &g), 0);
	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		struct hm_domain *d;
		struct hm_request r = { .kind = k };
		union hm_acl_any e;
		union hm_acl_any again;
		char name[32];

		snprintf(name, sizeof(name), "<kernel> /k%u", k);
		d = D(m, name);
		r.op = hm_kinds[k].ops == HM_OPS_FILE ?
			       (unsigned)HM_FILE_OP_MAX : HM_NET_BIND;
		for (unsigned op = 0; op < HM_FILE_OP_MAX; op++)
			if (hm_file_op_kind[op] == k && r.op == HM_FILE_OP_MAX)
				r.op = op;
		hm_for_each_operand(o, k)
			set_request(m, &r, o, false);
		assert_int_equal(hm_generalize_request(g, m, &r, NULL, &e), 0);
		assert_int_equal(hm_domain_add(m, d, &e.head, NULL), 1);
		assert_int_equal(hm_generalize_request(g, m, &r, NULL, &again),
				 0);
		assert_true(hm_acl_same_operands(&e.head, &again.head));
		assert_int_equal(hm_acl_cmp(&e.head, &again.head), 0);
		assert_int_equal(hm_domain_add(m, d, &again.head, NULL), 0);
		assert_true(hm_domain_allows(m, d, &r, NULL));
		hm_for_each_operand(o, k) {
			struct hm_request q = r;

			set_request(m, &q, o, true);
			assert_false(hm_domain_allows(m, d, &q, NULL));
			assert_int_equal(hm_generalize_request(g, m, &q, NULL,
							       &again), 0);
			assert_false(hm_acl_same_operands(&e.head,
							  &again.head));
			assert_int_not_equal(hm_acl_cmp(&e.head, &again.head),
					     0);
		}
	}
	hm_generalizer_free(g);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intern),
		cmocka_unit_test(test_domains),
		cmocka_unit_test(test_merge_and_remove),
		cmocka_unit_test(test_conditions_distinct),
		cmocka_unit_test(test_lookup_kinds),
		cmocka_unit_test(test_network_and_numbers),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_sorted),
		cmocka_unit_test(test_index_vs_scan),
		cmocka_unit_test(test_kind_table),
		cmocka_unit_test(test_every_kind_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
