/*
 * migrate_mode.h - how hard migration may try (v6.10's include/linux/migrate_mode.h): apart
 * from migrate.h so that address_space_operations (fs.h) can name it.
 */
#ifndef TINYMM_MIGRATE_MODE_H
#define TINYMM_MIGRATE_MODE_H

enum migrate_mode {
	MIGRATE_ASYNC,		/* never block: a busy folio is skipped */
	MIGRATE_SYNC_LIGHT,	/* may block on folio locks, not on writeback */
	MIGRATE_SYNC,		/* may block on both */
};

#endif
