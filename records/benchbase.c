/* benchbase.c - a BenchBase summary.json -> one point (tools.h). The keys are those of
 * cmu-db/benchbase ResultWriter.writeSummary and DistributionStatistics.toMap (commit d2ff90f,
 * 2025-11): a JSON object, read whole (it is a few hundred bytes). */
#include "tools.h"

#include "jsonpos.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct bb {
    struct import_src *src;
    int done;
};

int benchbase_detect(const char *buf, size_t len, const char *path)
{
    size_t i = 0;
    (void)path;
    while (i < len && isspace((unsigned char)buf[i]))
        i++;
    if (i == len || buf[i] != '{')
        return 0;
    for (size_t j = i; j + 22 <= len; j++)
        if (memcmp(buf + j, "\"Benchmark Type\"", 16) == 0 ||
            memcmp(buf + j, "\"Latency Distribution\"", 22) == 0)
            return 1;
    return 0;
}

void *benchbase_open(struct import_src *src)
{
    struct bb *b = calloc(1, sizeof *b);
    if (b)
        b->src = src;
    return b;
}

void benchbase_close(void *state)
{
    free(state);
}

/* The whole input as one buffer (at most BENCHBASE_MAX_BYTES). */
static int slurp(struct import_src *src, char **text, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *t = malloc(cap);
    int rc;
    if (!t)
        return IMPORT_ENOMEM;
    while ((rc = import_read_line(src)) == 1) {
        size_t ln = src->lines->line_len;
        if (n + ln + 2 > BENCHBASE_MAX_BYTES) {
            free(t);
            import_diag(src, IMPORT_ERROR, src->lines->no,
                        "a BenchBase summary larger than %zu MiB: expected a summary.json",
                        BENCHBASE_MAX_BYTES >> 20);
            return IMPORT_EPARSE;
        }
        if (n + ln + 2 > cap) {
            char *nt;
            while (n + ln + 2 > cap)
                cap *= 2;
            if (!(nt = realloc(t, cap))) {
                free(t);
                return IMPORT_ENOMEM;
            }
            t = nt;
        }
        memcpy(t + n, src->lines->line, ln);
        n += ln;
        t[n++] = '\n';
    }
    if (rc < 0) {
        free(t);
        return rc;
    }
    t[n] = '\0';
    *text = t;
    *len = n;
    return IMPORT_OK;
}

static int where_error(struct import_src *src, const char *text, size_t len, const char *path,
                       const char *expected)
{
    long line = 0, col = 0;
    jsonpos_find(text, len, path, &line, &col);
    import_diag(src, IMPORT_ERROR, -1, "%s:%ld:%ld: key \"%s\": expected %s", src->name, line, col,
                path + 2, expected);
    return IMPORT_EPARSE;
}

/* A number that BenchBase may also write as a string ("terminals": "8"). */
static int number(const json_t *v, double *out)
{
    char *end;
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return isfinite(*out) ? 0 : -1;
    }
    if (!json_is_string(v) || !*json_string_value(v))
        return -1;
    *out = strtod(json_string_value(v), &end);
    return *end || !isfinite(*out) ? -1 : 0;
}

