// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * report.c - one self-contained HTML page to review a policy: the drawn
 * domain tree (inline SVG from dot.c), a searchable list of every domain,
 * and for the domain picked (in the list or by a click on its node) its
 * profile, flags, counters, ACL as policy lines (hm_acl_format(), the
 * policy writer's own printer) and, given a check result, its
 * violations.
 *
 * Nothing is fetched: CSS and JS are inline, the data sits in a JSON
 * island whose strings escape '<', '>' and '&', and a Content-Security-
 * Policy of default-src 'none' makes the browser refuse any fetch.  The
 * script only ever sets textContent, so names cannot inject markup.
 * The domain list cuts names that do not fit in the middle (the start
 * and the last programs, which tell domains apart, stay; the full name is
 * the tooltip).
 * Reads the model; owns its buffers.  cli/cmd_report.c writes the page
 * as DIR/index.html.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export_private.h"
#include "histmac/convergence.h"
#include "histmac/policy_io.h"
#include "histmac/provenance.h"
#include "histmac/sensitive.h"

static const char page_css[] =
"*{box-sizing:border-box}"
"body{margin:0;font:14px/1.4 system-ui,-apple-system,'Segoe UI',"
"Helvetica,Arial,sans-serif;color:#212529;background:#f8f9fa}"
"header{padding:10px 16px;background:#343a40;color:#f8f9fa}"
"header h1{margin:0;font-size:18px}header p{margin:4px 0 0;font-size:13px}"
"main{display:flex;gap:12px;padding:12px;height:calc(100vh - 70px)}"
"#tree-pane{flex:3;display:flex;flex-direction:column;min-width:0;"
"background:#fff;border:1px solid #dee2e6;border-radius:6px}"
".toolbar{padding:6px;border-bottom:1px solid #dee2e6}"
".toolbar button{margin-right:4px}"
"#tree{flex:1;overflow:auto}"
"#tree svg{display:block}"
"#tree g.node{cursor:pointer}"
"#tree g.node.selected polygon,#tree g.node.selected path,"
"#tree g.node.selected ellipse{stroke:#1971c2;stroke-width:5px}"
"aside{flex:2;display:flex;flex-direction:column;min-width:320px;"
"gap:8px;overflow:hidden}"
"#search{width:100%;padding:6px;font-size:14px}"
"#list{list-style:none;margin:0;padding:0;overflow:auto;flex:1;"
"background:#fff;border:1px solid #dee2e6;border-radius:6px;"
"font-family:ui-monospace,monospace;font-size:12px}"
"#list li{padding:3px 6px;cursor:pointer;white-space:nowrap;"
"overflow:hidden;text-overflow:ellipsis;border-bottom:1px solid #f1f3f5}"
"#list li:hover{background:#e7f5ff}#list li.current{background:#d0ebff}"
"#list li.viol{color:#c92a2a}"
"#detail{flex:2;overflow:auto;background:#fff;border:1px solid #dee2e6;"
"border-radius:6px;padding:8px 10px}"
"#detail h2{font-size:13px;font-family:ui-monospace,monospace;"
"word-break:break-all;margin:0 0 6px}"
"#detail h3{font-size:13px;margin:10px 0 4px}"
"#detail dl{display:grid;grid-template-columns:max-content 1fr;"
"gap:2px 10px;margin:0;font-size:12px}#detail dt{color:#868e96}"
"#detail dd{margin:0;word-break:break-all}"
".lines{font-family:ui-monospace,monospace;font-size:12px;"
"white-space:pre-wrap;word-break:break-all;margin:0}"
".lines div{padding:1px 0;border-bottom:1px solid #f1f3f5}"
"#detail-viol div{color:#c92a2a}"
".lines div.unused{color:#868e96;text-decoration:line-through}"
"#sensitive,#logins{max-height:30vh;overflow:auto;background:#fff5f5;"
"border:1px solid #ffc9c9;border-radius:6px;padding:6px 8px}"
"#sensitive h3,#logins h3{font-size:13px;margin:0 0 4px;color:#c92a2a}"
"#sensitive table,#logins table{font-size:12px;border-collapse:collapse}"
"#sensitive td,#logins td{font-family:ui-monospace,monospace;"
"word-break:break-all;padding:1px 6px 1px 0;vertical-align:top}"
"#convergence h3{font-size:13px;margin:0 0 4px}"
"#convergence svg{background:#fff;border:1px solid #dee2e6}"
"a.dom{color:#1971c2;cursor:pointer;text-decoration:underline}"
".muted{color:#868e96}";

static const char page_js[] =
"(function(){'use strict';\n"
"var data=JSON.parse(document.getElementById('hm-data').textContent);\n"
"var byId={};data.domains.forEach(function(d){byId[d.id]=d;});\n"
"var $=function(id){return document.getElementById(id);};\n"
"var list=$('list'),search=$('search'),tree=$('tree');\n"
"var svg=tree.querySelector('svg');var MAX=500;var cur=null;\n"
"function el(tag,text,cls){var e=document.createElement(tag);"
"if(text!==undefined)e.textContent=text;if(cls)e.className=cls;return e;}\n"
"function when(s){return s?new Date(s*1000).toISOString():'unknown';}\n"
"function link(id){var d=byId[id];var a=el('a',d?d.name:id,'dom');"
"a.dataset.id=id;return a;}\n"
"function mid(s,n){if(s.length<=n)return s;var h=Math.floor((n-1)/3);"
"return s.slice(0,h)+'\\u2026'+s.slice(s.length-(n-1-h));}\n"
"function renderList(){var q=search.value.toLowerCase();"
"var fit=Math.max(24,Math.floor((list.clientWidth-14)/7.3));"
"list.textContent='';var n=0,shown=0;"
"for(var i=0;i<data.domains.length;i++){var d=data.domains[i];"
"if(q&&d.name.toLowerCase().indexOf(q)<0)continue;n++;"
"if(shown>=MAX)continue;var li=el('li',mid(d.name,fit),"
"d.violation_count?'viol':'');li.dataset.id=d.id;li.title=d.name;"
"if(d.id===cur)li.classList.add('current');list.appendChild(li);shown++;}"
"$('count').textContent=n+' of '+data.domains.length+' domains'+"
"(n>shown?' (first '+shown+' listed: refine the search)':'');}\n"
"function lines(box,arr,empty){box.textContent='';"
"if(!arr.length){box.appendChild(el('div',empty,'muted'));return;}"
"arr.forEach(function(l){box.appendChild(el('div',l));});}\n"
"function show(id,scroll){var d=byId[id];if(!d)return false;cur=id;"
"$('detail-name').textContent=d.name;var dl=$('detail-info');"
"dl.textContent='';function row(k,v){dl.appendChild(el('dt',k));"
"var dd=el('dd');if(typeof v==='string')dd.textContent=v;"
"else dd.appendChild(v);dl.appendChild(dd);}\n"
"row('profile',d.profile+' ('+d.mode+')');"
"row('flags',d.flags.length?d.flags.join(', '):'none');"
"row('events',String(d.events));row('first seen',when(d.first_seen));"
"row('last seen',when(d.last_seen));"
"row('learning',d.verdict+(d.last_new?', last new entry '+when(d.last_new):''));"
"row('parent',d.parent?link(d.parent):el('span','none','muted'));"
"var ch=el('span');d.children.forEach(function(c,i){if(i)"
"ch.appendChild(document.createTextNode(', '));ch.appendChild(link(c));});"
"if(!d.children.length)ch.appendChild(el('span','none','muted'));"
"row('children',ch);"
"row('in the tree',document.getElementById(id)?'drawn':"
"'not drawn (folded; use --root)');\n"
"$('detail-acl-head').textContent='ACL ('+d.acl.length+' entries)';"
"lines($('detail-acl'),d.acl,'no entries');"
"var al=$('detail-acl').children;d.unused.forEach(function(k){if(al[k]){"
"al[k].classList.add('unused');al[k].title='not used in the last '+"
"data.unused_days+' days';}});"
"$('detail-viol-head').textContent='Violations ('+d.violation_count+')';"
"lines($('detail-viol'),d.violations,data.checked?'none':"
"'no check result given');\n"
"var old=tree.querySelectorAll('g.node.selected');"
"for(var i=0;i<old.length;i++)old[i].classList.remove('selected');"
"var g=document.getElementById(id);if(g){g.classList.add('selected');"
"if(scroll&&g.scrollIntoView)g.scrollIntoView({block:'center',"
"inline:'center'});}\n"
"var lis=list.querySelectorAll('li');for(var k=0;k<lis.length;k++)"
"lis[k].classList.toggle('current',lis[k].dataset.id===id);"
"if(history.replaceState)try{history.replaceState(null,'','#'+id);}"
"catch(e){}\n"
"return true;}\n"
"function showOther(g){var t=g.querySelector('title');"
"$('detail-name').textContent=t?t.textContent.split('\\n')[0]:g.id;"
"$('detail-info').textContent='';"
"$('detail-acl-head').textContent=t?t.textContent.split('\\n')"
".slice(1).join(' '):'';$('detail-acl').textContent='';"
"$('detail-viol-head').textContent='';$('detail-viol').textContent='';}\n"
"tree.addEventListener('click',function(e){var g=e.target.closest?"
"e.target.closest('g.node'):null;if(!g)return;var id=g.id;"
"if(id.indexOf('more-')===0&&byId[id.slice(5)])show(id.slice(5),false);"
"else if(!show(id,false))showOther(g);});\n"
"document.addEventListener('click',function(e){var a=e.target.closest?"
"e.target.closest('a.dom,#list li'):null;if(a&&a.dataset.id)"
"show(a.dataset.id,true);});\n"
"search.addEventListener('input',renderList);\n"
"window.addEventListener('resize',renderList);\n"
"var scale=1,w0=0,h0=0;if(svg){w0=parseFloat(svg.getAttribute('width'));"
"h0=parseFloat(svg.getAttribute('height'));}\n"
"function zoom(s){if(!svg)return;scale=s;"
"svg.setAttribute('width',(w0*s)+'pt');"
"svg.setAttribute('height',(h0*s)+'pt');}\n"
"$('zoom-in').addEventListener('click',function(){zoom(scale*1.25);});"
"$('zoom-out').addEventListener('click',function(){zoom(scale/1.25);});"
"$('zoom-fit').addEventListener('click',function(){if(w0)"
"zoom(Math.min(1,tree.clientWidth/(w0*4/3)));});"
"$('zoom-reset').addEventListener('click',function(){zoom(1);});\n"
"var out=$('outside');if(data.outside.length){"
"out.appendChild(el('h3','Violations in domains the policy does not '+"
"'have ('+data.outside.length+')'));data.outside.forEach(function(o){"
"out.appendChild(el('div',o.name+' ('+o.count+')'));"
"o.lines.forEach(function(l){out.appendChild(el('div','  '+l,'lines'));});"
"});}\n"
"renderList();\n"
"var h=decodeURIComponent(location.hash.slice(1));"
"if(!(h&&show(h,true))&&data.domains.length)show(data.domains[0].id,false);\n"
"document.body.dataset.ready='1';\n"
"})();\n";

struct page {
	const struct hm_model *m;
	const struct hm_export_opts *o;
	struct hm_convergence *conv;
	int64_t unused_before;	/* entries last used before: unused */
	struct hm_dtree t;
	struct hm_sbuf b;
	FILE *out;
	int err;
	uint32_t *dom_parent;	/* per tree node: nearest domain ancestor */
};

static void flush_page(struct page *p, bool force)
{
	if (p->err || (!force && p->b.len < 65536))
		return;
	if (p->b.oom)
		p->err = -ENOMEM;
	else if (p->b.len && fwrite(p->b.s, 1, p->b.len, p->out) != p->b.len)
		p->err = -EIO;
	p->b.len = 0;
}


static void json_id(struct hm_sbuf *b, const struct hm_tnode *n)
{
	hm_sbuf_printf(b, "\"dom-%u\"", n->seq);
}

/* The ACL of @d as policy lines, a JSON array; then "unused": the
 * indexes of those not used in the window (o->unused days). */
static void json_acl(struct page *p, const struct hm_domain *d)
{
	const struct hm_acl_head **v = d->n_acl ? hm_domain_sorted_acl(d) :
						  NULL;
	bool first = true;

	hm_sbuf_addc(&p->b, '[');
	if (d->n_acl && !v) {
		p->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < d->n_acl; i++) {
		char *line = NULL;

		if (hm_acl_format(p->m, v[i], p->m->dialect, &line, NULL)) {
			p->err = -ENOMEM;
			break;
		}
		if (i)
			hm_sbuf_addc(&p->b, ',');
		hm_sbuf_add_json(&p->b, line, strlen(line));
		free(line);
	}
	hm_sbuf_adds(&p->b, "],\"unused\":[");
	for (size_t i = 0; p->o->unused && i < d->n_acl; i++) {
		if (hm_acl_last_use(v[i]) >= p->unused_before)
			continue;
		hm_sbuf_printf(&p->b, "%s%zu", first ? "" : ",", i);
		first = false;
	}
	hm_sbuf_addc(&p->b, ']');
	free(v);
}

static const struct hm_conv_domain *conv_domain(const struct page *p,
						const struct hm_domain *d)
{
	for (size_t i = 0; p->conv && i < p->conv->n_domains; i++)
		if (p->conv->domains[i].d == d)
			return &p->conv->domains[i];
	return NULL;
}

/* ,"verdict":"...","last_new":T: what stats says of @d's learning. */
static void json_verdict(struct page *p, const struct hm_domain *d)
{
	const struct hm_conv_domain *cd = conv_domain(p, d);
	char s[96];

	if (!cd)
		snprintf(s, sizeof(s), "no entries");
	else if (cd->verdict == HM_VERDICT_LEARNING)
		snprintf(s, sizeof(s), "still learning");
	else if (cd->verdict == HM_VERDICT_QUIET_DAYS)
		snprintf(s, sizeof(s), "quiet for %llu days (%llu events)",
			 (unsigned long long)cd->quiet_days,
			 (unsigned long long)cd->quiet_events);
	else if (cd->verdict == HM_VERDICT_QUIET_EVENTS)
		snprintf(s, sizeof(s), "quiet for %llu events",
			 (unsigned long long)cd->quiet_events);
	else
		snprintf(s, sizeof(s), "unknown (no learned times)");
	hm_sbuf_adds(&p->b, ",\"verdict\":");
	hm_sbuf_add_json(&p->b, s, strlen(s));
	hm_sbuf_printf(&p->b, ",\"last_new\":%" PRId64, cd ? cd->last_new : 0);
}

static void json_lines(struct hm_sbuf *b, const struct hm_check_domain *cd)
{
	hm_sbuf_addc(b, '[');
	for (size_t i = 0; cd && i < cd->n_lines; i++) {
		if (i)
			hm_sbuf_addc(b, ',');
		hm_sbuf_add_json(b, cd->lines[i], strlen(cd->lines[i]));
	}
	hm_sbuf_addc(b, ']');
}

static void json_domain(struct page *p, uint32_t i)
{
	const struct hm_tnode *n = &p->t.v[i];
	const struct hm_domain *d = n->dom;
	const struct hm_check_domain *cd =
		hm_check_result_find(p->o->check, n->name, n->len);
	struct hm_sbuf *b = &p->b;
	char buf[32];
	bool first = true;

	hm_sbuf_adds(b, "{\"id\":");
	json_id(b, n);
	hm_sbuf_adds(b, ",\"name\":");
	hm_sbuf_add_json(b, n->name, n->len);
	hm_sbuf_adds(b, ",\"parent\":");
	if (p->dom_parent[i] != HM_TNONE)
		json_id(b, &p->t.v[p->dom_parent[i]]);
	else
		hm_sbuf_adds(b, "null");
	hm_sbuf_adds(b, ",\"children\":[");
	for (size_t k = i + 1; k <= i + n->n_desc; k++) {
		if (p->dom_parent[k] != i || !p->t.v[k].dom)
			continue;
		if (!first)
			hm_sbuf_addc(b, ',');
		first = false;
		json_id(b, &p->t.v[k]);
	}
	hm_sbuf_printf(b, "],\"profile\":%u,\"mode\":", d->profile);
	hm_sbuf_add_json(b, hm_profile_name(d->profile, buf, sizeof(buf)),
			 strlen(hm_profile_name(d->profile, buf, sizeof(buf))));
	hm_sbuf_adds(b, ",\"flags\":[");
	for (unsigned f = 0, k = 0; f < 8; f++) {
		if (!(d->flags & (1u << f)))
			continue;
		hm_sbuf_printf(b, "%s\"%s\"", k++ ? "," : "",
			       hm_domain_flag_ids[f]);
	}
	hm_sbuf_printf(b, "],\"events\":%" PRIu64 ",\"first_seen\":%" PRId64
		       ",\"last_seen\":%" PRId64 ",\"acl\":", d->events,
		       d->first_seen, d->last_seen);
	json_acl(p, d);
	json_verdict(p, d);
	hm_sbuf_printf(b, ",\"violation_count\":%zu,\"violations\":",
		       cd ? cd->count : 0);
	json_lines(b, cd);
	hm_sbuf_adds(b, "}");
}

/* Violations of domains the policy does not hold. */
static void json_outside(struct page *p)
{
	const struct hm_check_result *c = p->o->check;
	bool first = true;

	hm_sbuf_adds(&p->b, "],\"outside\":[");
	for (size_t i = 0; c && i < c->n_domains; i++) {
		const struct hm_check_domain *cd = &c->domains[i];
		uint32_t k = hm_dtree_find(&p->t, cd->name, strlen(cd->name));

		if (k != HM_TNONE && p->t.v[k].dom)
			continue;
		if (!first)
			hm_sbuf_addc(&p->b, ',');
		first = false;
		hm_sbuf_adds(&p->b, "{\"name\":");
		hm_sbuf_add_json(&p->b, cd->name, strlen(cd->name));
		hm_sbuf_printf(&p->b, ",\"count\":%zu,\"lines\":", cd->count);
		json_lines(&p->b, cd);
		hm_sbuf_addc(&p->b, '}');
	}
	hm_sbuf_adds(&p->b, "]}");
}

static void page_data(struct page *p)
{
	bool first = true;

	hm_sbuf_printf(&p->b, "<script type=\"application/json\" id=\"hm-data\">"
		       "{\"checked\":%s,\"unused_days\":%u,\"domains\":[",
		       p->o->check ? "true" : "false", p->o->unused);
	for (uint32_t i = 0; i < p->t.n && !p->err; i++) {
		if (!p->t.v[i].dom)
			continue;
		hm_sbuf_adds(&p->b, first ? "\n" : ",\n");
		first = false;
		json_domain(p, i);
		flush_page(p, false);
	}
	json_outside(p);
	hm_sbuf_adds(&p->b, "</script>\n");
}

static void page_head(struct page *p, const char *title)
{
	size_t entries = 0;

	for (size_t i = 0; i < p->m->n_domains; i++)
		entries += p->m->domains[i]->n_acl;
	hm_sbuf_adds(&p->b, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
		     "<meta charset=\"utf-8\">\n<meta http-equiv=\""
		     "Content-Security-Policy\" content=\"default-src 'none'; "
		     "style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
		     "img-src data:\">\n<meta name=\"viewport\" content=\""
		     "width=device-width\">\n<title>");
	hm_sbuf_add_html(&p->b, title, strlen(title));
	hm_sbuf_printf(&p->b, "</title>\n<style>%s</style>\n</head>\n<body>\n"
		       "<header><h1>", page_css);
	hm_sbuf_add_html(&p->b, title, strlen(title));
	hm_sbuf_printf(&p->b, "</h1><p id=\"summary\">%zu domains, %zu ACL "
		       "entries", p->m->n_domains, entries);
	if (p->o->check)
		hm_sbuf_printf(&p->b, ", %zu violations in %zu domains",
			       p->o->check->total, p->o->check->n_domains);
	hm_sbuf_adds(&p->b, ". Click a node or a name to see its domain; "
		     "hover a node for its summary.</p></header>\n<main>\n"
		     "<section id=\"tree-pane\"><div class=\"toolbar\">"
		     "<button id=\"zoom-in\" type=\"button\">zoom in</button>"
		     "<button id=\"zoom-out\" type=\"button\">zoom out</button>"
		     "<button id=\"zoom-fit\" type=\"button\">fit width</button>"
		     "<button id=\"zoom-reset\" type=\"button\">100%</button>"
		     "</div>\n<div id=\"tree\">\n");
}

static int sensitive_row(const struct hm_domain *d,
			 const struct hm_acl_head *e, const char *why,
			 void *arg)
{
	struct page *p = arg;
	char *line = NULL;

	if (hm_acl_format(p->m, e, p->m->dialect, &line, NULL))
		return -ENOMEM;
	hm_sbuf_adds(&p->b, "<tr><td>");
	hm_sbuf_add_html(&p->b, d->name->str, d->name->len);
	hm_sbuf_adds(&p->b, "</td><td>");
	hm_sbuf_add_html(&p->b, line, strlen(line));
	hm_sbuf_adds(&p->b, "</td><td>");
	hm_sbuf_add_html(&p->b, why, strlen(why));
	hm_sbuf_adds(&p->b, "</td></tr>\n");
	free(line);
	flush_page(p, false);
	return 0;
}

/* The entries that grant more than a file (histmac/sensitive.h), first
 * of what a reviewer reads, whoever's activity learned them. */
static void sensitive_entries(struct page *p)
{
	size_t n = hm_sensitive_count(p->m);
	int r;

	if (!n)
		return;
	hm_sbuf_printf(&p->b, "<section id=\"sensitive\"><h3>Review first: "
		       "%zu sensitive entr%s</h3>\n<table><tr><th>domain</th>"
		       "<th>entry</th><th>what</th></tr>\n", n,
		       n == 1 ? "y" : "ies");
	r = hm_sensitive_entries(p->m, sensitive_row, p);
	if (r && !p->err)
		p->err = r;
	hm_sbuf_adds(&p->b, "</table></section>\n");
}

/* The domains processes of several logins entered by exec: what they
 * hold may be another user's choosing (histmac stats lists them too). */
static void several_logins(struct page *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->m->n_domains; i++)
		n += hm_domain_several_logins(p->m->domains[i]);
	if (!n)
		return;
	hm_sbuf_printf(&p->b, "<section id=\"logins\"><h3>Review first: %zu "
		       "domain%s entered by several logins</h3>\n<table><tr>"
		       "<th>domain</th><th>logins</th></tr>\n", n,
		       n == 1 ? "" : "s");
	for (size_t i = 0; i < p->m->n_domains; i++) {
		const struct hm_domain *d = p->m->domains[i];

		if (!hm_domain_several_logins(d))
			continue;
		hm_sbuf_adds(&p->b, "<tr><td>");
		hm_sbuf_add_html(&p->b, d->name->str, d->name->len);
		hm_sbuf_adds(&p->b, "</td><td>");
		hm_logins_text(&d->logins, &p->b);
		hm_sbuf_adds(&p->b, "</td></tr>\n");
		flush_page(p, false);
	}
	hm_sbuf_adds(&p->b, "</table></section>\n");
}

