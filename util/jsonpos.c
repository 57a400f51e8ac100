/* jsonpos.c - line and column of the value a JSON path names (a small skipping scanner). */
#include "jsonpos.h"

#include <stdlib.h>
#include <string.h>

struct scan {
    const char *s;
    size_t len, pos;
};

static void skip_ws(struct scan *sc)
{
    while (sc->pos < sc->len && (sc->s[sc->pos] == ' ' || sc->s[sc->pos] == '\t' ||
                                 sc->s[sc->pos] == '\n' || sc->s[sc->pos] == '\r'))
        sc->pos++;
}

/* Skip a string starting at '"'; copy its raw bytes (escapes kept, truncated) into key. */
static int skip_string(struct scan *sc, char *key, size_t cap)
{
    size_t n = 0;
    if (sc->pos >= sc->len || sc->s[sc->pos] != '"')
        return -1;
    sc->pos++;
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos++];
        if (c == '"') {
            if (key)
                key[n < cap ? n : cap - 1] = '\0';
            return 0;
        }
        if (c == '\\' && sc->pos < sc->len) {
            /* keep simple escapes decoded, so "a\"b" compares as a"b */
            c = sc->s[sc->pos++];
            if (c == 'n')
                c = '\n';
            else if (c == 't')
                c = '\t';
        }
        if (key && n + 1 < cap)
            key[n++] = c;
    }
    return -1;
}

static int skip_value(struct scan *sc)
{
    int depth = 0;
    skip_ws(sc);
    if (sc->pos >= sc->len)
        return -1;
    if (sc->s[sc->pos] == '"')
        return skip_string(sc, NULL, 0);
    if (sc->s[sc->pos] != '{' && sc->s[sc->pos] != '[') {
        while (sc->pos < sc->len && !strchr(",]} \t\r\n", sc->s[sc->pos]))
            sc->pos++;
        return 0;
    }
    while (sc->pos < sc->len) {
        char c = sc->s[sc->pos];
        if (c == '"') {
            if (skip_string(sc, NULL, 0) != 0)
                return -1;
            continue;
        }
        if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']') {
            depth--;
            if (depth == 0) {
                sc->pos++;
                return 0;
            }
        }
        sc->pos++;
    }
    return -1;
}

/* Move to the member named key of the object at sc->pos; 0 when found (pos at its value). */
static int enter_key(struct scan *sc, const char *key)
{
    char buf[256];
    skip_ws(sc);
    if (sc->pos >= sc->len || sc->s[sc->pos] != '{')
        return -1;
    sc->pos++;
    for (;;) {
        skip_ws(sc);
        if (sc->pos >= sc->len || sc->s[sc->pos] == '}')
            return -1;
        if (skip_string(sc, buf, sizeof buf) != 0)
            return -1;
        skip_ws(sc);
        if (sc->pos >= sc->len || sc->s[sc->pos] != ':')
            return -1;
        sc->pos++;
        skip_ws(sc);
        if (strcmp(buf, key) == 0)
            return 0;
        if (skip_value(sc) != 0)
            return -1;
        skip_ws(sc);
        if (sc->pos < sc->len && sc->s[sc->pos] == ',')
            sc->pos++;
    }
}

static int enter_index(struct scan *sc, long index)
{
    skip_ws(sc);
    if (sc->pos >= sc->len || sc->s[sc->pos] != '[')
        return -1;
    sc->pos++;
    for (long i = 0;; i++) {
        skip_ws(sc);
        if (sc->pos >= sc->len || sc->s[sc->pos] == ']')
            return -1;
        if (i == index)
            return 0;
        if (skip_value(sc) != 0)
            return -1;
        skip_ws(sc);
        if (sc->pos < sc->len && sc->s[sc->pos] == ',')
            sc->pos++;
    }
}

static void to_line_column(const char *s, size_t pos, long *line, long *column)
{
    long l = 1, c = 1;
    for (size_t i = 0; i < pos; i++) {
        if (s[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *column = c;
}

int jsonpos_find(const char *text, size_t len, const char *path, long *line, long *column)
{
    struct scan sc = {text, len, 0};
    const char *p = path;
    size_t found = 0;
    int rc = 0;

    skip_ws(&sc);
    found = sc.pos;
    if (!p || *p != '$') {
        rc = -1;
        p = "";
    } else {
        p++;
    }
    while (*p) {
        size_t save = sc.pos;
        if (*p == '.') {
            char key[256];
            size_t n = 0;
            p++;
            while (*p && *p != '.' && *p != '[' && n + 1 < sizeof key)
                key[n++] = *p++;
            key[n] = '\0';
            if (enter_key(&sc, key) != 0) {
                sc.pos = save;
                rc = -1;
                break;
            }
        } else if (*p == '[') {
            char *end = NULL;
            long idx = strtol(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || idx < 0 || enter_index(&sc, idx) != 0) {
                sc.pos = save;
                rc = -1;
                break;
            }
            p = end + 1;
        } else {
            rc = -1;
            break;
        }
        skip_ws(&sc);
        found = sc.pos;
    }
    to_line_column(text, found, line, column);
    return rc;
}
