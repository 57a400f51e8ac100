/* fuzz_pgbench.c - libFuzzer target: the pgbench reader (printed output and -l logs) on arbitrary
 * bytes. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import_one(IMPORT_PGBENCH, data, size);
}
