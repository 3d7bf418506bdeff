// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * dot.c - the domain tree as a picture: a libcgraph graph laid out and
 * rendered by libgvc (dot source, SVG, PNG, PDF), with no external dot.
 *
 * One node per domain drawn ("dom-SEQ", SEQ its place in name order):
 * the program's base name (with as many parent directories as tell it
 * from another program of the same base name: "init.d/apache2",
 * "sbin/apache2") and its ACL size as the label; the full name
 * and an ACL summary as the node name, which SVG shows as <title> (the
 * tooltip).  Fill colour = profile, octagons = unobserved history, red =
 * violations, dashed = an ancestor the policy does not hold.  Edges are
 * exec transitions (dashed where the exec itself was not observed).
 *
 * Big trees: nodes are taken breadth first, at most max_children per
 * parent (subtrees with violations first) and max_nodes in all; the rest
 * of a parent's children become one "+K more" node, and the graph's
 * label says how much was folded.  Reads the model; owns the graph while
 * it renders.  Graphviz messages go into opts->diag, never to stderr.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "export_private.h"

/* Longest base name shown in a label; the tooltip has the full name. */
#define LABEL_MAX 48

/* Leaves of one parent per rank before they are staggered; most ranks. */
#define STAGGER_MIN 8
#define STAGGER_MAX 6

/*
 * Largest bitmap side, in inches at 96 dpi: cairo cannot go past 32767
 * pixels (and Graphviz complains on stderr when asked to), and a bigger
 * picture is no use anyway.
 */
#define BITMAP_MAX_INCHES "100,100"

/* Fill colours per profile 0-3; others are white. */
static const char *const profile_fill[] = {
	"#e9ecef", "#fff3bf", "#ffd8a8", "#b2f2bb",
};

struct draw {
	const struct hm_model *m;
	const struct hm_export_opts *o;
	struct hm_dtree t;
	Agraph_t *g;
	Agnode_t **gn;		/* per tree node; NULL when not drawn */
	uint8_t *parts;		/* per tree node: path components labelled */
	Agedge_t **ge;		/* per tree node: the edge into it */
	Agedge_t **more_edge;	/* per tree node: edge to its "+K more" */
	uint32_t *queue;
	size_t qhead;
	size_t qtail;
	unsigned max_children;
	unsigned max_nodes;
	uint32_t base_depth;
	size_t n_drawn;		/* tree nodes drawn */
	size_t n_drawn_dom;	/* of which domains */
	size_t n_more;		/* "+K more" nodes */
	size_t n_folded;	/* tree nodes behind them */
	size_t n_cut;		/* tree nodes below --depth */
	size_t n_starved;	/* below drawn nodes, past max_nodes */
	int err;
};

/* Graphviz reports through a callback without a context pointer. */
static _Thread_local struct hm_diag *gv_diag;

static int gv_error(char *msg)
{
	size_t len = strlen(msg);

	while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' '))
		len--;
	hm_diag_add(gv_diag, HM_DIAG_WARNING, NULL, 0, "graphviz: %.*s",
		    (int)len, msg);
	return 0;
}

/* Append @len bytes for a Graphviz label: printable, '\' doubled. */
static void add_label_text(struct hm_sbuf *b, const char *s, size_t len)
{
	struct hm_sbuf p = { 0 };

	hm_sbuf_add_printable(&p, s, len);
	for (size_t i = 0; i < p.len; i++) {
		if (p.s[i] == '\\')
			hm_sbuf_addc(b, '\\');
		hm_sbuf_addc(b, p.s[i]);
	}
	if (p.oom)
		b->oom = true;
	hm_sbuf_free(&p);
}

/* The program of @n: its domain name's last word. */
static void program(const struct hm_tnode *n, const char **s, size_t *len)
{
	*s = n->name + n->word;
	*len = n->len - n->word;
}

/*
 * The last @parts '/'-separated components of @n's program ("apache2",
 * "sbin/apache2"), or all of it.
 */
