/*
 * pageflags_users_test.c - the `used by` column of `page-flags` (PF_USED_BY_* in mm/page_flags.c)
 * held to the code that really sets each flag.
 *
 * Usage: pageflags_users_test <source dir>
 *
 * The scanner reads every .c and .h file under arch/ block/ board/ boot/ drivers/ fs/ include/
 * kernel/ lib/ and mm/ (tests/ is not scanned: a flag only tests set is not used by tinymm; include/ is, for
 * the inline functions that set a flag, such as folio_trylock()), with comments, strings and
 * character constants blanked, and finds every place that sets a flag, per accessor name
 * (X(Uname, lname, ...) of __PAGEFLAG_ACCESSORS):
 *   - a call of a generated setter: SetPageUname, __SetPageUname, TestSetPageUname,
 *     folio_set_lname, __folio_set_lname, folio_test_set_lname;
 *   - set_bit, __set_bit, test_and_set_bit or test_and_set_bit_lock with PG_lname first;
 *   - a mask written into a flags word: `<...>->flags |= <...PG_lname...>;` (or `.flags`,
 *     `->_flags_1`, `._flags_1`).
 * A setter that is the whole body of an `if` testing the same name on another object,
 *     if (folio_test_dirty(src)) folio_set_dirty(dst);   (or folio_test_clear_x, PageX...)
 * copies the flag from one folio to another (soft offline's move, Linux's folio_migrate_flags)
 * and is not counted: it sets the flag only where some other code already had, so it is not a
 * use of the flag.  Clearing a flag is not setting it (folio_xor_flags_has_waiters() clears).
 *
 * Each row's `used by` is "-" or a comma-separated list of "path" (some setter in that file) or
 * "path:function" (a setter inside that function, for header wrappers such as folio_trylock()).
 * The check fails, naming each problem, when a row with "-" has a setter, when an entry names a
 * file or function that does not set it, and when a setter is in a file (or function) the row
 * does not name.  The unit cases run the scanner on small sources and the check on wrong tables,
 * so a check that passed everything would fail them; the last case checks the real tree.
 */
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include "test.h"
#include "tinymm/mm.h"

static const char *src_dir;

/* ---- the rows: the table's names and used-by, with the Uname the table itself lacks ---- */
struct row {
	const char *uname, *lname, *used_by;
};

static const char *const unames[] = {
#define __UNAME(U, l, bit, pol) #U,
	__PAGEFLAG_ACCESSORS(__UNAME)
#undef __UNAME
};

static struct row real_rows[ARRAY_SIZE(unames)];

/* ---- problems, one line each ---- */
struct problems {
	char text[16384];
	size_t len;
	int count;
};

