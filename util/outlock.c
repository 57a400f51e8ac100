/* outlock.c - one writer at a time for a results file (see outlock.h). */
#include "outlock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The command line of process pid, arguments joined by spaces (the program without its
 * folder), into buf; "" when /proc does not have it. */
static void command_of(long pid, char *buf, size_t cap)
{
    char path[64], raw[512];
    size_t len = 0;
    ssize_t n;
    int fd;
    buf[0] = '\0';
    snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return;
    n = read(fd, raw, sizeof raw - 1);
    close(fd);
    if (n <= 0)
        return;
    raw[n] = '\0';
    for (ssize_t i = 0; i < n && len + 1 < cap; i += (ssize_t)strlen(raw + i) + 1) {
        const char *arg = raw + i, *slash = i == 0 ? strrchr(arg, '/') : NULL;
        len +=
            (size_t)snprintf(buf + len, cap - len, "%s%s", len ? " " : "", slash ? slash + 1 : arg);
    }
}

int outlock_take(const char *path, char *err, size_t cap)
{
    char lock[4096], cmd[160];
    struct flock fl;
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
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        int e = errno;
        if (e == EACCES || e == EAGAIN) {
            memset(&fl, 0, sizeof fl);
            fl.l_type = F_WRLCK;
            fl.l_whence = SEEK_SET;
            if (fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK && fl.l_pid > 0) {
                command_of((long)fl.l_pid, cmd, sizeof cmd);
                snprintf(err, cap,
                         "%.300s is being written by another run (pid %ld%s%s): wait for it to "
                         "end, or give another output",
                         path, (long)fl.l_pid, cmd[0] ? ": " : "", cmd);
            } else
                snprintf(err, cap,
                         "%.300s is being written by another run: wait for it to end, or give "
                         "another output",
                         path);
        } else
            snprintf(err, cap, "%.300s: cannot lock %.300s: %s", path, lock, strerror(e));
        close(fd);
        return -1;
    }
    return fd;
}

void outlock_release(int fd)
{
    if (fd >= 0)
        close(fd); /* the record lock goes with the process's last descriptor of the file */
}