/* The entries fewer than o->rare of the merged hosts had (histmac merge). */
static void rare_entries(struct page *p)
{
	const struct hm_prov_entry *e;
	size_t n, n_hosts, k = 0;

	if (!p->o->prov || !p->o->rare)
		return;
	e = hm_provenance_entries(p->o->prov, &n, &n_hosts);
	if (!e && n_hosts && !p->err)
		p->err = -ENOMEM;
	for (size_t i = 0; i < n; i++)
		k += e[i].n_hosts < p->o->rare;
	hm_sbuf_printf(&p->b, "<section id=\"rare\"><h3>%zu entries on fewer "
		       "than %u of %zu hosts</h3>\n<table><tr><th>hosts</th>"
		       "<th>domain</th><th>entry</th></tr>\n", k, p->o->rare,
		       n_hosts);
	for (size_t i = 0; i < n; i++) {
		if (e[i].n_hosts >= p->o->rare)
			continue;
		hm_sbuf_adds(&p->b, "<tr><td>");
		for (size_t j = 0; j < e[i].n_hosts; j++) {
			hm_sbuf_adds(&p->b, j ? " " : "");
			hm_sbuf_add_html(&p->b, e[i].hosts[j],
					 strlen(e[i].hosts[j]));
		}
		hm_sbuf_adds(&p->b, "</td><td>");
		hm_sbuf_add_html(&p->b, e[i].domain, strlen(e[i].domain));
		hm_sbuf_adds(&p->b, "</td><td>");
		hm_sbuf_add_html(&p->b, e[i].entry, strlen(e[i].entry));
		hm_sbuf_adds(&p->b, "</td></tr>\n");
		flush_page(p, false);
	}
	hm_sbuf_adds(&p->b, "</table></section>\n");
}

