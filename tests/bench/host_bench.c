/*
 * host_bench.c - the host row of `make bench`: kernel/bench.c's scenario (compiled in here with
 * TINYMM_BENCH_CALLGRIND) over a fake RAM, under
 *     valgrind --tool=callgrind --collect-atstart=no --combine-dumps=yes host_bench [nocheck]
 * (tools/bench runs it).  Collection is on only around each measured call, and each call is
 * dumped under its operation's name ("init": memmap_init() + page_alloc_init(); "empty": the
 * toggles alone).  stdout: the kmalloc-mixed-overhead-permille, struct-page and memmap-overhead
 * rows, and `frames <n>` for init-per-frame; tools/bench makes the other rows from the dumps.
 * The kmalloc caches are made after the page allocator, as boot/main.c does, without slab
 * debugging (this build has no CONFIG_SLUB_DEBUG_ON; the bench refuses a debug cache).
 *
 * The fake RAM is like a board's default: 256 MiB, one bank, aligned to the largest block (so
 * order-10 blocks exist); __va is the identity on the host.
 */
#define TINYMM_BENCH_CALLGRIND 1
#include <stdlib.h>
#include "../../kernel/bench.c"

#define RAM_SIZE	(256UL << 20)
#define RAM_ALIGN	(PAGE_SIZE << MAX_PAGE_ORDER)

int main(int argc, char **argv)
{
	unsigned long bytes, frames;
	char *ram = aligned_alloc(RAM_ALIGN, RAM_SIZE);
	int failed;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "nocheck"))) {
		fprintf(stderr, "usage: host_bench [nocheck]\n");
		return 2;
	}
	page_checks = argc == 1;
	memblock_reset();
	if (!ram || memblock_add(__pa(ram), RAM_SIZE, NULL)) {
		fprintf(stderr, "host_bench: no fake RAM\n");
		return 1;
	}
	CALLGRIND_TOGGLE_COLLECT;
	failed = memmap_init() || page_alloc_init();
	CALLGRIND_TOGGLE_COLLECT;
	CALLGRIND_DUMP_STATS_AT("init");
	if (failed) {
		fprintf(stderr, "host_bench: memmap_init or page_alloc_init failed\n");
		return 1;
	}
	kmem_cache_init();
	frames = bench_memmap(&bytes);
	printf("frames\t%lu\n", frames);
	failed = bench_all();
	if (!failed)
		bench_sizes();
	fflush(stdout);
	free(ram);
	return failed;
}
