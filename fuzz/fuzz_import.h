/*
 * fuzz_import.h - the body the import fuzz targets share: parse arbitrary bytes with one of the
 * import parsers, then check its contract: whatever parsed writes as a valid record, and a
 * failed parse appends nothing (all or nothing). A broken contract traps.
 */
#ifndef SIZEUP_FUZZ_IMPORT_H
#define SIZEUP_FUZZ_IMPORT_H

#include "import.h"
#include "point.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef int (*fuzz_parse_fn)(const char *buf, size_t len, const char *name,
                             const struct import_options *opt, struct point_list *out,
                             struct import_report *report);

static inline int fuzz_import_one(fuzz_parse_fn parse, const uint8_t *data, size_t size)
{
    struct point_list l;
    struct import_report rep;
    struct point_error err;
    int rc;
    FILE *null = fopen("/dev/null", "w");
    point_list_init(&l);
    rc = parse((const char *)data, size, "fuzz.input", NULL, &l, &rep);
    if (rc >= 0 && null)
        for (size_t i = 0; i < l.n; i++)
            if (point_write(null, &l.items[i], &err) != POINT_OK)
                __builtin_trap();
    if (rc < 0 && l.n != 0)
        __builtin_trap();
    point_list_destroy(&l);
    if (null)
        fclose(null);
    return 0;
}

#endif
