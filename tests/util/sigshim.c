/*
 * sigshim.c - an LD_PRELOAD shim for the signal tests: a real signal (kill(2) to the process
 * itself) at the moment an output's temporary file is complete and about to be put in place.
 *
 * rename(2) is wrapped: when SIGSHIM_SIGNAL is set (a signal number) and the source path has
 * ".tmp." in its name (util/outfile's temporaries), the SIGSHIM_AT-th such call (default 1)
 * first appends the temporary's path and a newline to the file SIGSHIM_LOG (when set), then
 * sends the signal, waits 0.3 s (another thread may be the one that takes it), then does the
 * real rename. A process whose handler ends it never gets to
 * the rename; one that only raises a stop flag renames as usual. Without SIGSHIM_SIGNAL the
 * shim changes nothing.
 *
 * Built without sanitizers (tests/util/CMakeLists.txt): it is preloaded into sanitized
 * binaries too.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*rename_fn)(const char *, const char *);

int rename(const char *from, const char *to);

int rename(const char *from, const char *to)
{
    static int seen;
    rename_fn real;
    void *sym = dlsym(RTLD_NEXT, "rename");
    memcpy(&real, &sym, sizeof real); /* POSIX: a dlsym result converts to a function pointer */
    const char *sig = getenv("SIGSHIM_SIGNAL"), *at = getenv("SIGSHIM_AT"),
               *log = getenv("SIGSHIM_LOG");
    if (!real)
        abort();
    if (sig && from && strstr(from, ".tmp.") && ++seen == (at ? atoi(at) : 1)) {
        if (log) {
            int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
            if (fd >= 0) {
                size_t n = strlen(from);
                if (write(fd, from, n) != (ssize_t)n || write(fd, "\n", 1) != 1)
                    abort();
                close(fd);
            }
        }
        kill(getpid(), atoi(sig));
        /* in a threaded process another thread may take the signal: give it time to act */
        usleep(300000);
    }
    return real(from, to);
}