static void name_suffix(const struct hm_tnode *n, unsigned parts,
			const char **s, size_t *len)
{
	const char *w;
	size_t wl;
	size_t end;

	program(n, &w, &wl);
	end = wl;
	while (end && w[end - 1] == '/')	/* a directory: keep its '/' */
		end--;
	for (size_t i = end; i > 0; i--) {
		if (w[i - 1] != '/' || i == wl || --parts)
			continue;
		*s = w + i;
		*len = wl - i;
		return;
	}
	*s = w;
	*len = wl;
}

/* Components @a and @b (programs) share at their ends, up to 255. */
static unsigned common_parts(const struct hm_tnode *a, const struct hm_tnode *b)
{
	const char *x;
	const char *y;
	size_t xl;
	size_t yl;
	unsigned parts = 0;

	program(a, &x, &xl);
	program(b, &y, &yl);
	while (xl && yl && x[xl - 1] == y[yl - 1]) {
		xl--;
		yl--;
		if (x[xl] == '/' && xl + 1 < a->len - a->word && parts < 255)
			parts++;
	}
	if ((!xl || x[xl - 1] == '/') && (!yl || y[yl - 1] == '/') &&
	    (xl || yl) && parts < 255)
		parts++;	/* a whole first component in common */
	return parts;
}

/* Programs compared from their ends: "b/x" < "a/y" < "c/y". */
static int cmp_rev(const struct hm_tnode *a, const struct hm_tnode *b)
{
	const char *x;
	const char *y;
	size_t xl;
	size_t yl;

	program(a, &x, &xl);
	program(b, &y, &yl);
	for (; xl && yl; xl--, yl--)
		if (x[xl - 1] != y[yl - 1])
			return (unsigned char)x[xl - 1] -
			       (unsigned char)y[yl - 1];
	return (xl > 0) - (yl > 0);
}

static const struct hm_dtree *sort_tree;	/* qsort has no argument */

static int cmp_rev_idx(const void *a, const void *b)
{
	return cmp_rev(&sort_tree->v[*(const uint32_t *)a],
		       &sort_tree->v[*(const uint32_t *)b]);
}

/*
 * How many trailing components each node's label shows: the fewest that
 * tell its program from every other program in the tree ("init.d/apache2"
 * and "sbin/apache2"; a base name that is unique stays alone).  Sorted by
 * their reversed names, a program shares the longest suffix with the
 * nearest different program on either side.
 */
static int label_parts(struct draw *dr)
{
	const struct hm_dtree *t = &dr->t;
	uint32_t *v = malloc((t->n + 1) * sizeof(*v));
	size_t i;
	size_t j;

	dr->parts = calloc(t->n + 1, 1);
	if (!v || !dr->parts) {
		free(v);
		return -ENOMEM;
	}
	for (i = 0; i < t->n; i++)
		v[i] = (uint32_t)i;
	sort_tree = t;
	qsort(v, t->n, sizeof(*v), cmp_rev_idx);
	for (i = 0; i < t->n; i = j) {
		unsigned need = 0;

		for (j = i + 1; j < t->n && !cmp_rev(&t->v[v[i]], &t->v[v[j]]);
		     j++)
			;
		if (i > 0)
			need = common_parts(&t->v[v[i]], &t->v[v[i - 1]]);
		if (j < t->n && common_parts(&t->v[v[i]], &t->v[v[j]]) > need)
			need = common_parts(&t->v[v[i]], &t->v[v[j]]);
		for (size_t k = i; k < j; k++)
			dr->parts[v[k]] = (uint8_t)(need < 255 ? need + 1 : 255);
	}
	free(v);
	return 0;
}

static void set(struct draw *dr, void *obj, const char *attr, const char *val)
{
	if (agsafeset(obj, (char *)attr, (char *)val, "") != 0)
		dr->err = -ENOMEM;
}

/* The node's name: full domain name, then what the tooltip tells. */
static void node_title(struct draw *dr, const struct hm_tnode *n,
		       struct hm_sbuf *b)
{
	const struct hm_check_domain *cd;
	char buf[32];

