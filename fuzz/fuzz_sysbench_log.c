/* fuzz_sysbench_log.c - libFuzzer target: the sysbench output parser on arbitrary bytes. */
#include "fuzz_import.h"
#include "sysbench_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import_one(sysbench_log_parse, data, size);
}
