// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_export_tree.c - the domain tree exporters: the posting's indented
 * text (exact), --root/--depth, absent ancestors, and the drawn tree
 * (dot/svg/png/pdf through libgvc): one node per domain, well-formed SVG
 * whatever the names hold, collapsing of wide trees, highlighting.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "export_fixture.h"
#include "histmac/check_result.h"

/* ------------------------------------------------------------ text tree */

struct text_case {
	const char *what;
	const char *const *domains;
	const char *root;
	unsigned depth;
	int err;
	const char *want;
};

static const char *const branchy[] = {
	"<kernel>",
	"<kernel> /sbin/init",
	"<kernel> /sbin/init /usr/sbin/cron",
	"<kernel> /sbin/init /usr/sbin/cron /bin/sh",
	"<kernel> /sbin/init /usr/sbin/sshd",
	"<kernel> /sbin/init /usr/sbin/sshd /bin/bash",
	"<kernel> /sbin/init /usr/sbin/sshd /bin/bash /usr/bin/id",
	"<kernel> /usr/lib/x/y /bin/true",	/* its parent is absent */
	NULL,
};

static const struct text_case text_cases[] = {
	{ "posting", fx_posting, NULL, 0, 0,
	  "<kernel> (profile 1, 0 entries)\n"
	  "+ /sbin/init (profile 1, 0 entries)\n"
	  "  + /etc/init.d/rc (profile 1, 0 entries)\n"
	  "    + /etc/init.d/apache2 (profile 1, 0 entries)\n"
	  "      + /usr/bin/env (profile 1, 0 entries)\n"
	  "        + /usr/sbin/apache2ctl (profile 1, 0 entries)\n"
	  "          + /usr/sbin/apache2 (profile 1, 0 entries)\n" },
	{ "branches and an absent ancestor", branchy, NULL, 0, 0,
	  "<kernel> (profile 1, 0 entries)\n"
	  "+ /sbin/init (profile 1, 0 entries)\n"
	  "  + /usr/sbin/cron (profile 1, 0 entries)\n"
	  "    + /bin/sh (profile 1, 0 entries)\n"
	  "  + /usr/sbin/sshd (profile 1, 0 entries)\n"
	  "    + /bin/bash (profile 1, 0 entries)\n"
	  "      + /usr/bin/id (profile 1, 0 entries)\n"
	  "+ /usr/lib/x/y (not in policy)\n"
	  "  + /bin/true (profile 1, 0 entries)\n" },
	{ "subtree", branchy, "<kernel> /sbin/init /usr/sbin/sshd", 0, 0,
	  "<kernel> /sbin/init /usr/sbin/sshd (profile 1, 0 entries)\n"
	  "+ /bin/bash (profile 1, 0 entries)\n"
	  "  + /usr/bin/id (profile 1, 0 entries)\n" },
	{ "depth cut", branchy, "<kernel> /sbin/init", 1, 0,
	  "<kernel> /sbin/init (profile 1, 0 entries)\n"
	  "+ /usr/sbin/cron (profile 1, 0 entries) (+1 below)\n"
	  "+ /usr/sbin/sshd (profile 1, 0 entries) (+2 below)\n" },
	{ "absent ancestor as root", branchy, "<kernel> /usr/lib/x/y", 0, 0,
	  "<kernel> /usr/lib/x/y (not in policy)\n"
	  "+ /bin/true (profile 1, 0 entries)\n" },
	{ "unknown root", branchy, "<kernel> /nope", 0, -ENOENT, NULL },
	{ "empty policy", NULL, NULL, 0, 0, "" },
};

static void test_text(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(text_cases); i++) {
		const struct text_case *c = &text_cases[i];
		struct hm_model *m = fx_model(c->domains);
		struct hm_diag d = { 0 };
		struct hm_export_opts o = {
			.root = c->root, .depth = c->depth, .diag = &d,
		};
		int err;
		char *out = fx_export(&hm_exporter_text, m, &o, NULL, &err);

		fprintf(stderr, "case: %s\n", c->what);
		assert_int_equal(err, c->err);
		if (c->want)
			assert_string_equal(out, c->want);
		else
			assert_true(d.n_errors > 0);
		free(out);
		hm_diag_free(&d);
		hm_model_free(m);
	}
}