	hm_sbuf_add_printable(b, n->name, n->len);
	if (!n->dom) {
		hm_sbuf_adds(b, n->viol ? "\n(a domain the policy does not hold)" :
				 "\n(an ancestor the policy does not hold)");
	} else {
		hm_sbuf_printf(b, "\nprofile %u (%s)", n->dom->profile,
			       hm_profile_name(n->dom->profile, buf,
					       sizeof(buf)));
		if (n->dom->flags) {
			hm_sbuf_adds(b, "; ");
			hm_domain_flag_names(b, n->dom->flags, ", ");
		}
		hm_sbuf_addc(b, '\n');
		hm_acl_summary(b, n->dom);
	}
	cd = n->viol ? hm_check_result_find(dr->o->check, n->name, n->len) :
		       NULL;
	if (!cd)
		return;
	hm_sbuf_printf(b, "\n%zu violation%s", cd->count,
		       cd->count == 1 ? "" : "s");
	for (size_t i = 0; i < cd->n_lines && i < 5; i++) {
		hm_sbuf_adds(b, "\n  ");
		hm_sbuf_add_printable(b, cd->lines[i], strlen(cd->lines[i]));
	}
	if (cd->n_lines > 5)
		hm_sbuf_printf(b, "\n  ... %zu more", cd->n_lines - 5);
}

static void node_label(const struct hm_tnode *n, unsigned parts,
		       struct hm_sbuf *b)
{
	const char *s;
	size_t len;

	name_suffix(n, parts, &s, &len);
	if (len > LABEL_MAX) {
		add_label_text(b, s, LABEL_MAX / 2 - 2);
		hm_sbuf_adds(b, "...");
		add_label_text(b, s + len - (LABEL_MAX / 2 - 1),
			       LABEL_MAX / 2 - 1);
	} else {
		add_label_text(b, s, len);
	}
	if (!n->dom) {
		hm_sbuf_adds(b, "\\n(not in policy)");
	} else {
		hm_sbuf_printf(b, "\\n%zu ACL", n->dom->n_acl);
		if (n->dom->profile > HM_PROFILE_ENFORCING)
			hm_sbuf_printf(b, "\\nprofile %u", n->dom->profile);
		if (n->dom->flags & HM_DOMAIN_TRANSITION_FAILED)
			hm_sbuf_adds(b, "\\ntransition failed");
		if (n->dom->flags & HM_DOMAIN_QUOTA_EXCEEDED)
			hm_sbuf_adds(b, "\\nquota exceeded");
	}
	if (n->viol)
		hm_sbuf_printf(b, "\\n%u violation%s", n->viol,
			       n->viol == 1 ? "" : "s");
}

static void node_style(struct draw *dr, Agnode_t *gn, const struct hm_tnode *n)
{
	struct hm_sbuf cls = { 0 };
	unsigned flags = n->dom ? n->dom->flags : 0;
	unsigned prof = n->dom ? n->dom->profile : 0;

	if (!n->dom) {
		/* Dashed; red when the check saw violations in it. */
		set(dr, gn, "style", "rounded,dashed");
		set(dr, gn, "fontcolor", n->viol ? "#c92a2a" : "#868e96");
		set(dr, gn, "color", n->viol ? "#e03131" : "#868e96");
		if (n->viol)
			set(dr, gn, "penwidth", "3");
		set(dr, gn, "class", n->viol ? "absent violation" : "absent");
		return;
	}
	hm_sbuf_printf(&cls, "domain p%u", prof);
	set(dr, gn, "fillcolor", prof < HM_ARRAY_SIZE(profile_fill) ?
		profile_fill[prof] : "white");
	if (prof == HM_PROFILE_DISABLED)
		set(dr, gn, "style", "rounded,filled,dashed");
	if (prof == HM_PROFILE_ENFORCING)
		set(dr, gn, "penwidth", "2");
	if (flags & HM_DOMAIN_HISTORY_UNOBSERVED) {
		set(dr, gn, "shape", "octagon");
		hm_sbuf_adds(&cls, " history-unobserved");
	}
	if (flags & HM_DOMAIN_PARENT_UNOBSERVED) {
		set(dr, gn, "shape", "doubleoctagon");
		hm_sbuf_adds(&cls, " parent-unobserved");
	}
	if (n->viol) {
		set(dr, gn, "color", "#e03131");
		set(dr, gn, "fontcolor", "#c92a2a");
		set(dr, gn, "penwidth", "3");
		hm_sbuf_adds(&cls, " violation");
	}
	if (cls.oom)
		dr->err = -ENOMEM;
	set(dr, gn, "class", hm_sbuf_str(&cls));
	hm_sbuf_free(&cls);
}

