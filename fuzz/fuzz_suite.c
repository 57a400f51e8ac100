/* fuzz_suite.c - libFuzzer target: the query-suite readers (tables, sizeup.suite/1, go-tpc tpch,
 * HammerDB TPROC-H) on arbitrary bytes: a read either succeeds with runs that write as records,
 * or fails with a message and adds nothing. */
#include "suite.h"

#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct suite_list l;
    char err[512] = "";
    FILE *null = fopen("/dev/null", "w");
    int rc;
    suite_list_init(&l);
    rc = suite_read_buffer((const char *)data, size, "fuzz.input", NULL, &l, err, sizeof err);
    if (rc != SUITE_OK && (l.n != 0 || err[0] == '\0'))
        __builtin_trap();
    for (size_t i = 0; rc == SUITE_OK && null && i < l.n; i++)
        if (suite_write(null, &l.items[i], err, sizeof err) != 0)
            __builtin_trap();
    suite_list_destroy(&l);
    if (null)
        fclose(null);
    return 0;
}