static void problem(struct problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct problems *p, const char *fmt, ...)
{
	va_list ap;

	p->count++;
	if (p->len + 2 >= sizeof(p->text))
		return;
	va_start(ap, fmt);
	int n = vsnprintf(p->text + p->len, sizeof(p->text) - p->len - 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len += (size_t)n < sizeof(p->text) - p->len - 2 ? (size_t)n : sizeof(p->text) - p->len - 2;
	p->text[p->len++] = '\n';
	p->text[p->len] = '\0';
}

/* ---- the scanner ---- */
struct hit {
	char file[96], func[64], spelling[48];
	int row;
	bool copy;
};

#define MAX_HITS 512
struct hits {
	struct hit h[MAX_HITS];
	int n;
};

/* @text with comments, string and character literals replaced by blanks (newlines kept). */
static char *blank_comments_and_strings(const char *text)
{
	char *s = strdup(text);

	assert_non_null(s);
	for (size_t i = 0; s[i];) {
		if (s[i] == '/' && s[i + 1] == '*') {
			size_t j = i + 2;
			while (s[j] && !(s[j] == '*' && s[j + 1] == '/'))
				j++;
			size_t end = s[j] ? j + 2 : j;
			for (; i < end; i++)
				if (s[i] != '\n')
					s[i] = ' ';
		} else if (s[i] == '/' && s[i + 1] == '/') {
			while (s[i] && s[i] != '\n')
				s[i++] = ' ';
		} else if (s[i] == '"' || s[i] == '\'') {
			char q = s[i++];
			while (s[i] && s[i] != q && s[i] != '\n') {
				if (s[i] == '\\' && s[i + 1])
					s[i++] = ' ';
				s[i++] = ' ';
			}
			if (s[i] == q)
				i++;
		} else {
			i++;
		}
	}
	return s;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The row whose name @name (length @len) is, as @prefix + Uname or lname; -1 if none. */
static int row_of(const struct row *rows, int nrows, const char *name, size_t len,
		  const char *prefix, bool upper)
{
	size_t pl = strlen(prefix);

	if (len <= pl || memcmp(name, prefix, pl))
		return -1;
	for (int r = 0; r < nrows; r++) {
		const char *n = upper ? rows[r].uname : rows[r].lname;
		if (strlen(n) == len - pl && !memcmp(name + pl, n, len - pl))
			return r;
	}
	return -1;
}

/* The setter row of the identifier @id (@len long) called as a function; -1 if not a setter. */
static int setter_row(const struct row *rows, int nrows, const char *id, size_t len)
{
	static const char *const upper[] = { "SetPage", "__SetPage", "TestSetPage" };
	static const char *const lower[] = { "folio_set_", "__folio_set_", "folio_test_set_" };
	int r;

	for (unsigned int i = 0; i < ARRAY_SIZE(upper); i++) {
		if ((r = row_of(rows, nrows, id, len, upper[i], true)) >= 0)
			return r;
		if ((r = row_of(rows, nrows, id, len, lower[i], false)) >= 0)
			return r;
	}
	return -1;
}

/* The same for a tester of a flag (for the copy rule). */
static int tester_row(const struct row *rows, int nrows, const char *id, size_t len)
{
	int r;

	if ((r = row_of(rows, nrows, id, len, "folio_test_clear_", false)) >= 0 ||
	    (r = row_of(rows, nrows, id, len, "folio_test_", false)) >= 0 ||
	    (r = row_of(rows, nrows, id, len, "TestClearPage", true)) >= 0 ||
	    (r = row_of(rows, nrows, id, len, "Page", true)) >= 0)
		return r;
	return -1;
}

/* Index of the parenthesis matching the one at @open, or 0 if none. */
static size_t match_paren(const char *s, size_t open)
{
	int depth = 0;

	for (size_t i = open; s[i]; i++) {
		if (s[i] == '(')
			depth++;
		else if (s[i] == ')' && --depth == 0)
			return i;
	}
	return 0;
}

/* Copy @len bytes of @s to @dst (size @cap) without blanks, to compare expressions. */
static void squeeze(char *dst, size_t cap, const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len && n + 1 < cap; i++)
		if (!isspace((unsigned char)s[i]))
			dst[n++] = s[i];
	dst[n] = '\0';
}

/*
 * Is the setter call at @at (argument list from @open to @close) the body of
 * `if (tester_of_the_same_row(other))`?
 */
static bool is_copy(const struct row *rows, int nrows, const char *s, size_t at, size_t open,
		    size_t close, int row)
{
	size_t i = at;

	while (i && isspace((unsigned char)s[i - 1]))
		i--;
	if (!i || s[i - 1] != ')')
		return false;
	/* the condition's parentheses: find the '(' matching s[i - 1] */
	int depth = 0;
	size_t c = i - 1;
	for (;; c--) {
		if (s[c] == ')')
			depth++;
		else if (s[c] == '(' && --depth == 0)
			break;
		if (!c)
			return false;
	}
	size_t k = c;
	while (k && isspace((unsigned char)s[k - 1]))
		k--;
	if (k < 2 || memcmp(s + k - 2, "if", 2) || (k > 2 && is_ident(s[k - 3])))
		return false;
	/* the condition is exactly one call: tester(arg) */
	size_t t = c + 1;
	while (isspace((unsigned char)s[t]))
		t++;
	size_t te = t;
	while (is_ident(s[te]))
		te++;
	size_t p = te;
	while (isspace((unsigned char)s[p]))
		p++;
	if (s[p] != '(' || tester_row(rows, nrows, s + t, te - t) != row)
		return false;
	size_t pe = match_paren(s, p);
	size_t q = pe + 1;
	while (isspace((unsigned char)s[q]))
		q++;
	if (!pe || q != i - 1)
		return false;
	char tested[128], set[128];
	squeeze(tested, sizeof(tested), s + p + 1, pe - p - 1);
	squeeze(set, sizeof(set), s + open + 1, close - open - 1);
	return strcmp(tested, set) != 0;
}

static void add_hit(struct hits *hits, const char *file, const char *func, const char *spelling,
		    size_t slen, int row, bool copy)
{
	assert_true(hits->n < MAX_HITS);
	struct hit *h = &hits->h[hits->n++];
	snprintf(h->file, sizeof(h->file), "%s", file);
	snprintf(h->func, sizeof(h->func), "%s", func);
	snprintf(h->spelling, sizeof(h->spelling), "%.*s", (int)slen, spelling);
	h->row = row;
	h->copy = copy;
}

/* The row of an identifier "PG_<lname>" at @s (@len long), or -1. */
static int pg_row(const struct row *rows, int nrows, const char *s, size_t len)
{
	return row_of(rows, nrows, s, len, "PG_", false);
}

/* Every setter in the C text @text of file @file (a path relative to the source dir). */
static void scan_text(const struct row *rows, int nrows, const char *file, const char *text,
		      struct hits *hits)
{
	static const char *const bitops[] = { "set_bit", "__set_bit", "test_and_set_bit",
					      "test_and_set_bit_lock" };
	char *s = blank_comments_and_strings(text);
	char func[64] = "";
	size_t top = 0;		/* where the current top-level declaration began */
	int depth = 0;

	for (size_t i = 0; s[i];) {
		char ch = s[i];
		if (ch == '{') {
			if (depth++ == 0) {
				/* a function body: the last "name(" since the declaration began,
				 * unless an '=' comes first (an initialiser) */
				func[0] = '\0';
				for (size_t j = top; j < i && s[j] != '='; j++)
					if (is_ident(s[j]) && (j == top || !is_ident(s[j - 1]))) {
						size_t e = j;
						while (is_ident(s[e]))
							e++;
						size_t p = e;
						while (isspace((unsigned char)s[p]))
							p++;
						if (s[p] == '(' && !isdigit((unsigned char)s[j]))
							snprintf(func, sizeof(func), "%.*s", (int)(e - j), s + j);
						j = e - 1;
					}
			}
			i++;
			continue;
		}
		if (ch == '}' || ch == ';') {
			if (ch == '}' && depth > 0)
				depth--;
			if (depth == 0) {
				top = i + 1;
				func[0] = '\0';
			}
			i++;
			continue;
		}
		if (ch == '|' && s[i + 1] == '=') {
			/* a mask written into a flags word: look at the left-hand side's last member */
			size_t l = i;
			while (l && isspace((unsigned char)s[l - 1]))
				l--;
			size_t ls = l;
			while (ls && is_ident(s[ls - 1]))
				ls--;
			bool member = ls >= 1 && (s[ls - 1] == '.' || (ls >= 2 && s[ls - 1] == '>' &&
								       s[ls - 2] == '-'));
			bool word = (l - ls == 5 && !memcmp(s + ls, "flags", 5)) ||
				    (l - ls == 8 && !memcmp(s + ls, "_flags_1", 8));
			if (member && word)
				for (size_t j = i + 2; s[j] && s[j] != ';'; j++)
					if (is_ident(s[j]) && !is_ident(s[j - 1])) {
						size_t e = j;
						while (is_ident(s[e]))
							e++;
						int r = pg_row(rows, nrows, s + j, e - j);
						if (r >= 0)
							add_hit(hits, file, func, s + j, e - j, r, false);
						j = e - 1;
					}
			i += 2;
			continue;
		}
		if (!is_ident(ch) || (i && is_ident(s[i - 1]))) {
			i++;
			continue;
		}
		size_t e = i;
		while (is_ident(s[e]))
			e++;
		size_t p = e;
		while (isspace((unsigned char)s[p]))
			p++;
		if (s[p] != '(') {
			i = e;
			continue;
		}
		size_t close = match_paren(s, p);
		int r = setter_row(rows, nrows, s + i, e - i);
		if (r >= 0) {
			add_hit(hits, file, func, s + i, e - i, r,
				close && is_copy(rows, nrows, s, i, p, close, r));
		} else {
			for (unsigned int b = 0; b < ARRAY_SIZE(bitops); b++)
				if (strlen(bitops[b]) == e - i && !memcmp(s + i, bitops[b], e - i)) {
					size_t a = p + 1;
					while (isspace((unsigned char)s[a]))
						a++;
					size_t ae = a;
					while (is_ident(s[ae]))
						ae++;
					int br = pg_row(rows, nrows, s + a, ae - a);
					if (br >= 0)
						add_hit(hits, file, func, s + i, e - i, br, false);
				}
		}
		i = e;
	}
	free(s);
}


/* Scan @rel (relative to src_dir), a directory or a file, recursively; returns files scanned. */
static int scan_path(const struct row *rows, int nrows, const char *rel, struct hits *hits)
{
	char path[512];
	struct stat st;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", src_dir, rel);
	if (stat(path, &st))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		DIR *d = opendir(path);
		struct dirent *de;
		assert_non_null(d);
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			char sub[512];
			snprintf(sub, sizeof(sub), "%s/%s", rel, de->d_name);
			n += scan_path(rows, nrows, sub, hits);
		}
		closedir(d);
		return n;
	}
	size_t len = strlen(rel);
	if (len < 3 || rel[len - 2] != '.' || (rel[len - 1] != 'c' && rel[len - 1] != 'h'))
		return 0;
	char *text = shim_read_text(path);
	scan_text(rows, nrows, rel, text, hits);
	free(text);
	return 1;
}