static Agnode_t *new_node(struct draw *dr, const char *name, const char *id,
			  const char *label)
{
	Agnode_t *gn = agnode(dr->g, (char *)name, 1);

	if (!gn) {
		dr->err = -ENOMEM;
		return NULL;
	}
	set(dr, gn, "id", id);
	set(dr, gn, "label", label);
	return gn;
}

static Agedge_t *edge(struct draw *dr, Agnode_t *from, Agnode_t *to,
		      bool dashed)
{
	Agedge_t *e;

	if (!from || !to)
		return NULL;
	e = agedge(dr->g, from, to, NULL, 1);
	if (!e) {
		dr->err = -ENOMEM;
		return NULL;
	}
	if (dashed) {
		set(dr, e, "style", "dashed");
		set(dr, e, "color", "#868e96");
	}
	return e;
}

/* The SVG id of tree node @i: "dom-SEQ", or "absent-I". */
static void node_id(const struct hm_dtree *t, uint32_t i, char *buf,
		    size_t size)
{
	if (t->v[i].dom)
		snprintf(buf, size, "dom-%u", t->v[i].seq);
	else
		snprintf(buf, size, "absent-%u", i);
}

/* Draw tree node @i below drawn node @parent (HM_TNONE for a root). */
static void draw_node(struct draw *dr, uint32_t i, uint32_t parent)
{
	const struct hm_tnode *n = &dr->t.v[i];
	struct hm_sbuf title = { 0 };
	struct hm_sbuf label = { 0 };
	char id[32];
	unsigned unobs = HM_DOMAIN_HISTORY_UNOBSERVED |
			 HM_DOMAIN_PARENT_UNOBSERVED;
	bool dashed;

	node_title(dr, n, &title);
	node_label(n, dr->parts[i], &label);
	node_id(&dr->t, i, id, sizeof(id));
	if (title.oom || label.oom)
		dr->err = -ENOMEM;
	dr->gn[i] = new_node(dr, hm_sbuf_str(&title), id, hm_sbuf_str(&label));
	hm_sbuf_free(&title);
	hm_sbuf_free(&label);
	if (!dr->gn[i])
		return;
	node_style(dr, dr->gn[i], n);
	dr->n_drawn++;
	dr->n_drawn_dom += n->dom != NULL;
	dr->queue[dr->qtail++] = i;
	if (parent == HM_TNONE)
		return;
	dashed = !n->dom || !dr->t.v[parent].dom ||
		 (n->dom->flags & unobs);
	dr->ge[i] = edge(dr, dr->gn[parent], dr->gn[i], dashed);
}

/* One "+K more" node for the children of @parent not drawn. */
static void draw_more(struct draw *dr, uint32_t parent, size_t kids,
		      size_t nodes, size_t viol)
{
	struct hm_sbuf title = { 0 };
	struct hm_sbuf label = { 0 };
	char id[48];
	char pid[32];
	Agnode_t *gn;

	hm_sbuf_printf(&label, "+%zu more", kids);
	if (nodes > kids)
		hm_sbuf_printf(&label, "\\n(%zu domains)", nodes);
	if (viol)
		hm_sbuf_printf(&label, "\\n%zu violations", viol);
	hm_sbuf_printf(&title, "+%zu more children (%zu domains) of ", kids,
		       nodes);
	if (parent == HM_TNONE) {
		hm_sbuf_adds(&title, "no parent (roots)");
		snprintf(id, sizeof(id), "more-roots");
	} else {
		hm_sbuf_add_printable(&title, dr->t.v[parent].name,
				      dr->t.v[parent].len);
		node_id(&dr->t, parent, pid, sizeof(pid));
		snprintf(id, sizeof(id), "more-%s", pid);
	}
	hm_sbuf_adds(&title, "\nnot drawn: use --root to draw a subtree");
	if (title.oom || label.oom)
		dr->err = -ENOMEM;
	gn = new_node(dr, hm_sbuf_str(&title), id, hm_sbuf_str(&label));
	hm_sbuf_free(&title);
	hm_sbuf_free(&label);
	if (!gn)
		return;
	set(dr, gn, "shape", "note");
	set(dr, gn, "fillcolor", "#f8f9fa");
	set(dr, gn, "class", viol ? "more violation" : "more");
	if (viol)
		set(dr, gn, "color", "#e03131");
	dr->n_more++;
	dr->n_folded += nodes;
	if (parent != HM_TNONE)
		dr->more_edge[parent] = edge(dr, dr->gn[parent], gn, true);
}

