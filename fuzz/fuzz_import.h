/*
 * fuzz_import.h - the body the import fuzz targets share: read arbitrary bytes as one format
 * (or auto-detected), then check the reader's contract: whatever was read writes as a valid
 * record, a failed read appends nothing (all or nothing) and says why. A broken contract traps.
 */
#ifndef SIZEUP_FUZZ_IMPORT_H
#define SIZEUP_FUZZ_IMPORT_H

#include "import.h"
#include "point.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

static inline int fuzz_import_one(enum import_format fmt, const uint8_t *data, size_t size)
{
    struct point_list l;
    struct import_report rep;
    struct import_options opt = {.format = fmt};
    struct point_error err;
    int rc;
    FILE *null = fopen("/dev/null", "w");
    point_list_init(&l);
    rc = import_buffer((const char *)data, size, "fuzz.input", &opt, &l, &rep);
    if (rc >= 0 && null)
        for (size_t i = 0; i < l.n; i++)
            if (point_write(null, &l.items[i], &err) != POINT_OK)
                __builtin_trap();
    if (rc < 0 && (l.n != 0 || rep.msg[0] == '\0'))
        __builtin_trap();
    if (rc == IMPORT_WARN && rep.msg[0] == '\0')
        __builtin_trap();
    point_list_destroy(&l);
    if (null)
        fclose(null);
    return 0;
}

#endif
