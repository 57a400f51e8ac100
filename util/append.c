/* append.c - append one record whole or not at all (see append.h). */
#include "append.h"

#include <errno.h>
#include <fcntl.h>
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