/*
 * Draw the children (linked from @first) of drawn node @parent: those
 * with violations below first, then the others, while the limits allow.
 */
static void draw_children(struct draw *dr, uint32_t parent, uint32_t first)
{
	size_t shown = 0;
	size_t kids = 0;
	size_t nodes = 0;
	size_t viol = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t c = first; c != HM_TNONE; c = dr->t.v[c].next) {
			const struct hm_tnode *n = &dr->t.v[c];

			if ((pass == 0) != (n->viol_desc > 0))
				continue;
			if (shown < dr->max_children &&
			    dr->n_drawn < dr->max_nodes) {
				draw_node(dr, c, parent);
				shown++;
				continue;
			}
			kids++;
			nodes += 1 + n->n_desc;
			viol += n->viol_desc;
		}
	}
	if (kids)
		draw_more(dr, parent, kids, nodes, viol);
}

/* Say on drawn node @i's label that @n nodes below it are not drawn. */
static void add_below(struct draw *dr, uint32_t i, size_t n)
{
	struct hm_sbuf b = { 0 };
	char *label = agget(dr->gn[i], (char *)"label");

	hm_sbuf_printf(&b, "%s\\n+%zu below", label ? label : "", n);
	if (b.oom)
		dr->err = -ENOMEM;
	else
		set(dr, dr->gn[i], "label", b.s);
	hm_sbuf_free(&b);
}

/* Is drawn node @c a leaf of the drawing? */
static bool drawn_leaf(const struct draw *dr, uint32_t c)
{
	if (dr->more_edge[c])
		return false;
	for (uint32_t k = dr->t.v[c].first_child; k != HM_TNONE;
	     k = dr->t.v[k].next)
		if (dr->gn[k])
			return false;
	return true;
}

/*
 * Stagger the leaves of a parent with many of them over several ranks
 * (minlen 1, 2, 3, ...), as Graphviz's unflatten does, so a wide level
 * does not become one column thousands of nodes tall.
 */
static void stagger(struct draw *dr)
{
	char buf[16];

	for (size_t p = 0; p < dr->t.n && !dr->err; p++) {
		size_t leaves = 0;
		size_t k = 0;
		unsigned ranks;

		if (!dr->gn[p])
			continue;
		for (uint32_t c = dr->t.v[p].first_child; c != HM_TNONE;
		     c = dr->t.v[c].next)
			leaves += dr->gn[c] && drawn_leaf(dr, c);
		leaves += dr->more_edge[p] != NULL;
		if (leaves < STAGGER_MIN)
			continue;
		ranks = (unsigned)(leaves / STAGGER_MIN);
		if (ranks > STAGGER_MAX)
			ranks = STAGGER_MAX;
		for (uint32_t c = dr->t.v[p].first_child; c != HM_TNONE;
		     c = dr->t.v[c].next) {
			if (!dr->gn[c] || !drawn_leaf(dr, c) || !dr->ge[c])
				continue;
			snprintf(buf, sizeof(buf), "%zu", 1 + k++ % ranks);
			set(dr, dr->ge[c], "minlen", buf);
		}
		if (dr->more_edge[p]) {
			snprintf(buf, sizeof(buf), "%zu", 1 + k % ranks);
			set(dr, dr->more_edge[p], "minlen", buf);
		}
	}
}