static void day_label(struct hm_sbuf *b, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char s[16];

	if (gmtime_r(&tt, &tm) && strftime(s, sizeof(s), "%Y-%m-%d", &tm))
		hm_sbuf_adds(b, s);
}

#define CURVE_W 300
#define CURVE_H 110
#define CURVE_PAD 20

/* A point's label: "2026-11-28", or for a save "#3 2026-11-28". */
static void point_label(struct hm_sbuf *b, const struct hm_conv_day *v,
			size_t i, bool saves, size_t skip)
{
	if (saves)
		hm_sbuf_printf(b, "#%zu ", i + skip + 1);
	day_label(b, v[i].day);
}

/* The learning curve, drawn here (no script): per day (or save) a bar
 * of what it added or widened, and the line of all entries learned so
 * far. */
static void curve_svg(struct page *p, const struct hm_conv_day *v, size_t n,
		      bool saves, size_t skip)
{
	const char *per = saves ? "save" : "day";
	uint64_t total = 0, max = 1;
	double step = n > 1 ? (double)(CURVE_W - 2 * CURVE_PAD) /
			      (double)(n - 1) : 0;
	double plot = CURVE_H - 2 * CURVE_PAD;

	for (size_t i = 0; i < n; i++)
		max += v[i].added + v[i].widened;
	hm_sbuf_printf(&p->b, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
		       "width=\"%d\" height=\"%d\" role=\"img\">"
		       "<title>entries learned per %s</title>", CURVE_W,
		       CURVE_H, per);
	for (size_t i = 0; i < n; i++) {
		double h = plot * (double)(v[i].added + v[i].widened) /
			   (double)max;

		hm_sbuf_printf(&p->b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"4\" "
			       "height=\"%.1f\" fill=\"#74c0fc\"><title>",
			       CURVE_PAD + step * (double)i - 2,
			       CURVE_PAD + plot - h, h);
		point_label(&p->b, v, i, saves, skip);
		hm_sbuf_printf(&p->b, ": %llu new, %llu widened</title></rect>",
			       (unsigned long long)v[i].added,
			       (unsigned long long)v[i].widened);
	}
	hm_sbuf_adds(&p->b, "<polyline fill=\"none\" stroke=\"#1971c2\" "
		     "stroke-width=\"2\" points=\"");
	for (size_t i = 0; i < n; i++) {
		total += v[i].added + v[i].widened;
		hm_sbuf_printf(&p->b, "%.1f,%.1f ", CURVE_PAD + step * (double)i,
			       CURVE_PAD + plot - plot * (double)total /
			       (double)max);
	}
	hm_sbuf_printf(&p->b, "\"/><text x=\"%d\" y=\"%d\" font-size=\"10\">",
		       CURVE_PAD, CURVE_H - 4);
	if (n)
		point_label(&p->b, v, 0, saves, skip);
	hm_sbuf_printf(&p->b, "</text><text x=\"%d\" y=\"%d\" font-size=\"10\" "
		       "text-anchor=\"end\">", CURVE_W - CURVE_PAD, CURVE_H - 4);
	if (n)
		point_label(&p->b, v, n - 1, saves, skip);
	hm_sbuf_printf(&p->b, "</text><text x=\"%d\" y=\"12\" font-size=\"10\">"
		       "%llu entries learned or widened, per %s</text></svg>",
		       CURVE_PAD, (unsigned long long)total, per);
}

