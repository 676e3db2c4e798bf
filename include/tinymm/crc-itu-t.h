/*
 * crc-itu-t.h - CRC-16-ITU-T (CCITT), polynomial x^16 + x^12 + x^5 + 1, most significant bit
 * first, no final xor (lib/crc-itu-t.c): the CRC of an SD card's data blocks, started at 0
 * (512 bytes of 0xff give 0x7fa1).  v6.10's crc_itu_t() (lib/crc-itu-t.c) by the same name.
 */
#ifndef TINYMM_CRC_ITU_T_H
#define TINYMM_CRC_ITU_T_H

#include <stddef.h>
#include <stdint.h>

uint16_t crc_itu_t(uint16_t crc, const uint8_t *buf, size_t len);

#endif