/* Breadth first from the drawn roots, within --depth. */
static void draw_tree(struct draw *dr, uint32_t root)
{
	if (root != HM_TNONE) {
		dr->base_depth = dr->t.v[root].depth;
		draw_node(dr, root, HM_TNONE);
	} else {
		draw_children(dr, HM_TNONE, dr->t.first_root);
	}
	while (dr->qhead < dr->qtail && !dr->err) {
		uint32_t i = dr->queue[dr->qhead++];
		const struct hm_tnode *n = &dr->t.v[i];

		if (n->first_child == HM_TNONE)
			continue;
		if (dr->o->depth &&
		    n->depth - dr->base_depth >= dr->o->depth) {
			dr->n_cut += n->n_desc;
			add_below(dr, i, n->n_desc);
			continue;
		}
		if (dr->n_drawn >= dr->max_nodes) {
			dr->n_starved += n->n_desc;
			add_below(dr, i, n->n_desc);
			continue;
		}
		draw_children(dr, i, n->first_child);
	}
}

static void legend(struct draw *dr)
{
	struct hm_sbuf b = { 0 };
	char *html;

	hm_sbuf_adds(&b, "<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"2\""
			 " CELLPADDING=\"3\">");
	hm_sbuf_adds(&b, "<TR><TD COLSPAN=\"7\" BORDER=\"0\" ALIGN=\"LEFT\">"
			 "<B>");
	{
		const char *t = dr->o->title ? dr->o->title :
					       "histmac domain tree";

		hm_sbuf_add_html(&b, t, strlen(t));
	}
	hm_sbuf_adds(&b, "</B></TD></TR><TR><TD COLSPAN=\"7\" BORDER=\"0\""
			 " ALIGN=\"LEFT\">");
	hm_sbuf_printf(&b, "%zu domains; %zu drawn", dr->t.n_domains,
		       dr->n_drawn_dom);
	if (dr->n_drawn > dr->n_drawn_dom)
		hm_sbuf_printf(&b, " (and %zu ancestors the policy lacks)",
			       dr->n_drawn - dr->n_drawn_dom);
	if (dr->o->check)
		hm_sbuf_printf(&b, "; %zu violations in %zu domains",
			       dr->o->check->total, dr->o->check->n_domains);
	hm_sbuf_adds(&b, "</TD></TR>");
	if (dr->n_more || dr->n_cut || dr->n_starved) {
		hm_sbuf_adds(&b, "<TR><TD COLSPAN=\"7\" BORDER=\"0\""
				 " ALIGN=\"LEFT\"><FONT COLOR=\"#c92a2a\">");
		if (dr->n_more)
			hm_sbuf_printf(&b, "Collapsed: %zu nodes folded into %zu"
				       " '+K more' nodes (at most %u children"
				       " per parent, %u nodes in all). ",
				       dr->n_folded, dr->n_more,
				       dr->max_children, dr->max_nodes);
		if (dr->n_starved)
			hm_sbuf_printf(&b, "Not drawn: %zu nodes past the limit"
				       " of %u nodes in all ('+K below'). ",
				       dr->n_starved, dr->max_nodes);
		if (dr->n_cut)
			hm_sbuf_printf(&b, "Cut: %zu nodes below depth %u not"
				       " drawn ('+K below'). ", dr->n_cut,
				       dr->o->depth);
		hm_sbuf_adds(&b, "Use --root to draw a subtree.</FONT></TD>"
				 "</TR>");
	}
	hm_sbuf_printf(&b, "<TR><TD BGCOLOR=\"%s\">disabled</TD>"
		       "<TD BGCOLOR=\"%s\">learning</TD>"
		       "<TD BGCOLOR=\"%s\">permissive</TD>"
		       "<TD BGCOLOR=\"%s\">enforcing</TD>"
		       "<TD>octagon: history unobserved</TD>"
		       "<TD>double octagon: parent unobserved</TD>"
		       "<TD COLOR=\"#e03131\">red: violations</TD></TR>"
		       "</TABLE>", profile_fill[0], profile_fill[1],
		       profile_fill[2], profile_fill[3]);
	if (b.oom) {
		dr->err = -ENOMEM;
		hm_sbuf_free(&b);
		return;
	}
	html = agstrdup_html(dr->g, b.s);
	hm_sbuf_free(&b);
	if (!html) {
		dr->err = -ENOMEM;
		return;
	}
	set(dr, dr->g, "label", html);
	agstrfree(dr->g, html);
}

