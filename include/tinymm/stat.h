/*
 * stat.h - file type and permission bits of an inode's mode, Linux's values and names
 * (include/uapi/linux/stat.h; also what ext2 stores in i_mode).  Token for token the same as
 * the copy in vfs.h (main), so both may be included until vfs.h includes this one.  Each group
 * is skipped where the host's C library (a host test's <sys/stat.h>, <fcntl.h>) already defines
 * it: POSIX fixes the same values.
 */
#ifndef TINYMM_STAT_H
#define TINYMM_STAT_H

#ifndef S_IFMT
#define S_IFMT		0170000		/* the file type field */
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFBLK		0060000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_ISUID		0004000
#define S_ISGID		0002000
#define S_ISVTX		0001000
#endif

#ifndef S_ISDIR
#define S_ISLNK(m)	(((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m)	(((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m)	(((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m)	(((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m)	(((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m)	(((m) & S_IFMT) == S_IFIFO)
#define S_ISSOCK(m)	(((m) & S_IFMT) == S_IFSOCK)
#endif

#ifndef S_IRWXU
#define S_IRWXU		00700
#define S_IRUSR		00400
#define S_IWUSR		00200
#define S_IXUSR		00100
#define S_IRWXG		00070
#define S_IRGRP		00040
#define S_IWGRP		00020
#define S_IXGRP		00010
#define S_IRWXO		00007
#define S_IROTH		00004
#define S_IWOTH		00002
#define S_IXOTH		00001
#endif

#define S_IRWXUGO	(S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO	07777	/* S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO */

#endif
