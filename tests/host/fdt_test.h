/*
 * fdt_test.h - what the three parts of fdt_test share (fdt_test.c: the inputs, helpers, the
 * differential comparison against libfdt and main; fdt_test_mutate.c: the mutation run;
 * fdt_test_blobs.c: hand-built blobs and the named corruptions).  One executable, fdt_test.
 */
#ifndef TINYMM_FDT_TEST_H
#define TINYMM_FDT_TEST_H
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libfdt.h>

#include "tinymm/fdt.h"

#define MUTATIONS	20000	/* per input DTB (the brief's floor) */
#define SEED		0x74696e796d6d0001ull

struct input {
	const char *path;
	uint8_t *data;
	size_t size;
};

extern struct input inputs[16];
extern int n_inputs;
extern bool verbose;

/* What is being checked, for failure messages; the blob is dumped to a file on failure. */
extern char ctx[160];
extern const uint8_t *cur_blob;
extern size_t cur_size;
void dump_current(void);

#define CHECK(c)                                                                               \
	do {                                                                                   \
		if (!(c)) {                                                                    \
			dump_current();                                                        \
			fail_msg("%s: check failed: %s (line %d)", ctx, #c, __LINE__);         \
		}                                                                              \
	} while (0)

void put32(uint8_t *p, uint32_t v);
uint32_t get32(const uint8_t *p);
uint8_t *dup_exact(const void *src, size_t n);
uint8_t *packed_copy(const void *blob, size_t *size);
uint8_t *v16_copy(const uint8_t *packed, size_t size);
int libfdt_check(const uint8_t *blob, size_t size);

/* The checks that cost a tree walk per call run on @per items (0: all), fdt_test.c. */
struct sample {
	unsigned per;	/* 0: every item */
	unsigned salt;
};
extern const struct sample ALL;
/* @blob (exactly @size bytes) opened by both parsers: 0 dt_open() refuses it, 1 only dt_open()
 * accepts it (everything walked), 2 both do (compared). */
int check_blob(const uint8_t *blob, size_t size, bool pristine, const struct sample *sam,
	       char *err);

/* The tests, by part. */
void test_inputs_given(void **state);
void test_differential(void **state);
void test_bogus_offsets(void **state);
void test_mutations(void **state);
void test_sw_blob(void **state);
void test_helpers(void **state);
void test_corruptions(void **state);
#endif
