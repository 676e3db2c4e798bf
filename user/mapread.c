/*
 * mapread - reads a file through a MAP_SHARED mapping, streaming, while keeping a few pages hot:
 * the test of reclaim of mapped file pages (docs/shared-mappings.md, "Reclaim of mapped pages:
 * the test").
 *
 *   mapread <path> <hot-pages> <passes> [<max-evictions>]
 *   mapread -w <path> <bytes>
 *
 * The file holds the mapread pattern: its 8-byte little-endian word w (at offset 8 * w) is
 * MAPREAD_BASE + w, so every word is unique and a page or word read from the wrong place is
 * caught (the host makes it with python3's array('Q', range(BASE + a, BASE + b)),
 * tests/qemu/mapread.sh).  Its size must be a non-zero multiple of 8.
 * The whole file is mapped MAP_SHARED, PROT_READ.  Each pass reads every page in order and
 * checks every word of it; after each chunk of 16 pages (64 KiB) it asks mincore() about the
 * first <hot-pages> pages of the mapping, counting the ones not resident ("hot-page
 * evictions"), then reads them again.  Those pages are touched after every chunk, so reclaim's
 * rmap walk finds their ptes young each time it looks and must keep them (v6.10's
 * folio_check_references); the streamed pages are touched once a pass and are what reclaim
 * takes.  A hot page is counted only once the stream has passed it (the first pass reads the
 * hot range first).  With two passes or more the first is a warm-up whose evictions are
 * reported ("mapread: pass 1 (warm-up): <n> hot-page evictions, not counted") but not
 * counted: v6.10 cannot tell a page touched often from one touched once until reclaim has
 * looked at it twice (a mapping's first young bit only earns another trip round the inactive
 * list), and when the cache first fills every folio in it is in that state, so one long
 * reclaim run on one CPU, with the task waiting, may take the hot pages along with the rest
 * (docs/shared-mappings.md).  Every 16 MiB read it prints "mapread: <MiB> MiB" (so a test can sample
 * the task's RSS while it runs), and at the end
 *   mapread: <pages> pages x <passes> passes, <hot> hot: <bad> bad words,
 *            <evicted> hot-page evictions: ok
 * on one line (ok when no word was bad and at most <max-evictions>, default 0, hot-page
 * evictions were counted), or FAIL instead of ok, with a line naming the first bad word or the first
 * eviction before it.  Exit 0 when ok, 1 on a failure (a failed call: one line naming it), 2
 * for wrong arguments.
 * -w writes a file of <bytes> (a multiple of 8) holding the pattern, with write(2) and fsync,
 * where the host cannot put one (a RAM disk built into the kernel): "mapread: wrote <bytes>
 * bytes", exit 0.
 */
#define _DEFAULT_SOURCE 1
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tinymm_user.h"

#define PAGE		4096UL
#define WORDS		(PAGE / 8)
#define CHUNK_PAGES	16		/* the hot range is checked and touched this often: 64 KiB */
#define REPORT_PAGES	4096		/* a progress line this often: 16 MiB */
#define MAX_HOT		4096
#define MAPREAD_BASE	0x6d61707200000000ULL	/* "mapr" in the high half: never a small number */

static unsigned char vec[MAX_HOT];

