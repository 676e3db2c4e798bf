/*
 * sunxi_mmc_cachemodel_test.c - the Allwinner SD/MMC host's data path (drivers/sunxi_mmc_dma.c:
 * bio segments mapped with the DMA API, the IDMAC descriptor chain, the completion's checks)
 * against a fake controller over the host cache model (tests/host/cachemodel.h), with ARM's
 * arch_sync_dma_* (the Orange Pi PC's device is non-coherent).  docs/sunxi-mmc.md.
 *
 * The fake controller does what the H3's IDMAC does: it walks the chain from the ring's bus
 * address (plain loads: the kernel's ring is an uncached dma_alloc_coherent() mapping, both
 * sides see every access), checks the first/last/chain bits, moves each buffer between the
 * "card" and memory with cm_device_read / cm_device_write (behind the modelled D-cache: only
 * what the DMA API cleaned reaches it, and what it writes is seen by the CPU only after an
 * invalidate), clears each descriptor's OWN bit and returns the raw interrupt status.  Its bus
 * carries 32 address bits, as the H3's does; the host's RAM lies above 4 GiB (anywhere: it may
 * straddle a 4 GiB boundary), so the fake takes the one address of the 16-MiB fake RAM whose
 * low 32 bits the descriptor holds.
 *
 * Usage: sunxi_mmc_cachemodel_test 32|64 SCENARIO [--no-maintenance]
 * A bio of three segments (1 KiB at 512 in one page, a whole page, 512 bytes at 1536 of a
 * third) whose pages' other bytes the CPU wrote, dirty, before the mapping.
 *   read            the card's bytes reach the CPU exactly (the buffers held stale dirty
 *                   bytes; the CPU prefetches half way through the transfer); neighbours kept
 *   write           the CPU's bytes reach the card exactly
 *   rto crc dto     the fake reports a response timeout (no data), a data CRC error (data
 *                   moved), a data timeout (half moved): -EIO, every segment unmapped
 *   owned idmac     success bits, but the last descriptor left owned / an IDMAC bus error: -EIO
 *   no_data_over    only "command done": -EIO;  timeout   the driver's timer ended it: -EIO
 *   bad_segment     a segment not word aligned is refused (-EINVAL), nothing stays mapped
 * --no-maintenance: the model's operations do nothing; read and write must then fail.
 * Exit 0 when every check held.
 */
#include "host_sched_test.h"
#include "cachemodel.h"
#include "tinymm/cacheops.h"
#include "tinymm/dma-map-ops.h"
#include "../../drivers/sunxi_mmc.h"

unsigned long cacheop_counts[NR_CACHEOPS];	/* kernel/cacheops.c's, on a target */
extern bool fake_dma_default_coherent, fake_dma_noncoherent_ok;

#define NSEG	3
static const struct { unsigned int page, off, len; } seg[NSEG] = {
	{ 0, 512, 1024 }, { 1, 0, PAGE_SIZE }, { 2, 1536, 512 },
};
#define TOTAL	(1024 + PAGE_SIZE + 512)

static unsigned int line;
static const char *scenario, *mode = "";
static struct device dev;
static struct page *pages[NSEG];
static struct sunxi_mmc_ring *ring;
static unsigned char card[TOTAL];

enum fault { F_NONE, F_RTO, F_CRC, F_DTO, F_OWNED, F_IDMAC, F_NO_DATA_OVER };

static unsigned char pat(int which, unsigned int i)
{
	return (unsigned char)(which * 41 + i * 13 + (i >> 8) + 3);
}

static unsigned char *pg(unsigned int i)
{
	return page_address(pages[i]);
}

static bool in_seg(unsigned int p, unsigned int i)
{
	for (int s = 0; s < NSEG; s++)
		if (seg[s].page == p && i >= seg[s].off && i < seg[s].off + seg[s].len)
			return true;
	return false;
}