/* Profile, entries, flags and violations are annotated after the name. */
static void test_text_notes(void **state)
{
	static const char check[] =
		"{\"violations\":[{\"domain\":\"<kernel> /usr/sbin/sshd\","
		"\"line\":\"file read /etc/shadow\"},{\"domain\":"
		"\"<kernel> /usr/sbin/sshd\",\"line\":\"file read /x\"}]}";
	struct hm_model *m = hm_model_new();
	struct hm_check_result *cr = NULL;
	struct hm_export_opts o = { 0 };
	struct hm_domain *x;
	char *out;

	(void)state;
	fx_domain(m, "<kernel>", 1, 0);
	fx_domain(m, "<kernel> /usr/sbin/sshd", 1,
		  HM_DOMAIN_HISTORY_UNOBSERVED);
	x = fx_domain(m, "<kernel> /usr/bin/x", 3,
		      HM_DOMAIN_PARENT_UNOBSERVED | HM_DOMAIN_QUOTA_EXCEEDED);
	fx_path(m, x, HM_FILE_READ, "/etc/x.conf");
	hm_model_relink(m);
	assert_int_equal(hm_check_result_parse(check, strlen(check), "c",
					       NULL, &cr), 0);
	o.check = cr;
	out = fx_export(&hm_exporter_text, m, &o, NULL, NULL);
	assert_string_equal(out,
		"<kernel> (profile 1, 0 entries)\n"
		"+ /usr/bin/x (profile 3, 1 entry, parent-unobserved, "
		"quota-exceeded)\n"
		"+ /usr/sbin/sshd (profile 1, 0 entries, history-unobserved) "
		"(2 violations)\n");
	free(out);
	hm_check_result_free(cr);
	hm_model_free(m);
}

/* --------------------------------------------------------------- drawing */

/* Parse @svg and count <g> elements whose id starts with @prefix. */
static long svg_count(const char *svg, size_t len, const char *prefix)
{
	xmlDocPtr doc = xmlReadMemory(svg, (int)len, "t.svg", NULL,
				      XML_PARSE_NONET | XML_PARSE_NOERROR |
				      XML_PARSE_NOWARNING);
	xmlXPathContextPtr ctx;
	xmlXPathObjectPtr res;
	char expr[128];
	long n;

	assert_non_null(doc);		/* well-formed */
	ctx = xmlXPathNewContext(doc);
	snprintf(expr, sizeof(expr),
		 "count(//*[local-name()='g'][starts-with(@id,'%s')])",
		 prefix);
	res = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	assert_non_null(res);
	n = (long)res->floatval;
	xmlXPathFreeObject(res);
	xmlXPathFreeContext(ctx);
	xmlFreeDoc(doc);
	return n;
}

/* A root with @kids children, each with one grandchild. */
static struct hm_model *wide_model(size_t kids)
{
	struct hm_model *m = hm_model_new();
	char name[128];

	fx_domain(m, "<kernel>", 1, 0);
	for (size_t i = 0; i < kids; i++) {
		snprintf(name, sizeof(name), "<kernel> /usr/bin/p%04zu", i);
		fx_domain(m, name, 1, 0);
		snprintf(name, sizeof(name), "<kernel> /usr/bin/p%04zu /bin/c",
			 i);
		fx_domain(m, name, 1, 0);
	}
	hm_model_relink(m);
	return m;
}

struct draw_case {
	const char *what;
	size_t kids;		/* wide_model(kids) */
	unsigned max_children;
	unsigned max_nodes;
	unsigned depth;
	long want_dom;		/* nodes with id dom-* */
	long want_more;		/* "+K more" nodes */
	const char *want_text;	/* in the SVG */
};

static const struct draw_case draw_cases[] = {
	{ "small: all drawn", 5, 0, 0, 0, 11, 0, "11 domains; 11 drawn" },
	{ "per-parent limit", 100, 10, 0, 0, 21, 1, "Collapsed: 180 nodes" },
	{ "node budget", 100, 0, 30, 0, 30, 1, "30 nodes in all" },
	{ "depth cut", 20, 0, 0, 1, 21, 0, "Cut: 20 nodes below depth 1" },
	{ "empty policy", 0, 0, 0, 0, 1, 0, "1 domains" },
};

