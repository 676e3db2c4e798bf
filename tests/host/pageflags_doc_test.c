/*
 * pageflags_doc_test.c - docs/page-flags.rst held to the code.
 *
 * Usage: pageflags_doc_test <docs/page-flags.rst> <function list>
 *
 * Every section of the document that carries the fixed field list
 *
 *     :bit: 3
 *     :name: PG_uptodate
 *     :alias of: (none)            or the primary flag of the bit, e.g. PG_owner_priv_1
 *     :policy: PF_NO_TAIL
 *     :scope: per folio            per page / per folio / second page
 *     :tinymm: folio_mark_uptodate() sets it; ...
 *     :used by: include/tinymm/page-flags.h:folio_mark_uptodate    (or -: nothing sets it yet)
 *
 * is one accessor name of the code's table (pageflag_table, mm/page_flags.c).  The test fails,
 * naming each problem, when a name of the table has no section or a section names something the
 * table lacks; when a section's bit, alias-of or policy differs from the code; when the sections
 * are out of bit order (a bit's primary flag first, then its aliases); when a section's title
 * is not its flag's name; when a function written as `name()` in a :tinymm: field is not in
 * the function list; when :used by: is not the row's used_by (PF_USED_BY_* in mm/page_flags.c,
 * the `page-flags` command's last column, itself held to the code by host.pageflags_users); and
 * when the section "Flags tinymm does not use yet" does not name, as ``PG_x``, exactly the rows
 * whose used_by is "-".  The list (every function tinymm defines, one per line) is made at build
 * time by cmake/host.cmake from nm of the portable objects, the preprocessed headers (so the
 * generated accessors are in it) and a scan of all C sources for definitions.
 *
 * The unit cases run the checker on documents built here from the table, then broken on
 * purpose (a wrong bit, a missing or extra section, a misspelt function...), so a checker that
 * accepted everything would fail them; the last case checks the real document.
 */
#include <ctype.h>
#include "test.h"
#include "tinymm/mm.h"

const char *pageflag_name(int bit);	/* mm/debug.c: the primary name of a bit */

static const char *doc_path, *funcs_path;
static char *funcs_text;		/* the function list, loaded once */

/* ---- problems: one line each, all of them reported, not just the first ---- */
struct problems {
	char text[32768];
	size_t len;
	int count;
};

