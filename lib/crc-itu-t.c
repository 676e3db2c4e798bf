/*
 * crc-itu-t.c - CRC-16-ITU-T, MSB first (include/tinymm/crc-itu-t.h), for SD data blocks.
 * A byte at a time without a table: the polynomial's three terms folded in by shifts
 * (x^12 and x^5 of the byte's top and bottom nibbles), a dozen operations a byte.  v6.10 uses
 * a 512-byte table; the SPI byte loop around this costs far more than either.
 */
#include "tinymm/crc-itu-t.h"

uint16_t crc_itu_t(uint16_t crc, const uint8_t *buf, size_t len)
{
	while (len--) {
		unsigned int x = ((crc >> 8) ^ *buf++) & 0xff;

		x ^= x >> 4;
		crc = (uint16_t)((crc << 8) ^ (x << 12) ^ (x << 5) ^ x);
	}
	return crc;
}
