/* ext2_fuzz.h - what the parts of the ext2 fuzzer share (ext2_fuzz.c: the run, the images and
 * the checks; ext2_fuzz_model.c: the model of the tree; ext2_fuzz_ops.c: the operations). */
#ifndef TINYMM_EXT2_FUZZ_H
#define TINYMM_EXT2_FUZZ_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fuzz_input.h"

#define MNT		"/mnt"		/* where each input's image is mounted */
#define MAX_NODES	400		/* files, directories and links the model holds */
#define MAX_ENTS	400		/* names */
#define MAX_FILE	(1 << 20)	/* reads stop here: a corrupt size may claim terabytes */
#define MAX_HELD	2		/* files kept open across operations */

enum mtype { M_FREE, M_REG, M_DIR, M_LNK };

/* A file, directory or symlink of the model: what a clean image must show. */
struct mnode {
	enum mtype type;
	int parent;			/* a directory's: the directory holding it (root: itself) */
	int opens;			/* held files on it: it lives on unlinked until closed */
	unsigned long ino;		/* the inode number first seen for it (0: not yet) */
	uint8_t *data;			/* a file's bytes */
	size_t size;
	char *target;			/* a symlink's */
};

/* A name: @node in directory @dir. */
struct ment {
	bool live;
	int dir, node;
	char name[256];
};

struct model {
	struct mnode n[MAX_NODES];
	struct ment e[MAX_ENTS];
};

/* The outcome of a walk (m_walk). */
struct mres {
	int err;			/* 0, or the walk's -errno */
	int dir;			/* the last component's directory (-1: the last is the mount root) */
	int node;			/* what the last component names, -1: nothing */
	int ent;			/* its entry, -1 for the root or nothing */
	char last[256];
	bool trailing;			/* the path ended in '/' */
};

/* ext2_fuzz_model.c */
void m_free(struct model *m);
void m_copy(struct model *dst, const struct model *src);
int m_load(struct model *m, const char *tree);	/* from a host directory tree; 0 or -1 */
enum { WALK_NOFOLLOW, WALK_FOLLOW, WALK_PARENT };
int m_walk(const struct model *m, const char *path, int follow, struct mres *r);
int m_lookup(const struct model *m, int dir, const char *name);	/* entry index or -1 */
int m_nlink(const struct model *m, int node);
bool m_is_empty_dir(const struct model *m, int node);
bool m_is_ancestor(const struct model *m, int anc, int node);	/* anc == node counts */
int m_add(struct model *m, int dir, const char *name, int node);
int m_new_node(struct model *m, enum mtype type, int parent);
void m_drop_ent(struct model *m, int ent);	/* and the node once nothing names or holds it */
void m_put_node(struct model *m, int node);	/* frees it when unnamed and unheld */
void m_set_size(struct mnode *n, size_t size);
void m_path(const struct model *m, int ent, char *buf, size_t len);	/* "/mnt/a/b" */
int m_nents(const struct model *m);

/* ext2_fuzz_ops.c */
struct held {
	struct file *f;
	int node;
};
struct run {
	struct model *m;
	bool modelled;			/* a clean image: results must equal the model's */
	bool rdonly;			/* mounted read-only */
	bool mounted;
	struct held held[MAX_HELD];
	unsigned long ops;
	char why[200];			/* the operation being run, for a failure report */
};
void run_op(struct run *r, struct input *in);
void close_held(struct run *r);
/* Every name of the model against the mounted filesystem: types, sizes, links, contents. */
void verify_tree(struct run *r);
int ext2_mount(struct run *r);

/* ext2_fuzz_host.c */
int host_backing_file(char *path, size_t len);
int host_e2fsck(const char *path, bool quiet);

/* ext2_fuzz.c */
__attribute__((noreturn)) void fuzz_fail(const char *file, int line, const char *what);
extern int break_mode;
extern bool trace;		/* EXT2_FUZZ_TRACE=1: each operation to stderr */
extern uint8_t *scratch;		/* MAX_FILE bytes for reads */
#define CHECK(c)	do { if (!(c)) fuzz_fail(__FILE__, __LINE__, #c); } while (0)
#define FAILF(...)	do { char w__[400]; snprintf(w__, sizeof(w__), __VA_ARGS__);	\
			     fuzz_fail(__FILE__, __LINE__, w__); } while (0)
#endif
