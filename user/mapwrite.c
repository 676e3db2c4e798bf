/*
 * mapwrite - writes a file through a MAP_SHARED mapping (docs/shared-mappings.md).
 *
 *   mapwrite [-n] <path> <offset> <length> <seed>
 *
 * Byte i of the write, at file offset <offset> + i, is byte i of the xorshift64* stream of
 * <seed> (docs/pagecache.md, "The `blk write` stream"; tests/qemu/writeback_expect.py stream
 * SEED LENGTH prints it).  The file is opened O_RDWR|O_CREAT and grown with ftruncate to cover
 * the range if it is shorter; the pages enclosing the range are mapped MAP_SHARED (the offset
 * need not be page-aligned).  In that one mapping it:
 *   1. writes the complement of the stream and msync(MS_SYNC)s it (the pages are written back:
 *      writeback write-protects them, folio_mkclean);
 *   2. writes the stream itself over it, reads it back through the mapping and through read(),
 *      and msync(MS_SYNC)s again, unless -n: then the pages stay dirty (their write faults
 *      dirtied them) for a later writeback (the flusher, umount);
 *   3. munmaps.
 * Step 2 must fault on every page again (step 1's writeback write-protected them): if it did
 * not, its second msync would find the folios clean and write nothing, and only munmap's
 * dirty ptes would dirty them again (tests/qemu/mapwrite.sh checks `Dirty:` for that).  Prints "mapwrite: <length> bytes at <offset>, seed
 * <seed>: ok"; exit 0 when every call succeeded and every byte read back right, 1 at the first
 * failure (one line saying which), 2 for wrong arguments.
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

#define PAGE	4096UL

static void fail(const char *what)
{
	printf("mapwrite: FAIL: %s (errno %d)\n", what, errno);
	exit(1);
}

static void usage(const char *why)
{
	printf("mapwrite: %s\nusage: mapwrite [-n] <path> <offset> <length> <seed>\n", why);
	exit(2);
}

static uint64_t number(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-')
		usage(what);
	return v;
}

/* The stream (docs/pagecache.md): 8 bytes per step, little-endian. */
struct stream {
	uint64_t x, out;
	unsigned int left;
};

static void stream_init(struct stream *st, uint64_t seed)
{
	st->x = seed ? seed : 0x9E3779B97F4A7C15ULL;
	st->left = 0;
}

static unsigned char stream_byte(struct stream *st)
{
	unsigned char b;

	if (!st->left) {
		st->x ^= st->x >> 12;
		st->x ^= st->x << 25;
		st->x ^= st->x >> 27;
		st->out = st->x * 0x2545F4914F6CDD1DULL;
		st->left = 8;
	}
	b = (unsigned char)st->out;
	st->out >>= 8;
	st->left--;
	return b;
}

static void fill(unsigned char *p, size_t len, uint64_t seed, unsigned char xor)
{
	struct stream st;

	stream_init(&st, seed);
	for (size_t i = 0; i < len; i++)
		p[i] = stream_byte(&st) ^ xor;
}

/* The file's bytes [offset, offset + len) through read(), against the stream. */
static void check_read(int fd, uint64_t offset, size_t len, uint64_t seed)
{
	static unsigned char buf[PAGE];
	struct stream st;
	size_t done = 0;

	if (lseek(fd, (off_t)offset, SEEK_SET) != (off_t)offset)
		fail("lseek");
	stream_init(&st, seed);
	while (done < len) {
		size_t want = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t n = read(fd, buf, want);

		if (n <= 0)
			fail("read back");
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != stream_byte(&st)) {
				printf("mapwrite: FAIL: read() differs at offset %llu\n",
				       (unsigned long long)(offset + done + (size_t)i));
				exit(1);
			}
		done += (size_t)n;
	}
}

int main(int argc, char **argv)
{
	bool final_sync = true;
	uint64_t offset, length, seed, start, end;
	unsigned char *map, *p;
	struct stat stbuf;
	struct stream st;
	size_t map_len;
	int fd;

	if (argc > 1 && !strcmp(argv[1], "-n")) {
		final_sync = false;
		argv++;
		argc--;
	}
	if (argc != 5)
		usage("wrong number of arguments");
	offset = number(argv[2], "bad offset");
	length = number(argv[3], "bad length");
	seed = number(argv[4], "bad seed");
	if (!length)
		usage("the length must be at least 1");
	if (offset + length < offset || offset + length > 0x7fffffffULL)
		usage("offset + length past 2 GiB");
	start = offset & ~(PAGE - 1);
	end = offset + length;
	map_len = (size_t)(end - start);

	fd = open(argv[1], O_RDWR | O_CREAT, 0644);
	if (fd < 0)
		fail("open");
	if (fstat(fd, &stbuf))
		fail("fstat");
	if ((uint64_t)stbuf.st_size < end && ftruncate(fd, (off_t)end))
		fail("ftruncate");
	map = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)start);
	if (map == MAP_FAILED)
		fail("mmap MAP_SHARED");
	p = map + (offset - start);

	fill(p, (size_t)length, seed, 0xff);		/* 1: the complement, written back */
	if (msync(map, map_len, MS_SYNC))
		fail("msync (first)");
	fill(p, (size_t)length, seed, 0);		/* 2: the stream over it */
	stream_init(&st, seed);
	for (size_t i = 0; i < length; i++)
		if (p[i] != stream_byte(&st)) {
			printf("mapwrite: FAIL: the mapping differs at offset %llu\n",
			       (unsigned long long)(offset + i));
			return 1;
		}
	check_read(fd, offset, (size_t)length, seed);
	if (final_sync && msync(map, map_len, MS_SYNC))
		fail("msync (second)");
	if (munmap(map, map_len))				/* 3 */
		fail("munmap");
	if (close(fd))
		fail("close");
	printf("mapwrite: %llu bytes at %llu, seed %llu: ok\n", (unsigned long long)length,
	       (unsigned long long)offset, (unsigned long long)seed);
	return 0;
}
