/* fuzz_table_csv.c - libFuzzer target: the table readers on arbitrary bytes; the first byte
 * picks the dialect when it is 0-3 (CSV, TSV, Markdown, gnuplot) and the rest is the file;
 * any other input (the seed tables) is read as CSV whole. */
#include "fuzz_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const enum import_format dialects[] = {IMPORT_CSV, IMPORT_TSV, IMPORT_MARKDOWN,
                                                  IMPORT_GNUPLOT};
    if (size > 0 && data[0] < 4)
        return fuzz_import_one(dialects[data[0]], data + 1, size - 1);
    return fuzz_import_one(IMPORT_CSV, data, size);
}
