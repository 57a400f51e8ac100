/*
 * disk_dir.h - the working folder and data file of the disk probes.
 *
 * `sizeup disk --dir DIR` works only inside a folder it creates, DIR/sizeup-disk.<pid>, and
 * only on the file it creates there (data). It never opens, truncates or removes anything it
 * did not create: the folder is made with mkdir (EEXIST is an error, not a reuse) and the file
 * with O_CREAT | O_EXCL. disk_dir_remove() removes exactly those two.
 *
 * Checks before anything is written (disk_dir_check): DIR exists, is a directory, is on a
 * writable file system, grants write and search permission to this process, and has at least
 * the working set plus DISK_DIR_HEADROOM bytes free for an unprivileged user (statvfs
 * f_bavail * f_frsize). A file system that reports no size at all (f_blocks == 0: ramfs) is
 * not checked.
 *
 * Direct I/O: disk_dir_open() opens the data file with O_DIRECT when asked. A file system
 * that refuses O_DIRECT (ramfs, some FUSE and network file systems, tmpfs before Linux 6.6)
 * fails open() or the first aligned I/O with EINVAL; disk_dir_open() then reports
 * DISK_DIR_ENODIRECT, and falls back to buffered I/O only when the caller allows it.
 *
 * Thread-safety: a struct disk_dir is used by one thread.
 */
#ifndef SIZEUP_PROBES_DISK_DIR_H
#define SIZEUP_PROBES_DISK_DIR_H

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/types.h>

/* Free space kept on top of the working set (file-system metadata, other users): 16 MiB. */
#define DISK_DIR_HEADROOM (UINT64_C(16) << 20)

/* Return codes. */
enum {
    DISK_DIR_OK = 0,
    DISK_DIR_ENOENT = -1,    /* DIR does not exist */
    DISK_DIR_ENOTDIR = -2,   /* DIR is not a directory */
    DISK_DIR_EACCES = -3,    /* no permission, or a read-only file system */
    DISK_DIR_ENOSPC = -4,    /* not enough free space */
    DISK_DIR_EEXIST = -5,    /* the working folder exists already: not ours, not touched */
    DISK_DIR_ENODIRECT = -6, /* O_DIRECT refused and buffered fallback not allowed */
    DISK_DIR_EIO = -7,       /* any other system call failure (msg has it) */
    DISK_DIR_EINTR = -8      /* interrupted while writing the file */
};

struct disk_dir {
    char parent[4096];   /* DIR as given */
    char path[4160];     /* DIR/sizeup-disk.<pid> */
    char data[4200];     /* DIR/sizeup-disk.<pid>/data */
    int made_dir;        /* 1 once this object created path */
    int made_data;       /* 1 once this object created data */
    int fd;              /* open data file, or -1 */
    int direct;          /* 1 when fd has O_DIRECT */
    int direct_refused;  /* 1 when O_DIRECT was asked and refused (then direct == 0) */
    int direct_errno;    /* errno of the refusal */
    char fs_type[32];    /* "ext4", "xfs", "tmpfs", ... or "0x<magic>" */
    uint64_t free_bytes; /* free space for unprivileged users when checked */
    char msg[4400];      /* error detail, naming the path */
};

/** Set up an embedded object (nothing created, fd -1). Never fails. */
void disk_dir_init(struct disk_dir *d);

/**
 * Check DIR (see above) for a working set of need_bytes; fills d->parent, fs_type, free_bytes.
 * @return DISK_DIR_OK, DISK_DIR_ENOENT, DISK_DIR_ENOTDIR, DISK_DIR_EACCES (no write or
 *         search permission, or read-only file system), DISK_DIR_ENOSPC (free < need_bytes +
 *         DISK_DIR_HEADROOM), DISK_DIR_EIO (path too long, stat/statvfs failed). d->msg says
 *         which and names DIR.
 */
int disk_dir_check(struct disk_dir *d, const char *parent, uint64_t need_bytes);

/**
 * Create the working folder DIR/sizeup-disk.<pid> (mode 0700) after disk_dir_check().
 * @return DISK_DIR_OK, DISK_DIR_EEXIST (a file or folder of that name exists: it is left
 *         alone), DISK_DIR_EACCES, DISK_DIR_EIO.
 */
int disk_dir_create(struct disk_dir *d, pid_t pid);

/**
 * Create the data file (O_CREAT | O_EXCL, mode 0600) and open it read-write, with O_DIRECT
 * when direct is 1. When the file system refuses O_DIRECT: with allow_buffered, reopen
 * without it and set d->direct_refused; else return DISK_DIR_ENODIRECT. Sets d->fd, d->direct.
 * The refusal shows at open() (EINVAL) or at the first I/O, so with O_DIRECT one aligned
 * 4096-byte block is written at offset 0 as a trial (disk_dir_fill() overwrites it).
 * @return DISK_DIR_OK, DISK_DIR_ENODIRECT, DISK_DIR_EEXIST, DISK_DIR_EACCES, DISK_DIR_EIO.
 */
int disk_dir_open(struct disk_dir *d, int direct, int allow_buffered);

/**
 * Write the whole data file, size bytes, with random data in chunk-byte writes (chunk a
 * multiple of 4096), then fsync it, so reads hit allocated blocks and writes overwrite them.
 * @param stop         non-zero: stop (the stop flag, stopflag.h); polled after every
 *                     chunk; may be NULL
 * @param progress     called after every 64 MiB with bytes done and total; may be NULL
 * @return DISK_DIR_OK, DISK_DIR_ENOSPC (the file system filled up), DISK_DIR_EINTR,
 *         DISK_DIR_EIO.
 */
int disk_dir_fill(struct disk_dir *d, uint64_t size, uint32_t chunk, uint64_t seed,
                  const atomic_int *stop,
                  void (*progress)(void *arg, uint64_t done, uint64_t total), void *arg);

/**
 * Close the file and remove what this object created (data file, then the folder). Safe to
 * call more than once and on an object that created nothing.
 * @return DISK_DIR_OK, or DISK_DIR_EIO when unlink or rmdir failed (d->msg says which).
 */
int disk_dir_remove(struct disk_dir *d);

#endif
