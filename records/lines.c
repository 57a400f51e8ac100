/* lines.c - read a text input one line at a time (lines.h). */
#include "lines.h"
#include "errtext.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define READ_CHUNK ((size_t)64 * 1024)

static void init(struct lines *l, const char *name)
{
    memset(l, 0, sizeof *l);
    l->name = name ? name : "<input>";
}

int lines_open(struct lines *l, const char *path, const char *name, char *err, size_t cap)
{
    struct stat st;
    init(l, name ? name : path);
    if (strcmp(path, "-") == 0) {
        l->f = stdin;
    } else {
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(err, cap, "%s: is a directory: expected a file", l->name);
            return LINES_EIO;
        }
        l->f = fopen(path, "rb");
        if (!l->f) {
            snprintf(err, cap, "%s: cannot open: %s", l->name, strerror(errno));
            return LINES_EIO;
        }
        l->close_f = 1;
    }
    l->cap = READ_CHUNK * 2;
    l->buf = malloc(l->cap);
    if (!l->buf) {
        lines_close(l);
        snprintf(err, cap, "%s: out of memory", l->name);
        return LINES_ENOMEM;
    }
    return LINES_OK;
}

void lines_open_mem(struct lines *l, const char *data, size_t len, const char *name)
{
    init(l, name);
    l->buf = (char *)data; /* never written: a buffer source reads in place */
    l->len = len;
    l->eof = 1;
}

/* Read more bytes into the buffer (file source). 1 when bytes were added, 0 at end, -1 error. */
static int fill(struct lines *l, char *err, size_t cap)
{
    size_t got;
    if (l->eof || !l->f)
        return 0;
    if (l->pos > 0 && l->pos == l->len) {
        l->pos = l->len = 0;
    } else if (l->pos > 0 && l->len + READ_CHUNK > l->cap) {
        memmove(l->buf, l->buf + l->pos, l->len - l->pos);
        l->len -= l->pos;
        l->pos = 0;
    }
    if (l->len + READ_CHUNK > l->cap) {
        char *nb = realloc(l->buf, l->cap * 2);
        if (!nb) {
            snprintf(err, cap, "%s: out of memory", l->name);
            return -1;
        }
        l->buf = nb;
        l->cap *= 2;
    }
    errno = 0;
    got = fread(l->buf + l->len, 1, READ_CHUNK, l->f);
    l->len += got;
    if (got == 0) {
        if (ferror(l->f)) {
            snprintf(err, cap, "%s: cannot read: %s", l->name, strerror(errno ? errno : EIO));
            return -1;
        }
        l->eof = 1;
        return 0;
    }
    return 1;
}

static void skip_bom(struct lines *l)
{
    if (!l->started && l->pos == 0 && l->len >= 3 && memcmp(l->buf, "\xEF\xBB\xBF", 3) == 0)
        l->pos = 3;
}

int lines_peek(struct lines *l, const char **data, size_t *len, char *err, size_t cap)
{
    while (!l->eof && l->len - l->pos < LINES_PEEK_BYTES) {
        int rc = fill(l, err, cap);
        if (rc < 0)
            return LINES_EIO;
        if (rc == 0)
            break;
    }
    skip_bom(l);
    *data = l->buf + l->pos;
    *len = l->len - l->pos;
    if (*len > LINES_PEEK_BYTES)
        *len = LINES_PEEK_BYTES;
    return LINES_OK;
}

/* Append n bytes to the current line. */
static int line_append(struct lines *l, const char *s, size_t n, char *err, size_t cap)
{
    if (l->line_len + n + 1 > l->line_cap) {
        size_t ncap = l->line_cap ? l->line_cap : 256;
        char *nl;
        if (l->line_len + n >= LINES_MAX_LINE) {
            errtext_set(err, cap, l->name, l->no, 0,
                        "a line longer than %zu MiB: expected text lines", LINES_MAX_LINE >> 20);
            return LINES_ETOOLONG;
        }
        while (ncap < l->line_len + n + 1)
            ncap *= 2;
        nl = realloc(l->line, ncap);
        if (!nl) {
            errtext_set(err, cap, l->name, l->no, 0, "out of memory");
            return LINES_ENOMEM;
        }
        l->line = nl;
        l->line_cap = ncap;
    }
    memcpy(l->line + l->line_len, s, n);
    l->line_len += n;
    l->line[l->line_len] = '\0';
    return LINES_OK;
}

int lines_next(struct lines *l, char *err, size_t cap)
{
    int have = 0, rc;
    if (!l->started) {
        if (l->f && l->len == 0 && fill(l, err, cap) < 0)
            return LINES_EIO;
        skip_bom(l);
        l->started = 1;
    }
    l->line_len = 0;
    l->no_newline = 0;
    if (l->line)
        l->line[0] = '\0';
    l->no++;
    for (;;) {
        const char *start = l->buf + l->pos;
        size_t avail = l->len - l->pos;
        const char *nl = avail ? memchr(start, '\n', avail) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - start);
            if ((rc = line_append(l, start, n, err, cap)) < 0)
                return rc;
            l->pos += n + 1;
            break;
        }
        if (avail) {
            if ((rc = line_append(l, start, avail, err, cap)) < 0)
                return rc;
            l->pos += avail;
            have = 1;
        }
        rc = fill(l, err, cap);
        if (rc < 0)
            return LINES_EIO;
        if (rc == 0) {
            if (!have && l->line_len == 0) {
                l->no--;
                return 0;
            }
            l->no_newline = 1;
            break;
        }
    }
    if (!l->line && line_append(l, "", 0, err, cap) < 0)
        return LINES_ENOMEM;
    if (l->line_len > 0 && l->line[l->line_len - 1] == '\r')
        l->line[--l->line_len] = '\0';
    return 1;
}

void lines_close(struct lines *l)
{
    if (!l)
        return;
    if (l->f && l->close_f)
        fclose(l->f);
    if (l->f)
        free(l->buf);
    free(l->line);
    l->f = NULL;
    l->buf = l->line = NULL;
    l->len = l->pos = l->line_len = l->line_cap = l->cap = 0;
}
