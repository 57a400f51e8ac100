/* hist_json.c - a latency histogram as lossless JSON (see hist_json.h). */
#include "hist_json.h"

#include <limits.h>
#include <string.h>

static const char *const keys[] = {"unit",   "sub_buckets", "lowest_ns", "highest_ns",
                                   "count",  "underflow",   "overflow",  "min_ns",
                                   "max_ns", "sum_ns",      "buckets",   NULL};

json_t *hist_json_new(const struct hist *h)
{
    json_t *o =
        json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:I}", "unit", "ns", "sub_buckets",
                  (json_int_t)HIST_SUB_BUCKETS, "lowest_ns", (json_int_t)HIST_LOWEST_NS,
                  "highest_ns", (json_int_t)HIST_HIGHEST_NS, "count", (json_int_t)h->count,
                  "underflow", (json_int_t)h->underflow, "overflow", (json_int_t)h->overflow);
    json_t *b = json_array();
    int rc = 0;
    if (!o || !b) {
        json_decref(o);
        json_decref(b);
        return NULL;
    }
    if (h->count > 0) {
        rc |= json_object_set_new(o, "min_ns", json_integer((json_int_t)h->min_ns));
        rc |= json_object_set_new(o, "max_ns", json_integer((json_int_t)h->max_ns));
        rc |= json_object_set_new(o, "sum_ns", json_integer((json_int_t)h->sum_ns));
    }
    for (int i = 0; i < HIST_N_BUCKETS && !rc; i++) {
        if (h->buckets[i] == 0)
            continue;
        rc |= json_array_append_new(
            b, json_pack("[II]", (json_int_t)hist_bucket_lower_ns(i), (json_int_t)h->buckets[i]));
    }
    rc |= json_object_set_new(o, "buckets", b);
    if (rc) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/* An integer member >= 0 as uint64 (required unless dflt_ok). */
static int get_u64(struct jr *r, const json_t *o, const char *key, int required, uint64_t *out)
{
    long long v = 0;
    int rc = jr_get_int(r, o, key, required ? JR_REQUIRED : 0, 0, LLONG_MAX, 0, &v);
    *out = (uint64_t)v;
    return rc;
}

int hist_json_read(struct jr *r, const json_t *o, struct hist *out)
{
    const json_t *b;
    const char *unit;
    uint64_t sub, lo, hi, sum_counts;
    size_t i;
    json_t *pair;
    int prev = -1, rc;
    hist_reset(out);
    if (!json_is_object(o))
        return jr_fail(r, "expected an object (a lossless latency histogram), got %s",
                       jr_type_name(o));
    if ((rc = jr_check_keys(r, o, keys)) != JR_OK)
        return rc;
    unit = json_string_value(json_object_get(o, "unit"));
    if (!unit || strcmp(unit, "ns") != 0)
        return jr_fail_key(r, "unit", "expected \"ns\"");
    if ((rc = get_u64(r, o, "sub_buckets", 1, &sub)) || (rc = get_u64(r, o, "lowest_ns", 1, &lo)) ||
        (rc = get_u64(r, o, "highest_ns", 1, &hi)))
        return rc;
    if (sub != HIST_SUB_BUCKETS || lo != HIST_LOWEST_NS || hi != HIST_HIGHEST_NS)
        return jr_fail(r,
                       "a histogram of another layout (%llu sub-buckets over [%llu, %llu) ns); "
                       "this sizeup reads %u over [%llu, %llu) ns",
                       (unsigned long long)sub, (unsigned long long)lo, (unsigned long long)hi,
                       HIST_SUB_BUCKETS, (unsigned long long)HIST_LOWEST_NS,
                       (unsigned long long)HIST_HIGHEST_NS);
    if ((rc = get_u64(r, o, "count", 1, &out->count)) ||
        (rc = get_u64(r, o, "underflow", 1, &out->underflow)) ||
        (rc = get_u64(r, o, "overflow", 1, &out->overflow)))
        return rc;
    if (out->count > 0) {
        if ((rc = get_u64(r, o, "min_ns", 1, &out->min_ns)) ||
            (rc = get_u64(r, o, "max_ns", 1, &out->max_ns)) ||
            (rc = get_u64(r, o, "sum_ns", 1, &out->sum_ns)))
            return rc;
        if (out->min_ns > out->max_ns)
            return jr_fail_key(r, "min_ns", "expected min_ns <= max_ns");
    }
    b = json_object_get(o, "buckets");
    if (!json_is_array(b))
        return jr_fail_key(r, "buckets", "expected an array of [lower_ns, count] pairs");
    sum_counts = out->underflow + out->overflow;
    json_array_foreach(b, i, pair)
    {
        const json_t *l = json_array_get(pair, 0), *c = json_array_get(pair, 1);
        int k;
        size_t n = jr_push_key(r, "buckets");
        jr_push_index(r, i);
        if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(l) ||
            !json_is_integer(c) || json_integer_value(l) < 0 || json_integer_value(c) <= 0) {
            rc = jr_fail(r, "expected [lower_ns, count] with count > 0");
        } else {
            k = hist_bucket_index((uint64_t)json_integer_value(l));
            if (k < 0 || hist_bucket_lower_ns(k) != (uint64_t)json_integer_value(l))
                rc = jr_fail(r, "%lld ns is not the lower bound of a bucket",
                             (long long)json_integer_value(l));
            else if (k <= prev)
                rc = jr_fail(r, "buckets must be in increasing order, each once");
            else {
                out->buckets[k] = (uint64_t)json_integer_value(c);
                sum_counts += out->buckets[k];
                prev = k;
            }
        }
        jr_pop(r, n);
        if (rc) {
            hist_reset(out);
            return rc;
        }
    }
    if (sum_counts != out->count) {
        rc = jr_fail_key(r, "count",
                         "expected count = underflow + overflow + the buckets' counts (%llu), "
                         "got %llu",
                         (unsigned long long)sum_counts, (unsigned long long)out->count);
        hist_reset(out);
        return rc;
    }
    if (out->count == 0)
        out->min_ns = UINT64_MAX;
    return JR_OK;
}
