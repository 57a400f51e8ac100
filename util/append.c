/* append.c - append one record whole or not at all (see append.h). */
#include "append.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int append_whole(int fd, const void *buf, size_t len)
{
    struct stat st;
    const char *p = buf;
    size_t done = 0;
    off_t start = -1;
    int undo = 0, saved;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        int fl = fcntl(fd, F_GETFL);
        off_t pos = lseek(fd, 0, SEEK_CUR);
        /* appending (O_APPEND) or at the end: the old length can be restored */
        if (fl >= 0 && ((fl & O_APPEND) || pos == st.st_size)) {
            start = st.st_size;
            undo = 1;
        }
    }
    while (done < len) {
        ssize_t n = write(fd, p + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (n == 0) { /* not expected of a regular file; treat as no space */
            errno = ENOSPC;
            break;
        }
        done += (size_t)n;
    }
    if (done == len)
        return 0;
    saved = errno;
    if (undo && done > 0) {
        int rc;
        do {
            rc = ftruncate(fd, start);
        } while (rc != 0 && errno == EINTR);
        lseek(fd, start, SEEK_SET);
    }
    errno = saved;
    return -1;
}

int append_whole_stream(FILE *f, const void *buf, size_t len)
{
    int fd;
    if (fflush(f) != 0)
        return -1;
    fd = fileno(f);
    if (fd < 0) /* a memory stream (open_memstream): no file to take back */
        return fwrite(buf, 1, len, f) == len && fflush(f) == 0 ? 0 : -1;
    return append_whole(fd, buf, len);
}

int append_cut_torn(const char *path, char *msg, size_t cap)
{
    char last, buf[65536], torn[4096];
    struct stat st;
    off_t start = 0, pos;
    char *tail = NULL;
    json_t *j;
    int fd, tfd, rc = -1;
    msg[0] = '\0';
    if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0) {
        snprintf(msg, cap, "%.300s: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0 ||
        pread(fd, &last, 1, st.st_size - 1) != 1 || last == '\n') {
        close(fd);
        return 0;
    }
    /* the start of the last line: after the last newline before the end */
    for (pos = st.st_size; pos > 0 && start == 0;) {
        off_t from = pos > (off_t)sizeof buf ? pos - (off_t)sizeof buf : 0;
        ssize_t n = pread(fd, buf, (size_t)(pos - from), from);
        if (n <= 0)
            break;
        for (ssize_t i = n - 1; i >= 0; i--)
            if (buf[i] == '\n') {
                start = from + i + 1;
                break;
            }
        pos = from;
    }
    if (!(tail = malloc((size_t)(st.st_size - start))) ||
        pread(fd, tail, (size_t)(st.st_size - start), start) != st.st_size - start) {
        snprintf(msg, cap, "%.300s: cannot read its last line: %s", path, strerror(errno));
        goto out;
    }
    j = json_loadb(tail, (size_t)(st.st_size - start), 0, NULL);
    if (json_is_object(j)) {
        json_decref(j);
        rc = lseek(fd, 0, SEEK_END) >= 0 && append_whole(fd, "\n", 1) == 0 ? 1 : -1;
        snprintf(msg, cap,
                 rc == 1 ? "%.300s: its last record had no newline (a whole record): added"
                         : "%.300s: cannot add the last record's newline",
                 path);
        goto out;
    }
    json_decref(j);
    snprintf(torn, sizeof torn, "%s.torn", path);
    tfd = open(torn, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (tfd < 0 || append_whole(tfd, tail, (size_t)(st.st_size - start)) != 0 ||
        append_whole(tfd, "\n", 1) != 0 || fsync(tfd) != 0) {
        snprintf(msg, cap, "%.300s: its last line is torn, and %.300s cannot be written: %s", path,
                 torn, strerror(errno));
        if (tfd >= 0)
            close(tfd);
        goto out;
    }
    close(tfd);
    if (ftruncate(fd, start) != 0 || fsync(fd) != 0) {
        snprintf(msg, cap, "%.300s: cannot cut its torn last line: %s", path, strerror(errno));
        goto out;
    }
    snprintf(msg, cap,
             "%.300s ended in a torn record (%ld bytes without their newline: a power loss or a "
             "kill mid-write): moved to %.300s; the whole records before it are kept",
             path, (long)(st.st_size - start), torn);
    rc = 2;
out:
    free(tail);
    close(fd);
    return rc;
}
