/* fuzz_sysbench_log.c - libFuzzer target: the sysbench output reader on arbitrary bytes. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import_one(IMPORT_SYSBENCH, data, size);
}
