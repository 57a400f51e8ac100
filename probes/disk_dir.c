/* disk_dir.c - working folder and data file of the disk probes (see disk_dir.h). */
#define _GNU_SOURCE /* O_DIRECT */
#include "disk_dir.h"

#include "disk.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/vfs.h>
#include <unistd.h>

void disk_dir_init(struct disk_dir *d)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
}

/* Name of a file system from its statfs magic (linux/magic.h values). */
static void fs_name(long magic, char *out, size_t len)
{
    static const struct {
        unsigned long magic;
        const char *name;
    } names[] = {{0xEF53, "ext4"},      {0x58465342, "xfs"},       {0x9123683E, "btrfs"},
                 {0x01021994, "tmpfs"}, {0x858458F6, "ramfs"},     {0x6969, "nfs"},
                 {0x2FC12FC1, "zfs"},   {0x794C7630, "overlayfs"}, {0xF2F52010, "f2fs"},
                 {0x65735546, "fuse"},  {0xFF534D42, "cifs"},      {0x4D44, "vfat"},
                 {0x5346544E, "ntfs"},  {0x3153464A, "jfs"},       {0x52654973, "reiserfs"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if ((unsigned long)magic == names[i].magic) {
            snprintf(out, len, "%s", names[i].name);
            return;
        }
    snprintf(out, len, "0x%lx", (unsigned long)magic);
}

int disk_dir_check(struct disk_dir *d, const char *parent, uint64_t need_bytes)
{
    struct stat st;
    struct statvfs vfs;
    struct statfs fs;
    uint64_t need;

    if (strlen(parent) >= sizeof d->parent) {
        snprintf(d->msg, sizeof d->msg, "--dir: the path is too long");
        return DISK_DIR_EIO;
    }
    snprintf(d->parent, sizeof d->parent, "%s", parent);
    if (stat(parent, &st) != 0) {
        int e = errno;
        snprintf(d->msg, sizeof d->msg, "%s: %s", parent,
                 e == ENOENT ? "no such directory" : strerror(e));
        return e == ENOENT    ? DISK_DIR_ENOENT
               : e == ENOTDIR ? DISK_DIR_ENOTDIR
               : e == EACCES  ? DISK_DIR_EACCES
                              : DISK_DIR_EIO;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(d->msg, sizeof d->msg, "%s: not a directory", parent);
        return DISK_DIR_ENOTDIR;
    }
    if (access(parent, W_OK | X_OK) != 0) {
        int e = errno;
        snprintf(d->msg, sizeof d->msg, "%s: cannot create files there: %s", parent, strerror(e));
        return (e == EACCES || e == EROFS || e == EPERM) ? DISK_DIR_EACCES : DISK_DIR_EIO;
    }
    if (statvfs(parent, &vfs) != 0) {
        snprintf(d->msg, sizeof d->msg, "%s: statvfs: %s", parent, strerror(errno));
        return DISK_DIR_EIO;
    }
    if (vfs.f_flag & ST_RDONLY) {
        snprintf(d->msg, sizeof d->msg, "%s: cannot create files there: %s", parent,
                 strerror(EROFS));
        return DISK_DIR_EACCES;
    }
    if (statfs(parent, &fs) == 0)
        fs_name((long)fs.f_type, d->fs_type, sizeof d->fs_type);
    else
        snprintf(d->fs_type, sizeof d->fs_type, "unknown");
    d->free_bytes = (uint64_t)vfs.f_bavail * (uint64_t)vfs.f_frsize;
    need = need_bytes + DISK_DIR_HEADROOM;
    /* f_blocks == 0: a file system without a size (ramfs): nothing to check against */
    if (vfs.f_blocks != 0 && d->free_bytes < need) {
        snprintf(d->msg, sizeof d->msg,
                 "%s: not enough free space: the probe needs %.1f MiB (working set %.1f MiB "
                 "+ %llu MiB headroom), the file system has %.1f MiB free; give a smaller "
                 "--size or another --dir",
                 parent, (double)need / 1048576.0, (double)need_bytes / 1048576.0,
                 (unsigned long long)(DISK_DIR_HEADROOM >> 20), (double)d->free_bytes / 1048576.0);
        return DISK_DIR_ENOSPC;
    }
    return DISK_DIR_OK;
}

int disk_dir_create(struct disk_dir *d, pid_t pid)
{
    const char *sep = d->parent[0] && d->parent[strlen(d->parent) - 1] == '/' ? "" : "/";
    snprintf(d->path, sizeof d->path, "%s%ssizeup-disk.%ld", d->parent, sep, (long)pid);
    snprintf(d->data, sizeof d->data, "%s/data", d->path);
    if (mkdir(d->path, 0700) != 0) {
        int e = errno;
        if (e == EEXIST) {
            snprintf(d->msg, sizeof d->msg,
                     "%s exists already and was not created by this run: refusing to use or "
                     "remove it; delete it yourself or choose another --dir",
                     d->path);
            return DISK_DIR_EEXIST;
        }
        snprintf(d->msg, sizeof d->msg, "%s: cannot create the folder: %s", d->path, strerror(e));
        return (e == EACCES || e == EROFS || e == EPERM) ? DISK_DIR_EACCES
               : e == ENOSPC                             ? DISK_DIR_ENOSPC
                                                         : DISK_DIR_EIO;
    }
    d->made_dir = 1;
    return DISK_DIR_OK;
}

/* Write one aligned block with O_DIRECT; 0 when it works, else errno. */
static int try_direct_write(int fd)
{
    void *buf = NULL;
    ssize_t n;
    int e = 0;
    if (posix_memalign(&buf, 4096, 4096) != 0)
        return ENOMEM;
    disk_fill_random(buf, 4096, 1);
    n = pwrite(fd, buf, 4096, 0);
    if (n < 0)
        e = errno;
    else if (n != 4096)
        e = EIO;
    free(buf);
    return e;
}

static int open_error(struct disk_dir *d, const char *what, int e)
{
    snprintf(d->msg, sizeof d->msg, "%s: %s: %s", d->data, what, strerror(e));
    return e == EEXIST                                 ? DISK_DIR_EEXIST
           : (e == EACCES || e == EROFS || e == EPERM) ? DISK_DIR_EACCES
           : e == ENOSPC                               ? DISK_DIR_ENOSPC
                                                       : DISK_DIR_EIO;
}

int disk_dir_open(struct disk_dir *d, int direct, int allow_buffered)
{
    int fd, e;
    /* create first, without O_DIRECT: a file system that refuses O_DIRECT may still create
     * the file before open() fails, and then we would not know it is ours */
    fd = open(d->data, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return open_error(d, "cannot create", errno);
    d->made_data = 1;
    d->fd = fd;
    d->direct = 0;
    if (!direct)
        return DISK_DIR_OK;
    fd = open(d->data, O_RDWR | O_DIRECT | O_CLOEXEC);
    if (fd >= 0) {
        e = try_direct_write(fd);
        if (e == 0) {
            close(d->fd);
            d->fd = fd;
            d->direct = 1;
            return DISK_DIR_OK;
        }
        close(fd);
    } else {
        e = errno;
    }
    if (e != EINVAL)
        return open_error(d, "direct I/O", e);
    /* EINVAL: the file system does not do O_DIRECT */
    d->direct_refused = 1;
    d->direct_errno = e;
    if (allow_buffered)
        return DISK_DIR_OK;
    snprintf(d->msg, sizeof d->msg,
             "%s: the file system (%s) refuses O_DIRECT (%s): without direct I/O the page "
             "cache would serve the I/O; give --allow-buffered to measure buffered I/O anyway, "
             "or choose a --dir on another file system",
             d->parent, d->fs_type, strerror(e));
    return DISK_DIR_ENODIRECT;
}

int disk_dir_fill(struct disk_dir *d, uint64_t size, uint32_t chunk, uint64_t seed,
                  const atomic_int *stop,
                  void (*progress)(void *arg, uint64_t done, uint64_t total), void *arg)
{
    void *buf = NULL;
    uint64_t off = 0, next_report = UINT64_C(64) << 20;
    int rc = DISK_DIR_OK;

    if (chunk == 0 || chunk % 4096 != 0) {
        snprintf(d->msg, sizeof d->msg, "fill chunk %u: expected a multiple of 4096", chunk);
        return DISK_DIR_EIO;
    }
    if (posix_memalign(&buf, 4096, chunk) != 0) {
        snprintf(d->msg, sizeof d->msg, "out of memory for a %u-byte buffer", chunk);
        return DISK_DIR_EIO;
    }
    disk_fill_random(buf, chunk, seed);
    while (off < size) {
        uint64_t left = size - off;
        size_t n = left < chunk ? (size_t)left : chunk;
        ssize_t w;
        if (stop && atomic_load(stop)) {
            rc = DISK_DIR_EINTR;
            break;
        }
        /* O_DIRECT needs whole sectors; the file may end on any 512-byte boundary */
        if (d->direct && n % 4096 != 0)
            n = (n + 4095) / 4096 * 4096;
        /* a new stamp per chunk keeps chunks distinct for deduplicating storage */
        memcpy(buf, &off, sizeof off);
        w = pwrite(d->fd, buf, n, (off_t)off);
        if (w != (ssize_t)n) {
            int e = w < 0 ? errno : ENOSPC;
            snprintf(d->msg, sizeof d->msg, "%s: writing the working set at offset %llu: %s",
                     d->data, (unsigned long long)off, strerror(e));
            rc = e == ENOSPC ? DISK_DIR_ENOSPC : DISK_DIR_EIO;
            break;
        }
        off += n;
        if (progress && (off >= next_report || off >= size)) {
            progress(arg, off < size ? off : size, size);
            next_report += UINT64_C(64) << 20;
        }
    }
    free(buf);
    if (rc == DISK_DIR_OK && fsync(d->fd) != 0) {
        snprintf(d->msg, sizeof d->msg, "%s: fsync: %s", d->data, strerror(errno));
        rc = DISK_DIR_EIO;
    }
    return rc;
}

int disk_dir_remove(struct disk_dir *d)
{
    int rc = DISK_DIR_OK;
    if (d->fd >= 0) {
        close(d->fd);
        d->fd = -1;
    }
    if (d->made_data) {
        if (unlink(d->data) != 0 && errno != ENOENT) {
            snprintf(d->msg, sizeof d->msg, "%s: cannot remove: %s", d->data, strerror(errno));
            rc = DISK_DIR_EIO;
        }
        d->made_data = 0;
    }
    if (d->made_dir) {
        if (rmdir(d->path) != 0 && errno != ENOENT) {
            snprintf(d->msg, sizeof d->msg, "%s: cannot remove: %s", d->path, strerror(errno));
            rc = DISK_DIR_EIO;
        }
        d->made_dir = 0;
    }
    return rc;
}