/* Saves drawn at most: a plugin saves every minute. */
#define CURVE_SAVES 200

/* Per save, where the learner kept its saves: drawn as the days are,
 * the last CURVE_SAVES of them (the earlier ones summed into the first
 * bar, as the oldest days are). */
static void saves_curve(struct page *p, const struct hm_convergence *c)
{
	size_t skip = c->n_saves > CURVE_SAVES ? c->n_saves - CURVE_SAVES : 0;
	struct hm_conv_day *v;

	if (!c->n_saves)
		return;
	v = calloc(c->n_saves - skip, sizeof(*v));
	if (!v) {
		p->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < c->n_saves; i++) {
		struct hm_conv_day *d = &v[i < skip ? 0 : i - skip];

		d->day = c->saves[i].time;
		d->added += c->saves[i].added;
		d->widened += c->saves[i].widened;
	}
	hm_sbuf_printf(&p->b, "<h3>%zu saves, the last %llu with nothing "
		       "new</h3>\n", c->n_saves,
		       (unsigned long long)c->quiet_saves);
	curve_svg(p, v, c->n_saves - skip, true, skip);
	free(v);
}

static void convergence_section(struct page *p)
{
	const struct hm_convergence *c = p->conv;

	if (!c || !c->last_new)
		return;
	hm_sbuf_printf(&p->b, "<section id=\"convergence\"><h3>Learning: "
		       "%zu domains still learning, %zu quiet for days, %zu "
		       "quiet for events; last new entry ",
		       c->n_verdict[HM_VERDICT_LEARNING],
		       c->n_verdict[HM_VERDICT_QUIET_DAYS],
		       c->n_verdict[HM_VERDICT_QUIET_EVENTS]);
	day_label(&p->b, c->last_new);
	hm_sbuf_adds(&p->b, "</h3>\n");
	curve_svg(p, c->days, c->n_days, false, 0);
	saves_curve(p, c);
	hm_sbuf_adds(&p->b, "</section>\n");
}

