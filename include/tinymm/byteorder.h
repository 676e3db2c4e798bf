/*
 * byteorder.h - Linux's le16_to_cpu() family for on-disk formats that are little-endian
 * (ext2).  Every tinymm target (ARMv7, RISC-V) and the x86 host are little-endian, so on
 * them these compile to nothing; a big-endian build would swap, so no caller has to care.
 * Values are plain uint16_t/uint32_t (Linux's __le16/__le32 carry a sparse annotation
 * tinymm has no checker for): a struct field documented little-endian goes through these.
 */
#ifndef TINYMM_BYTEORDER_H
#define TINYMM_BYTEORDER_H

#include <stdint.h>

#if !defined(__BYTE_ORDER__) || (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ && \
				 __BYTE_ORDER__ != __ORDER_BIG_ENDIAN__)
#error "byteorder.h: the compiler does not say the byte order"
#endif

static inline uint16_t le16_to_cpu(uint16_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return v;
#else
	return __builtin_bswap16(v);
#endif
}

static inline uint32_t le32_to_cpu(uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return v;
#else
	return __builtin_bswap32(v);
#endif
}

static inline uint64_t le64_to_cpu(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return v;
#else
	return __builtin_bswap64(v);
#endif
}

/* The conversion is its own inverse. */
static inline uint16_t cpu_to_le16(uint16_t v) { return le16_to_cpu(v); }
static inline uint32_t cpu_to_le32(uint32_t v) { return le32_to_cpu(v); }
static inline uint64_t cpu_to_le64(uint64_t v) { return le64_to_cpu(v); }

/* Linux's le16_add_cpu(): add to a little-endian field in place (s_mnt_count, link counts). */
static inline void le16_add_cpu(uint16_t *var, uint16_t val)
{
	*var = cpu_to_le16((uint16_t)(le16_to_cpu(*var) + val));
}

static inline void le32_add_cpu(uint32_t *var, uint32_t val)
{
	*var = cpu_to_le32(le32_to_cpu(*var) + val);
}

#endif
