// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_export_xml.c - the xml exporter and importer: export -> import ->
 * export gives the same bytes (every kind, operand form, condition,
 * group, exception entry, flag, counter, and strings only the -hex form
 * can hold); every operation of every kind passes the schema; and bad
 * documents fail with the right message and line, importing nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "export_fixture.h"
#include "../../formats/formats_private.h"
#include "histmac/xml_import.h"

static const char rich_exception[] =
	"path_group LIBS /lib/\\*.so\\*\n"
	"path_group LIBS /usr/lib/\\*.so\\*\n"
	"number_group MODES 0600\n"
	"number_group MODES 0640-0644\n"
	"address_group LOCAL 127.0.0.1\n"
	"address_group LOCAL ::1\n"
	"initialize_domain /usr/sbin/sshd from any\n"
	"no_initialize_domain /usr/sbin/sshd from <kernel> /sbin/init\n"
	"keep_domain any from <kernel> /usr/sbin/sshd /bin/bash\n"
	"reset_domain /bin/su from any\n"
	"aggregator /etc/rc\\?.d/\\?\\+\\+apache2 /etc/init.d/apache2\n"
	"acl_group 0 file read /etc/ld.so.cache\n"
	"acl_group 0 file getattr @LIBS\n"
	"acl_group 7 misc env HOME\n"
	"deny_autobind 0-1023\n";

static const char rich_domain[] =
	"<kernel>\n"
	"use_profile 1\n"
	"use_group 0\n"
	"\n"
	"file execute /sbin/init\n"
	"\n"
	"<kernel> /sbin/init\n"
	"use_profile 2\n"
	"use_group 0\n"
	"use_group 7\n"
	"transition_failed\n"
	"quota_exceeded\n"
	"# histmac: events=12 first_seen=1700000000 last_seen=1700000500\n"
	"\n"
	"file read/write /etc/passwd\n"
	"file append /var/log/x.log task.uid=0 task.gid!=1-3\n"
	"file create /tmp/\\*.tmp 0644\n"
	"file mkdir /tmp/d/ 0755\n"
	"file ioctl /dev/tty 0x5401\n"
	"file chown /srv/x 1000\n"
	"file chmod /srv/x @MODES\n"
	"file mkchar /dev/null 0666 1 3\n"
	"file mkblock /dev/sda 0660 8 0-15\n"
	"file link /a /b\n"
	"file rename /c @LIBS\n"
	"file pivot_root /new/ /new/old/\n"
	"file mount /dev/sda1 /mnt/ ext4 0x0\n"
	"file unmount /mnt/\n"
	"file chroot /srv/jail/\n"
	"file symlink /tmp/l symlink.target=\"/etc/x\"\n"
	"file execute /bin/ls exec.realpath=\"/bin/ls\" exec.argv[0]=\"ls\"\n"
	"file read /q\\040\"<&>\n"
	"network inet stream bind/listen 127.0.0.1 80\n"
	"network inet stream connect @LOCAL 1024-65535\n"
	"network inet dgram send ::1 53\n"
	"network inet raw send 10.0.0.0-10.255.255.255 1\n"
	"network inet stream accept 0.0.0.0 22\n"
	"network unix stream connect /run/dbus/system_bus_socket\n"
	"network unix dgram send \\000abstract\n"
	"misc env PATH\n"
	"ipc signal 9 <kernel> /sbin/init\n"
	"\n"
	"<kernel> /sbin/init /usr/sbin/sshd\n"
	"use_profile 3\n"
	"# histmac: history_unobserved\n"
	"\n"
	"<kernel> /usr/bin/x\\040y\n"
	"use_profile 0\n"
	"# histmac: parent_unobserved\n";

static char *export_xml(const struct hm_model *m, size_t *len)
{
	char *x = fx_export(&hm_exporter_xml, m, NULL, len, NULL);

	assert_non_null(x);
	return x;
}

/* Import @x; fail the test, printing why, when it does not import. */
static struct hm_model *import_ok(const char *x, size_t len)
{
	struct hm_diag d = { 0 };
	struct hm_model *m = NULL;
	int r = hm_xml_import_mem(x, len, "t.xml", NULL, &d, &m);

	if (r) {
		fx_print_diag(&d);
		fprintf(stderr, "%s\n", x);
	}
	assert_int_equal(r, 0);
	assert_non_null(m);
	hm_diag_free(&d);
	return m;
}

/* Export, import, export again: the same bytes. */
static void assert_round_trip(const struct hm_model *m)
{
	size_t l1;
	size_t l2;
	char *x1 = export_xml(m, &l1);
	struct hm_model *m2 = import_ok(x1, l1);
	char *x2 = export_xml(m2, &l2);

	assert_string_equal(x1, x2);
	assert_int_equal(m2->n_domains, m->n_domains);
	free(x1);
	free(x2);
	hm_model_free(m2);
}