static void test_svg_shapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(draw_cases); i++) {
		const struct draw_case *c = &draw_cases[i];
		struct hm_model *m = wide_model(c->kids);
		struct hm_export_opts o = {
			.max_children = c->max_children,
			.max_nodes = c->max_nodes, .depth = c->depth,
		};
		size_t len;
		char *svg = fx_export(&hm_exporter_svg, m, &o, &len, NULL);

		fprintf(stderr, "case: %s\n", c->what);
		assert_non_null(svg);
		assert_int_equal(svg_count(svg, len, "dom-"), c->want_dom);
		assert_int_equal(svg_count(svg, len, "more-"), c->want_more);
		assert_non_null(strstr(svg, c->want_text));
		free(svg);
		hm_model_free(m);
	}
}

/* Names with quotes, <, &, escapes, raw bytes and great length. */
static void test_svg_bad_names(void **state)
{
	struct hm_model *m = hm_model_new();
	char *longname = malloc(6000);
	char raw[] = "<kernel> /bin/raw\x01\xff\xc3";
	size_t len;
	char *svg;
	char *png;

	(void)state;
	assert_non_null(longname);
	strcpy(longname, "<kernel> /");
	for (size_t i = strlen(longname); i < 5990; i++)
		longname[i] = (char)('a' + i % 26);
	longname[5990] = '\0';
	fx_domain(m, "<kernel>", 1, 0);
	fx_domain(m, "<kernel> /bin/a\\040b", 2, 0);
	fx_domain(m, "<kernel> /bin/a\\040b /x/\"q\"&<y>'--z", 3, 0);
	fx_domain(m, "<kernel> /\\377\\376/\\\\", 0, 0);
	fx_domain(m, longname, 1, 0);
	fx_domain(m, raw, 1, 0);
	fx_path(m, fx_domain(m, "<kernel>", 1, 0), HM_FILE_READ,
		"/etc/<&>\"");
	hm_model_relink(m);
	svg = fx_export(&hm_exporter_svg, m, NULL, &len, NULL);
	assert_non_null(svg);
	assert_int_equal(svg_count(svg, len, "dom-"), 6);
	assert_non_null(strstr(svg, "a\\040b"));
	assert_non_null(strstr(svg, "raw\\001\\377\\303"));
	free(svg);
	png = fx_export(&hm_exporter_png, m, NULL, &len, NULL);
	assert_non_null(png);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	free(png);
	free(longname);
	hm_model_free(m);
}

static void test_formats(void **state)
{
	struct hm_model *m = fx_model(fx_posting);
	size_t len;
	char *out;

	(void)state;
	out = fx_export(&hm_exporter_png, m, NULL, &len, NULL);
	assert_non_null(out);
	assert_true(len > 1000);
	assert_memory_equal(out, "\x89PNG\r\n\x1a\n", 8);
	free(out);
	out = fx_export(&hm_exporter_pdf, m, NULL, &len, NULL);
	assert_non_null(out);
	assert_memory_equal(out, "%PDF-", 5);
	free(out);
	out = fx_export(&hm_exporter_dot, m, NULL, &len, NULL);
	assert_non_null(out);
	assert_memory_equal(out, "digraph", 7);
	assert_int_equal(fx_count(out, "id=\"dom-"), 7);
	free(out);
	hm_model_free(m);
}

/* Violations: red, counted in the legend, never folded away. */
/* Base names that collide get the fewest components that tell them apart. */
static void test_dot_labels(void **state)
{
	static const char *const names[] = {
		"<kernel>",
		"<kernel> /etc/init.d/apache2",
		"<kernel> /etc/init.d/apache2 /usr/sbin/apache2",
		"<kernel> /usr/bin/x",
		"<kernel> /usr/bin/x /bin/x",
		"<kernel> /usr/bin/x /opt/a/bin/x",
		"<kernel> /usr/bin/x /opt/a/bin/x /sbin/unique",
		NULL,
	};
	static const char *const want[] = {
		"label=\"init.d/apache2\\n", "label=\"sbin/apache2\\n",
		"label=\"usr/bin/x\\n", "label=\"/bin/x\\n",
		"label=\"a/bin/x\\n", "label=\"unique\\n",
	};
	struct hm_model *m = fx_model(names);
	size_t len;
	char *out;

	(void)state;
	out = fx_export(&hm_exporter_dot, m, NULL, &len, NULL);
	for (size_t i = 0; i < HM_ARRAY_SIZE(want); i++) {
		if (!strstr(out, want[i]))
			fprintf(stderr, "no %s in:\n%s\n", want[i], out);
		assert_non_null(strstr(out, want[i]));
	}
	free(out);
	hm_model_free(m);
}