static void graph_defaults(struct draw *dr)
{
	static const char *const graph[][2] = {
		{ "rankdir", "LR" }, { "nodesep", "0.12" },
		{ "ranksep", "0.35" }, { "labelloc", "t" },
		{ "labeljust", "l" },
		{ "fontname", "Helvetica,Arial,sans-serif" },
		{ "fontsize", "11" }, { "bgcolor", "white" },
	};
	static const char *const node[][2] = {
		{ "shape", "box" }, { "style", "rounded,filled" },
		{ "fillcolor", "white" }, { "fontsize", "10" },
		{ "fontname", "Helvetica,Arial,sans-serif" },
		{ "margin", "0.06,0.03" },
		{ "height", "0.3" },
	};
	static const char *const edge_attrs[][2] = {
		{ "arrowsize", "0.6" }, { "color", "#495057" },
	};

	for (size_t i = 0; i < HM_ARRAY_SIZE(graph); i++)
		if (!agattr(dr->g, AGRAPH, (char *)graph[i][0],
			    (char *)graph[i][1]))
			dr->err = -ENOMEM;
	for (size_t i = 0; i < HM_ARRAY_SIZE(node); i++)
		if (!agattr(dr->g, AGNODE, (char *)node[i][0],
			    (char *)node[i][1]))
			dr->err = -ENOMEM;
	for (size_t i = 0; i < HM_ARRAY_SIZE(edge_attrs); i++)
		if (!agattr(dr->g, AGEDGE, (char *)edge_attrs[i][0],
			    (char *)edge_attrs[i][1]))
			dr->err = -ENOMEM;
}

/* Build the graph of @m into @dr (dr->m and dr->o set). */
static int build_graph(struct draw *dr)
{
	uint32_t root;
	int r;

	dr->max_children = dr->o->max_children ? dr->o->max_children :
						 HM_TREE_MAX_CHILDREN;
	dr->max_nodes = dr->o->max_nodes ? dr->o->max_nodes :
					   HM_TREE_MAX_NODES;
	r = hm_dtree_build(dr->m, dr->o->check, &dr->t);
	if (r)
		return r;
	r = hm_export_root(&dr->t, dr->o, &root);
	if (r)
		return r;
	dr->gn = calloc(dr->t.n + 1, sizeof(*dr->gn));
	dr->ge = calloc(dr->t.n + 1, sizeof(*dr->ge));
	dr->more_edge = calloc(dr->t.n + 1, sizeof(*dr->more_edge));
	dr->queue = calloc(dr->t.n + 1, sizeof(*dr->queue));
	dr->g = agopen((char *)"domains", Agdirected, NULL);
	if (!dr->gn || !dr->ge || !dr->more_edge || !dr->queue || !dr->g ||
	    label_parts(dr))
		return -ENOMEM;
	graph_defaults(dr);
	if (!dr->err)
		draw_tree(dr, root);
	if (!dr->err)
		stagger(dr);
	if (!dr->err)
		legend(dr);
	return dr->err;
}

static void draw_free(struct draw *dr)
{
	if (dr->g)
		agclose(dr->g);
	free(dr->gn);
	free(dr->ge);
	free(dr->more_edge);
	free(dr->queue);
	free(dr->parts);
	hm_dtree_free(&dr->t);
}

/*
 * The Graphviz context, made once and kept for the life of the process.
 * Graphviz 2.42's pango text layout caches a pointer to the last font
 * name it measured, and that name lives in the context's font table:
 * after gvFreeContext() the next context's first layout reads freed
 * memory (ASan sees it).  One context that is never freed keeps the
 * table, and the cached name, alive.  It stays reachable, so it is no
 * leak; Graphviz is not thread-safe anyway.
 */
static GVC_t *gv_context(void)
{
	static GVC_t *gvc;

	if (!gvc)
		gvc = gvContext();
	return gvc;
}

#ifdef HM_ASAN	/* histmac/common.h */
const char *__lsan_default_suppressions(void);

