/* readfile.c - read a whole file into memory (readfile.h). */
#include "readfile.h"

#include "nodump.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *readfile_size_text(size_t bytes, char *buf, size_t cap)
{
    if (bytes >= ((size_t)1 << 30) && bytes % ((size_t)1 << 30) == 0)
        snprintf(buf, cap, "%zu GiB", bytes >> 30);
    else if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, cap, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, cap, "%zu KiB", bytes >> 10);
    else
        snprintf(buf, cap, "%zu bytes", bytes);
    return buf;
}

static int fail(char *err, size_t cap, const char *name, const char *what, int rc)
{
    if (err && cap)
        snprintf(err, cap, "%s: %s", name, what);
    return rc;
}

int readfile(const char *path, size_t max_bytes, char **buf, size_t *len, char *err, size_t cap)
{
    const int is_stdin = strcmp(path, "-") == 0;
    const char *name = is_stdin ? "<stdin>" : path;
    size_t n = 0, size = 65536;
    char *b, what[160];
    struct stat st;
    FILE *f;

    *buf = NULL;
    *len = 0;
    if (is_stdin) {
        f = stdin;
    } else {
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return fail(err, cap, name, "is a directory: expected a file", READFILE_EIO);
        if (!(f = fopen(path, "rb"))) {
            snprintf(what, sizeof what, "cannot open: %s", strerror(errno));
            return fail(err, cap, name, what, READFILE_EIO);
        }
        if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 &&
            (unsigned long long)st.st_size < max_bytes)
            size = (size_t)st.st_size + 1;
    }
    if (size > max_bytes + 1)
        size = max_bytes + 1;
    if (!(b = malloc(size + 1))) {
        if (!is_stdin)
            fclose(f);
        return fail(err, cap, name, "out of memory", READFILE_ENOMEM);
    }
    for (;;) {
        size_t got;
        if (n == size) {
            char *nb;
            if (n > max_bytes)
                break;
            size = size * 2 > max_bytes + 1 ? max_bytes + 1 : size * 2;
            if (!(nb = realloc(b, size + 1))) {
                free(b);
                if (!is_stdin)
                    fclose(f);
                return fail(err, cap, name, "out of memory", READFILE_ENOMEM);
            }
            b = nb;
        }
        errno = 0;
        got = fread(b + n, 1, size - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        snprintf(what, sizeof what, "cannot read: %s", strerror(errno ? errno : EIO));
        free(b);
        if (!is_stdin)
            fclose(f);
        return fail(err, cap, name, what, READFILE_EIO);
    }
    if (!is_stdin)
        fclose(f);
    if (n > max_bytes) {
        char sz[32];
        snprintf(what, sizeof what, "larger than the %s sizeup reads at once",
                 readfile_size_text(max_bytes, sz, sizeof sz));
        free(b);
        return fail(err, cap, name, what, READFILE_ETOOBIG);
    }
    if (n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte order mark: not text */
        memmove(b, b + 3, n - 3);
        n -= 3;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return READFILE_OK;
}

int readfile_secret_line(const char *path, char **out, char *why, size_t cap)
{
    char line[1024];
    size_t n;
    nodump_process(); /* the process holds a secret from here: no core dump (nodump.h) */
    FILE *f = fopen(path, "r");
    *out = NULL;
    if (!f) {
        snprintf(why, cap, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    if (!fgets(line, sizeof line, f))
        line[0] = '\0';
    if (ferror(f)) {
        snprintf(why, cap, "cannot read %s: %s", path, strerror(errno ? errno : EIO));
        fclose(f);
        memset(line, 0, sizeof line);
        return -1;
    }
    fclose(f);
    n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = '\0';
    *out = strdup(line);
    memset(line, 0, sizeof line);
    if (!*out) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    return 0;
}