/* ---- the check ---- */
static bool entry_covers(const char *entry, size_t elen, const struct hit *h)
{
	const char *colon = memchr(entry, ':', elen);
	size_t flen = colon ? (size_t)(colon - entry) : elen;

	if (strlen(h->file) != flen || memcmp(h->file, entry, flen))
		return false;
	if (!colon)
		return true;
	return strlen(h->func) == elen - flen - 1 && !memcmp(h->func, colon + 1, elen - flen - 1);
}

static void check(const struct row *rows, int nrows, const struct hits *hits, struct problems *p)
{
	for (int r = 0; r < nrows; r++) {
		const char *u = rows[r].used_by;
		bool none = !strcmp(u, "-");

		if (!u[0] || strchr(u, ' ')) {
			problem(p, "PG_%s: used by \"%s\" is neither \"-\" nor a comma-separated list of "
				"path or path:function", rows[r].lname, u);
			continue;
		}
		/* each entry must set the flag */
		for (const char *e = u; !none && *e;) {
			const char *end = strchr(e, ',');
			size_t elen = end ? (size_t)(end - e) : strlen(e);
			bool found = false;
			for (int i = 0; i < hits->n; i++)
				found = found || (hits->h[i].row == r && !hits->h[i].copy &&
						  entry_covers(e, elen, &hits->h[i]));
			if (!found)
				problem(p, "PG_%s: used by names %.*s, which does not set it", rows[r].lname,
					(int)elen, e);
			e = end ? end + 1 : e + elen;
		}
		/* each setter must be named */
		for (int i = 0; i < hits->n; i++) {
			const struct hit *h = &hits->h[i];
			if (h->row != r || h->copy)
				continue;
			bool named = false;
			for (const char *e = u; !none && *e;) {
				const char *end = strchr(e, ',');
				size_t elen = end ? (size_t)(end - e) : strlen(e);
				named = named || entry_covers(e, elen, h);
				e = end ? end + 1 : e + elen;
			}
			if (!named)
				problem(p, "PG_%s: %s (in %s()) sets it with %s(), but used by says \"%s\"",
					rows[r].lname, h->file, h->func[0] ? h->func : "?", h->spelling, u);
		}
	}
}

