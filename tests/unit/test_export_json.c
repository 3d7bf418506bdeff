// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_export_json.c - JSON out (string quoting, the json exporter's
 * document), JSON in (check results for highlighting), and the HTML
 * report's self-containment: no fetch, a data island that parses.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "export_fixture.h"
#include "../../formats/formats_private.h"

/* ------------------------------------------------------- string quoting */

static void test_json_strings(void **state)
{
	static const struct {
		const char *in;
		size_t len;
		const char *want;
	} cases[] = {
		{ "plain", 5, "\"plain\"" },
		{ "q\"b\\", 4, "\"q\\\"b\\\\\"" },
		{ "\n\t\r\x01\x7f", 5, "\"\\n\\t\\r\\u0001\\u007f\"" },
		{ "</script>&", 10, "\"\\u003c/script\\u003e\\u0026\"" },
		{ "caf\xc3\xa9", 5, "\"caf\xc3\xa9\"" },		/* UTF-8 kept */
		{ "\xff\xfe", 2, "\"\\u00ff\\u00fe\"" },	/* not UTF-8 */
		{ "\xc3", 1, "\"\\u00c3\"" },			/* truncated */
		{ "\xed\xa0\x80", 3, "\"\\u00ed\\u00a0\\u0080\"" }, /* surrogate */
		{ "\xc0\xaf", 2, "\"\\u00c0\\u00af\"" },	/* overlong */
		{ "a\0b", 3, "\"a\\u0000b\"" },
		{ "", 0, "\"\"" },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		struct hm_sbuf b = { 0 };

		hm_sbuf_add_json(&b, cases[i].in, cases[i].len);
		assert_string_equal(hm_sbuf_str(&b), cases[i].want);
		assert_true(hm_utf8_valid(b.s, b.len));
		hm_sbuf_free(&b);
	}
}

/* ------------------------------------------------------- check results */

struct check_case {
	const char *what;
	const char *json;
	int err;
	size_t n_domains;
	size_t total;
	const char *first;		/* first domain's name */
	size_t first_count;
	const char *first_line;		/* its first description */
};

static const struct check_case check_cases[] = {
	{ "histmac check output",
	  "{\"policy\":\"/p\",\"dialect\":\"tomoyo\",\"events\":10,"
	  "\"violations\":[\n"
	  " {\"domain\":\"<kernel> /b\",\"no_domain\":false,"
	  "\"line\":\"file read /etc/shadow\",\"count\":3},\n"
	  " {\"domain\":\"<kernel> /a\",\"line\":\"file write /x\"},\n"
	  " {\"domain\":\"<kernel> /b\",\"line\":\"file read /y\"}],"
	  "\"skipped\":{\"malformed_records\":0,\"no_path\":2}}",
	  0, 2, 3, "<kernel> /a", 1, "file write /x" },
	{ "grouped per domain",
	  "[{\"domain\":\"<kernel>\",\"violations\":[\"file read /a\","
	  "{\"acl\":\"file read /b\",\"n\":1},{\"x\":1,\"y\":\"z\"}]}]",
	  0, 1, 3, "<kernel>", 3, "file read /a" },
	{ "description from other members",
	  "{\"domain\":\"<k>\",\"pid\":12,\"comm\":\"sh\"}",
	  0, 1, 1, "<k>", 1, "pid: 12; comm: sh" },
	{ "escapes in names",
	  "[{\"domain\":\"<kernel> /a\\u0020b\\\"\\\\\\ud83d\\ude00\"}]",
	  0, 1, 1, "<kernel> /a b\"\\\xf0\x9f\x98\x80", 1, NULL },
	{ "no violations", "{\"violations\":[]}", 0, 0, 0, NULL, 0, NULL },
	{ "scalars only", "[1, -2.5e3, true, false, null, \"s\"]", 0, 0, 0,
	  NULL, 0, NULL },
	{ "trailing garbage", "{} x", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "unterminated", "{\"domain\":\"<k>", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "bad escape", "[\"\\q\"]", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "lone surrogate", "[\"\\udc00\"]", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "NUL escape", "[\"\\u0000\"]", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "raw control", "[\"a\x01\"]", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "missing colon", "{\"a\" 1}", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "empty", "", -EINVAL, 0, 0, NULL, 0, NULL },
	{ "bare word", "nope", -EINVAL, 0, 0, NULL, 0, NULL },
};

