/*
 * msdos.c - the MBR partition table parser (v6.10's block/partitions/msdos.c, the DOS part of
 * it): block 0's four primary entries, an extended partition's chain of boot records (EBRs)
 * with one logical partition each, numbered 5.. in chain order.  Pure: blocks come through the
 * caller's callback, the result is a table or one reason (include/tinymm/msdos_partition.h);
 * block/partitions/core.c registers what it finds.
 *
 * As v6.10: no 0x55AA signature is no table; a boot indicator other than 0x00/0x80 in any
 * primary entry means a boot sector that is not an MBR (a FAT filesystem's), no table, quietly;
 * an entry counts if its size is not 0 (whatever its type); a 0xee entry is a GPT's protective
 * MBR; CHS fields are ignored; an EBR is read for its first data entry (a logical partition,
 * relative to the EBR) and its first extended entry (the next EBR, relative to the extended
 * partition's start); an EBR without the signature ends the chain; the extended container is
 * registered itself with a size of 2 sectors (1 KiB, for a boot loader's block, never a
 * filesystem's).
 *
 * Where tinymm differs from v6.10, and why: v6.10 trusts what it can and trims the rest (a
 * partition past the disk's end is truncated with a message, a long chain is cut at its limit
 * silently, overlaps are not looked at).  tinymm refuses the whole table with one reason
 * instead (issue 37): a partition that starts at block 0 (over the MBR) or ends beyond the
 * disk's end, two primaries that overlap (the extended one by its full extent), a second
 * extended primary, a logical partition outside its extended partition or over an EBR, two
 * logical partitions that overlap, an EBR link outside the extended partition, a chain that
 * comes back to an EBR it has read (a loop) or is longer than MSDOS_MAX_LOGICAL links.  Writing
 * through any such partition would write where another partition's or the table's bytes are;
 * the whole disk stays usable, so nothing is lost by refusing.  Only entries 0 and 1 of an EBR
 * are read (v6.10 looks at 2 and 3 too, guarding against their "random garbage"): sfdisk, fdisk
 * and parted write 0 and 1 only.  BSD/Solaris/UnixWare sub-partitions (v6.10's
 * CONFIG_BSD_DISKLABEL and friends) are not parsed.
 */
#include "tinymm/msdos_partition.h"
#include "tinymm/errname.h"
#include "tinymm/errno.h"
#include "tinymm/printk.h"

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static bool msdos_magic_present(const uint8_t *buf)
{
	return buf[510] == MSDOS_LABEL_MAGIC1 && buf[511] == MSDOS_LABEL_MAGIC2;
}

static const struct msdos_partition *entry(const uint8_t *buf, int i)
{
	return (const struct msdos_partition *)(buf + MSDOS_TABLE_OFFSET + 16 * i);
}

static bool overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return a < b + blen && b < a + alen;
}

static struct msdos_part *put_partition(struct msdos_table *t, int partno, uint64_t start,
					uint64_t size, uint8_t sys_ind)
{
	struct msdos_part *p = &t->parts[t->nr_parts++];

	p->partno = (uint8_t)partno;
	p->start = start;
	p->nr_sects = size;
	p->sys_ind = sys_ind;
	p->extended = false;
	return p;
}

/* What one table's walk needs besides the table. */
struct parse_state {
	msdos_read_block_t read;
	void *ctx;
	uint8_t *buf;
	uint64_t nr_blocks;
	char *why;
	size_t why_len;
};

static enum msdos_result read_block(struct parse_state *s, uint64_t block, const char *what)
{
	/* Never past the end (the checks before each read make sure; this keeps it so). */
	int err = block < s->nr_blocks ? s->read(s->ctx, block, s->buf) : -EINVAL;

	if (!err)
		return MSDOS_TABLE;
	ksnprintf(s->why, s->why_len, "cannot read %s (block %llu): %s", what,
		  (unsigned long long)block, errname(err) ? errname(err) : "error");
	return MSDOS_IO_ERROR;
}

