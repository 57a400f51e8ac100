/* fuzz_table_csv.c - libFuzzer target: the CSV table reader on arbitrary bytes. */
#include "fuzz_import.h"
#include "table_csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_import_one(table_csv_parse, data, size);
}