/* ---- unit cases ---- */
static const struct row mini_rows[] = {
	{ "Dirty", "dirty", "-" }, { "Locked", "locked", "-" }, { "Active", "active", "-" },
	{ "HWPoison", "hwpoison", "-" }, { "Reported", "reported", "-" },
};
#define NMINI ((int)ARRAY_SIZE(mini_rows))

static int hits_of(const struct hits *h, const char *lname, bool copy)
{
	int n = 0;

	for (int i = 0; i < h->n; i++)
		n += !strcmp(mini_rows[h->h[i].row].lname, lname) && h->h[i].copy == copy;
	return n;
}

static void scanner_finds_each_form(void **state)
{
	static struct hits h;
	const char *src =
		"/* SetPageDirty(page) in a comment, and folio_set_active(f) */\n"
		"static const char *s = \"__SetPageHWPoison(p)\"; // SetPageLocked(p)\n"
		"static inline bool folio_trylock(struct folio *folio)\n"
		"{\n"
		"	return !test_and_set_bit(PG_locked, &folio->flags);\n"
		"}\n"
		"void mark(struct page *page, struct folio *f)\n"
		"{\n"
		"	if (x) {\n"
		"		SetPageDirty(page);\n"
		"	}\n"
		"	__folio_set_active(f);\n"
		"	page->flags |= 1UL << PG_hwpoison | 1UL << PG_reported;\n"
		"	page_flags |= p->flags & (1UL << PG_dirty);	/* a local: not a flags word */\n"
		"	folio_xor_flags_has_waiters(f, 1UL << PG_locked);	/* a clear */\n"
		"	ClearPageDirty(page); folio_test_dirty(f); SetPageDirtyish(page);\n"
		"}\n";

	memset(&h, 0, sizeof(h));
	scan_text(mini_rows, NMINI, "mm/x.c", src, &h);
	assert_int_equal(h.n, 5);
	assert_int_equal(hits_of(&h, "locked", false), 1);
	assert_string_equal(h.h[0].func, "folio_trylock");
	assert_string_equal(h.h[0].spelling, "test_and_set_bit");
	assert_int_equal(hits_of(&h, "dirty", false), 1);
	assert_string_equal(h.h[1].func, "mark");
	assert_int_equal(hits_of(&h, "active", false), 1);
	assert_int_equal(hits_of(&h, "hwpoison", false), 1);
	assert_int_equal(hits_of(&h, "reported", false), 1);
	assert_string_equal(h.h[4].file, "mm/x.c");
}

