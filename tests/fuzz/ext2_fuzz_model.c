/*
 * ext2_fuzz_model.c - the ext2 fuzzer's model of a tree (ext2_fuzz.h): nodes (files,
 * directories, symlinks) and names, loaded from the host tree mke2fs -d copied, and the path
 * walk of docs/vfs.md on it (".", "..", symlinks relative to their directory or absolute
 * from "/mnt", at most 40 per walk, ENOENT, ENOTDIR, ENAMETOOLONG, ELOOP) - written from
 * Linux's rules, not from tinymm's code, so the two can disagree.
 * Node 0 is the mount root; its parent is itself ("/mnt/.." is never generated).
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tinymm/errno.h"
#include "ext2_fuzz.h"

#define MAXSYMLINKS	40

void m_free(struct model *m)
{
	for (int i = 0; i < MAX_NODES; i++) {
		free(m->n[i].data);
		free(m->n[i].target);
	}
	memset(m, 0, sizeof(*m));
}

void m_copy(struct model *dst, const struct model *src)
{
	m_free(dst);
	memcpy(dst, src, sizeof(*dst));
	for (int i = 0; i < MAX_NODES; i++) {
		struct mnode *n = &dst->n[i];
		if (n->data) {
			n->data = malloc(n->size ? n->size : 1);
			memcpy(n->data, src->n[i].data, n->size);
		}
		if (n->target)
			n->target = strdup(n->target);
	}
}

int m_new_node(struct model *m, enum mtype type, int parent)
{
	for (int i = 1; i < MAX_NODES; i++)
		if (m->n[i].type == M_FREE) {
			m->n[i] = (struct mnode){ .type = type, .parent = parent };
			return i;
		}
	return -1;
}

int m_add(struct model *m, int dir, const char *name, int node)
{
	for (int i = 0; i < MAX_ENTS; i++)
		if (!m->e[i].live) {
			m->e[i].live = true;
			m->e[i].dir = dir;
			m->e[i].node = node;
			snprintf(m->e[i].name, sizeof(m->e[i].name), "%s", name);
			return i;
		}
	return -1;
}

int m_lookup(const struct model *m, int dir, const char *name)
{
	for (int i = 0; i < MAX_ENTS; i++)
		if (m->e[i].live && m->e[i].dir == dir && !strcmp(m->e[i].name, name))
			return i;
	return -1;
}

static int names_of(const struct model *m, int node)
{
	int k = 0;

	for (int i = 0; i < MAX_ENTS; i++)
		k += m->e[i].live && m->e[i].node == node;
	return k;
}

int m_nlink(const struct model *m, int node)
{
	if (m->n[node].type != M_DIR)
		return names_of(m, node);
	int k = 2;		/* its name (or the mount point) and "." */
	for (int i = 0; i < MAX_ENTS; i++)
		k += m->e[i].live && m->e[i].dir == node && m->n[m->e[i].node].type == M_DIR;
	return k;
}

bool m_is_empty_dir(const struct model *m, int node)
{
	for (int i = 0; i < MAX_ENTS; i++)
		if (m->e[i].live && m->e[i].dir == node)
			return false;
	return true;
}

bool m_is_ancestor(const struct model *m, int anc, int node)
{
	for (;;) {
		if (node == anc)
			return true;
		if (node == 0)
			return false;
		node = m->n[node].parent;
	}
}

void m_set_size(struct mnode *n, size_t size)
{
	n->data = realloc(n->data, size ? size : 1);
	if (size > n->size)
		memset(n->data + n->size, 0, size - n->size);
	n->size = size;
}

void m_put_node(struct model *m, int node)
{
	struct mnode *n = &m->n[node];

	if (node == 0 || n->opens || names_of(m, node))
		return;
	free(n->data);
	free(n->target);
	*n = (struct mnode){ .type = M_FREE };
}

void m_drop_ent(struct model *m, int ent)
{
	int node = m->e[ent].node;

	m->e[ent].live = false;
	m_put_node(m, node);
}

int m_nents(const struct model *m)
{
	int k = 0;

	for (int i = 0; i < MAX_ENTS; i++)
		k += m->e[i].live;
	return k;
}

void m_path(const struct model *m, int ent, char *buf, size_t len)
{
	char tmp[4096] = "";

	while (ent >= 0) {
		char part[4096];
		snprintf(part, sizeof(part), "/%s%s", m->e[ent].name, tmp);
		snprintf(tmp, sizeof(tmp), "%s", part);
		int dir = m->e[ent].dir;
		ent = -1;
		if (dir != 0)
			for (int i = 0; i < MAX_ENTS; i++)
				if (m->e[i].live && m->e[i].node == dir) {
					ent = i;
					break;
				}
	}
	snprintf(buf, len, MNT "%s", tmp);
}

/* ---- loading the tree mke2fs copied ---- */

struct seen {
	ino_t ino;
	int node;
};

