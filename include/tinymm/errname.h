/*
 * errname.h - the name of an error number, as Linux's errname(): errname(-EIO) is "-EIO",
 * errname(EIO) "EIO", NULL for a number tinymm never returns.  The one table behind every message
 * that names an error (`sync: vda: I/O error (-EIO)`); each message says what the error means
 * where it happened, and takes the name from here.
 */
#ifndef TINYMM_ERRNAME_H
#define TINYMM_ERRNAME_H

const char *errname(int err);

#endif
