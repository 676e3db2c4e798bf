/*
 * sha256.h - SHA-256 (FIPS 180-4), incremental (lib/sha256.c).  `blk sha256` hashes what it
 * reads through the page cache so a host script can compare with `sha256sum`.
 *   sha256_init(&c); sha256_update(&c, data, len)...; sha256_final(&c, digest[32])
 *   sha256_hex(digest, out[65])   64 lowercase hex digits and a NUL
 */
#ifndef TINYMM_SHA256_H
#define TINYMM_SHA256_H

#include "kernel.h"

#define SHA256_DIGEST_SIZE	32

struct sha256_ctx {
	uint32_t h[8];
	uint64_t len;			/* bytes hashed so far */
	uint8_t buf[64];
	unsigned int used;		/* bytes waiting in buf */
};

void sha256_init(struct sha256_ctx *c);
void sha256_update(struct sha256_ctx *c, const void *data, size_t len);
void sha256_final(struct sha256_ctx *c, uint8_t digest[SHA256_DIGEST_SIZE]);
void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char out[2 * SHA256_DIGEST_SIZE + 1]);

#endif