/*
 * The logical partitions of the extended partition @ext (its full extent): numbered from 5, put
 * in @t.  MSDOS_TABLE, or why not.
 */
static enum msdos_result parse_extended(struct parse_state *s, struct msdos_table *t,
					const struct msdos_part *ext, uint64_t ext_size)
{
	uint64_t ebrs[MSDOS_MAX_LOGICAL];
	uint64_t ext_end = ext->start + ext_size;
	uint64_t ebr = ext->start;
	int links = 0, first = t->nr_parts;
	enum msdos_result r;

	for (;;) {
		const struct msdos_partition *data = NULL, *link = NULL;

		for (int i = 0; i < links; i++) {
			if (ebrs[i] == ebr) {
				ksnprintf(s->why, s->why_len,
					  "the extended partition's chain loops (block %llu comes twice)",
					  (unsigned long long)ebr);
				return MSDOS_BAD;
			}
		}
		if (links == MSDOS_MAX_LOGICAL) {
			ksnprintf(s->why, s->why_len,
				  "the extended partition's chain is longer than %d links",
				  MSDOS_MAX_LOGICAL);
			return MSDOS_BAD;
		}
		ebrs[links++] = ebr;
		r = read_block(s, ebr, "an extended boot record");
		if (r != MSDOS_TABLE)
			return r;
		if (!msdos_magic_present(s->buf))
			break;		/* v6.10: the chain ends here */
		for (int i = 0; i < 2; i++) {
			const struct msdos_partition *p = entry(s->buf, i);

			if (!get_le32(p->nr_sects))
				continue;
			if (is_extended_partition(p->sys_ind)) {
				if (!link)
					link = p;
			} else if (!data) {
				data = p;
			}
		}
		if (data) {
			uint64_t rel = get_le32(data->start_sect), size = get_le32(data->nr_sects);
			uint64_t start = ebr + rel;
			int partno = 5 + (t->nr_parts - first);

			if (!rel) {
				ksnprintf(s->why, s->why_len,
					  "logical partition %d starts on its own boot record (block %llu)",
					  partno, (unsigned long long)ebr);
				return MSDOS_BAD;
			}
			if (start < ext->start || start + size > ext_end) {
				ksnprintf(s->why, s->why_len,
					  "logical partition %d (blocks %llu-%llu) lies outside extended partition %d (blocks %llu-%llu)",
					  partno, (unsigned long long)start,
					  (unsigned long long)(start + size - 1), ext->partno,
					  (unsigned long long)ext->start, (unsigned long long)(ext_end - 1));
				return MSDOS_BAD;
			}
			put_partition(t, partno, start, size, data->sys_ind);
		}
		if (!link)
			break;
		ebr = ext->start + get_le32(link->start_sect);
		if (ebr >= ext_end) {
			ksnprintf(s->why, s->why_len,
				  "the extended chain's link at block %llu points outside extended partition %d (to block %llu)",
				  (unsigned long long)ebrs[links - 1], ext->partno,
				  (unsigned long long)ebr);
			return MSDOS_BAD;
		}
	}
	/* No logical partition over another one, then none over an EBR of the chain. */
	for (int i = first; i < t->nr_parts; i++) {
		const struct msdos_part *a = &t->parts[i];

		for (int j = first; j < i; j++) {
			const struct msdos_part *b = &t->parts[j];

			if (overlap(a->start, a->nr_sects, b->start, b->nr_sects)) {
				ksnprintf(s->why, s->why_len,
					  "partitions %d and %d overlap (blocks %llu-%llu and %llu-%llu)",
					  b->partno, a->partno, (unsigned long long)b->start,
					  (unsigned long long)(b->start + b->nr_sects - 1),
					  (unsigned long long)a->start,
					  (unsigned long long)(a->start + a->nr_sects - 1));
				return MSDOS_BAD;
			}
		}
	}
	for (int i = first; i < t->nr_parts; i++) {
		const struct msdos_part *a = &t->parts[i];

		for (int k = 0; k < links; k++) {
			if (overlap(a->start, a->nr_sects, ebrs[k], 1)) {
				ksnprintf(s->why, s->why_len,
					  "logical partition %d (blocks %llu-%llu) covers the extended boot record at block %llu",
					  a->partno, (unsigned long long)a->start,
					  (unsigned long long)(a->start + a->nr_sects - 1),
					  (unsigned long long)ebrs[k]);
				return MSDOS_BAD;
			}
		}
	}
	return MSDOS_TABLE;
}