static void test_highlight(void **state)
{
	static const char check[] =
		"{\"policy\":\"p\",\"violations\":["
		"{\"domain\":\"<kernel> /usr/bin/p0099 /bin/c\","
		"\"line\":\"file read /etc/shadow\",\"count\":3}]}";
	struct hm_model *m = wide_model(100);
	struct hm_check_result *cr = NULL;
	struct hm_export_opts o = { .max_children = 5 };
	size_t len;
	char *svg;
	const char *p;

	(void)state;
	assert_int_equal(hm_check_result_parse(check, strlen(check), "c",
					       NULL, &cr), 0);
	o.check = cr;
	svg = fx_export(&hm_exporter_svg, m, &o, &len, NULL);
	assert_non_null(svg);
	/* p0099 is past the limit of 5 but has a violation below: drawn */
	assert_non_null(strstr(svg, "p0099"));
	p = strstr(svg, "class=\"node domain p1 violation\"");
	assert_non_null(p);
	assert_non_null(strstr(svg, "1 violations in 1 domains"));
	assert_non_null(strstr(svg, "file read /etc/shadow"));
	free(svg);
	hm_check_result_free(cr);
	hm_model_free(m);
}

/* Violations in a domain the policy lacks: a dashed red node, a text line. */
static void test_highlight_absent(void **state)
{
	static const char check[] =
		"{\"violations\":[{\"domain\":\"<kernel> /sbin/init /bin/gone\","
		"\"no_domain\":true,\"line\":\"file read /etc/motd\"},"
		"{\"domain\":\"<kernel> /zz\",\"line\":\"file read /a\"}]}";
	struct hm_model *m = fx_model(fx_posting);
	struct hm_check_result *cr = NULL;
	struct hm_export_opts o = { 0 };
	char *out;

	(void)state;
	assert_int_equal(hm_check_result_parse(check, strlen(check), "c",
					       NULL, &cr), 0);
	o.check = cr;
	out = fx_export(&hm_exporter_dot, m, &o, NULL, NULL);
	assert_int_equal(fx_count(out, "class=\"absent violation\""), 2);
	assert_int_equal(fx_count(out, "id=\"dom-"), 7);
	assert_non_null(strstr(out, "(a domain the policy does not hold)"));
	free(out);
	out = fx_export(&hm_exporter_text, m, &o, NULL, NULL);
	assert_non_null(strstr(out, "\n  + /bin/gone (not in policy) "
				    "(1 violation)\n"));
	assert_non_null(strstr(out, "\n+ /zz (not in policy) (1 violation)\n"));
	free(out);
	hm_check_result_free(cr);
	hm_model_free(m);
}

static void test_registry(void **state)
{
	static const struct {
		const char *file;
		const char *want;
	} cases[] = {
		{ "t.svg", "svg" }, { "T.PNG", "png" }, { "x/y.pdf", "pdf" },
		{ "a.gv", "dot" }, { "a.dot", "dot" }, { "a.txt", "text" },
		{ "a.xml", "xml" }, { "a.json", "json" }, { "a.html", "html" },
		{ "a.jpeg", NULL }, { "noext", NULL }, { "dir.svg/x", NULL },
	};

	(void)state;
	for (size_t i = 0; i < HM_ARRAY_SIZE(cases); i++) {
		const struct hm_exporter *e = hm_exporter_for_file(cases[i].file);

		if (!cases[i].want) {
			assert_null(e);
			continue;
		}
		assert_non_null(e);
		assert_string_equal(e->name, cases[i].want);
		assert_ptr_equal(hm_exporter_find(cases[i].want), e);
	}
	assert_null(hm_exporter_find("nope"));
	for (size_t i = 0; hm_exporters[i]; i++)
		assert_non_null(hm_exporters[i]->description);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_text_notes),
		cmocka_unit_test(test_svg_shapes),
		cmocka_unit_test(test_svg_bad_names),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_dot_labels),
		cmocka_unit_test(test_highlight),
		cmocka_unit_test(test_highlight_absent),
		cmocka_unit_test(test_registry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