static void copies_are_not_uses(void **state)
{
	static struct hits h;
	const char *src =
		"static bool move(struct folio *dst, struct folio *src)\n"
		"{\n"
		"	if (folio_test_clear_dirty(src))\n"
		"		folio_set_dirty(dst);\n"
		"	if (folio_test_active(src))\n"
		"		folio_set_active(dst);\n"
		"	else if (PageHWPoison(&src->page)) SetPageHWPoison(&dst->page);\n"
		"	if (folio_test_active(src))\n"
		"		folio_set_active(src);		/* the same folio: a use */\n"
		"	if (folio_test_dirty(src))\n"
		"		folio_set_locked(dst);		/* another flag: a use */\n"
		"	if (ready(src))\n"
		"		folio_set_dirty(dst);		/* not a test of the flag: a use */\n"
		"}\n";

	memset(&h, 0, sizeof(h));
	scan_text(mini_rows, NMINI, "mm/y.c", src, &h);
	assert_int_equal(h.n, 6);
	assert_int_equal(hits_of(&h, "dirty", true), 1);
	assert_int_equal(hits_of(&h, "dirty", false), 1);
	assert_int_equal(hits_of(&h, "active", true), 1);
	assert_int_equal(hits_of(&h, "active", false), 1);
	assert_int_equal(hits_of(&h, "hwpoison", true), 1);
	assert_int_equal(hits_of(&h, "locked", false), 1);
}

