/*
 * fdt_test_mutate.c - fdt_test's mutation run (tests/host/fdt_test.c has the whole picture): a
 * fixed-seed PRNG derives corrupted blobs from each input DTB; dt_open() must refuse or walk
 * each in bounds, and agree with libfdt where both accept.
 */
#include "fdt_test.h"

/* ---- mutation ---- */

static uint64_t rng;

static uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint64_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

/* Values that sit on the boundaries dt_open() checks. */
static uint32_t interesting(uint32_t old, size_t size)
{
	static const uint32_t fixed[] = { 0, 1, 2, 3, 4, 8, 9, 16, 17, 0x28, 0x38, 0x40, 0x7fffffff,
					  0x80000000, 0xfffffffc, 0xffffffff, 0xd00dfeed };

	switch (below(6)) {
	case 0:
		return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
	case 1:
		return (uint32_t)size + below(9) - 4;
	case 2:
		return old + below(17) - 8;
	case 3:
		return below(size + 16);
	case 4:
		return old ^ (1u << below(32));
	default:
		return (uint32_t)rnd();
	}
}

/* Block layout of the unmutated blob, so mutations aim at the struct and strings blocks. */
struct layout {
	uint32_t soff, ssize, stroff, strsize;
};

/* Apply 2-3 random corruptions to buf[0..*size); may shrink *size. */
static void mutate(uint8_t *buf, size_t *size, const struct layout *l)
{
	uint32_t soff = l->soff, ssize = l->ssize, stroff = l->stroff, strsize = l->strsize;

	for (int n = 2 + (int)below(2); n > 0; n--) {
		size_t at;

		switch (below(8)) {
		case 0:	/* bit flip anywhere */
			at = below(*size);
			buf[at] ^= (uint8_t)(1u << below(8));
			break;
		case 1:	/* header field */
			at = 4 * below(10);
			if (at + 4 <= *size)
				put32(buf + at, interesting(get32(buf + at), *size));
			break;
		case 2:	/* struct block word */
		case 3:
			at = soff + 4 * below(ssize / 4);
			if (at + 4 <= *size)
				put32(buf + at, below(3) ? interesting(get32(buf + at), *size)
							 : 1 + below(9));
			break;
		case 4:	/* strings block byte */
			at = stroff + below(strsize);
			if (at < *size)
				buf[at] = below(2) ? 0 : (uint8_t)rnd();
			break;
		case 5:	/* truncate, keeping or fixing totalsize */
			*size = below(*size);
			if (below(2) && *size >= 8)
				put32(buf + 4, (uint32_t)*size);
			break;
		case 6:	/* totalsize or a block's offset or size: what dt_open() trusts least */
			at = (size_t[]){ 4, 8, 12, 16, 32, 36 }[below(6)];
			if (at + 4 <= *size)
				put32(buf + at, interesting(get32(buf + at), *size));
			break;
		default: /* a token where a token may be: turns nodes and properties into others */
			at = soff + 4 * below(ssize / 4);
			if (at + 4 <= *size && get32(buf + at) >= 1 && get32(buf + at) <= 9)
				put32(buf + at, 1 + below(4));
			break;
		}
		if (*size == 0)
			return;
	}
}

static void mutate_input(const char *label, const uint8_t *base, size_t size,
			 const struct layout *l, int count, uint64_t seed)
{
	unsigned long stat[3] = { 0, 0, 0 }, lib_only = 0;
	/* FDT_TEST_FULL=1: every check on every node of every mutant (about 2x slower). */
	struct sample sam = { getenv("FDT_TEST_FULL") ? 0 : 2, 0 };
	uint8_t *work = malloc(size);
	char err[DT_ERR_MAX];

	assert_non_null(work);
	rng = seed;
	for (int i = 0; i < count; i++) {
		size_t n = size;
		uint8_t *exact;
		int r;

		memcpy(work, base, size);
		mutate(work, &n, l);
		exact = dup_exact(work, n);
		snprintf(ctx, sizeof(ctx), "%s mutation %d (seed %#llx)", label, i,
			 (unsigned long long)seed);
		sam.salt = (unsigned)rnd();
		r = check_blob(exact, n, false, &sam, err);
		stat[r]++;
		if (r == 1 && verbose)
			printf("    dt_open-only (libfdt: %s)\n", fdt_strerror(libfdt_check(exact, n)));
		if (r == 0 && libfdt_check(exact, n) == 0) {
			lib_only++;
			if (verbose)
				printf("    libfdt-only: %s\n", err);
		}
		free(exact);
	}
	free(work);
	printf("  %s: %d mutants: %lu rejected (%lu of them accepted by libfdt), "
	       "%lu accepted by dt_open only, %lu compared with libfdt\n",
	       label, count, stat[0], lib_only, stat[1], stat[2]);
	/* The differential part must not be vacuous, nor the rejection part. */
	CHECK(stat[2] > (unsigned long)count / 20 && stat[0] > (unsigned long)count / 4);
}

void test_mutations(void **state)
{
	/* FDT_TEST_MUTATIONS may raise the count, never lower it below the floor. */
	const char *env = getenv("FDT_TEST_MUTATIONS");
	int count = env && atoi(env) > MUTATIONS ? atoi(env) : MUTATIONS;

	(void)state;
	for (int i = 0; i < n_inputs; i++) {
		size_t size;
		uint8_t *packed = packed_copy(inputs[i].data, &size), *v16;
		struct layout l = { fdt_off_dt_struct(packed), fdt_size_dt_struct(packed),
				    fdt_off_dt_strings(packed), fdt_size_dt_strings(packed) };
		char label[128];

		snprintf(label, sizeof(label), "%s", inputs[i].path);
		mutate_input(label, packed, size, &l, count, SEED + (uint64_t)i);
		v16 = v16_copy(packed, size);
		snprintf(label, sizeof(label), "%s (v16)", inputs[i].path);
		mutate_input(label, v16, size, &l, count / 10, SEED + 0x100 + (uint64_t)i);
		free(v16);
		free(packed);
	}
}
