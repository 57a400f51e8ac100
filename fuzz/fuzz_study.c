/* fuzz_study.c - libFuzzer target: the sizeup.study/1 reader (advisor/study/study.h) on arbitrary
 * bytes, through study_load_text (it opens no file the text names). Either it loads a study
 * whose settings are what a run may use (candidates, workloads with finite weights > 0, which
 * the ranking normalises; a latency target > 0, catalogs and an output folder), or it fails with
 * a message naming the input; no crash, no leak. */
#include "study.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct study s;
    char err[2048];
    if (study_load_text("fuzz.json", (const char *)data, size, &s, err, sizeof err) != 0) {
        if (strncmp(err, "fuzz.json", 9) != 0)
            abort(); /* a message that does not name the input */
        return 0;
    }
    for (size_t i = 0; i < s.n_wl; i++) {
        if (!(s.wl[i].weight > 0 && isfinite(s.wl[i].weight)) || !s.wl[i].name || !s.wl[i].name[0])
            abort();
    }
    if (s.n_cand == 0 || s.n_wl == 0 || !(s.target.target_s > 0) || s.n_catalogs == 0 ||
        !s.output || !(s.max_time_s > 0))
        abort();
    for (size_t i = 0; i < s.n_cand; i++)
        if (!s.cand[i].config || !s.cand[i].target)
            abort();
    study_destroy(&s);
    return 0;
}