static void test_round_trip_rich(void **state)
{
	struct hm_model *m = fx_parse_dialect(rich_exception, rich_domain,
					      HM_DIALECT_18);
	char *x;

	(void)state;
	assert_int_equal(m->n_domains, 4);
	x = export_xml(m, NULL);
	/* a few typed fields, as written */
	assert_non_null(strstr(x, "dialect=\"tomoyo-1.8\""));
	assert_non_null(strstr(x, "flags=\"transition-failed "
				  "quota-exceeded\" use-groups=\"0 7\" "
				  "events=\"12\" first-seen=\"1700000000\""));
	assert_non_null(strstr(x, "<number min=\"21505\" max=\"21505\" "
				  "radix=\"hex\"/>"));
	assert_non_null(strstr(x, "<address min=\"10.0.0.0\" "
				  "max=\"10.255.255.255\"/>"));
	assert_non_null(strstr(x, "perm=\"accept\" protocol=\"stream\""));
	assert_non_null(strstr(x, "word=\"/q\\040&quot;&lt;&amp;&gt;\""));
	assert_non_null(strstr(x, "<acl-group number=\"7\">"));
	assert_non_null(strstr(x, "<deny-autobind min=\"0\" max=\"1023\"/>"));
	free(x);
	assert_round_trip(m);
	hm_model_free(m);
}

/* What the evaluator reads of a condition item is not in the XML: the
 * import derives it from the item's text, the same as the parser. */
static void test_round_trip_cond_eval(void **state)
{
	static const char dom[] =
		"<kernel>\n"
		"use_profile 3\n"
		"file read /a path1.uid=task.uid grant_log=yes\n"
		"file execute /b keep exec.envp[\"LD_PRELOAD\"]=NULL\n"
		"file read /c path1.perm=setuid path1.type!=directory\n"
		"file read /d path2.uid=0 task.uid=0-99\n";
	struct hm_model *m = fx_parse("", dom);
	size_t len;
	char *x = export_xml(m, &len);
	struct hm_model *m2 = import_ok(x, len);
	const struct hm_acl_head *a = m->domains[0]->acl;
	const struct hm_acl_head *b = m2->domains[0]->acl;
	size_t n = 0;

	(void)state;
	for (; a && b; a = a->next, b = b->next, n++) {
		assert_int_equal(a->cond->n_items, b->cond->n_items);
		for (uint32_t i = 0; i < a->cond->n_items; i++) {
			const struct hm_cond_item *p = &a->cond->items[i];
			const struct hm_cond_item *q = &b->cond->items[i];

			assert_int_equal(p->test, q->test);
			assert_int_equal(p->lval, q->lval);
			assert_int_equal(p->rval, q->rval);
			assert_int_equal(p->rbits, q->rbits);
			assert_int_equal(p->rtype, q->rtype);
			assert_int_equal(!p->key, !q->key);
			if (p->key)
				assert_string_equal(p->key->str, q->key->str);
		}
	}
	assert_int_equal(n, 4);
	assert_null(a);
	assert_null(b);
	free(x);
	hm_model_free(m2);
	hm_model_free(m);
}

/* Strings XML cannot hold go out as -hex and come back the same. */
static void test_round_trip_hex(void **state)
{
	struct hm_model *m = fx_model(fx_posting);
	char *x;

	(void)state;
	m->path_note = strdup("resolved\x01 on host \xff\xfe");
	assert_non_null(m->path_note);
	assert_int_equal(hm_model_add_rewrite(m, "^/tmp/[0-9]+\t\x80$",
					      "/tmp/\\$", 3), 1);
	assert_int_equal(hm_model_add_rewrite(m, "ok\"<&>", "fine", 4), 1);
	x = export_xml(m, NULL);
	assert_non_null(strstr(x, "path-note-hex=\"7265736f6c76656401"));
	assert_non_null(strstr(x, "regex-hex=\""));
	assert_non_null(strstr(x, "regex=\"ok&quot;&lt;&amp;&gt;\""));
	free(x);
	assert_round_trip(m);
	hm_model_free(m);
}

static void test_round_trip_empty(void **state)
{
	struct hm_model *m = hm_model_new();

	(void)state;
	assert_round_trip(m);
	hm_model_free(m);
}

/* Every operation of every kind, every flag, radix, condition variable
 * and transition type passes the schema and the reader. */
