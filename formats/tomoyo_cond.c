// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tomoyo_cond.c - conditions appended to ACL lines ("task.uid=0",
 * "exec.realpath=\"/bin/dash\"", "path1.uid=task.uid", "task.uid=0-999",
 * "task.gid=@GROUP").  Items the checker can evaluate become enum
 * hm_cond_var; every other item TOMOYO accepts is kept as text
 * (HM_COND_OTHER), so it is written back exactly.  The condition's
 * canonical text is its items joined by single spaces; the model interns
 * it (hm_model_cond()).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tomoyo_private.h"

enum lt {
	L_NUM,		/* number, range, @number_group or a numeric keyword */
	L_STR,		/* "string" or @path_group */
	L_LOG,		/* yes | no */
	L_TYPE18,	/* 1.8 task.type: execute_handler, ... */
};

struct left_kw {
	const char *name;
	uint8_t var;		/* enum hm_cond_var */
	uint8_t type;		/* enum lt */
	uint8_t dialects;
	uint8_t val;		/* enum hm_cond_value it reads; HM_CV_NONE:
				 * the evaluator cannot read it */
};

#define M HM_DMODERN
/* path1's own attributes are evaluated (@on 1); path2 and parents not */
#define PK(p, s, on, v) { p s, HM_COND_OTHER, L_NUM, M, (on) ? (v) : HM_CV_NONE }
#define PATH_KWS(p, on)                                          \
	PK(p, ".uid", on, HM_CV_PATH1_UID),                      \
	PK(p, ".gid", on, HM_CV_PATH1_GID),                      \
	PK(p, ".ino", on, HM_CV_PATH1_INO),                      \
	PK(p, ".major", on, HM_CV_PATH1_MAJOR),                  \
	PK(p, ".minor", on, HM_CV_PATH1_MINOR),                  \
	PK(p, ".perm", on, HM_CV_PATH1_PERM),                    \
	PK(p, ".type", on, HM_CV_PATH1_TYPE),                    \
	PK(p, ".dev_major", on, HM_CV_PATH1_DEV_MAJOR),          \
	PK(p, ".dev_minor", on, HM_CV_PATH1_DEV_MINOR),          \
	{ p ".parent.uid", HM_COND_OTHER, L_NUM, M },            \
	{ p ".parent.gid", HM_COND_OTHER, L_NUM, M },            \
	{ p ".parent.ino", HM_COND_OTHER, L_NUM, M },            \
	{ p ".parent.perm", HM_COND_OTHER, L_NUM, M }

#define TK(s, v) { s, v, L_NUM, M, HM_CV_TASK_UID + (v) }
/* Left sides (common.c tomoyo_condition_keyword, plus 1.8's extras). */
static const struct left_kw left_kws[] = {
	TK("task.uid", HM_COND_TASK_UID),
	TK("task.euid", HM_COND_TASK_EUID),
	TK("task.suid", HM_COND_TASK_SUID),
	TK("task.fsuid", HM_COND_TASK_FSUID),
	TK("task.gid", HM_COND_TASK_GID),
	TK("task.egid", HM_COND_TASK_EGID),
	TK("task.sgid", HM_COND_TASK_SGID),
	TK("task.fsgid", HM_COND_TASK_FSGID),
	TK("task.pid", HM_COND_TASK_PID),
	TK("task.ppid", HM_COND_TASK_PPID),
	{ "exec.argc", HM_COND_EXEC_ARGC, L_NUM, M, HM_CV_EXEC_ARGC },
	{ "exec.envc", HM_COND_OTHER, L_NUM, M, HM_CV_EXEC_ENVC },
	{ "exec.realpath", HM_COND_EXEC_REALPATH, L_STR, M },
	{ "symlink.target", HM_COND_SYMLINK_TARGET, L_STR, M },
	PATH_KWS("path1", 1),
	PATH_KWS("path2", 0),
	{ "grant_log", HM_COND_OTHER, L_LOG, M },
	{ "task.type", HM_COND_OTHER, L_TYPE18, HM_D18 },
	{ "task.domain", HM_COND_OTHER, L_STR, HM_D18 },
	{ "task.exe", HM_COND_OTHER, L_STR, HM_D18 },
	{ "auto_domain_transition", HM_COND_OTHER, L_STR, HM_D18 },
};

/* Constants a numeric right side may name: a file type (path1.type),
 * else a mode bit (path1.perm); TOMOYO's values (condition.c). */