enum msdos_result msdos_partition(msdos_read_block_t read, void *ctx, uint64_t nr_blocks,
				  unsigned int block_size, uint8_t *buf, struct msdos_table *t,
				  char *why, size_t why_len)
{
	struct parse_state s = { read, ctx, buf, nr_blocks, why, why_len };
	uint64_t full[4] = { 0 };	/* each primary's full extent (the extended one's too) */
	int ext = -1;			/* the extended container's index in t->parts */
	enum msdos_result r;

	t->nr_parts = 0;
	if (why_len)
		why[0] = '\0';
	if (!nr_blocks)
		return MSDOS_NO_TABLE;
	r = read_block(&s, 0, "the MBR");
	if (r != MSDOS_TABLE)
		return r;
	if (!msdos_magic_present(buf))
		return MSDOS_NO_TABLE;
	for (int i = 0; i < 4; i++) {
		uint8_t boot = entry(buf, i)->boot_ind;

		if (boot && boot != 0x80)
			return MSDOS_NO_TABLE;	/* a filesystem's boot sector, not an MBR */
	}
	for (int i = 0; i < 4; i++)
		if (entry(buf, i)->sys_ind == EFI_PMBR_OSTYPE_EFI_GPT)
			return MSDOS_GPT;

	for (int i = 0; i < 4; i++) {
		const struct msdos_partition *p = entry(buf, i);
		uint64_t start = get_le32(p->start_sect), size = get_le32(p->nr_sects);
		struct msdos_part *part;

		if (!size)
			continue;
		if (!start) {
			ksnprintf(why, why_len, "partition %d starts at block 0, over the MBR", i + 1);
			goto bad;
		}
		if (start + size > nr_blocks) {
			ksnprintf(why, why_len,
				  "partition %d (blocks %llu-%llu) ends beyond the disk's end (%llu blocks)",
				  i + 1, (unsigned long long)start,
				  (unsigned long long)(start + size - 1), (unsigned long long)nr_blocks);
			goto bad;
		}
		for (int j = 0; j < t->nr_parts; j++) {
			int o = t->parts[j].partno - 1;

			if (overlap(start, size, t->parts[j].start, full[o])) {
				ksnprintf(why, why_len,
					  "partitions %d and %d overlap (blocks %llu-%llu and %llu-%llu)",
					  o + 1, i + 1, (unsigned long long)t->parts[j].start,
					  (unsigned long long)(t->parts[j].start + full[o] - 1),
					  (unsigned long long)start, (unsigned long long)(start + size - 1));
				goto bad;
			}
		}
		full[i] = size;
		if (is_extended_partition(p->sys_ind)) {
			if (ext >= 0) {
				ksnprintf(why, why_len, "partitions %d and %d are both extended",
					  t->parts[ext].partno, i + 1);
				goto bad;
			}
			/* v6.10: 2 sectors of the container, for a boot loader, never a filesystem. */
			uint64_t n = block_size >= 1024 ? 1 : 2;

			ext = t->nr_parts;
			part = put_partition(t, i + 1, start, size < n ? size : n, p->sys_ind);
			part->extended = true;
		} else {
			put_partition(t, i + 1, start, size, p->sys_ind);
		}
	}
	if (ext >= 0) {
		struct msdos_part container = t->parts[ext];

		r = parse_extended(&s, t, &container, full[container.partno - 1]);
		if (r != MSDOS_TABLE) {
			t->nr_parts = 0;
			return r;
		}
	}
	return MSDOS_TABLE;
bad:
	t->nr_parts = 0;
	return MSDOS_BAD;
}