static void test_schema_covers_tables(void **state)
{
	struct hm_model *m = hm_model_new();
	struct hm_domain *d = fx_domain(m, "<kernel>", 255, 0xff);
	const struct hm_name *w;
	const struct hm_name *dn;

	(void)state;
	assert_int_equal(hm_model_intern(m, "/x", 2, &w), 0);
	assert_int_equal(hm_model_intern(m, "<kernel>", 8, &dn), 0);
	for (unsigned k = 0; k < HM_ACL_KIND_MAX; k++) {
		for (unsigned op = 0; op < 32; op++) {
			union hm_acl_any e;

			memset(&e, 0, sizeof(e));
			e.head.kind = (uint8_t)k;
			e.head.perm = 1u << op;
			if (!hm_acl_op_name(k, op) && op)
				continue;
			if (!hm_acl_op_name(k, op))
				e.head.perm = 1;	/* signal, env */
			hm_for_each_operand(o, k) {
				void *p = hm_operand_ptr(&e, o);

				if (o->type == HM_OT_NAME)
					((struct hm_name_op *)p)->name = w;
				else if (o->type == HM_OT_WORD)
					*(const struct hm_name **)p = w;
				else if (o->type == HM_OT_DOMAIN)
					*(const struct hm_name **)p = dn;
				else if (o->type == HM_OT_NUMBER)
					((struct hm_number *)p)->radix_min =
						(uint8_t)(op % 3);
				else if (o->type == HM_OT_PROTO)
					*(uint8_t *)p = (uint8_t)(op %
								  HM_PROTO_MAX);
			}
			assert_true(hm_domain_add(m, d, &e.head, NULL) >= 0);
		}
	}
	for (unsigned t = 0; t < HM_TR_MAX; t++) {
		struct hm_transition_rule r = { .type = (uint8_t)t,
						.program = w };

		assert_int_equal(hm_model_add_transition(m, &r), 1);
	}
	for (unsigned v = 0; v < HM_COND_VAR_MAX; v++) {
		struct hm_cond_item it = { 0 };
		const struct hm_cond *ic;
		struct hm_acl_path e = { .head = { .kind = HM_ACL_PATH,
						   .perm = 2 } };
		char text[64];

		snprintf(text, sizeof(text), "%s=%u", hm_cond_var_names[v], v);
		assert_int_equal(hm_model_intern(m, text, strlen(text),
						 &it.text), 0);
		it.var = (uint8_t)v;
		it.negate = v & 1;
		it.index = v;
		it.num.min = it.num.max = v;
		it.num.radix_max = HM_RADIX_HEX;
		assert_int_equal(hm_model_cond_items(m, it.text, &it, 1, &ic), 0);
		e.name.name = w;
		e.head.cond = ic;
		assert_true(hm_domain_add(m, d, &e.head, NULL) >= 0);
	}
	d->events = UINT64_MAX;
	d->first_seen = INT64_MIN;
	d->last_seen = INT64_MAX;
	m->default_profile = 255;
	m->max_learning_entry = UINT32_MAX;
	assert_round_trip(m);
	hm_model_free(m);
}

/* ------------------------------------------------------------ bad input */

#define HEAD "<?xml version=\"1.0\"?>\n<histmac-policy version=\"1\" " \
	     "dialect=\"tomoyo\" default-profile=\"1\" "                   \
	     "max-learning-entry=\"2048\">\n"
#define TAIL "</histmac-policy>\n"
#define DOM(name) "<domain name=\"" name "\" profile=\"1\">\n"

struct bad_case {
	const char *what;
	const char *doc;
	const char *msg;	/* substring of the first error */
	unsigned long line;	/* of the first error */
};