/* The three pages zero on both sides, then the CPU's neighbour bytes (pattern 9), dirty. */
static void setup(void)
{
	for (unsigned int p = 0; p < NSEG; p++) {
		memset(pg(p), 0, PAGE_SIZE);
		cm_settle(pg(p), PAGE_SIZE);
		for (unsigned int i = 0; i < PAGE_SIZE; i++)
			if (!in_seg(p, i))
				pg(p)[i] = pat(9, p * PAGE_SIZE + i);
	}
}

static struct bio *make_bio(unsigned int op)
{
	struct bio *bio = calloc(1, sizeof(*bio) + NSEG * sizeof(struct bio_vec));

	bio->bi_opf = op;
	bio->bi_sector = 8;
	bio->bi_max_vecs = NSEG;
	for (int s = 0; s < NSEG; s++) {
		bio->bi_io_vec[s] = (struct bio_vec){ pages[seg[s].page], seg[s].len, seg[s].off };
		bio->bi_size += seg[s].len;
	}
	bio->bi_vcnt = NSEG;
	return bio;
}

/* The fake RAM's byte whose address has low 32 bits @a (unique: the RAM is 16 MiB). */
static void *bus_to_virt(uint32_t a)
{
	phys_addr_t base = __pa(ram);

	return __va(base + (uint32_t)(a - (uint32_t)base));
}

/*
 * The controller runs the command: walks the chain, moves the data, returns RINTR (and
 * IDST in *idst).  A chain that makes no sense to it (no first bit, a loop, no last
 * descriptor within the ring) is an IDMAC "descriptor invalid" error, as on the H3.
 */
static uint32_t fake_controller(bool write, enum fault f, uint32_t *idst)
{
	uint32_t ok = SDXC_COMMAND_DONE | SDXC_DATA_OVER | SDXC_AUTO_COMMAND_DONE;
	uint32_t a = (uint32_t)ring->des_dma;
	unsigned int pos = 0, n = 0;

	*idst = write ? SDXC_IDMAC_TRANSMIT_INT : SDXC_IDMAC_RECEIVE_INT;
	if (f == F_RTO) {
		*idst = 0;
		return SDXC_RESP_ERROR | SDXC_RESP_TIMEOUT;
	}
	for (;;) {
		unsigned int idx = (a - (uint32_t)ring->des_dma) / sizeof(struct sunxi_idma_des);
		struct sunxi_idma_des *d;
		uint32_t cfg, len;
		void *buf;

		if (idx >= ring->nr_des || n >= ring->nr_des) {
			*idst = SDXC_IDMAC_DES_INVALID | SDXC_IDMAC_ABNORMAL_INT_SUM;
			return SDXC_COMMAND_DONE;
		}
		d = &ring->des[idx];
		cfg = d->config;
		len = d->buf_size;
		if (!(cfg & SDXC_IDMAC_DES0_OWN) || !(cfg & SDXC_IDMAC_DES0_CH) ||
		    !!(cfg & SDXC_IDMAC_DES0_FD) != (n == 0) || pos + len > TOTAL) {
			*idst = SDXC_IDMAC_DES_INVALID | SDXC_IDMAC_ABNORMAL_INT_SUM;
			return SDXC_COMMAND_DONE;
		}
		buf = bus_to_virt(d->buf_addr);
		if (f == F_DTO && pos >= TOTAL / 2)
			return SDXC_COMMAND_DONE | SDXC_DATA_TIMEOUT;
		if (write) {
			cm_device_read(buf, card + pos, len);
		} else {
			cm_device_write(buf, card + pos, len / 2);
			cm_speculative_fill(buf, len);	/* the CPU prefetches mid-transfer */
			cm_device_write((char *)buf + len / 2, card + pos + len / 2, len - len / 2);
		}
		pos += len;
		n++;
		if (!(cfg & SDXC_IDMAC_DES0_LD) || f != F_OWNED)
			d->config = cfg & ~SDXC_IDMAC_DES0_OWN;
		if (cfg & SDXC_IDMAC_DES0_LD)
			break;
		a = d->next;
	}
	CHECK_EQ(pos, TOTAL);
	CHECK_EQ(n, NSEG);
	switch (f) {
	case F_CRC:
		return ok | SDXC_DATA_CRC_ERROR;
	case F_IDMAC:
		*idst |= SDXC_IDMAC_FATAL_BUS_ERROR | SDXC_IDMAC_ABNORMAL_INT_SUM;
		return ok;
	case F_NO_DATA_OVER:
		return SDXC_COMMAND_DONE;
	default:
		return ok;
	}
}

