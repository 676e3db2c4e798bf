/*
 * fdt_fuzz.h - shared by the device-tree fuzzer (fdt_fuzz.c) and its reference model
 * (fdt_model.c): the model is an independent reading of a blob that dt_open() accepted, with
 * none of lib/fdt.c's code, against which every accessor is compared.
 */
#ifndef FDT_FUZZ_H
#define FDT_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tinymm/fdt.h"

/* A failed consistency check: prints "fdt_fuzz: mismatch at line N: <check>" and aborts. */
#define CHECK(c) do { if (!(c)) fuzz_mismatch(__FILE__, __LINE__, #c); } while (0)
void fuzz_mismatch(const char *file, int line, const char *what);

struct node {
	int off, depth;			/* struct-block offset (the lib's handle), root depth 0 */
	int parent, child, sib;		/* indices into tree.n: first child, next sibling; -1 none */
	int prop0, nprops;		/* its properties: tree.p[prop0 .. prop0 + nprops) */
	const char *name;
	bool plain;			/* its full path names it unambiguously (see fdt_fuzz.c) */
};

struct prop {
	int off, len;
	const char *name;
	const uint8_t *val;
};

struct tree {
	const struct dt *dt;
	const uint8_t *s, *str;		/* the struct and strings blocks */
	struct node *n;			/* in depth-first (= offset) order; n[0] is the root */
	struct prop *p;			/* in blob order */
	int nn, np;
};

uint32_t be32(const uint8_t *p);
uint64_t cells(const uint8_t *p, int n);	/* @n big-endian cells, 0..2 */
/* Check the header fields of an accepted blob against @dt and the format's rules. */
void model_header(const struct dt *dt, const uint8_t *blob);
/* Scan the struct block of an accepted blob into @t (arrays sized by the caller); CHECKs that
 * it is really well formed. */
void model_scan(struct tree *t);
int model_prop(const struct tree *t, int node, const char *name);	/* first of @name, or -1 */
int model_cells(const struct tree *t, int node, const char *name, int def);
bool model_name_matches(const char *name, const char *comp, size_t n);
int model_walk(const struct tree *t, int node, const char *path, size_t len);
int model_path(const struct tree *t, const char *path, size_t len);
bool model_compat(const struct tree *t, int node, const char *s);
#endif
