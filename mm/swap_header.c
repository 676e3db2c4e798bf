/*
 * swap_header.c - page 0 of a swap area, as Linux's mkswap writes it, judged before swapon
 * uses the area: v6.10's read_swap_header() and the bad-page checks of
 * setup_swap_map_and_extents(), as one pure function (no allocation, no I/O, the page not
 * written), so the host tests run it on mkswap's own output.  docs/swap.md ("The header").
 *
 * The rules, in v6.10's order: "SWAPSPACE2" in the page's last 10 bytes (Linux 2.2's
 * "SWAP-SPACE", version 0, is refused with its own reason); version 1, or 1 byte-swapped (an
 * area made on a machine of the other endianness: its fields are read swapped, as v6.10
 * swab32s them); last_page not 0; the device holds at least last_page + 1 pages;
 * nr_badpages fits in the page; each bad page in (0, last_page]; at least one good slot.
 *
 * Where tinymm differs from v6.10, and why: v6.10 swabs the header in place and warns with
 * pr_warn from inside; here the check only reads and hands back one reason, and the caller
 * (mm/swapon.c) prints it as "swapon: vdb: <reason>" and calls swap_header_to_cpu() on its own
 * copy.  v6.10's "Truncating oversized swap area" (an area larger than a swap pte can name) is
 * swapon's, not this file's.
 */
#include "tinymm/errno.h"
#include <string.h>
#include "tinymm/byteorder.h"
#include "tinymm/swapfile.h"

/* The header's fields as the CPU reads them, and whether they had to be swapped. */
static uint32_t hdr_field(const uint32_t *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap32(v) : v;
}

static bool header_swapped(const struct swap_header_info *h)
{
	uint32_t v;

	memcpy(&v, &h->version, sizeof(v));
	return v != 1 && __builtin_bswap32(v) == 1;
}

int swap_header_check(const void *page0, unsigned long page_size, unsigned long dev_pages,
		      unsigned long *maxpages, const char **why)
{
	const unsigned char *p = page0;
	const struct swap_header_info *h = (const void *)(p + SWAP_HEADER_BOOTBITS);
	const unsigned char *magic = p + page_size - SWAP_MAGIC_LEN;

	*maxpages = 0;
	*why = NULL;
	if (page_size < SWAP_HEADER_BOOTBITS + sizeof(*h) + SWAP_MAGIC_LEN) {
		*why = "page too small for a swap header";
		return -EINVAL;
	}
	if (!memcmp(magic, "SWAP-SPACE", SWAP_MAGIC_LEN)) {
		*why = "old swap format (SWAP-SPACE, version 0) not supported: run mkswap";
		return -EINVAL;
	}
	if (memcmp(magic, SWAP_MAGIC, SWAP_MAGIC_LEN)) {
		*why = "Unable to find swap-space signature";
		return -EINVAL;
	}
	bool swapped = header_swapped(h);
	uint32_t version = hdr_field(&h->version, swapped);
	uint32_t last_page = hdr_field(&h->last_page, swapped);
	uint32_t nr_bad = hdr_field(&h->nr_badpages, swapped);

	if (version != 1) {
		*why = "Unable to handle swap header version (not 1)";
		return -EINVAL;
	}
	if (!last_page) {
		*why = "Empty swap-file (last_page 0)";
		return -EINVAL;
	}
	if ((unsigned long)last_page + 1 > dev_pages) {
		*why = "Swap area shorter than signature indicates";
		return -EINVAL;
	}
	if (nr_bad > MAX_SWAP_BADPAGES(page_size)) {
		*why = "too many bad pages for the header";
		return -EINVAL;
	}
	unsigned long distinct_bad = 0;

	for (uint32_t i = 0; i < nr_bad; i++) {
		uint32_t b = hdr_field(&h->badpages[i], swapped);

		if (!b || b > last_page) {
			*why = "bad page number outside the area";
			return -EINVAL;
		}
		/* Duplicates count once (the map marks a slot once); quadratic, but at most
		 * MAX_SWAP_BADPAGES and only where a header lists bad pages at all. */
		bool dup = false;
		for (uint32_t j = 0; j < i && !dup; j++)
			dup = hdr_field(&h->badpages[j], swapped) == b;
		distinct_bad += !dup;
	}
	if (distinct_bad >= last_page) {
		*why = "Empty swap-file (every page bad)";
		return -EINVAL;
	}
	*maxpages = (unsigned long)last_page + 1;
	return 0;
}

void swap_header_to_cpu(void *page0)
{
	struct swap_header_info *h = (void *)((unsigned char *)page0 + SWAP_HEADER_BOOTBITS);

	if (!header_swapped(h))
		return;
	uint32_t nr_bad = hdr_field(&h->nr_badpages, true);

	h->version = 1;
	h->last_page = hdr_field(&h->last_page, true);
	h->nr_badpages = nr_bad;
	for (uint32_t i = 0; i < nr_bad; i++)
		h->badpages[i] = hdr_field(&h->badpages[i], true);
}
