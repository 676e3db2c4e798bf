/*
 * buffer_migrate.c - migration of a page-cache folio that has buffer heads (v6.10's
 * buffer_migrate_folio_norefs, mm/migrate.c): the buffers go with the bytes, so a dirty ext2
 * folio moves without being written first.  ext2's and the block device's
 * address_space_operations name it as .migrate_folio; mm/migrate.c calls it
 * (docs/migration.md, docs/buffer-heads.md).
 *
 * With the folio locked (migration holds it) and every buffer locked here, nobody starts or
 * ends I/O on them; then folio_migrate_mapping() switches the slot with the folio's count
 * frozen at the cache's, the caller's and the buffers' reference, and the ring of buffers moves
 * to the new folio: folio->private and PG_private (with their folio reference), and each
 * buffer's b_folio and b_data.  The new folio is still locked then, and only a folio's lock
 * holder looks at its buffers.
 *
 * Invariants: buffer.c's (every buffer's b_folio is the folio whose private ring holds it, its
 * b_data inside that folio) hold before and after; a folio not moved keeps its buffers.
 * Locking: the folio lock (the caller's), each BH_Lock (trylock: a buffer under I/O makes the
 * folio busy this pass), then the mapping's xa_lock inside folio_migrate_mapping().
 *
 * Where tinymm differs from v6.10: only the "norefs" variant: a buffer someone holds
 * (b_count, a metadata buffer in use) makes the folio busy (-EBUSY), for ext2's data too,
 * where v6.10's buffer_migrate_folio would move it anyway; the buffers are trylocked in every
 * mode (migrate_pages() retries the pass), not waited for.
 */
#include "tinymm/buffer_head.h"
#include "tinymm/errno.h"
#include "tinymm/migrate.h"
#include "tinymm/pagemap.h"

/* Unlock the ring's buffers from @head up to, not including, @stop (@head: all of them). */
static void unlock_buffers(struct buffer_head *head, struct buffer_head *stop)
{
	struct buffer_head *bh = head;

	do {
		unlock_buffer(bh);
		bh = bh->b_this_page;
	} while (bh != stop);
}

int buffer_migrate_folio(struct address_space *mapping, struct folio *dst, struct folio *src,
			 enum migrate_mode mode)
{
	struct buffer_head *head = folio_buffers(src), *bh;
	char *old_base = page_address(&src->page), *new_base = page_address(&dst->page);
	int rc;

	(void)mode;
	lockdep_assert_folio_locked(src);
	if (!head)
		return folio_migrate_mapping(mapping, dst, src, 0);
	bh = head;
	do {
		if (!trylock_buffer(bh)) {
			if (bh != head)
				unlock_buffers(head, bh);
			return -EBUSY;	/* under I/O: the next pass */
		}
		bh = bh->b_this_page;
	} while (bh != head);
	bh = head;
	do {
		if (atomic_read(&bh->b_count)) {
			unlock_buffers(head, head);
			return -EBUSY;
		}
		bh = bh->b_this_page;
	} while (bh != head);

	rc = folio_migrate_mapping(mapping, dst, src, 1);	/* 1: the buffers' reference */
	if (!rc) {
		folio_attach_private(dst, folio_detach_private(src));
		bh = head;
		do {
			bh->b_folio = dst;
			bh->b_data = new_base + (bh->b_data - old_base);
			bh = bh->b_this_page;
		} while (bh != head);
	}
	unlock_buffers(head, head);
	return rc;
}
