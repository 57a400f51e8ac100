/* fuzz_workload.c - libFuzzer target: the sizeup.workload/1 reader `rank --require` uses
 * (advisor/rank/workload.h) on arbitrary bytes. Either it reads a record whose figures are what a
 * sizing may use (weights in (0, 1] summing to 1, statistics >= 0, a probe data set >= 1) or it
 * fails with a message naming the input; no crash, no leak. */
#include "workload.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct workload_req q;
    char msg[1024];
    double sum = 0;
    if (workload_read_text("fuzz.json", (const char *)data, size, &q, msg, sizeof msg) != 0) {
        if (strncmp(msg, "fuzz.json", 9) != 0)
            abort(); /* a message that does not name the input */
        return 0;
    }
    for (size_t i = 0; i < q.n; i++) {
        if (!(q.weight[i] > 0 && q.weight[i] <= 1) || !q.workload[i][0])
            abort();
        sum += q.weight[i];
    }
    if (!q.n || fabs(sum - 1) > 1e-3 || !(q.mix_tps.p95 >= 0) || !(q.mix_tps.max >= 0) ||
        q.probe_tables < 1 || q.probe_table_size < 1)
        abort();
    return 0;
}