static void test_check_parse(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(check_cases); i++) {
		const struct check_case *c = &check_cases[i];
		struct hm_check_result *r = NULL;
		struct hm_diag d = { 0 };
		int err = hm_check_result_parse(c->json, strlen(c->json), "c",
						&d, &r);

		fprintf(stderr, "case: %s\n", c->what);
		assert_int_equal(err, c->err);
		if (err) {
			assert_null(r);
			assert_true(d.n_errors > 0);
			hm_diag_free(&d);
			continue;
		}
		assert_int_equal(r->n_domains, c->n_domains);
		assert_int_equal(r->total, c->total);
		if (c->first) {
			assert_string_equal(r->domains[0].name, c->first);
			assert_int_equal(r->domains[0].count, c->first_count);
			assert_ptr_equal(hm_check_result_find(r, c->first,
							      strlen(c->first)),
					 &r->domains[0]);
		}
		if (c->first_line)
			assert_string_equal(r->domains[0].lines[0],
					    c->first_line);
		assert_null(hm_check_result_find(r, "<nope>", 6));
		hm_check_result_free(r);
		hm_diag_free(&d);
	}
}

/* Deep nesting is refused, not a stack overflow. */
static void test_check_deep(void **state)
{
	size_t n = 100000;
	char *s = malloc(2 * n + 1);
	struct hm_check_result *r = NULL;

	(void)state;
	assert_non_null(s);
	memset(s, '[', n);
	memset(s + n, ']', n);
	s[2 * n] = '\0';
	assert_int_equal(hm_check_result_parse(s, 2 * n, "deep", NULL, &r),
			 -EINVAL);
	assert_null(r);
	free(s);
}

/* ---------------------------------------------------------- json export */

static const char json_domain[] =
	"<kernel>\n"
	"use_profile 1\n"
	"\n"
	"file execute /sbin/init\n"
	"\n"
	"<kernel> /sbin/init\n"
	"use_profile 3\n"
	"# histmac: history_unobserved events=5 first_seen=1700000000\n"
	"\n"
	"file read/write /etc/\"q\"<&>\\040x\n"
	"file create /tmp/\\*.tmp 0644\n"
	"network inet stream connect 127.0.0.1 80\n"
	"misc env PATH\n";

static void test_json_export(void **state)
{
	struct hm_model *m = fx_parse(NULL, json_domain);
	struct hm_check_result *r = NULL;
	size_t len;
	char *out = fx_export(&hm_exporter_json, m, NULL, &len, NULL);

	(void)state;
	assert_non_null(out);
	assert_true(hm_utf8_valid(out, len));
	/* it is JSON: the strict reader takes it */
	assert_int_equal(hm_check_result_parse(out, len, "j", NULL, &r), 0);
	hm_check_result_free(r);
	assert_non_null(strstr(out, "\"format\": \"histmac-policy\""));
	assert_non_null(strstr(out, "\"name\": \"<kernel> /sbin/init\""));
	assert_non_null(strstr(out, "\"profile\": 3, \"mode\": \"enforcing\","
				    " \"flags\": [\"history-unobserved\"]"));
	assert_non_null(strstr(out, "\"events\": 5, \"first_seen\": "
				    "1700000000"));
	assert_non_null(strstr(out, "{\"kind\": \"path\", \"perm\": "
				    "[\"read\", \"write\"], \"path\": "
				    "\"/etc/\\\"q\\\"<&>\\\\040x\", "
				    "\"cond\": null, \"line\": \"file "
				    "read/write /etc/\\\"q\\\"<&>\\\\040x\"}"));
	assert_non_null(strstr(out, "\"number\": {\"min\": 420, \"max\": 420,"
				    " \"radix\": \"oct\"}"));
	assert_non_null(strstr(out, "\"protocol\": \"stream\", \"address\": "
				    "{\"min\": \"127.0.0.1\", \"max\": "
				    "\"127.0.0.1\", \"ipv6\": false}"));
	assert_non_null(strstr(out, "{\"kind\": \"env\", \"name\": \"PATH\""));
	free(out);
	hm_model_free(m);

	m = hm_model_new();
	out = fx_export(&hm_exporter_json, m, NULL, &len, NULL);
	assert_non_null(strstr(out, "\"domains\": []"));
	assert_int_equal(hm_check_result_parse(out, len, "j", NULL, &r), 0);
	hm_check_result_free(r);
	free(out);
	hm_model_free(m);
}