static const struct num_const {
	const char *name;
	uint32_t type;
	uint32_t bit;
} num_consts[] = {
	{ "socket", S_IFSOCK, 0 }, { "symlink", S_IFLNK, 0 },
	{ "file", S_IFREG, 0 }, { "block", S_IFBLK, 0 },
	{ "directory", S_IFDIR, 0 }, { "char", S_IFCHR, 0 },
	{ "fifo", S_IFIFO, 0 },
	{ "setuid", 0, S_ISUID }, { "setgid", 0, S_ISGID },
	{ "sticky", 0, S_ISVTX }, { "owner_read", 0, S_IRUSR },
	{ "owner_write", 0, S_IWUSR }, { "owner_execute", 0, S_IXUSR },
	{ "group_read", 0, S_IRGRP }, { "group_write", 0, S_IWGRP },
	{ "group_execute", 0, S_IXGRP }, { "others_read", 0, S_IROTH },
	{ "others_write", 0, S_IWOTH }, { "others_execute", 0, S_IXOTH },
};

static const struct num_const *find_const(const char *s, size_t n)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(num_consts); i++)
		if (hm_word_eq(s, n, num_consts[i].name))
			return &num_consts[i];
	return NULL;
}

/* Transit preferences of file execute (condition.c). */
static const char *const transit_words[] = {
	"keep", "child", "initialize", "reset", "parent",
};

static bool in_list(const char *s, size_t n, const char *const *list,
		    size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (hm_word_eq(s, n, list[i]))
			return true;
	return false;
}

static const struct left_kw *find_left(const char *s, size_t n)
{
	for (size_t i = 0; i < HM_ARRAY_SIZE(left_kws); i++)
		if (hm_word_eq(s, n, left_kws[i].name))
			return &left_kws[i];
	return NULL;
}

/* A parsed left side. */
struct left {
	struct left_kw kw;	/* a copy; argv/envp fill in their own */
	uint32_t index;		/* exec.argv[index] */
	bool is_envp;
	const struct hm_name *env;	/* exec.envp["env"] */
};

/* "exec.argv[N]" or "exec.envp[\"NAME\"]" */
static bool parse_indexed(struct hm_pctx *c, const char *s, size_t n,
			  struct left *l)
{
	static const char argv[] = "exec.argv[", envp[] = "exec.envp[\"";
	uint64_t v;
	uint8_t radix;

	l->kw = (struct left_kw){ NULL, HM_COND_OTHER, L_STR, M, HM_CV_NONE };
	if (n > sizeof(argv) && !memcmp(s, argv, sizeof(argv) - 1) &&
	    s[n - 1] == ']') {
		if (!hm_tomoyo_ulong(s + sizeof(argv) - 1,
				     n - sizeof(argv), &v, &radix) ||
		    radix != HM_RADIX_DEC || v > UINT32_MAX)
			return false;
		l->kw.var = HM_COND_EXEC_ARGV;
		l->index = (uint32_t)v;
		return true;
	}
	if (n > sizeof(envp) + 1 && !memcmp(s, envp, sizeof(envp) - 1) &&
	    s[n - 2] == '"' && s[n - 1] == ']') {
		l->is_envp = true;
		return !hm_tomoyo_word(c, s + sizeof(envp) - 1,
				       n - sizeof(envp) - 1,
				       "environment variable name", &l->env);
	}
	return false;
}

static bool parse_left(struct hm_pctx *c, const char *s, size_t n,
		       struct left *l)
{
	const struct left_kw *kw = find_left(s, n);

	memset(l, 0, sizeof(*l));
	if (kw) {
		l->kw = *kw;
		return true;
	}
	return parse_indexed(c, s, n, l);
}

/*
 * Right side of a numeric item: a number, a range, @group, another
 * value (path1.uid=task.uid) or a constant (path1.type=file,
 * path1.perm=setuid).  Only the first three keep a public @var; the
 * evaluator reads @lval, @rval, @rtype and @rbits.
 */
static int right_num(struct hm_pctx *c, const char *s, size_t n,
		     struct hm_cond_item *it, const struct left_kw *left)
{
	const struct left_kw *kw = find_left(s, n);
	const struct num_const *k = find_const(s, n);
	bool ok = left->val != HM_CV_NONE;

	it->lval = left->val;
	it->test = HM_CT_NUM;
	if (kw && kw->type == L_NUM) {
		it->var = HM_COND_OTHER;
		it->rval = kw->val;
		ok &= kw->val != HM_CV_NONE;
	} else if (k) {
		it->var = HM_COND_OTHER;
		it->rtype = k->type;
		it->rbits = k->bit;
		ok &= k->type ? left->val == HM_CV_PATH1_TYPE :
				left->val == HM_CV_PATH1_PERM;
	} else if (left->var == HM_COND_OTHER) {
		it->var = HM_COND_OTHER;
	}
	if (!ok)
		it->test = HM_CT_UNKNOWN;
	return kw || k ? 0 : hm_tomoyo_number(c, s, n, true, &it->num);
}

