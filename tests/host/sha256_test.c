/*
 * sha256_test.c - lib/sha256.c against FIPS 180-4's examples and against the host's own
 * sha256sum for every length 0..300 fed in odd pieces (the padding boundaries at 55/56/64).
 */
#include "test.h"
#include <unistd.h>
#include "tinymm/sha256.h"

static void hex_of(const void *data, size_t len, char out[65])
{
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256_init(&c);
	sha256_update(&c, data, len);
	sha256_final(&c, d);
	sha256_hex(d, out);
}

static void fips_examples(void **state)
{
	char out[65];

	hex_of("", 0, out);
	assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	hex_of("abc", 3, out);
	assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	hex_of(two, strlen(two), out);
	assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

	/* A million 'a's, in 1000 updates of 1000. */
	char a[1000];
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE];
	memset(a, 'a', sizeof(a));
	sha256_init(&c);
	for (int i = 0; i < 1000; i++)
		sha256_update(&c, a, sizeof(a));
	sha256_final(&c, d);
	sha256_hex(d, out);
	assert_string_equal(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Pieces of 1, 2, 3, ... bytes give the same digest as one update and as sha256sum. */
static void lengths_and_pieces_match_sha256sum(void **state)
{
	uint8_t data[300];
	char path[] = "/tmp/tinymm-sha256-XXXXXX";

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 131 + 7);
	for (size_t len = 0; len <= sizeof(data); len += len < 130 ? 1 : 17) {
		char whole[65], pieces[65], cmd[96], ref[65] = "";
		hex_of(data, len, whole);

		struct sha256_ctx c;
		uint8_t d[SHA256_DIGEST_SIZE];
		sha256_init(&c);
		for (size_t off = 0, step = 1; off < len; off += step, step++)
			sha256_update(&c, data + off, min(step, len - off));
		sha256_final(&c, d);
		sha256_hex(d, pieces);
		assert_string_equal(whole, pieces);

		int fd = mkstemp(path);
		assert_true(fd >= 0);
		FILE *f = fdopen(fd, "wb");
		assert_int_equal(fwrite(data, 1, len, f), len);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
		FILE *p = popen(cmd, "r");
		assert_non_null(p);
		assert_int_equal(fscanf(p, "%64s", ref), 1);
		pclose(p);
		unlink(path);
		strcpy(path, "/tmp/tinymm-sha256-XXXXXX");
		assert_string_equal(whole, ref);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fips_examples),
		cmocka_unit_test(lengths_and_pieces_match_sha256sum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
