/* levelfile.c - one level record per level in a results file (see levelfile.h). */
#include "levelfile.h"

#include "point.h"

#include "outfile.h"
#include "readfile.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEVELFILE_MAX_BYTES ((size_t)1 << 30)

/* The thread count of a level record of (target, workload) on line [b, e), else -1. */
static long long level_of(const char *b, size_t len, const char *target, const char *workload)
{
    json_error_t je;
    json_t *j = json_loadb(b, len, 0, &je);
    long long threads = -1;
    if (!j)
        return -1;
    if (point_extra_is_level_record(json_object_get(j, "extra")) &&
        json_is_string(json_object_get(j, "target")) &&
        strcmp(json_string_value(json_object_get(j, "target")), target) == 0 &&
        json_is_string(json_object_get(j, "workload")) &&
        strcmp(json_string_value(json_object_get(j, "workload")), workload) == 0 &&
        json_is_integer(json_object_get(j, "threads")))
        threads = json_integer_value(json_object_get(j, "threads"));
    json_decref(j);
    return threads;
}

long levelfile_keep_newest(const char *path, const char *target, const char *workload, char *err,
                           size_t cap)
{
    char *buf = NULL;
    size_t len = 0, nl = 0, k = 0;
    long long *lv = NULL;
    long removed = 0;
    struct outfile of;
    if (readfile(path, LEVELFILE_MAX_BYTES, &buf, &len, err, cap) != READFILE_OK)
        return -1;
    for (size_t i = 0; i < len; i++)
        nl += buf[i] == '\n';
    if (!(lv = malloc((nl + 1) * sizeof *lv))) {
        snprintf(err, cap, "out of memory");
        free(buf);
        return -1;
    }
    /* each line's level (or -1) */
    for (size_t at = 0; at < len; k++) {
        const char *e = memchr(buf + at, '\n', len - at);
        size_t n = e ? (size_t)(e - (buf + at)) : len - at;
        lv[k] = level_of(buf + at, n, target, workload);
        at += n + (e != NULL);
    }
    /* a level record with a later one of the same level is superseded */
    for (size_t i = 0; i < k; i++)
        for (size_t j = i + 1; lv[i] >= 0 && j < k; j++)
            if (lv[j] == lv[i]) {
                lv[i] = -2;
                removed++;
            }
    if (removed == 0) {
        free(lv);
        free(buf);
        return 0;
    }
    if (outfile_open(&of, path, err, cap) != 0) {
        free(lv);
        free(buf);
        return -1;
    }
    k = 0;
    for (size_t at = 0; at < len; k++) {
        const char *e = memchr(buf + at, '\n', len - at);
        size_t n = (e ? (size_t)(e - (buf + at)) : len - at) + (e != NULL);
        if (lv[k] != -2 && fwrite(buf + at, 1, n, of.f) != n)
            break;
        at += n;
    }
    free(lv);
    free(buf);
    if (ferror(of.f)) {
        snprintf(err, cap, "cannot write %s", path);
        outfile_abort(&of);
        return -1;
    }
    return outfile_commit(&of, err, cap) == 0 ? removed : -1;
}
