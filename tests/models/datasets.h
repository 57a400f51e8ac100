/*
 * datasets.h - read the N,X CSV files of tests/models/data (copied from
 * the public datasets EXPECTED.md names; expected values in tests/models/data/EXPECTED.md).
 */
#ifndef SIZEUP_TESTS_MODELS_DATASETS_H
#define SIZEUP_TESTS_MODELS_DATASETS_H

#include <stdio.h>
#include <stdlib.h>

#define DATASET_MAX 400

struct dataset {
    size_t n;
    double N[DATASET_MAX], X[DATASET_MAX];
};

/* Load tests/models/data/<name>.csv (one header line, then N,X). Returns 0 or -1. */
static inline int dataset_load(const char *name, struct dataset *d)
{
    char path[256], line[256];
    FILE *f;
    snprintf(path, sizeof path, "tests/models/data/%s.csv", name);
    f = fopen(path, "r");
    d->n = 0;
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return -1;
    }
    while (d->n < DATASET_MAX && fgets(line, sizeof line, f)) {
        char *end;
        d->N[d->n] = strtod(line, &end);
        if (*end != ',')
            continue;
        d->X[d->n] = strtod(end + 1, NULL);
        d->n++;
    }
    fclose(f);
    return 0;
}

#endif