static void page_tail(struct page *p)
{
	hm_sbuf_adds(&p->b, "\n</div></section>\n<aside>\n");
	sensitive_entries(p);
	several_logins(p);
	hm_sbuf_adds(&p->b, "<input id=\"search\" type=\"search\" placeholder=\""
		     "Search domains\" aria-label=\"Search domains\">\n"
		     "<div id=\"count\" class=\"muted\"></div>\n"
		     "<ul id=\"list\"></ul>\n<section id=\"detail\">"
		     "<h2 id=\"detail-name\">No domain selected</h2>"
		     "<dl id=\"detail-info\"></dl>"
		     "<h3 id=\"detail-acl-head\"></h3>"
		     "<div id=\"detail-acl\" class=\"lines\"></div>"
		     "<h3 id=\"detail-viol-head\"></h3>"
		     "<div id=\"detail-viol\" class=\"lines\"></div>"
		     "<div id=\"outside\"></div></section>\n");
	rare_entries(p);
	convergence_section(p);
	hm_sbuf_adds(&p->b, "</aside>\n</main>\n");
}

/* Nearest ancestor of each node that is a domain. */
static int link_domains(struct page *p)
{
	p->dom_parent = malloc((p->t.n + 1) * sizeof(*p->dom_parent));
	if (!p->dom_parent)
		return -ENOMEM;
	for (size_t i = 0; i < p->t.n; i++) {
		uint32_t a = p->t.v[i].parent;

		while (a != HM_TNONE && !p->t.v[a].dom)
			a = p->t.v[a].parent;
		p->dom_parent[i] = a;
	}
	return 0;
}

