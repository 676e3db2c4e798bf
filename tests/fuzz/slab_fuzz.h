/*
 * slab_fuzz.h - what the two parts of the slab fuzzer share: slab_fuzz.c (the run: boot, the
 * shadow of every live object, the checks, the self-test breakage, LLVMFuzzerTestOneInput) and
 * slab_fuzz_ops.c (decoding the input into sizes and flags, and the operations on kmalloc and
 * on caches of the fuzzer's own).  tests/fuzz/tests.cmake builds both into fuzz.slab's binary.
 */
#ifndef TINYMM_SLAB_FUZZ_H
#define TINYMM_SLAB_FUZZ_H
#include <stdbool.h>
#include <stddef.h>
#include "tinymm/slab.h"
#include "fuzz_input.h"

#define MIB		(1UL << 20)
#define RAM_SIZE	FAKE_RAM_TWO_BANKS
#define MAX_LIVE	256
#define MAX_CACHES	4
#define OPS_PER_INPUT	160	/* at least; an input longer than that gives one per byte */
#define FULL_CHECK_EVERY 32
#define BUDDY_CHECK_EVERY 2	/* buddy_check() walks every frame: 60% of the time if on every one */
#define LARGE_MAX	(4 * PAGE_SIZE + 1)
#define TAIL_BYTE	0xe7	/* written over [size, ksize) */


struct obj {
	unsigned char *p;
	size_t size;			/* asked (0: ZERO_SIZE_PTR) */
	size_t ks;			/* ksize() when it was made */
	struct kmem_cache *cache;	/* the slab cache holding it; NULL: pages, ZERO_SIZE_PTR */
	int slot;			/* caches[slot]'s object; -1: kmalloc's */
	unsigned char fill;
};

struct cache {
	struct kmem_cache *s;		/* NULL: a free slot */
	unsigned int size, align;
	slab_flags_t flags;
	bool ctor;
	int live;
	char name[16];
};

/* The run's state (slab_fuzz.c). */
extern struct obj live[MAX_LIVE];
extern int nr_live;
extern struct cache caches[MAX_CACHES];
extern int ctor_slot;
extern unsigned long large_frames, bugs0, op_index;
extern bool dma_zone;
extern unsigned char next_fill;

/* A failed check: what, where, the checkers' complaints and the kernel log; then abort(). */
void __attribute__((noreturn)) fuzz_fail(const char *file, int line, const char *what);
#define CHECK(cond)	do { if (!(cond)) fuzz_fail(__FILE__, __LINE__, #cond); } while (0)

/* The shadow and the checks (slab_fuzz.c). */
unsigned char pat(unsigned char fill, size_t i);
unsigned char ctor_pat(const void *obj, size_t i);
void ctor(void *obj);
void write_pattern(struct obj *o, size_t from);
void check_contents(const struct obj *o, size_t upto);
void check_live(const struct obj *o);
size_t kmalloc_class(size_t size);
bool is_pow2(size_t n);
size_t large_bytes(size_t size);
struct obj *got_object(void *p, size_t size, gfp_t gfp, int slot);
void forget(int i);
void free_one(int i, bool by_kfree);
int pick_kmalloc(unsigned int b);
unsigned long slab_frames(void);
void check_all(void);

/* The operations (slab_fuzz_ops.c), each drawing what it needs from the input. */
void kmalloc_op(struct input *in, bool zero);
void kfree_op(struct input *in);
void krealloc_op(struct input *in);
void cache_alloc_op(struct input *in);
void cache_free_op(struct input *in);
void create_op(struct input *in);
void shrink_op(struct input *in);
void bulk_op(struct input *in);
void free_many(unsigned int b);
#endif
