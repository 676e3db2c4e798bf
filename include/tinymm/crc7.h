/*
 * crc7.h - the SD/MMC command CRC (lib/crc7.c): CRC-7, polynomial x^7 + x^3 + 1, initial value
 * 0, most significant bit first.  v6.10's crc7_be() returns the CRC in bits 7..1 of its byte;
 * this one returns it in bits 6..0, and the caller shifts it up and sets the end bit:
 * CMD0 (0x40 00 00 00 00) gives 0x4a, sent as 0x95.
 */
#ifndef TINYMM_CRC7_H
#define TINYMM_CRC7_H

#include <stddef.h>
#include <stdint.h>

uint8_t crc7(uint8_t crc, const uint8_t *buf, size_t len);

#endif