static int html_write(const struct hm_model *m, FILE *out,
		      const struct hm_export_opts *o)
{
	struct page p = { .m = m, .out = out };
	const char *title;
	char *svg = NULL;
	size_t svg_len = 0;
	const char *s;

	p.o = o ? o : &hm_export_default_opts;
	title = p.o->title ? p.o->title : "histmac policy report";
	p.err = hm_dtree_build(m, p.o->check, &p.t);
	if (!p.err)
		p.err = link_domains(&p);
	if (!p.err)
		p.err = hm_convergence_new(m, HM_CONV_QUIET_EVENTS, &p.conv);
	p.unused_before = hm_convergence_end(m) - (int64_t)p.o->unused * HM_DAY;
	if (!p.err)
		p.err = hm_tree_svg(m, p.o, &svg, &svg_len);
	if (!p.err) {
		page_head(&p, title);
		s = strstr(svg, "<svg");
		hm_sbuf_adds(&p.b, s ? s : "");
		free(svg);
		svg = NULL;
		page_tail(&p);
		flush_page(&p, true);
		page_data(&p);
		hm_sbuf_printf(&p.b, "<script>\n%s</script>\n</body></html>\n",
			       page_js);
		flush_page(&p, true);
	}
	free(svg);
	free(p.dom_parent);
	hm_convergence_free(p.conv);
	hm_sbuf_free(&p.b);
	hm_dtree_free(&p.t);
	return p.err ? p.err : hm_export_flush(out);
}

const struct hm_exporter hm_exporter_html = {
	.name = "html",
	.description = "one self-contained HTML page: tree, domains, ACL",
	.write = html_write,
};
