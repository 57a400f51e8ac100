/* fuzz_tools.c - libFuzzer target: the BenchBase, HammerDB and go-tpc readers on arbitrary bytes;
 * the first byte picks the reader when it is 0-2, else the input is auto-detected whole. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum import_format readers[] = {IMPORT_BENCHBASE, IMPORT_HAMMERDB, IMPORT_GOTPC};
    if (size > 0 && data[0] < 3)
        return fuzz_import_one(readers[data[0]], data + 1, size - 1);
    return fuzz_import_one(IMPORT_AUTO, data, size);
}
