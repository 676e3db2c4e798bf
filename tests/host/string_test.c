/*
 * string_test.c - lib/string.c's memcpy, memmove and memset (renamed tm_* here so the host's own
 * stay in use) against the host C library's: every size up to 300 and some around pages, every
 * source and destination alignment within 16 bytes, overlaps both ways for memmove, fill values
 * beyond a byte for memset.  The bytes around each destination must not change.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define memcpy tm_memcpy
#define memmove tm_memmove
#define memset tm_memset
#include "../../lib/string.c"
#undef memcpy
#undef memmove
#undef memset

#define AREA	(8192 + 64)

static unsigned char src[AREA], got[AREA], want[AREA];

static void fill_random(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (unsigned char)(seed >> 16);
	}
}

static const size_t big[] = { 1023, 1024, 4095, 4096, 4097, 8191 };

static size_t size_at(size_t i)
{
	return i <= 300 ? i : big[i - 301];
}

#define NR_SIZES (301 + sizeof(big) / sizeof(big[0]))

static void memcpy_matches(void **state)
{
	fill_random(src, AREA, 1);
	for (size_t k = 0; k < NR_SIZES; k++)
		for (size_t so = 0; so < 16; so++)
			for (size_t dof = 0; dof < 16; dof++) {
				size_t n = size_at(k);

				fill_random(got, AREA, 2);
				memcpy(want, got, AREA);
				assert_ptr_equal(tm_memcpy(got + 16 + dof, src + so, n), got + 16 + dof);
				memcpy(want + 16 + dof, src + so, n);
				assert_memory_equal(got, want, AREA);
			}
}

static void memmove_matches_with_overlaps(void **state)
{
	for (size_t k = 0; k < NR_SIZES; k++)
		for (int shift = -40; shift <= 40; shift++)
			for (size_t so = 0; so < 8; so++) {
				size_t n = size_at(k);
				size_t from = 64 + so, to = (size_t)((long)from + shift);

				if (to + n > AREA || from + n > AREA)
					continue;
				fill_random(got, AREA, (unsigned int)(n + so));
				memcpy(want, got, AREA);
				assert_ptr_equal(tm_memmove(got + to, got + from, n), got + to);
				memmove(want + to, want + from, n);
				assert_memory_equal(got, want, AREA);
			}
}

static void memset_matches(void **state)
{
	static const int values[] = { 0, 0x5a, 0xff, -1, 0x1a5, -200 };

	for (size_t k = 0; k < NR_SIZES; k++)
		for (size_t dof = 0; dof < 16; dof++)
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++) {
				size_t n = size_at(k);

				fill_random(got, AREA, 3);
				memcpy(want, got, AREA);
				assert_ptr_equal(tm_memset(got + 16 + dof, values[v], n), got + 16 + dof);
				memset(want + 16 + dof, values[v], n);
				assert_memory_equal(got, want, AREA);
			}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(memcpy_matches),
		cmocka_unit_test(memmove_matches_with_overlaps),
		cmocka_unit_test(memset_matches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
