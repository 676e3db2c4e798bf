/*
 * crc_test.c - lib/crc7.c and lib/crc-itu-t.c (the SD card's command and data CRCs,
 * drivers/mmc_spi.c) against the SD specification's examples and the CRC catalogue's check
 * values, and against a plain bit-at-a-time reference for random data in random pieces.
 */
#include "test.h"
#include "tinymm/crc-itu-t.h"
#include "tinymm/crc7.h"

/* CRC-7 of the five bytes, sent as (crc << 1) | 1. */
static uint8_t cmd_crc(uint8_t cmd, uint32_t arg)
{
	uint8_t f[5] = { 0x40 | cmd, arg >> 24, arg >> 16, arg >> 8, arg };

	return (uint8_t)(crc7(0, f, 5) << 1 | 1);
}

static void sd_spec_examples(void **state)
{
	uint8_t ff[512];

	(void)state;
	assert_int_equal(cmd_crc(0, 0), 0x95);		/* CMD0, the one every SPI card checks */
	assert_int_equal(cmd_crc(8, 0x1aa), 0x87);	/* CMD8's check pattern */
	assert_int_equal(cmd_crc(17, 0), 0x55);		/* the spec's CMD17 example */
	assert_int_equal(crc7(0, (const uint8_t *)"123456789", 9), 0x75);	/* CRC-7/MMC check */
	memset(ff, 0xff, sizeof(ff));
	assert_int_equal(crc_itu_t(0, ff, sizeof(ff)), 0x7fa1);	/* the spec's data block example */
	assert_int_equal(crc_itu_t(0, (const uint8_t *)"123456789", 9), 0x31c3);	/* XMODEM check */
}

static uint16_t ref16(uint16_t crc, const uint8_t *p, size_t n)
{
	while (n--) {
		crc ^= (uint16_t)(*p++ << 8);
		for (int i = 0; i < 8; i++)
			crc = (uint16_t)(crc & 0x8000 ? crc << 1 ^ 0x1021 : crc << 1);
	}
	return crc;
}

static void matches_reference_in_pieces(void **state)
{
	uint8_t buf[1024];
	uint32_t x = 12345;

	(void)state;
	for (int round = 0; round < 200; round++) {
		size_t len = (size_t)(round * 5 % 1024);

		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			buf[i] = (uint8_t)x;
		}
		uint16_t whole = crc_itu_t(0, buf, len), pieces = 0;
		for (size_t off = 0, step = 1 + round % 7; off < len; off += step)
			pieces = crc_itu_t(pieces, buf + off, off + step > len ? len - off : step);
		assert_int_equal(whole, ref16(0, buf, len));
		assert_int_equal(pieces, whole);
		/* a flipped bit changes it */
		if (len) {
			buf[len / 2] ^= 0x10;
			assert_int_not_equal(crc_itu_t(0, buf, len), whole);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sd_spec_examples),
		cmocka_unit_test(matches_reference_in_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