/* One request through the data path; its status. */
static int transfer(struct bio *bio, enum fault f, bool timed_out)
{
	uint32_t rint, idst = 0;
	char why[96] = "";
	int ret;

	ret = sunxi_mmc_map_bio(ring, bio);
	CHECK_EQ(ret, 0);
	if (ret)
		return ret;
	CHECK_EQ(dma_debug_entries(), NSEG);
	rint = timed_out ? SDXC_COMMAND_DONE : fake_controller(bio_op(bio) == REQ_OP_WRITE, f, &idst);
	ret = sunxi_mmc_complete_bio(ring, bio, rint, idst, timed_out, why, sizeof(why));
	CHECK_EQ(dma_debug_entries(), 0);	/* unmapped whatever the outcome */
	if (ret)
		printf("sunxi-mmc data path: -EIO: %s\n", why);
	return ret;
}

static void check_neighbours(void)
{
	for (unsigned int p = 0; p < NSEG; p++)
		for (unsigned int i = 0; i < PAGE_SIZE; i++)
			if (!in_seg(p, i) && pg(p)[i] != pat(9, p * PAGE_SIZE + i)) {
				fprintf(stderr, "sunxi-mmc: %s: page %u byte %u (a neighbour) lost\n", scenario, p, i);
				failures++;
				return;
			}
}

static void read_exact(void)
{
	struct bio *bio = make_bio(REQ_OP_READ);
	unsigned int pos = 0;

	setup();
	for (unsigned int i = 0; i < TOTAL; i++)
		card[i] = pat(2, i);
	for (int s = 0; s < NSEG; s++)		/* stale bytes, dirty in the CPU's cache */
		for (unsigned int i = 0; i < seg[s].len; i++)
			pg(seg[s].page)[seg[s].off + i] = pat(3, i);
	CHECK_EQ(transfer(bio, F_NONE, false), 0);
	for (int s = 0; s < NSEG; s++) {
		if (memcmp(pg(seg[s].page) + seg[s].off, card + pos, seg[s].len)) {
			fprintf(stderr, "sunxi-mmc: read: segment %d is not the card's bytes\n", s);
			failures++;
		}
		pos += seg[s].len;
	}
	check_neighbours();
	free(bio);
}

static void write_exact(void)
{
	struct bio *bio = make_bio(REQ_OP_WRITE);
	unsigned int pos = 0;

	setup();
	memset(card, 0xee, sizeof(card));
	/* the CPU's data, dirty in its cache */
	for (int s = 0, p = 0; s < NSEG; p += seg[s].len, s++)
		for (unsigned int i = 0; i < seg[s].len; i++)
			pg(seg[s].page)[seg[s].off + i] = pat(4, (unsigned int)p + i);
	CHECK_EQ(transfer(bio, F_NONE, false), 0);
	for (int s = 0; s < NSEG; s++) {
		for (unsigned int i = 0; i < seg[s].len; i++)
			if (card[pos + i] != pat(4, pos + i)) {
				fprintf(stderr, "sunxi-mmc: write: the card's byte %u is not the CPU's\n", pos + i);
				failures++;
				break;
			}
		pos += seg[s].len;
	}
	check_neighbours();
	free(bio);
}

static void error_status(enum fault f, bool timed_out)
{
	struct bio *bio = make_bio(REQ_OP_READ);

	setup();
	CHECK_EQ(transfer(bio, f, timed_out), -EIO);
	check_neighbours();
	/* The ring works again for the next request. */
	CHECK_EQ(transfer(bio, F_NONE, false), 0);
	free(bio);
}

