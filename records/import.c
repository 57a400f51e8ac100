/* import.c - read a file, detect its format, and turn it into point records (all or nothing). */
#include "import.h"
#include "sysbench_log.h"
#include "table_csv.h"

#include "readfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest file import reads: benchmark outputs are kilobytes; this only guards memory. */
#define IMPORT_MAX_BYTES ((size_t)256 * 1024 * 1024)

enum import_format import_detect(const char *buf, size_t len)
{
    if (point_looks_like_jsonl(buf, len))
        return IMPORT_POINTS;
    if (sysbench_log_detect(buf, len))
        return IMPORT_SYSBENCH;
    if (table_csv_detect(buf, len))
        return IMPORT_CSV;
    return IMPORT_AUTO;
}

static int import_points_jsonl(const char *buf, size_t len, const char *name,
                               struct point_list *out, struct import_report *report)
{
    FILE *f = fmemopen((void *)buf, len, "r");
    struct point_reader *r;
    struct point_error err;
    size_t first = out->n;
    int rc;
    if (!f) {
        snprintf(report->msg, sizeof report->msg, "%s: cannot read: %s", name, strerror(errno));
        return IMPORT_EIO;
    }
    r = point_reader_new(f, name);
    if (!r) {
        fclose(f);
        snprintf(report->msg, sizeof report->msg, "%s: out of memory", name);
        return IMPORT_ENOMEM;
    }
    for (;;) {
        struct point *p = point_list_push(out);
        if (!p) {
            rc = POINT_ENOMEM;
            snprintf(report->msg, sizeof report->msg, "%s: out of memory", name);
            break;
        }
        rc = point_reader_next(r, p, &err);
        if (rc <= 0) {
            point_list_truncate(out, out->n - 1);
            if (rc < 0)
                snprintf(report->msg, sizeof report->msg, "%s", err.msg);
            break;
        }
        if (p->incomplete)
            report->n_incomplete++;
    }
    point_reader_free(r);
    fclose(f);
    if (rc < 0) {
        point_list_truncate(out, first);
        report->n_incomplete = 0;
        return rc == POINT_ENOMEM ? IMPORT_ENOMEM : IMPORT_EPARSE;
    }
    report->n_points = out->n - first;
    if (report->n_points == 0) {
        snprintf(report->msg, sizeof report->msg, "%s: no point records", name);
        return IMPORT_EFORMAT;
    }
    return IMPORT_OK;
}

int import_buffer(const char *buf, size_t len, const char *name, const struct import_options *opt,
                  struct point_list *out, struct import_report *report)
{
    enum import_format fmt = opt ? opt->format : IMPORT_AUTO;
    size_t i;
    name = name ? name : "<input>";
    report->msg[0] = '\0';
    report->n_points = report->n_incomplete = 0;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) { /* UTF-8 byte order mark */
        buf += 3;
        len -= 3;
    }
    for (i = 0; i < len; i++)
        if (!isspace((unsigned char)buf[i]))
            break;
    if (i == len) {
        snprintf(report->msg, sizeof report->msg,
                 "%s: the file is empty: expected sysbench output, a CSV table with a header "
                 "row, or sizeup.point/1 JSON Lines",
                 name);
        return IMPORT_EFORMAT;
    }
    if (fmt == IMPORT_AUTO)
        fmt = import_detect(buf, len);
    switch (fmt) {
    case IMPORT_POINTS:
        return import_points_jsonl(buf, len, name, out, report);
    case IMPORT_SYSBENCH:
        return sysbench_log_parse(buf, len, name, opt, out, report);
    case IMPORT_CSV:
        return table_csv_parse(buf, len, name, opt, out, report);
    case IMPORT_AUTO:
        break;
    }
    snprintf(report->msg, sizeof report->msg,
             "%s:1: not a format sizeup reads: expected sysbench output (\"sysbench 1.0.20 ...\"), "
             "a CSV table with a header row naming threads or nodes, or sizeup.point/1 JSON Lines",
             name);
    return IMPORT_EFORMAT;
}

int import_file(const char *path, const struct import_options *opt, struct point_list *out,
                struct import_report *report)
{
    char *buf = NULL;
    size_t len = 0;
    int rc;

    report->msg[0] = '\0';
    report->n_points = report->n_incomplete = 0;
    rc = readfile(path, IMPORT_MAX_BYTES, &buf, &len, report->msg, sizeof report->msg);
    if (rc != READFILE_OK)
        return rc == READFILE_ENOMEM ? IMPORT_ENOMEM : IMPORT_EIO;
    rc = import_buffer(buf, len, strcmp(path, "-") == 0 ? "<stdin>" : path, opt, out, report);
    free(buf);
    return rc;
}