static void fail(const char *what)
{
	printf("mapread: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static void usage(const char *why)
{
	printf("mapread: %s\nusage: mapread <path> <hot-pages> <passes> [<max-evictions>] | -w <path> <bytes>\n",
	       why);
	exit(2);
}

static unsigned long number(const char *s, const char *what)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		usage(what);
	return v;
}

struct run {
	const volatile uint64_t *map;
	uint64_t words;			/* in the file */
	unsigned long hot;
	unsigned long bad, evicted, warmup_evicted;
	bool warmup;			/* pass 1 of several: evictions are not counted */
	uint64_t first_bad, first_bad_val;	/* the first bad word's index and what it held */
	unsigned long first_bad_pass;
};

static void bad_word(struct run *r, uint64_t w, uint64_t got, unsigned long pass)
{
	if (!r->bad++) {
		r->first_bad = w;
		r->first_bad_val = got;
		r->first_bad_pass = pass;
	}
}

/* Page @page's words against the pattern. */
static void check_page(struct run *r, uint64_t page, unsigned long pass)
{
	uint64_t w = page * WORDS, end = w + WORDS < r->words ? w + WORDS : r->words;

	for (; w < end; w++) {
		uint64_t got = r->map[w];

		if (got != MAPREAD_BASE + w)
			bad_word(r, w, got, pass);
	}
}

/* mincore() on the hot range, then one word of each hot page read (and checked) again. */
static void hot_check(struct run *r, unsigned long pass, uint64_t page)
{
	if (mincore((void *)r->map, r->hot * PAGE, vec))
		fail("mincore");
	for (unsigned long i = 0; i < r->hot; i++) {
		if (vec[i] & 1)
			continue;
		if (r->warmup)
			r->warmup_evicted++;
		else if (!r->evicted++)
			printf("mapread: hot page %lu not resident in pass %lu after %llu MiB\n", i,
			       pass, (unsigned long long)(page * PAGE >> 20));
	}
	for (unsigned long i = 0; i < r->hot; i++) {
		uint64_t w = i * WORDS + (page % WORDS);	/* a different word each time */

		if (w >= r->words)
			w = i * WORDS;
		uint64_t got = r->map[w];
		if (got != MAPREAD_BASE + w)
			bad_word(r, w, got, pass);
	}
}

/* -w: the pattern into a new file at @path, 64 KiB per write. */
static int write_pattern(const char *path, uint64_t bytes)
{
	static uint64_t buf[8192];
	uint64_t w = 0, words = bytes / 8;
	int fd;

	if (!bytes || bytes % 8)
		usage("the size must be a non-zero multiple of 8");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		fail("open for writing");
	while (w < words) {
		size_t n = words - w < 8192 ? (size_t)(words - w) : 8192;

		for (size_t i = 0; i < n; i++)
			buf[i] = MAPREAD_BASE + w + i;	/* little-endian: both ABIs are */
		if (write(fd, buf, n * 8) != (ssize_t)(n * 8))
			fail("write");
		w += n;
	}
	if (fsync(fd) || close(fd))
		fail("fsync/close");
	printf("mapread: wrote %llu bytes\n", (unsigned long long)bytes);
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = { 0 };
	unsigned long passes, max_evicted;
	uint64_t pages, done = 0;
	bool ok;
	struct stat st;
	void *map;
	int fd;

	if (argc == 4 && !strcmp(argv[1], "-w"))
		return write_pattern(argv[2], number(argv[3], "bad size"));
	if (argc != 4 && argc != 5)
		usage("wrong number of arguments");
	max_evicted = argc == 5 ? number(argv[4], "bad max-evictions") : 0;
	r.hot = number(argv[2], "bad hot-pages");
	passes = number(argv[3], "bad passes");
	if (r.hot > MAX_HOT)
		usage("at most 4096 hot pages");
	if (!passes)
		usage("passes must be at least 1");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		fail("open");
	if (fstat(fd, &st))
		fail("fstat");
	if (st.st_size <= 0 || st.st_size % 8)
		usage("the file's size must be a non-zero multiple of 8");
	r.words = (uint64_t)st.st_size / 8;
	pages = ((uint64_t)st.st_size + PAGE - 1) / PAGE;
	if (r.hot > pages)
		usage("more hot pages than the file has");
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		fail("mmap MAP_SHARED");
	r.map = map;

	for (unsigned long pass = 1; pass <= passes; pass++) {
		r.warmup = pass == 1 && passes > 1;
		for (uint64_t page = 0; page < pages; page++) {
			check_page(&r, page, pass);
			if ((page + 1) % CHUNK_PAGES == 0 && (pass > 1 || page + 1 >= r.hot))
				hot_check(&r, pass, page + 1);
			if (++done % REPORT_PAGES == 0)
				printf("mapread: %llu MiB\n", (unsigned long long)(done * PAGE >> 20));
		}
		if (r.warmup)
			printf("mapread: pass 1 (warm-up): %lu hot-page evictions, not counted\n",
			       r.warmup_evicted);
	}
	if (munmap(map, (size_t)st.st_size))
		fail("munmap");
	if (close(fd))
		fail("close");
	if (r.bad)
		printf("mapread: first bad word at offset %llu in pass %lu: %#llx, expected %#llx\n",
		       (unsigned long long)(r.first_bad * 8), r.first_bad_pass,
		       (unsigned long long)r.first_bad_val,
		       (unsigned long long)(MAPREAD_BASE + r.first_bad));
	ok = !r.bad && r.evicted <= max_evicted;
	printf("mapread: %llu pages x %lu passes, %lu hot: %lu bad words, %lu hot-page evictions: %s\n",
	       (unsigned long long)pages, passes, r.hot, r.bad, r.evicted, ok ? "ok" : "FAIL");
	return ok ? 0 : 1;
}