/*
 * LeakSanitizer: what Graphviz's layout and its font stack (fontconfig,
 * pango, cairo, glib) keep for the life of the process is not ours to
 * free.  libcgraph is not listed, so a graph we forget to agclose() is
 * still reported.  Only in sanitizer builds (HISTMAC_SANITIZE).
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:libgvc.so\n"
	       "leak:libgvplugin_\n"
	       "leak:libfontconfig.so\n"
	       "leak:libpango\n"
	       "leak:libcairo.so\n"
	       "leak:libglib-2.0.so\n"
	       "leak:libgobject-2.0.so\n"
	       "leak:libharfbuzz.so\n"
	       "leak:libfreetype.so\n";
}
#endif

/* Lay out and render a built graph as @format to @out or into memory. */
static int layout_render(struct draw *dr, const char *format, FILE *out,
			 char **mem, unsigned int *mem_len)
{
	GVC_t *gvc = gv_context();
	int r = 0;

	if (!gvc)
		return -ENOMEM;
	if (gvLayout(gvc, dr->g, "dot") != 0) {
		r = -EIO;
	} else {
		if (out && gvRender(gvc, dr->g, format, out) != 0)
			r = -ENOTSUP;
		if (mem && gvRenderData(gvc, dr->g, format, mem, mem_len) != 0)
			r = -ENOTSUP;
		gvFreeLayout(gvc, dr->g);
	}
	return r;
}

/* Render @m as @format to @out, or into *@mem ("dot": unlaid source). */
static int render(const struct hm_model *m, const struct hm_export_opts *o,
		  const char *format, FILE *out, char **mem,
		  unsigned int *mem_len)
{
	struct draw dr = { .m = m, .o = o ? o : &hm_export_default_opts };
	struct hm_diag *saved = gv_diag;
	agusererrf saved_f;
	int r;

	gv_diag = dr.o->diag;
	saved_f = agseterrf(gv_error);
	r = build_graph(&dr);
	if (!r && !strcmp(format, "png"))
		set(&dr, dr.g, "size", BITMAP_MAX_INCHES);
	if (!r && !strcmp(format, "dot") && out) {
		if (agwrite(dr.g, out) != 0)
			r = -EIO;
	} else if (!r) {
		r = layout_render(&dr, format, out, mem, mem_len);
	}
	draw_free(&dr);
	agseterrf(saved_f);
	gv_diag = saved;
	if (r || !out)
		return r;
	return hm_export_flush(out);
}

int hm_tree_svg(const struct hm_model *m, const struct hm_export_opts *o,
		char **out, size_t *len)
{
	char *data = NULL;
	unsigned int n = 0;
	int r = render(m, o, "svg", NULL, &data, &n);

	if (r) {
		if (data)
			gvFreeRenderData(data);
		return r;
	}
	*out = malloc((size_t)n + 1);
	if (*out) {
		memcpy(*out, data, n);
		(*out)[n] = '\0';
		*len = n;
	}
	gvFreeRenderData(data);
	return *out ? 0 : -ENOMEM;
}

static int dot_write(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o)
{
	return render(m, o, "dot", out, NULL, NULL);
}

static int svg_write(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o)
{
	return render(m, o, "svg", out, NULL, NULL);
}

static int png_write(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o)
{
	return render(m, o, "png", out, NULL, NULL);
}

static int pdf_write(const struct hm_model *m, FILE *out,
		     const struct hm_export_opts *o)
{
	return render(m, o, "pdf", out, NULL, NULL);
}

const struct hm_exporter hm_exporter_dot = {
	.name = "dot",
	.description = "the domain tree as Graphviz dot source",
	.write = dot_write,
};

const struct hm_exporter hm_exporter_svg = {
	.name = "svg",
	.description = "the domain tree drawn as SVG (tooltips: name, ACL)",
	.write = svg_write,
};

const struct hm_exporter hm_exporter_png = {
	.name = "png",
	.description = "the domain tree drawn as a PNG image",
	.write = png_write,
};

const struct hm_exporter hm_exporter_pdf = {
	.name = "pdf",
	.description = "the domain tree drawn as PDF",
	.write = pdf_write,
};