static void bad_segment(void)
{
	struct bio *bio = make_bio(REQ_OP_READ);

	bio->bi_io_vec[2].bv_offset = 1538;	/* not word aligned */
	CHECK_EQ(sunxi_mmc_map_bio(ring, bio), -EINVAL);
	CHECK_EQ(dma_debug_entries(), 0);
	bio->bi_io_vec[2].bv_offset = 1536;
	bio->bi_io_vec[1].bv_len = 1000;	/* not whole sectors */
	CHECK_EQ(sunxi_mmc_map_bio(ring, bio), -EINVAL);
	CHECK_EQ(dma_debug_entries(), 0);
	free(bio);
}

static int run(void)
{
	struct page *rp = alloc_page(GFP_KERNEL);

	for (int i = 0; i < NSEG; i++)
		pages[i] = alloc_page(GFP_KERNEL);
	CHECK(rp && pages[0] && pages[1] && pages[2]);
	/* The ring as dma_alloc_coherent() gives it on the board: an uncached page, so plain
	 * accesses on both sides (the model's "data side" is then what the controller sees). */
	ring = calloc(1, sizeof(*ring) + (PAGE_SIZE / sizeof(struct sunxi_idma_des)) * sizeof(dma_addr_t));
	ring->des = page_address(rp);
	ring->des_dma = __pa(ring->des);
	ring->nr_des = PAGE_SIZE / sizeof(struct sunxi_idma_des);
	ring->dev = &dev;
	fake_dma_default_coherent = false;	/* ARM: no dma-coherent in the Orange Pi's node */
	dma_dev_init(&dev, "mmc0", NULL, -1);
	CHECK(!dev.dma_coherent);
	CHECK_EQ(dma_set_mask_and_coherent(&dev, DMA_BIT_MASK(64)), 0);	/* the host's RAM is high */
	cm_install(CM_ARM, line, ram, RAM_SIZE, strcmp(mode, "--no-maintenance") != 0);
	if (!strcmp(scenario, "read"))
		read_exact();
	else if (!strcmp(scenario, "write"))
		write_exact();
	else {
		if (!strcmp(scenario, "rto"))
			error_status(F_RTO, false);
		else if (!strcmp(scenario, "crc"))
			error_status(F_CRC, false);
		else if (!strcmp(scenario, "dto"))
			error_status(F_DTO, false);
		else if (!strcmp(scenario, "owned"))
			error_status(F_OWNED, false);
		else if (!strcmp(scenario, "idmac"))
			error_status(F_IDMAC, false);
		else if (!strcmp(scenario, "no_data_over"))
			error_status(F_NO_DATA_OVER, false);
		else if (!strcmp(scenario, "timeout"))
			error_status(F_NONE, true);
		else if (!strcmp(scenario, "bad_segment"))
			bad_segment();
		else {
			fprintf(stderr, "sunxi-mmc: unknown scenario '%s'\n", scenario);
			failures++;
		}
	}
	cm_uninstall();
	for (int i = 0; i < NSEG; i++)
		__free_page(pages[i]);
	__free_page(rp);
	free(ring);
	return 0;
}

static void scenario_runs(void **state)
{
	(void)state;
	run_scenario(run);
}

int main(int argc, char **argv)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(scenario_runs),
	};

	(void)jiffy_deadline;
	(void)start;
	if (argc < 3 || argc > 4 || (strcmp(argv[1], "32") && strcmp(argv[1], "64")) ||
	    (argc == 4 && strcmp(argv[3], "--no-maintenance"))) {
		fprintf(stderr, "usage: sunxi_mmc_cachemodel_test 32|64 SCENARIO [--no-maintenance]\n");
		return 2;
	}
	line = (unsigned int)atoi(argv[1]);
	scenario = argv[2];
	if (argc == 4)
		mode = argv[3];
	return host_sched_main(tests, ARRAY_SIZE(tests));
}
