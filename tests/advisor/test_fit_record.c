/*
 * test_fit_record.c - the sizeup.fit/1 writer: one parseable JSON line per record carrying the
 * fit's figures. Data: tests/models/data vendor curves a and c (from data/published); expected
 * values from tests/models/data/EXPECTED.md (sigma 0.17437, N* 42.31 for curve a; curve c has no
 * peak).
 */
#include "check.h"
#include "fit_record.h"
#include "models/datasets.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct fit_result fr;

/* Fit a dataset and return its record serialised and parsed back (new reference). */
static json_t *roundtrip(const char *name, struct fit_record *rec, const struct dataset *d)
{
    char err[200], *buf = NULL;
    size_t len = 0;
    FILE *mem;
    json_t *o;
    json_error_t jerr;
    if (fit_curve(d->N, d->X, d->n, FIT_AUTO, NULL, &fr, err, sizeof err) != MODEL_OK)
        return NULL;
    memset(rec, 0, sizeof *rec);
    rec->target = name;
    rec->workload = "oltp_legacy";
    rec->x_name = "threads";
    rec->y_name = "qps";
    rec->asked = "auto";
    rec->result = &fr;
    derived_compute(&fr.fits[fr.chosen], &rec->derived);
    mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    CHECK(fit_record_write(mem, rec, err, sizeof err) == 0);
    fclose(mem);
    CHECK(len > 2 && buf[len - 1] == '\n');
    CHECK(memchr(buf, '\n', len - 1) == NULL); /* one line */
    o = json_loadb(buf, len, 0, &jerr);
    free(buf);
    return o;
}

int main(void)
{
    struct dataset d;
    struct fit_record rec;
    json_t *o, *v;
    char err[200];
    FILE *full;

    gsl_set_error_handler_off();
    CHECK(dataset_load("vendor_a_mysql57_4c16g_nvme", &d) == 0);
    o = roundtrip("idc-nvme", &rec, &d);
    CHECK(o != NULL);
    if (o) {
        CHECK_STR_EQ(json_string_value(json_object_get(o, "schema")), "sizeup.fit/1");
        CHECK_STR_EQ(json_string_value(json_object_get(o, "model")), "usl");
        CHECK_INT_EQ(json_integer_value(json_object_get(o, "n_points")), 9);
        v = json_object_get(json_object_get(json_object_get(o, "params"), "sigma"), "value");
        CHECK_NEAR(json_real_value(v), 0.17437, 0.000005);
        v = json_object_get(json_object_get(json_object_get(o, "params"), "kappa"), "ci95");
        CHECK(json_array_size(v) == 2);
        CHECK(json_real_value(json_array_get(v, 0)) > 0);
        v = json_object_get(json_object_get(json_object_get(o, "derived"), "peak"), "x");
        CHECK_NEAR(json_real_value(json_object_get(v, "value")), 42.31, 0.005);
        CHECK(json_array_size(json_object_get(v, "ci95")) == 2);
        v = json_object_get(o, "residuals");
        CHECK(json_array_size(v) == 9);
        /* residual rows give back the measured points */
        for (size_t i = 0; i < json_array_size(v) && i < d.n; i++) {
            json_t *r = json_array_get(v, i);
            CHECK_NEAR(json_real_value(json_object_get(r, "x")), d.N[i], 0);
            CHECK_NEAR_REL(json_real_value(json_object_get(r, "y")), d.X[i], 1e-9);
        }
        CHECK(json_array_size(json_object_get(o, "candidates")) == 3);
        CHECK(json_is_null(json_object_get(o, "config")));
        json_decref(o);
    }
    /* curve c: a plateau, no peak key, no kappa key (Amdahl chosen) */
    CHECK(dataset_load("vendor_c_4c8g_point_select", &d) == 0);
    o = roundtrip("seekdb-4c8g", &rec, &d);
    CHECK(o != NULL);
    if (o) {
        CHECK_STR_EQ(json_string_value(json_object_get(o, "model")), "amdahl");
        CHECK(json_object_get(json_object_get(o, "derived"), "peak") == NULL);
        CHECK(json_is_true(json_object_get(json_object_get(o, "derived"), "plateau")));
        CHECK(json_object_get(json_object_get(o, "params"), "kappa") == NULL);
        json_decref(o);
    }
    /* a write error is reported, not ignored */
    full = fopen("/dev/full", "w");
    if (full) {
        CHECK(fit_record_write(full, &rec, err, sizeof err) == -1);
        CHECK(strstr(err, "write failed") != NULL);
        fclose(full);
    }
    return check_report();
}
