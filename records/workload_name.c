/* workload_name.c - the sysbench workload a file name names (import_types.h). */
#include "import_types.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const char *import_workload_from_name(const char *path)
{
    static const char *const names[] = {"oltp_point_select",     "oltp_read_only",
                                        "oltp_read_write",       "oltp_write_only",
                                        "oltp_insert",           "oltp_update_index",
                                        "oltp_update_non_index", "oltp_delete",
                                        "oltp_legacy",           "tpcc",
                                        "select_random_points",  "select_random_ranges",
                                        "bulk_insert",           "fileio_seqwr",
                                        "fileio_seqrewr",        "fileio_seqrd",
                                        "fileio_rndrd",          "fileio_rndwr",
                                        "fileio_rndrw",          NULL};
    static const char *const words[] = {"cpu", "memory", "mutex", "threads", NULL};
    const char *slash = strrchr(path, '/');
    char base[512];
    const char *best = NULL;
    size_t best_len = 0;
    size_t i;
    snprintf(base, sizeof base, "%s", slash ? slash + 1 : path);
    for (i = 0; base[i]; i++)
        base[i] = base[i] == '-' ? '_' : (char)tolower((unsigned char)base[i]);
    for (i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (n > best_len && strstr(base, names[i])) {
            best = names[i];
            best_len = n;
        }
    }
    if (best)
        return best;
    /* the non-OLTP tests only as a whole word of the name ("sysbench-cpu-4t.log", "mutex.log"),
     * never inside another ("cpus", "threads" in "oltp-8threads") */
    for (i = 0; words[i]; i++) {
        size_t n = strlen(words[i]);
        for (const char *at = strstr(base, words[i]); at; at = strstr(at + 1, words[i])) {
            int left = at == base || at[-1] == '_' || at[-1] == '.';
            int right = at[n] == '\0' || at[n] == '_' || at[n] == '.';
            if (left && right)
                return words[i];
        }
    }
    return NULL;
}