/* --------------------------------------------------------------- report */

/* The JSON island of a report page, copied out. */
static char *island(const char *page)
{
	const char *tag = "<script type=\"application/json\" id=\"hm-data\">";
	const char *s = strstr(page, tag);
	const char *e;

	assert_non_null(s);
	s += strlen(tag);
	e = strstr(s, "</script>");
	assert_non_null(e);
	return strndup(s, (size_t)(e - s));
}

static void test_report_page(void **state)
{
	static const char check[] =
		"{\"violations\":[{\"domain\":\"<kernel> /sbin/init\","
		"\"line\":\"file read /etc/shadow</script><b>\"},"
		"{\"domain\":\"<kernel> /gone\",\"line\":\"file read /x\"}]}";
	struct hm_model *m = fx_parse(NULL, json_domain);
	struct hm_check_result *cr = NULL;
	struct hm_check_result *jr = NULL;
	struct hm_export_opts o = { .title = "T <&> \"x\"" };
	size_t len;
	char *page;
	char *data;

	(void)state;
	assert_int_equal(hm_check_result_parse(check, strlen(check), "c",
					       NULL, &cr), 0);
	o.check = cr;
	page = fx_export(&hm_exporter_html, m, &o, &len, NULL);
	assert_non_null(page);
	assert_true(hm_utf8_valid(page, len));
	assert_non_null(strstr(page, "default-src 'none'"));
	assert_non_null(strstr(page, "<title>T &lt;&amp;&gt; &quot;x&quot;"
				     "</title>"));
	/* no fetch: no src= or href= anywhere, no url( in CSS */
	assert_null(strstr(page, " src="));
	assert_null(strstr(page, "href="));
	assert_null(strstr(page, "url("));
	assert_null(strstr(page, "@import"));
	/* the svg is inline, one <svg> element, nodes for both domains */
	assert_int_equal(fx_count(page, "<svg"), 1);
	assert_non_null(strstr(page, "id=\"dom&#45;0\""));
	assert_non_null(strstr(page, "id=\"dom&#45;1\""));
	/* the island is JSON and cannot close its <script> early */
	data = island(page);
	assert_null(strstr(data, "<"));
	assert_int_equal(hm_check_result_parse(data, strlen(data), "island",
					       NULL, &jr), 0);
	assert_non_null(strstr(data, "\"file read/write /etc/\\\"q\\\""));
	assert_non_null(strstr(data, "\"outside\":[{\"name\":"
				     "\"\\u003ckernel\\u003e /gone\""));
	assert_non_null(strstr(data, "\"violation_count\":1"));
	hm_check_result_free(jr);
	free(data);
	free(page);
	hm_check_result_free(cr);
	hm_model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_strings),
		cmocka_unit_test(test_check_parse),
		cmocka_unit_test(test_check_deep),
		cmocka_unit_test(test_json_export),
		cmocka_unit_test(test_report_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