/* Right side of a string item: "word", @path_group, NULL (envp). */
static int right_str(struct hm_pctx *c, const char *s, size_t n,
		     struct hm_cond_item *it, const struct left *l)
{
	const struct hm_group *g;

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		if (n == 2)
			return hm_pctx_fail(c, hm_model_intern(c->m, "", 0,
							       &it->str),
					    "string");
		if (l->is_envp) {
			it->test = HM_CT_ENVP;
			it->key = l->env;
		}
		return hm_tomoyo_word(c, s + 1, n - 2, "string", &it->str);
	}
	it->var = HM_COND_OTHER;
	it->test = HM_CT_UNKNOWN;	/* @group: not evaluated */
	if (n > 1 && s[0] == '@')
		return hm_tomoyo_group(c, s + 1, n - 1, HM_GROUP_PATH, &g);
	if (l->is_envp && hm_word_eq(s, n, "NULL")) {
		it->test = HM_CT_ENVP;
		it->key = l->env;
		return 0;
	}
	hm_pctx_error(c, "bad condition value '%.*s' (a quoted string or "
		      "@group)", (int)(n > 80 ? 80 : n), s);
	return -EINVAL;
}

/* Where "=" splits an item: the first one outside double quotes. */
static const char *find_eq(const char *s, size_t n)
{
	bool quoted = false;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			quoted = !quoted;
		else if (s[i] == '=' && !quoted)
			return s + i;
	}
	return NULL;
}

static int parse_item(struct hm_pctx *c, const char *s, size_t n,
		      struct hm_cond_item *it)
{
	const char *eq = find_eq(s, n);
	const char *rs;
	size_t ln;
	size_t rn;
	struct left l;

	if (!eq || eq == s) {
		hm_pctx_error(c, "bad condition '%.*s': expected left=right",
			      (int)(n > 80 ? 80 : n), s);
		return -EINVAL;
	}
	ln = (size_t)(eq - s);
	it->negate = eq[-1] == '!';
	if (it->negate)
		ln--;
	rs = eq + 1;
	rn = n - (size_t)(rs - s);
	if (!ln || !rn || !parse_left(c, s, ln, &l)) {
		hm_pctx_error(c, "bad condition '%.*s': unknown keyword '%.*s'",
			      (int)(n > 80 ? 80 : n), s,
			      (int)(ln > 80 ? 80 : ln), s);
		return -EINVAL;
	}
	if (!(l.kw.dialects & (1u << c->dialect)) &&
	    c->dialect != HM_DIALECT_21) {
		hm_pctx_error(c, "condition keyword '%.*s' is not %s syntax",
			      (int)ln, s, hm_dialect_titles[c->dialect]);
		return -EINVAL;
	}
	it->var = l.kw.var;
	it->index = l.index;
	switch (l.kw.type) {
	case L_NUM:
		return right_num(c, rs, rn, it, &l.kw);
	case L_STR:
		return right_str(c, rs, rn, it, &l);
	case L_LOG:
		it->test = HM_CT_INERT;		/* logging, not a test */
		if (hm_word_eq(rs, rn, "yes") || hm_word_eq(rs, rn, "no"))
			return 0;
		break;
	default:
		if (hm_word_eq(rs, rn, "execute_handler") ||
		    hm_word_eq(rs, rn, "denied_execute_handler"))
			return 0;
		break;
	}
	hm_pctx_error(c, "bad condition value '%.*s'", (int)(rn > 80 ? 80 : rn),
		      rs);
	return -EINVAL;
}

/*
 * A transit preference that may open an execute line's condition:
 * keep/child/initialize/reset/parent, a domain name, or a path.  Sets
 * *@n to its length (a domain name spans several words).
 */
static bool transit_item(struct hm_pctx *c, const char *s, size_t *n,
			 size_t avail)
{
	const char *end = s + *n;
	const struct hm_name *name;

	if (in_list(s, *n, transit_words, HM_ARRAY_SIZE(transit_words)))
		return true;
	if (find_eq(s, *n))
		return false;
	if (s[0] == '<') {
		/* The domain runs while the next word starts with '/'. */
		while (end + 1 < s + avail && end[0] == ' ' && end[1] == '/') {
			const char *sp = memchr(end + 1, ' ',
						(size_t)(s + avail - end - 1));

			end = sp ? sp : s + avail;
		}
		*n = (size_t)(end - s);
		return !hm_tomoyo_domainname(c, s, *n, &name);
	}
	return !hm_tomoyo_path(c, s, *n, "transition target", &name);
}

