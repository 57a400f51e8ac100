/* outfile.c - replace an output file whole or not at all. */
#include "outfile.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The temporary files open now, for the signal handler: SIGINT or SIGTERM with the default
 * action would end the process and leave them behind. This table is global state by necessity
 * (a handler has no other way to find them); it holds pointers into the open outfiles, set and
 * cleared by outfile_open / outfile_commit / outfile_abort, read by the handler. Lock-free
 * atomic pointers make the handler's reads safe (C11 7.14.1.1, 7.17).
 */
static _Atomic(const char *) open_temps[OUTFILE_MAX_OPEN];
static atomic_int handlers_installed;

static void remove_temps_and_die(int sig)
{
    for (int i = 0; i < OUTFILE_MAX_OPEN; i++) {
        const char *p = atomic_load(&open_temps[i]);
        if (p)
            unlink(p); /* async-signal-safe */
    }
    (void)sig;
    /* SIGTERM is treated as SIGINT (stopflag.h): the process ends by SIGINT's default action,
     * status 130 in the shell, whichever of the two came */
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
}

/* Install the handler for a signal whose action is still the default (a command that handles
 * the signal itself, or a shell that ignores it for a background job, keeps its choice). */
static void install_for(int sig)
{
    struct sigaction old, sa;
    if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_temps_and_die;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, NULL);
}

static void track(const char *tmp_path)
{
    if (!atomic_exchange(&handlers_installed, 1)) {
        install_for(SIGINT);
        install_for(SIGTERM);
    }
    for (int i = 0; i < OUTFILE_MAX_OPEN; i++) {
        const char *expected = NULL;
        if (atomic_compare_exchange_strong(&open_temps[i], &expected, tmp_path))
            return;
    }
    /* more than OUTFILE_MAX_OPEN at once: this one is not removed on a signal */
}

static void untrack(const char *tmp_path)
{
    for (int i = 0; i < OUTFILE_MAX_OPEN; i++) {
        const char *expected = tmp_path;
        if (atomic_compare_exchange_strong(&open_temps[i], &expected, NULL))
            return;
    }
}

static void clear(struct outfile *of)
{
    if (of->tmp_path)
        untrack(of->tmp_path);
    free(of->path);
    free(of->tmp_path);
    of->f = NULL;
    of->path = of->tmp_path = NULL;
}

/* One step along a symbolic link: when p (a path in a buffer of OUTFILE_PATH_CAP bytes) is a
 * link, replace it with what the link names, a relative target taken from the link's folder as
 * the kernel does. @return 1 stepped, 0 p is no link (or does not exist), -1 it cannot be read
 * or the result does not fit. */
#define OUTFILE_PATH_CAP 4096
static int link_step(char *p)
{
    struct stat lst;
    char buf[OUTFILE_PATH_CAP];
    const char *slash;
    ssize_t n;
    if (lstat(p, &lst) != 0 || !S_ISLNK(lst.st_mode))
        return 0;
    if ((n = readlink(p, buf, sizeof buf - 1)) <= 0)
        return -1;
    buf[n] = '\0';
    slash = strrchr(p, '/');
    if (buf[0] == '/' || !slash) {
        memcpy(p, buf, (size_t)n + 1);
    } else {
        size_t dl = (size_t)(slash - p) + 1;
        if (dl + (size_t)n + 1 > OUTFILE_PATH_CAP)
            return -1;
        memcpy(p + dl, buf, (size_t)n + 1);
    }
    return 1;
}

/* The file a dangling symbolic link names (links followed, up to 16), as a new string; NULL
 * when path is no link or a link cannot be followed. */
static char *dangling_target(const char *path)
{
    char p[OUTFILE_PATH_CAP];
    snprintf(p, sizeof p, "%s", path);
    for (int depth = 0; depth < 16; depth++) {
        int r = link_step(p);
        if (r < 0)
            return NULL;
        if (r == 0)
            return depth ? strdup(p) : NULL;
    }
    return NULL;
}

/* 1 when path is, or links (in up to 16 steps) to, /proc/self/fd/N, /proc/PID/fd/N of this
 * process, /dev/fd/N, /dev/stdout or /dev/stderr. */
static int through_own_fd(const char *path)
{
    char p[OUTFILE_PATH_CAP], self[64];
    snprintf(p, sizeof p, "%s", path);
    snprintf(self, sizeof self, "/proc/%ld/fd/", (long)getpid());
    for (int depth = 0; depth < 17; depth++) {
        if (strncmp(p, "/proc/self/fd/", 14) == 0 || strncmp(p, "/dev/fd/", 8) == 0 ||
            strncmp(p, self, strlen(self)) == 0 || strcmp(p, "/dev/stdout") == 0 ||
            strcmp(p, "/dev/stderr") == 0 || strncmp(p, "/proc/thread-self/fd/", 21) == 0)
            return 1;
        if (link_step(p) != 1)
            return 0;
    }
    return 0;
}

/* Write path directly (no temporary), opened with mode: 0, or -1 with err set. */
static int open_direct(struct outfile *of, const char *path, const char *mode, char *err,
                       size_t cap)
{
    of->f = fopen(path, mode);
    if (!of->f || !(of->path = strdup(path))) {
        snprintf(err, cap, "cannot write %s: %s", path, of->f ? "out of memory" : strerror(errno));
        if (of->f)
            fclose(of->f);
        of->f = NULL;
        return -1;
    }
    return 0;
}

