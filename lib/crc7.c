/*
 * crc7.c - CRC-7 for SD/MMC command frames (include/tinymm/crc7.h).  Bitwise: a command is
 * five bytes, so a table would cost more memory than it saves.  v6.10 keeps a 256-byte table
 * and a result shifted left by one (crc7_be); tinymm returns the plain 7-bit value.
 */
#include "tinymm/crc7.h"

uint8_t crc7(uint8_t crc, const uint8_t *buf, size_t len)
{
	while (len--) {
		uint8_t b = *buf++;

		for (int i = 7; i >= 0; i--) {
			unsigned int in = ((b >> i) & 1) ^ ((crc >> 6) & 1);

			crc = (uint8_t)((crc << 1) & 0x7f);
			if (in)
				crc ^= 0x09;	/* x^3 + 1: the x^7 term is the bit shifted out */
		}
	}
	return crc;
}
