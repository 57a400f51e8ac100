/* outlock.c - one writer at a time for a results file (see outlock.h). */
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

int outlock_take(const char *path, const char *what, char *err, size_t cap)
{
    char lock[4096], holder[256] = "", when[32];
    time_t now = time(NULL);
    struct tm tm;
    ssize_t n;
    int fd;
    if ((size_t)snprintf(lock, sizeof lock, "%s.lock", path) >= sizeof lock) {
        snprintf(err, cap, "%.200s: the name is too long for its lock file", path);
        return -1;
    }
    fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, cap, "%.300s: cannot open its lock file %.300s: %s", path, lock,
                 strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int e = errno;
        if (e == EWOULDBLOCK) {
            n = pread(fd, holder, sizeof holder - 1, 0);
            holder[n > 0 ? n : 0] = '\0';
            holder[strcspn(holder, "\n")] = '\0';
            snprintf(err, cap,
                     "%.300s is being written by another run (%s): wait for it to end, or give "
                     "another output",
                     path, holder[0] ? holder : "its lock file names none");
        } else
            snprintf(err, cap, "%.300s: cannot lock %.300s: %s", path, lock, strerror(e));
        close(fd);
        return -1;
    }
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    n = snprintf(holder, sizeof holder, "pid %ld, %.150s since %s\n", (long)getpid(),
                 what ? what : "sizeup", when);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, holder, (size_t)n, 0) != n) {
        /* the lock holds all the same; only a refused run's message is poorer */
    }
    return fd;
}

void outlock_release(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}