int outfile_open(struct outfile *of, const char *path, char *err, size_t cap)
{
    struct stat st;
    char *real = NULL;
    mode_t mode, mask;
    size_t len;
    int fd, exists, have;

    of->f = NULL;
    of->path = of->tmp_path = NULL;
    /* a link that loops, or a chain too long to follow: refused, never replaced */
    have = stat(path, &st) == 0;
    if (!have && errno == ELOOP) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(ELOOP));
        return -1;
    }
    /* an open descriptor of this process (/dev/stdout, /proc/self/fd/N, a link to one): written
     * through, appending, whatever it is: replacing the file it names would cut the caller's
     * own stdout, opened for append or not, from what is written (a shell's >> log) */
    if (through_own_fd(path))
        return open_direct(of, path, "a", err, cap);
    /* the type first, by stat of the path itself: /dev/stdout is a link to /proc/self/fd/1,
     * which names a pipe ("pipe:[N]") that realpath cannot resolve; taken for a file that does
     * not exist yet, a temporary renamed over /dev/stdout replaced the system's link */
    if (have && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, cap, "cannot write %s: it is a directory", path);
            return -1;
        }
        return open_direct(of, path, "w", err, cap);
    }
    real = realpath(path, NULL); /* follows links; NULL when the file does not exist yet */
    if (!real) {
        struct stat lst;
        real = dangling_target(path); /* a link to a file not there yet: that file */
        if (!real && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
            snprintf(err, cap, "cannot write %s: a link whose target cannot be followed", path);
            return -1;
        }
    }
    exists = real && stat(real, &st) == 0;
    if (!real && !(real = strdup(path))) {
        snprintf(err, cap, "cannot write %s: out of memory", path);
        return -1;
    }
    len = strlen(real) + 16;
    of->path = real;
    of->tmp_path = malloc(len);
    if (!of->tmp_path) {
        snprintf(err, cap, "cannot write %s: out of memory", path);
        clear(of);
        return -1;
    }
    {
        /* beside the target; a name too long for the suffix (NAME_MAX, 255 on Linux) gets a
         * short one in the same folder */
        const char *slash = strrchr(real, '/');
        size_t base = strlen(slash ? slash + 1 : real);
        if (base + 11 > 255)
            snprintf(of->tmp_path, len, "%.*s.sizeup.XXXXXX", slash ? (int)(slash - real + 1) : 0,
                     real);
        else
            snprintf(of->tmp_path, len, "%s.tmp.XXXXXX", real);
    }
    track(of->tmp_path); /* before it exists: a signal from here on removes it */
    fd = mkstemp(of->tmp_path);
    if (fd < 0) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        clear(of);
        return -1;
    }
    mask = umask(0);
    umask(mask);
    mode = exists ? (st.st_mode & 07777) : (0666 & ~mask);
    if (fchmod(fd, mode) != 0 || !(of->f = fdopen(fd, "w"))) {
        snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(of->tmp_path);
        clear(of);
        return -1;
    }
    return 0;
}

int outfile_commit(struct outfile *of, char *err, size_t cap)
{
    int rc = 0;
    if (!of->f)
        return -1;
    if (fflush(of->f) != 0 || ferror(of->f)) {
        snprintf(err, cap, "cannot write %s: %s", of->path, strerror(errno ? errno : EIO));
        rc = -1;
    }
    if (fclose(of->f) != 0 && rc == 0) {
        snprintf(err, cap, "cannot write %s: %s", of->path, strerror(errno));
        rc = -1;
    }
    of->f = NULL;
    if (of->tmp_path) {
        if (rc == 0 && rename(of->tmp_path, of->path) != 0) {
            snprintf(err, cap, "cannot write %s: %s", of->path, strerror(errno));
            rc = -1;
        }
        if (rc != 0)
            unlink(of->tmp_path);
    }
    clear(of);
    return rc;
}

void outfile_abort(struct outfile *of)
{
    if (!of)
        return;
    if (of->f)
        fclose(of->f);
    if (of->tmp_path)
        unlink(of->tmp_path);
    clear(of);
}

int outfile_write(const char *path, const void *data, size_t len, char *err, size_t cap)
{
    struct outfile of;
    if (outfile_open(&of, path, err, cap) != 0)
        return -1;
    if (len && fwrite(data, 1, len, of.f) != len) {
        if (err && cap)
            snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, cap);
}

int outfile_emit(const char *path, const char *what, int (*write_fn)(FILE *f, const void *ctx),
                 const void *ctx)
{
    struct outfile of;
    char err[512];
    if (!path) {
        if (write_fn(stdout, ctx) != 0 || fflush(stdout) != 0) {
            fprintf(stderr, "sizeup: cannot write %s to stdout\n", what);
            return -1;
        }
        return 0;
    }
    if (outfile_open(&of, path, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return -1;
    }
    if (write_fn(of.f, ctx) != 0) {
        outfile_abort(&of);
        fprintf(stderr, "sizeup: cannot write %s\n", path);
        return -1;
    }
    if (outfile_commit(&of, err, sizeof err) != 0) {
        fprintf(stderr, "sizeup: %s\n", err);
        return -1;
    }
    return 0;
}