/* Count the words of @s: an upper bound on the items. */
static size_t count_words(const char *s, size_t n)
{
	size_t k = 1;

	for (size_t i = 0; i < n; i++)
		k += s[i] == ' ';
	return k;
}

static int parse_items(struct hm_pctx *c, const char *s, size_t n,
		       bool execute_only, struct hm_cond *cond)
{
	struct hm_words w = { s, s + n };
	const char *ws;
	size_t wn;
	int r;

	while (hm_words_next(&w, &ws, &wn)) {
		struct hm_cond_item *it = &cond->items[cond->n_items];

		memset(it, 0, sizeof(*it));
		if (!cond->n_items && execute_only &&
		    !find_eq(ws, wn)) {
			if (!transit_item(c, ws, &wn, (size_t)(s + n - ws)))
				return -EINVAL;
			it->var = HM_COND_OTHER;
			it->test = HM_CT_INERT;	/* where to go, not a test */
			w.p = ws + wn;
		} else if ((r = parse_item(c, ws, wn, it))) {
			return r;
		}
		r = hm_model_intern(c->m, ws, wn, &it->text);
		if (r)
			return hm_pctx_fail(c, r, "condition");
		cond->n_items++;
	}
	return 0;
}

int hm_tomoyo_cond(struct hm_pctx *c, const char *s, size_t n,
		   bool execute_only, const struct hm_cond **out)
{
	size_t max = count_words(s, n);
	struct hm_cond *cond = calloc(1, sizeof(*cond) +
					     max * sizeof(cond->items[0]));
	int r;

	if (!cond)
		return hm_pctx_fail(c, -ENOMEM, "condition");
	r = parse_items(c, s, n, execute_only, cond);
	if (!r)
		r = hm_model_intern(c->m, s, n, &cond->text);
	if (!r)
		r = hm_model_cond(c->m, cond, out);
	free(cond);
	if (r == -ENOMEM)
		return hm_pctx_fail(c, r, "condition");
	return r;
}

unsigned hm_tomoyo_cond_dialects(const struct hm_cond *cond,
				 const struct hm_name **why)
{
	unsigned mask = HM_DMODERN;

	for (uint32_t i = 0; cond && i < cond->n_items; i++) {
		const struct hm_cond_item *it = &cond->items[i];
		const char *eq;
		const struct left_kw *kw;
		size_t ln;

		if (it->var != HM_COND_OTHER || !it->text)
			continue;
		eq = find_eq(it->text->str, it->text->len);
		if (!eq)
			continue;	/* a transit preference */
		ln = (size_t)(eq - it->text->str);
		if (ln && eq[-1] == '!')
			ln--;
		kw = find_left(it->text->str, ln);
		if (kw && (mask & ~kw->dialects)) {
			mask &= kw->dialects;
			if (why)
				*why = it->text;
		}
	}
	return mask;
}

const struct hm_name *hm_tomoyo_cond_argv0(const struct hm_cond *cond)
{
	const struct hm_cond_item *it;

	if (!cond || cond->n_items != 1)
		return NULL;
	it = &cond->items[0];
	if (it->var != HM_COND_EXEC_ARGV || it->index || it->negate ||
	    !it->str || !it->str->len || !it->text ||
	    it->text->len != it->str->len + sizeof("exec.argv[0]=\"\"") - 1)
		return NULL;
	return it->str;
}

int hm_tomoyo_cond_item_eval(struct hm_model *m, struct hm_cond_item *it)
{
	struct hm_pctx c = { .m = m, .dialect = HM_DIALECT_18 };
	struct hm_cond_item t = { 0 };

	if (!it->text)
		return 0;
	if (!find_eq(it->text->str, it->text->len)) {
		if (it->var == HM_COND_OTHER)
			it->test = HM_CT_INERT;	/* a transit preference */
		return 0;
	}
	if (parse_item(&c, it->text->str, it->text->len, &t))
		return c.oom ? -ENOMEM : 0;	/* stays "cannot evaluate" */
	/* what only the evaluator reads; the rest stays as imported (and
	 * exported again), but for an item kept as text */
	it->test = t.test;
	it->lval = t.lval;
	it->rval = t.rval;
	it->rbits = t.rbits;
	it->rtype = t.rtype;
	it->key = t.key;
	if (it->var == HM_COND_OTHER) {
		it->num = t.num;
		it->str = t.str;
	}
	return 0;
}