static const struct bad_case bad_cases[] = {
	{ "not xml", "hello", "xml:", 1 },
	{ "empty", "", "", 0 },
	{ "unclosed", HEAD "<domain name=\"&lt;kernel&gt;\" profile=\"1\">\n",
	  "xml:", 0 },
	{ "wrong root", "<?xml version=\"1.0\"?>\n<policy/>\n", "schema:", 2 },
	{ "unknown element", HEAD "<frob/>\n" TAIL, "schema:", 3 },
	{ "bad operation", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path\" perm=\"read fly\"><path word=\"/x\"/></acl>\n"
	  "</domain>\n" TAIL, "fly", 4 },
	{ "operation of another kind", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path\" perm=\"bind\"><path word=\"/x\"/></acl>\n"
	  "</domain>\n" TAIL, "schema:", 4 },
	{ "bad profile", HEAD "<domain name=\"&lt;kernel&gt;\" profile=\"x\"/>\n"
	  TAIL, "schema:", 3 },
	{ "missing operand", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path2\" perm=\"link\"><path1 word=\"/x\"/></acl>\n"
	  "</domain>\n" TAIL, "schema:", 4 },
	{ "doctype", "<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a "
	  "\"aaaa\">]>\n<histmac-policy/>\n", "DOCTYPE", 0 },
	{ "duplicate domain", HEAD DOM("&lt;kernel&gt;") "</domain>\n"
	  DOM("&lt;kernel&gt;") "</domain>\n" TAIL, "appears twice", 5 },
	{ "wrong parent", HEAD "<domain name=\"&lt;kernel&gt;\" profile=\"1\"/>\n"
	  "<domain name=\"&lt;kernel&gt; /a\" parent=\"&lt;kernel&gt; /b\" "
	  "profile=\"1\"/>\n" TAIL, "parent", 4 },
	{ "parent not in policy", HEAD
	  "<domain name=\"&lt;kernel&gt; /a\" parent=\"&lt;kernel&gt;\" "
	  "profile=\"1\"/>\n" TAIL, "not in the policy", 3 },
	{ "bad word", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path\" perm=\"read\"><path word=\"/a b\"/></acl>\n"
	  "</domain>\n" TAIL, "not a valid word", 4 },
	{ "bad domain name", HEAD DOM("kernel /x") "</domain>\n" TAIL,
	  "not a valid domain name", 3 },
	{ "reversed range", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path-number\" perm=\"create\"><path word=\"/x\"/>"
	  "<number min=\"5\" max=\"1\"/></acl>\n</domain>\n" TAIL,
	  "reversed", 4 },
	{ "mixed address family", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"inet\" perm=\"bind\" protocol=\"stream\">"
	  "<address min=\"::1\" max=\"10.0.0.1\"/><port min=\"1\" max=\"1\"/>"
	  "</acl>\n</domain>\n" TAIL, "IPv4 and IPv6", 4 },
	{ "bad address", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"inet\" perm=\"bind\" protocol=\"stream\">"
	  "<address min=\"1.2.3\" max=\"1.2.3\"/><port min=\"1\" max=\"1\"/>"
	  "</acl>\n</domain>\n" TAIL, "bad address", 4 },
	{ "group of two types", HEAD "<exception>\n"
	  "<path-group name=\"G\"><member word=\"/x\"/></path-group>\n"
	  "<number-group name=\"G\"><member min=\"1\" max=\"1\"/>"
	  "</number-group>\n</exception>\n" TAIL, "another type", 5 },
	{ "bad hex", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path\" perm=\"read\"><path word-hex=\"zz\"/></acl>\n"
	  "</domain>\n" TAIL, "schema:", 4 },
	{ "NUL in a name", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path\" perm=\"read\"><path word-hex=\"2f00\"/></acl>\n"
	  "</domain>\n" TAIL, "NUL", 4 },
	{ "text content", HEAD "hello\n" TAIL, "", 0 },
	{ "number too big", HEAD DOM("&lt;kernel&gt;")
	  "<acl kind=\"path-number\" perm=\"create\"><path word=\"/x\"/>"
	  "<number min=\"18446744073709551616\" max=\"1\"/></acl>\n"
	  "</domain>\n" TAIL, "schema:", 4 },
};

static void test_bad_documents(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(bad_cases); i++) {
		const struct bad_case *c = &bad_cases[i];
		struct hm_diag d = { 0 };
		struct hm_model *m = NULL;
		int r = hm_xml_import_mem(c->doc, strlen(c->doc), "bad.xml",
					  NULL, &d, &m);

		fprintf(stderr, "case: %s\n", c->what);
		fx_print_diag(&d);
		assert_int_equal(r, -EINVAL);
		assert_null(m);			/* nothing half imported */
		assert_true(d.n_errors > 0);
		assert_non_null(strstr(d.msgs[0].text, c->msg));
		if (c->line)
			assert_int_equal(d.msgs[0].line, c->line);
		assert_string_equal(d.msgs[0].file, "bad.xml");
		hm_diag_free(&d);
	}
}

static void test_schema_path(void **state)
{
	struct hm_diag d = { 0 };
	struct hm_model *m = NULL;
	static const char doc[] = HEAD TAIL;

	(void)state;
	assert_int_equal(access(hm_xml_schema_path(), R_OK), 0);
	assert_int_equal(hm_xml_import_mem(doc, strlen(doc), "t", NULL, &d,
					   &m), 0);
	hm_model_free(m);
	m = NULL;
	assert_int_equal(hm_xml_import_mem(doc, strlen(doc), "t",
					   "/nonexistent.rng", &d, &m),
			 -ENOENT);
	assert_null(m);
	assert_true(d.n_errors > 0);
	hm_diag_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_rich),
		cmocka_unit_test(test_round_trip_hex),
		cmocka_unit_test(test_round_trip_cond_eval),
		cmocka_unit_test(test_round_trip_empty),
		cmocka_unit_test(test_schema_covers_tables),
		cmocka_unit_test(test_bad_documents),
		cmocka_unit_test(test_schema_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