/* Check @rows against the mini source; expect @count problems, one containing @needle. */
static void expect_problems(const struct row *rows, int count, const char *needle)
{
	static struct hits h;
	static struct problems p;
	const char *src =
		"static inline bool folio_trylock(struct folio *folio)\n"
		"{\n"
		"	return !test_and_set_bit(PG_locked, &folio->flags);\n"
		"}\n"
		"void a(struct folio *f) { folio_set_dirty(f); }\n";

	memset(&h, 0, sizeof(h));
	memset(&p, 0, sizeof(p));
	scan_text(rows, NMINI, "include/z.h", src, &h);
	scan_text(rows, NMINI, "mm/a.c", "void b(struct folio *f) { folio_set_dirty(f); }\n", &h);
	check(rows, NMINI, &h, &p);
	if (p.count != count || !strstr(p.text, needle)) {
		fprintf(stderr, "expected %d problem(s) mentioning \"%s\", got %d:\n%s", count, needle,
			p.count, p.text);
		fail();
	}
}

static void wrong_tables_fail(void **state)
{
	struct row rows[NMINI];

	memcpy(rows, mini_rows, sizeof(rows));
	rows[0].used_by = "include/z.h,mm/a.c";
	rows[1].used_by = "include/z.h:folio_trylock";
	expect_problems(rows, 0, "");
	rows[1].used_by = "include/z.h";		/* the file alone covers the function */
	expect_problems(rows, 0, "");

	rows[1].used_by = "-";				/* a setter, and the table says none */
	expect_problems(rows, 1, "PG_locked: include/z.h (in folio_trylock()) sets it with "
			"test_and_set_bit(), but used by says \"-\"");
	rows[1].used_by = "include/z.h:folio_lock";	/* the wrong function */
	expect_problems(rows, 2, "PG_locked: used by names include/z.h:folio_lock, which does not set it");
	rows[1].used_by = "include/z.h:folio_trylock";
	rows[0].used_by = "mm/a.c";			/* a setter left out */
	expect_problems(rows, 1, "PG_dirty: include/z.h (in a()) sets it with folio_set_dirty()");
	rows[0].used_by = "include/z.h,mm/a.c,mm/b.c";	/* a file that does not set it */
	expect_problems(rows, 1, "PG_dirty: used by names mm/b.c, which does not set it");
	rows[0].used_by = "include/z.h, mm/a.c";		/* one token, no blanks */
	expect_problems(rows, 1, "is neither \"-\" nor a comma-separated list");
	rows[0].used_by = "include/z.h,mm/a.c";
	rows[2].used_by = "mm/a.c";			/* nothing sets active */
	expect_problems(rows, 1, "PG_active: used by names mm/a.c, which does not set it");
}

static void real_table_matches_the_tree(void **state)
{
	static struct hits h;
	static struct problems p;
	static const char *const dirs[] = { "arch", "block", "board", "boot", "drivers", "fs",
					    "include", "kernel", "lib", "mm" };
	int files = 0;

	memset(&h, 0, sizeof(h));
	memset(&p, 0, sizeof(p));
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++)
		files += scan_path(real_rows, (int)ARRAY_SIZE(real_rows), dirs[i], &h);
	assert_true(files > 50);		/* the tree really was read */
	/* the scanner sees known setters, so an empty scan cannot pass */
	assert_true(h.n > 20);
	check(real_rows, (int)ARRAY_SIZE(real_rows), &h, &p);
	if (p.count) {
		fprintf(stderr, "mm/page_flags.c's PF_USED_BY_* disagree with the code (%d problem%s):\n%s",
			p.count, p.count == 1 ? "" : "s", p.text);
		fail();
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scanner_finds_each_form),
		cmocka_unit_test(copies_are_not_uses),
		cmocka_unit_test(wrong_tables_fail),
		cmocka_unit_test(real_table_matches_the_tree),
	};
	if (argc != 2) {
		fprintf(stderr, "usage: pageflags_users_test <source dir>\n");
		return 2;
	}
	src_dir = argv[1];
	if (pageflag_table_len != ARRAY_SIZE(real_rows)) {
		fprintf(stderr, "pageflag_table has %u rows, __PAGEFLAG_ACCESSORS %zu\n",
			pageflag_table_len, ARRAY_SIZE(real_rows));
		return 1;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(real_rows); i++)
		real_rows[i] = (struct row){ unames[i], pageflag_table[i].name, pageflag_table[i].used_by };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
