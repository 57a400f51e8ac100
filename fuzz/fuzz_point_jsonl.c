/* fuzz_point_jsonl.c - libFuzzer target: the strict sizeup.point/1 reader (records/point.h) on
 * arbitrary bytes. A line either reads into a point, which then writes as one whole line that
 * reads back (the server block, per_tx and every other member included) and copies, or fails
 * with a message naming the input; no crash, no leak. */
#include "point.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    struct point_reader *r;
    struct point p, q, c;
    struct point_error err;
    int rc;
    if (!in || size == 0) {
        if (in)
            fclose(in);
        return 0;
    }
    r = point_reader_new(in, "fuzz.input");
    point_init(&p);
    point_init(&q);
    point_init(&c);
    while (r && (rc = point_reader_next(r, &p, &err)) == 1) {
        char *buf = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&buf, &len);
        struct point_reader *back;
        if (!out)
            break;
        rc = point_write(out, &p, &err);
        fclose(out);
        if (rc == POINT_OK) {
            FILE *again = fmemopen(buf, len, "r");
            back = again ? point_reader_new(again, "rewritten") : NULL;
            /* what was read and written reads back */
            if (back && point_reader_next(back, &q, &err) != 1)
                __builtin_trap();
            if (back && point_has_server(&p) != point_has_server(&q))
                __builtin_trap();
            point_reader_free(back);
            if (again)
                fclose(again);
        }
        free(buf);
        if (point_copy(&c, &p) != POINT_OK)
            break;
    }
    if (r && rc < 0 && err.msg[0] == '\0')
        __builtin_trap(); /* a failure always says why */
    point_destroy(&p);
    point_destroy(&q);
    point_destroy(&c);
    point_reader_free(r);
    fclose(in);
    return 0;
}
