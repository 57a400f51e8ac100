/* fuzz_table_csv.c - libFuzzer target: the CSV table reader on arbitrary bytes. */
#include "point.h"
#include "table_csv.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct point_list l;
    struct import_report rep;
    struct point_error err;
    int rc;
    FILE *null = fopen("/dev/null", "w");
    point_list_init(&l);
    rc = table_csv_parse((const char *)data, size, "fuzz.csv", NULL, &l, &rep);
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