static int load_dir(struct model *m, const char *host, int dir, struct seen *seen, int *nseen)
{
	DIR *d = opendir(host);
	struct dirent *de;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[4096];
		struct stat st;
		int node = -1;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", host, de->d_name);
		if (lstat(path, &st))
			return -1;
		for (int i = 0; i < *nseen; i++)
			if (seen[i].ino == st.st_ino)
				node = seen[i].node;	/* a hard link */
		if (node < 0) {
			node = m_new_node(m, S_ISDIR(st.st_mode) ? M_DIR : S_ISLNK(st.st_mode) ? M_LNK : M_REG,
					  dir);
			if (node < 0)
				return -1;
			seen[*nseen].ino = st.st_ino;
			seen[(*nseen)++].node = node;
			struct mnode *n = &m->n[node];
			if (n->type == M_REG) {
				FILE *f = fopen(path, "rb");
				m_set_size(n, (size_t)st.st_size);
				if (!f || fread(n->data, 1, n->size, f) != n->size)
					return -1;
				fclose(f);
			} else if (n->type == M_LNK) {
				n->target = calloc(1, 4096);
				if (readlink(path, n->target, 4095) < 0)
					return -1;
			}
		}
		if (m_add(m, dir, de->d_name, node) < 0)
			return -1;
		if (m->n[node].type == M_DIR && load_dir(m, path, node, seen, nseen))
			return -1;
	}
	closedir(d);
	return 0;
}

int m_load(struct model *m, const char *tree)
{
	static struct seen seen[MAX_NODES];
	int nseen = 0;

	m_free(m);
	m->n[0] = (struct mnode){ .type = M_DIR, .parent = 0 };
	/* mke2fs makes lost+found beside what it copies */
	int lf = m_new_node(m, M_DIR, 0);
	m_add(m, 0, "lost+found", lf);
	return load_dir(m, tree, 0, seen, &nseen);
}

/* ---- the walk ---- */

/* docs/vfs.md's walk of @path (which starts "/mnt") on the model.  r->node is what the last
 * component names (-1: nothing, r->dir and r->last say where it would be); the last one's
 * symlink is followed with WALK_FOLLOW, or with WALK_NOFOLLOW when the path ends in '/' (then
 * it must be a directory); WALK_PARENT is the walk of the calls that create or remove a name
 * (v6.10's filename_create, do_unlinkat, do_renameat2): the last is never followed, and what
 * a trailing slash means is theirs to say. */
int m_walk(const struct model *m, const char *path, int follow, struct mres *r)
{
	char buf[8192];
	int links = 0, cur = 0;
	const char *p;

	*r = (struct mres){ .err = 0, .dir = -1, .node = 0, .ent = -1 };
	if (strlen(path) >= 4096)
		return r->err = -ENAMETOOLONG;
	if (strncmp(path, MNT, strlen(MNT)) || (path[strlen(MNT)] && path[strlen(MNT)] != '/'))
		return r->err = -EINVAL;	/* never generated */
	snprintf(buf, sizeof(buf), "%s", path + strlen(MNT));
	p = buf;
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p) {	/* r->node/dir/ent: the last component's (or the root) */
			if (r->trailing && follow != WALK_PARENT && r->node >= 0 && m->n[r->node].type != M_DIR)
				return r->err = -ENOTDIR;
			return 0;
		}
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *rest = p + len;
		bool last = !rest[strspn(rest, "/")];
		char name[300];
		if (m->n[cur].type != M_DIR)
			return r->err = -ENOTDIR;
		if (len > 255)
			return r->err = -ENAMETOOLONG;
		memcpy(name, p, len);
		name[len] = '\0';
		r->trailing = last && *rest == '/';
		if (!strcmp(name, ".") || !strcmp(name, "..")) {
			cur = name[1] ? m->n[cur].parent : cur;
			r->node = cur;
			r->dir = -1;	/* never created or removed: the generator avoids them */
			r->ent = -1;
			p = rest;
			continue;
		}
		int ent = m_lookup(m, cur, name);
		r->dir = cur;
		snprintf(r->last, sizeof(r->last), "%s", name);
		if (ent < 0) {
			r->node = -1;
			r->ent = -1;
			return last ? 0 : (r->err = -ENOENT);
		}
		int node = m->e[ent].node;
		if (m->n[node].type == M_LNK && (!last || follow == WALK_FOLLOW ||
						 (r->trailing && follow == WALK_NOFOLLOW))) {
			char nbuf[8192];
			const char *t = m->n[node].target;
			if (++links > MAXSYMLINKS)
				return r->err = -ELOOP;
			if (t[0] == '/') {
				if (strncmp(t, MNT, strlen(MNT)))
					return r->err = -EINVAL;	/* never generated */
				t += strlen(MNT);
				cur = 0;
			}
			snprintf(nbuf, sizeof(nbuf), "%s/%s", t, rest);
			if (!rest[0])	/* no trailing slash to keep */
				nbuf[strlen(nbuf) - 1] = '\0';
			snprintf(buf, sizeof(buf), "%s", nbuf);
			p = buf;
			if (!*t) 	/* an empty target: ENOENT, as Linux */
				return r->err = -ENOENT;
			/* the last component's name and entry, if the target ends it, come again */
			continue;
		}
		r->node = node;
		r->ent = ent;
		cur = node;
		p = rest;
	}
}