static int fill(struct bb *b, const json_t *o, const char *text, size_t len, struct point *p)
{
    static const struct {
        const char *key;
        double pct; /* 0: not a percentile; -1 min, -2 avg, -3 max */
    } lat[] = {{"Minimum Latency (microseconds)", -1},
               {"25th Percentile Latency (microseconds)", 25},
               {"Median Latency (microseconds)", 50},
               {"Average Latency (microseconds)", -2},
               {"75th Percentile Latency (microseconds)", 75},
               {"90th Percentile Latency (microseconds)", 90},
               {"95th Percentile Latency (microseconds)", 95},
               {"99th Percentile Latency (microseconds)", 99},
               {"Maximum Latency (microseconds)", -3}};
    struct import_src *src = b->src;
    const json_t *v, *dist;
    double x, terminals;
    char name[64];
    size_t i;
    v = json_object_get(o, "Throughput (requests/second)");
    if (number(v, &p->tps) || p->tps < 0)
        return where_error(src, text, len, "$.Throughput (requests/second)", "a number >= 0");
    v = json_object_get(o, "terminals");
    if (number(v, &terminals) || terminals < 1 || terminals > 1e6 || terminals != floor(terminals))
        return where_error(src, text, len, "$.terminals", "a count of terminals > 0");
    p->threads = (int64_t)terminals;
    v = json_object_get(o, "Benchmark Type");
    if (json_is_string(v) && json_string_length(v) > 0) {
        const char *s = json_string_value(v);
        for (i = 0; s[i] && i + 1 < sizeof name; i++)
            name[i] = isalnum((unsigned char)s[i]) ? (char)tolower((unsigned char)s[i]) : '_';
        name[i] = '\0';
        if (point_set_str(&p->workload, name))
            return IMPORT_ENOMEM;
    }
    if (number(json_object_get(o, "Goodput (requests/second)"), &x) == 0 &&
        import_set_extra(p, "goodput_rps", json_real(x)))
        return IMPORT_ENOMEM;
    if (number(json_object_get(o, "Measured Requests"), &x) == 0 && x >= 0)
        p->transactions = (int64_t)x;
    if (number(json_object_get(o, "Elapsed Time (nanoseconds)"), &x) == 0 && x > 0)
        p->duration_s = x / 1e9;
    dist = json_object_get(o, "Latency Distribution");
    if (dist && !json_is_object(dist))
        return where_error(src, text, len, "$.Latency Distribution", "an object");
    for (i = 0; dist && i < sizeof lat / sizeof lat[0]; i++) {
        v = json_object_get(dist, lat[i].key);
        if (!v)
            continue;
        if (number(v, &x) || x < 0) {
            char path[96];
            snprintf(path, sizeof path, "$.Latency Distribution.%s", lat[i].key);
            return where_error(src, text, len, path, "microseconds >= 0");
        }
        x /= 1000;
        if (lat[i].pct == -1)
            p->latency_ms.min = x;
        else if (lat[i].pct == -2)
            p->latency_ms.avg = x;
        else if (lat[i].pct == -3)
            p->latency_ms.max = x;
        else
            point_set_percentile(p, lat[i].pct, x);
    }
    if (number(json_object_get(o, "Start timestamp (milliseconds)"), &x) == 0 && x > 0 &&
        x < 1e15) {
        time_t t = (time_t)(x / 1000);
        struct tm tm;
        char when[32];
        if (gmtime_r(&t, &tm) && strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) &&
            point_set_str(&p->started_at, when))
            return IMPORT_ENOMEM;
    }
    {
        static const char *const keep[][2] = {{"DBMS Type", "dbms_type"},
                                              {"DBMS Version", "dbms_version"},
                                              {"isolation", "isolation"},
                                              {"scalefactor", "scalefactor"},
                                              {"Final State", "final_state"}};
        for (i = 0; i < sizeof keep / sizeof keep[0]; i++)
            if ((v = json_object_get(o, keep[i][0])) && json_is_string(v) &&
                import_set_extra(p, keep[i][1], point_json_string(json_string_value(v))))
                return IMPORT_ENOMEM;
    }
    v = json_object_get(o, "Final State");
    if (json_is_string(v) && strcmp(json_string_value(v), "ERROR") == 0) {
        p->incomplete = 1;
        if (point_add_flag(p, "final_state_error"))
            return IMPORT_ENOMEM;
        import_diag(src, IMPORT_WARNING, 0,
                    "warning: BenchBase's final state is ERROR: imported and marked incomplete");
    }
    p->source_kind = POINT_SRC_TOOL;
    p->source_line = 1;
    return point_set_str(&p->tool, "BenchBase") ? IMPORT_ENOMEM : IMPORT_OK;
}

int benchbase_next(void *state, struct point *out)
{
    struct bb *b = state;
    char *text = NULL;
    size_t len = 0;
    json_error_t jerr;
    json_t *o;
    int rc;
    if (b->done)
        return 0;
    b->done = 1;
    if ((rc = slurp(b->src, &text, &len)) != IMPORT_OK) {
        if (rc == IMPORT_ENOMEM)
            import_diag(b->src, IMPORT_ERROR, 0, "out of memory");
        return rc;
    }
    o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!o || !json_is_object(o)) {
        if (o)
            import_diag(b->src, IMPORT_ERROR, 1, "expected a JSON object (BenchBase summary.json)");
        else
            import_diag(b->src, IMPORT_ERROR, -1, "%s:%d:%d: invalid JSON: %s", b->src->name,
                        jerr.line, jerr.column, jerr.text);
        json_decref(o);
        free(text);
        return IMPORT_EPARSE;
    }
    rc = fill(b, o, text, len, out);
    json_decref(o);
    free(text);
    if (rc == IMPORT_ENOMEM)
        import_diag(b->src, IMPORT_ERROR, 0, "out of memory");
    return rc == IMPORT_OK ? 1 : rc;
}