static void problem(struct problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct problems *p, const char *fmt, ...)
{
	va_list ap;

	p->count++;
	if (p->len >= sizeof(p->text) - 1)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(p->text + p->len, sizeof(p->text) - p->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len = p->len + (size_t)n < sizeof(p->text) - 1 ? p->len + (size_t)n : sizeof(p->text) - 2;
	p->text[p->len++] = '\n';
	p->text[p->len] = '\0';
}

/* ---- the document ---- */
enum field { F_BIT, F_NAME, F_ALIAS_OF, F_POLICY, F_SCOPE, F_TINYMM, F_USED_BY, NR_FIELDS };
static const char *const field_names[NR_FIELDS] = {
	"bit", "name", "alias of", "policy", "scope", "tinymm", "used by",
};

#define MAX_SECTIONS	128
#define FIELD_MAX	1024

struct section {
	char title[128];
	int line;			/* of the title */
	bool has[NR_FIELDS];
	char value[NR_FIELDS][FIELD_MAX];
};

static bool is_adornment(const char *s, size_t len)
{
	if (len < 2 || !strchr("=-~^\"'`#*+", s[0]))
		return false;
	for (size_t i = 1; i < len; i++)
		if (s[i] != s[0])
			return false;
	return true;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	while (isspace((unsigned char)s[i]))
		i++;
	memmove(s, s + i, n - i + 1);
}

static void append(char *dst, const char *src, size_t srclen)
{
	size_t n = strlen(dst);

	if (n + srclen + 2 > FIELD_MAX)
		srclen = FIELD_MAX - n - 2;
	if (n)
		dst[n++] = ' ';
	memcpy(dst + n, src, srclen);
	dst[n + srclen] = '\0';
}

/*
 * Split @text into sections (a title line underlined by a run of one punctuation character at
 * least as long) and collect each section's field list.  Returns the number of sections that
 * have at least one of the six fields: the flag sections.
 */
static int parse_doc(const char *text, struct section *out, int max, struct problems *p)
{
	struct section cur = { .line = 0 };
	int n = 0, field = -1, lineno = 0;
	const char *s = text, *prev = NULL;
	size_t prev_len = 0;

	for (;;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		lineno++;
		if (len && s[len - 1] == '\r')
			len--;
		bool blank = true;
		for (size_t i = 0; i < len; i++)
			blank = blank && isspace((unsigned char)s[i]);

		if (prev && prev_len && !isspace((unsigned char)prev[0]) && !is_adornment(prev, prev_len) &&
		    is_adornment(s, len) && len >= prev_len) {
			/* prev is a title: close the section before it, start a new one */
			bool any = false;
			for (int f = 0; f < NR_FIELDS; f++)
				any = any || cur.has[f];
			if (any) {
				if (n < max)
					out[n] = cur;
				n++;
			}
			memset(&cur, 0, sizeof(cur));
			memcpy(cur.title, prev, prev_len < sizeof(cur.title) ? prev_len : sizeof(cur.title) - 1);
			trim(cur.title);
			cur.line = lineno - 1;
			field = -1;
		} else if (len > 1 && s[0] == ':') {
			/* a field is ":key: value"; ":c:func:`x`" and other roles are not */
			const char *colon = memchr(s + 1, ':', len - 1);
			field = -1;
			if (colon && (colon + 1 == s + len || isspace((unsigned char)colon[1]))) {
				size_t klen = (size_t)(colon - s - 1);
				for (int f = 0; f < NR_FIELDS; f++)
					if (strlen(field_names[f]) == klen && !strncmp(s + 1, field_names[f], klen))
						field = f;
				if (field < 0) {
					problem(p, "line %d: unknown field \":%.*s:\" in section \"%s\" "
						"(the fields are :bit: :name: :alias of: :policy: :scope: :tinymm: "
						":used by:)",
						lineno, (int)klen, s + 1, cur.title);
				} else if (cur.has[field]) {
					problem(p, "line %d: section \"%s\" has :%s: twice", lineno, cur.title,
						field_names[field]);
				} else {
					cur.has[field] = true;
					append(cur.value[field], colon + 1, len - (size_t)(colon + 1 - s));
					trim(cur.value[field]);
				}
			}
		} else if (field >= 0 && !blank && isspace((unsigned char)s[0])) {
			append(cur.value[field], s, len);	/* an indented continuation line */
			trim(cur.value[field]);
		} else {
			field = -1;
		}
		prev = s;
		prev_len = len;
		if (!e)
			break;
		s = e + 1;
	}
	bool any = false;
	for (int f = 0; f < NR_FIELDS; f++)
		any = any || cur.has[f];
	if (any) {
		if (n < max)
			out[n] = cur;
		n++;
	}
	if (n > max)
		problem(p, "more than %d flag sections; the test keeps only the first %d", max, max);
	return n < max ? n : max;
}

/* ---- the function list ---- */
static bool function_exists(const char *list, const char *name, size_t len)
{
	for (const char *s = list; *s;) {
		const char *e = strchr(s, '\n');
		size_t l = e ? (size_t)(e - s) : strlen(s);
		if (l == len && !memcmp(s, name, len))
			return true;
		if (!e)
			break;
		s = e + 1;
	}
	return false;
}

/* Every identifier written as "name()" in @text must be in @list. */
static void check_functions(const char *text, const char *list, const struct section *sec,
			    struct problems *p)
{
	for (const char *s = text; (s = strstr(s, "()")); s += 2) {
		const char *b = s;
		while (b > text && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		if (b == s || isdigit((unsigned char)*b))
			continue;
		if (!function_exists(list, b, (size_t)(s - b)))
			problem(p, "line %d: section \"%s\": :tinymm: names %.*s(), which tinymm does not "
				"define (not in the function list)", sec->line, sec->title, (int)(s - b), b);
	}
}

/* "OwnerPriv1" and "owner_priv_1" are the same name: compare letters and digits, ignoring case. */
static bool same_name(const char *a, const char *b)
{
	for (;;) {
		while (*a && !isalnum((unsigned char)*a))
			a++;
		while (*b && !isalnum((unsigned char)*b))
			b++;
		if (!*a || !*b)
			return !*a && !*b;
		if (tolower((unsigned char)*a++) != tolower((unsigned char)*b++))
			return false;
	}
}

static const struct pageflag_info *table_row(const char *lname)
{
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		if (!strcmp(pageflag_table[i].name, lname))
			return &pageflag_table[i];
	return NULL;
}

static bool is_primary(const struct pageflag_info *row)
{
	return !strcmp(pageflag_name(row->bit), row->name);
}

/*
 * The section titled UNUSED_TITLE names, as ``PG_x``, exactly the rows whose used_by is "-" (the
 * flags tinymm does not use yet), each once.
 */
#define UNUSED_TITLE "Flags tinymm does not use yet"
static void check_unused_list(const char *doc, struct problems *p)
{
	char key[64];
	bool named[256] = { false };

	snprintf(key, sizeof(key), "\n%s\n", UNUSED_TITLE);
	const char *s = strstr(doc, key);
	if (!s) {
		problem(p, "no section \"%s\" listing the flags whose used by is -", UNUSED_TITLE);
		return;
	}
	s += strlen(key);
	s = s + strcspn(s, "\n");		/* past the title's underline */
	/* the section ends at the next title: a line underlined by an adornment at least as long */
	const char *end = s;
	while (*end) {
		const char *l = end + 1, *e = l + strcspn(l, "\n");
		if (!*e)
			break;
		const char *u = e + 1;
		size_t ulen = strcspn(u, "\n");
		if (e > l && !isspace((unsigned char)*l) && is_adornment(u, ulen) &&
		    ulen >= (size_t)(e - l))
			break;
		end = e;
	}
	for (const char *t = s; (t = strstr(t, "``PG_")) && t < end; t += 5) {
		const char *n = t + 5, *q = strstr(n, "``");
		if (!q || q > end)
			break;
		char lname[40];
		snprintf(lname, sizeof(lname), "%.*s", (int)(q - n), n);
		const struct pageflag_info *row = table_row(lname);
		if (!row)
			problem(p, "\"%s\" names PG_%s, which the code's flag table lacks", UNUSED_TITLE,
				lname);
		else if (strcmp(row->used_by, "-"))
			problem(p, "\"%s\" names PG_%s, which the code says %s uses", UNUSED_TITLE, lname,
				row->used_by);
		else if (named[row - pageflag_table])
			problem(p, "\"%s\" names PG_%s twice", UNUSED_TITLE, lname);
		else
			named[row - pageflag_table] = true;
	}
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		if (!strcmp(pageflag_table[i].used_by, "-") && !named[i])
			problem(p, "\"%s\" does not name PG_%s, which nothing sets (used by -)",
				UNUSED_TITLE, pageflag_table[i].name);
}

/* The whole check: @doc against pageflag_table, its :tinymm: names against @list. */
static void check_doc(const char *doc, const char *list, struct problems *p)
{
	static struct section secs[MAX_SECTIONS];
	bool seen[256] = { false };
	int n = parse_doc(doc, secs, MAX_SECTIONS, p);
	int prev_bit = -1;

	assert_true(pageflag_table_len <= ARRAY_SIZE(seen));
	for (int i = 0; i < n; i++) {
		const struct section *s = &secs[i];
		bool complete = true;

		for (int f = 0; f < NR_FIELDS; f++)
			if (!s->has[f] || !s->value[f][0]) {
				problem(p, "line %d: section \"%s\" lacks a :%s: value", s->line, s->title,
					field_names[f]);
				complete = false;
			}
		if (!s->has[F_NAME])
			continue;
		const char *name = s->value[F_NAME];
		if (strncmp(name, "PG_", 3)) {
			problem(p, "line %d: section \"%s\": :name: %s does not start with PG_", s->line,
				s->title, name);
			continue;
		}
		const struct pageflag_info *row = table_row(name + 3);
		if (!row) {
			problem(p, "line %d: the document has a section for %s, which the code's flag table "
				"lacks", s->line, name);
			continue;
		}
		unsigned int idx = (unsigned int)(row - pageflag_table);
		if (seen[idx])
			problem(p, "line %d: %s has a second section", s->line, name);
		seen[idx] = true;
		if (!same_name(s->title, row->name))
			problem(p, "line %d: section \"%s\" describes %s: its title should be the flag's "
				"name", s->line, s->title, name);
		if (!complete)
			continue;

		char *end;
		long bit = strtol(s->value[F_BIT], &end, 10);
		if (end == s->value[F_BIT] || *end)
			problem(p, "line %d: %s: :bit: \"%s\" is not a number", s->line, name,
				s->value[F_BIT]);
		else if (bit != row->bit)
			problem(p, "line %d: %s: the document says bit %ld, the code says bit %d", s->line,
				name, bit, row->bit);

		char want_alias[64] = "(none)";
		if (!is_primary(row))
			snprintf(want_alias, sizeof(want_alias), "PG_%s", pageflag_name(row->bit));
		if (strcmp(s->value[F_ALIAS_OF], want_alias))
			problem(p, "line %d: %s: the document says alias of %s, the code says %s", s->line,
				name, s->value[F_ALIAS_OF], want_alias);

		const char *want_policy = pf_policy_name(row->policy);
		if (strcmp(s->value[F_POLICY], want_policy))
			problem(p, "line %d: %s: the document says policy %s, the code says %s", s->line,
				name, s->value[F_POLICY], want_policy);

		const char *scope = s->value[F_SCOPE];
		if (strcmp(scope, "per page") && strcmp(scope, "per folio") && strcmp(scope, "second page"))
			problem(p, "line %d: %s: :scope: \"%s\" is not one of: per page, per folio, "
				"second page", s->line, name, scope);
		else if ((row->policy == PF_SECOND) != !strcmp(scope, "second page"))
			problem(p, "line %d: %s: :scope: %s does not fit policy %s (second page exactly "
				"for PF_SECOND)", s->line, name, scope, want_policy);

		if (row->bit < prev_bit || (row->bit == prev_bit && is_primary(row)))
			problem(p, "line %d: %s (bit %d) is out of order: sections go by bit, a bit's "
				"primary flag before its aliases", s->line, name, row->bit);
		else if (row->bit > prev_bit && !is_primary(row))
			problem(p, "line %d: %s (bit %d) comes before its primary flag PG_%s", s->line,
				name, row->bit, pageflag_name(row->bit));
		prev_bit = row->bit;

		if (strcmp(s->value[F_USED_BY], row->used_by))
			problem(p, "line %d: %s: the document says used by %s, the code (PF_USED_BY_%s) "
				"says %s", s->line, name, s->value[F_USED_BY], row->name, row->used_by);

		check_functions(s->value[F_TINYMM], list, s, p);
	}
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		if (!seen[i])
			problem(p, "PG_%s (bit %d, %s) is in the code's flag table but missing from the "
				"document", pageflag_table[i].name, pageflag_table[i].bit,
				pf_policy_name(pageflag_table[i].policy));
	check_unused_list(doc, p);
}

/* ---- helpers for the unit cases ---- */

/*
 * A correct document made from the table itself: an intro section without fields, then one
 * section per row in bit order (primary first), then the list of the flags nothing sets.
 * @tinymm goes into every :tinymm: field.
 */
static char *doc_from_table(const char *tinymm)
{
	size_t cap = 64 * 1024, len = 0;
	char *doc = malloc(cap);

	assert_non_null(doc);
	len += (size_t)snprintf(doc + len, cap - len, "==========\nPage flags\n==========\n\n"
				"Intro\n=====\n\nSome :emphasis: and a :ref:`link` that are not fields.\n\n");
	for (int bit = 0; bit < NR_PAGEFLAGS; bit++)
		for (int primary = 1; primary >= 0; primary--)
			for (unsigned int i = 0; i < pageflag_table_len; i++) {
				const struct pageflag_info *r = &pageflag_table[i];
				if (r->bit != bit || is_primary(r) != primary)
					continue;
				char alias[64] = "(none)", rule[128];
				if (!primary)
					snprintf(alias, sizeof(alias), "PG_%s", pageflag_name(bit));
				memset(rule, '=', strlen(r->name));
				rule[strlen(r->name)] = '\0';
				len += (size_t)snprintf(doc + len, cap - len,
					"%s\n%s\n\n:bit: %d\n:name: PG_%s\n:alias of: %s\n:policy: %s\n"
					":scope: %s\n:tinymm: %s\n:used by: %s\n\nProse.\n\n", r->name, rule,
					r->bit, r->name, alias, pf_policy_name(r->policy),
					r->policy == PF_SECOND ? "second page" : "per folio", tinymm, r->used_by);
				assert_true(len < cap);
			}
	len += (size_t)snprintf(doc + len, cap - len, "%s\n=============================\n\n"
				"These:", UNUSED_TITLE);
	for (unsigned int i = 0; i < pageflag_table_len; i++)
		if (!strcmp(pageflag_table[i].used_by, "-"))
			len += (size_t)snprintf(doc + len, cap - len, " ``PG_%s``", pageflag_table[i].name);
	len += (size_t)snprintf(doc + len, cap - len, ".\n\nEnd\n===\n\nNot ``PG_locked``.\n");
	assert_true(len < cap);
	return doc;
}

/* Replace the first @from in @doc (which must be there) by @to; returns a new string. */
static char *edit(const char *doc, const char *from, const char *to)
{
	const char *at = strstr(doc, from);
	assert_non_null(at);
	size_t head = (size_t)(at - doc), len = strlen(doc) - strlen(from) + strlen(to);
	char *out = malloc(len + 1);

	assert_non_null(out);
	memcpy(out, doc, head);
	strcpy(out + head, to);
	strcat(out, at + strlen(from));
	return out;
}

/* Check @doc and expect exactly @count problems, one of them containing @needle. */
static void expect_problem(const char *doc, int count, const char *needle)
{
	static struct problems p;

	memset(&p, 0, sizeof(p));
	check_doc(doc, funcs_text, &p);
	if (p.count != count || !strstr(p.text, needle)) {
		fprintf(stderr, "expected %d problem(s) mentioning \"%s\", got %d:\n%s", count, needle,
			p.count, p.text);
		fail();
	}
}

static char *section_of(const char *doc, const char *title)
{
	char key[160];

	snprintf(key, sizeof(key), "\n%s\n", title);
	const char *at = strstr(doc, key);
	assert_non_null(at);
	return (char *)at + 1;
}

/* ---- unit cases ---- */
static void function_list_is_real(void **state)
{
	/* The generated list holds what the code really defines: plain functions, and the
	 * accessors the preprocessor generates for every row of the table. */
	assert_true(function_exists(funcs_text, "memmap_init", 11));
	assert_true(function_exists(funcs_text, "prep_compound_page", 18));
	for (unsigned int i = 0; i < pageflag_table_len; i++) {
		char name[96];
		int n = snprintf(name, sizeof(name), "folio_test_%s", pageflag_table[i].name);
		if (!function_exists(funcs_text, name, (size_t)n)) {
			fprintf(stderr, "%s: %s is not in the list: the generator missed the accessors\n",
				funcs_path, name);
			fail();
		}
	}
	assert_false(function_exists(funcs_text, "memmap_ini", 10));
	assert_false(function_exists(funcs_text, "folio_test_lockd", 16));
}

static void table_doc_passes(void **state)
{
	char *doc = doc_from_table("comes with the page cache; __SetPageReserved() in memmap_init()");
	expect_problem(doc, 0, "");
	free(doc);
}

static void misspelt_function_fails(void **state)
{
	char *doc = doc_from_table("__SetPageResreved() in memmap_init()");
	/* one problem per section: every :tinymm: field has the bogus name */
	expect_problem(doc, (int)pageflag_table_len, "__SetPageResreved(), which tinymm does not define");
	free(doc);
	/* Linux's, not (yet) tinymm's (folio_mkclean and try_to_migrate, the examples before,
	 * came with issues 34 and 40) */
	doc = doc_from_table("folio_try_share_anon_rmap_pte() / folio_add_anon_rmap_ptes()");
	expect_problem(doc, 2 * (int)pageflag_table_len, "folio_add_anon_rmap_ptes()");
	free(doc);
}

static void wrong_bit_fails(void **state)
{
	char *doc = doc_from_table("comes with reclaim");
	char *bad = edit(doc, ":bit: 4\n:name: PG_dirty", ":bit: 5\n:name: PG_dirty");
	expect_problem(bad, 1, "PG_dirty: the document says bit 5, the code says bit 4");
	free(bad);
	free(doc);
}

static void missing_and_extra_sections_fail(void **state)
{
	char *doc = doc_from_table("comes with reclaim");
	char *start = section_of(doc, "dirty"), *end = section_of(doc, "lru");
	char *cut = strndup(start, (size_t)(end - start));
	char *bad = edit(doc, cut, "");
	expect_problem(bad, 1, "PG_dirty (bit 4, PF_HEAD) is in the code's flag table but missing");
	free(bad);
	/* a section for a flag the code does not have (Linux v6.10's PG_error, say) */
	bad = edit(doc, cut, "error\n=====\n\n:bit: 4\n:name: PG_error\n:alias of: (none)\n"
		   ":policy: PF_NO_TAIL\n:scope: per folio\n:tinymm: comes with nothing\n:used by: -\n\n");
	expect_problem(bad, 2, "section for PG_error, which the code's flag table lacks");
	free(bad);
	/* the same section twice */
	char *twice = malloc(2 * strlen(cut) + 1);
	strcpy(twice, cut);
	strcat(twice, cut);
	bad = edit(doc, cut, twice);
	expect_problem(bad, 2, "PG_dirty has a second section");
	free(twice);
	free(bad);
	free(cut);
	free(doc);
}

static void wrong_alias_policy_scope_fail(void **state)
{
	char *doc = doc_from_table("comes with swap");
	char *bad = edit(doc, ":name: PG_swapcache\n:alias of: PG_owner_priv_1",
			 ":name: PG_swapcache\n:alias of: PG_swapbacked");
	expect_problem(bad, 1, "PG_swapcache: the document says alias of PG_swapbacked, the code says "
		       "PG_owner_priv_1");
	free(bad);
	bad = edit(doc, ":name: PG_locked\n:alias of: (none)\n:policy: PF_NO_TAIL",
		   ":name: PG_locked\n:alias of: (none)\n:policy: PF_HEAD");
	expect_problem(bad, 1, "PG_locked: the document says policy PF_HEAD, the code says PF_NO_TAIL");
	free(bad);
	bad = edit(doc, ":policy: PF_SECOND\n:scope: second page",
		   ":policy: PF_SECOND\n:scope: per folio");
	expect_problem(bad, 1, "does not fit policy PF_SECOND");
	free(bad);
	bad = edit(doc, ":scope: per folio", ":scope: per foilo");
	expect_problem(bad, 1, "is not one of");
	free(bad);
	free(doc);
}

static void order_title_and_fields_fail(void **state)
{
	char *doc = doc_from_table("comes with reclaim");
	/* swap the Locked and Writeback sections */
	char *l = section_of(doc, "locked"), *w = section_of(doc, "writeback");
	char *r = section_of(doc, "referenced");
	char *ls = strndup(l, (size_t)(w - l)), *ws = strndup(w, (size_t)(r - w));
	char *both = malloc(strlen(ls) + strlen(ws) + 1), *swapped = malloc(strlen(ls) + strlen(ws) + 1);
	strcpy(both, ls);
	strcat(both, ws);
	strcpy(swapped, ws);
	strcat(swapped, ls);
	char *bad = edit(doc, both, swapped);
	expect_problem(bad, 1, "PG_locked (bit 0) is out of order");
	free(bad);
	/* a title that is not the flag's name */
	bad = edit(doc, "dirty\n=====\n", "Clean\n=====\n");
	expect_problem(bad, 1, "section \"Clean\" describes PG_dirty");
	free(bad);
	/* a field missing, an unknown field */
	bad = edit(doc, ":scope: per folio\n:tinymm: comes with reclaim\n", ":tinymm: comes with reclaim\n");
	expect_problem(bad, 1, "section \"locked\" lacks a :scope: value");
	free(bad);
	bad = edit(doc, ":bit: 0\n", ":bit: 0\n:bits: 0\n");
	expect_problem(bad, 1, "unknown field \":bits:\"");
	free(bad);
	/* a field continued on an indented line is one value */
	bad = edit(doc, ":tinymm: comes with reclaim", ":tinymm: comes with\n   memmap_init() and\n   "
		   "prep_compoud_page()");
	expect_problem(bad, 1, "prep_compoud_page(), which tinymm does not define");
	free(bad);
	free(ls);
	free(ws);
	free(both);
	free(swapped);
	free(doc);
}

static void wrong_used_by_and_unused_list_fail(void **state)
{
	char *doc = doc_from_table("comes with reclaim");
	/* a section's :used by: that is not the code's */
	char *bad = edit(doc, ":tinymm: comes with reclaim\n:used by: -\n\nProse.\n\narch_3",
		   ":tinymm: comes with reclaim\n:used by: mm/vmscan.c\n\nProse.\n\narch_3");
	expect_problem(bad, 1, "PG_arch_2: the document says used by mm/vmscan.c, the code "
		       "(PF_USED_BY_arch_2) says -");
	free(bad);
	/* the list of unused flags: one missing, one that is used, one twice, one unknown */
	bad = edit(doc, " ``PG_arch_2``", "");
	expect_problem(bad, 1, "does not name PG_arch_2, which nothing sets (used by -)");
	free(bad);
	bad = edit(doc, " ``PG_arch_2``", " ``PG_arch_2`` ``PG_reserved`` ``PG_arch_2`` ``PG_error``");
	expect_problem(bad, 3, "names PG_reserved, which the code says mm/memmap.c,mm/mm_init.c uses");
	expect_problem(bad, 3, "names PG_arch_2 twice");
	expect_problem(bad, 3, "names PG_error, which the code's flag table lacks");
	free(bad);
	/* the list ends at the next title: ``PG_locked`` below it is not in the list */
	bad = edit(doc, "These:", "Intro\n\nThese:");
	expect_problem(bad, 0, "");
	free(bad);
	bad = edit(doc, "Flags tinymm does not use yet\n", "Flags tinymm does use\n");
	expect_problem(bad, 1, "no section \"Flags tinymm does not use yet\"");
	free(bad);
	free(doc);
}

static void real_document_matches_code(void **state)
{
	static struct problems p;
	char *doc = shim_read_text(doc_path);

	memset(&p, 0, sizeof(p));
	check_doc(doc, funcs_text, &p);
	if (p.count) {
		fprintf(stderr, "%s disagrees with the code (%d problem%s):\n%s", doc_path, p.count,
			p.count == 1 ? "" : "s", p.text);
		fail();
	}
	free(doc);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(function_list_is_real),
		cmocka_unit_test(table_doc_passes),
		cmocka_unit_test(misspelt_function_fails),
		cmocka_unit_test(wrong_bit_fails),
		cmocka_unit_test(missing_and_extra_sections_fail),
		cmocka_unit_test(wrong_alias_policy_scope_fail),
		cmocka_unit_test(order_title_and_fields_fail),
		cmocka_unit_test(wrong_used_by_and_unused_list_fail),
		cmocka_unit_test(real_document_matches_code),
	};
	if (argc != 3) {
		fprintf(stderr, "usage: pageflags_doc_test <docs/page-flags.rst> <function list>\n");
		return 2;
	}
	doc_path = argv[1];
	funcs_path = argv[2];
	funcs_text = shim_read_text(funcs_path);
	int ret = cmocka_run_group_tests(tests, NULL, NULL);
	free(funcs_text);
	return ret;
}
