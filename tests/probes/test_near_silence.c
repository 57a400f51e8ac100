/*
 * test_near_silence.c - probe_near_silence_s (probes/probe.h): the trickle that flags a level
 * `stalled` as a silence does (issue 27.14, "Faults under load").
 *
 * The tick series are those of the fault campaign on this repository's build at load average
 * 16-21 (bench/run-faults.sh --minutes 5 --seed 7, ticks of 0.25 s): a level frozen by SIGSTOP,
 * the re-measure after its thaw (a 0.5 s dip: the loaded machine, not an outage), and the issue's
 * level that ran at 3,832 tps and then answered 0-46 tps. Expected values are the stretches'
 * lengths counted by hand: ticks below 5 % (PROBE_NEAR_ZERO) of the best second before them.
 */
#include "check.h"
#include "probe.h"

#include <stdlib.h>

/* A series of n ticks of tick_s each, their tps and (optionally) errors per second. */
static struct point_interval *series(const double *tps, const double *err, size_t n, double tick_s)
{
    struct point_interval *s = calloc(n ? n : 1, sizeof *s);
    for (size_t i = 0; s && i < n; i++) {
        s[i] = point_interval_none();
        s[i].t_s = tick_s * (double)(i + 1);
        s[i].tps = tps[i];
        s[i].errors_ps = err ? err[i] : 0;
    }
    return s;
}

static double near(const double *tps, const double *err, size_t n, double tick_s)
{
    struct point_interval *s = series(tps, err, n, tick_s);
    double v = probe_near_silence_s(s, n);
    free(s);
    return v;
}

#define N(a) (sizeof(a) / sizeof(a)[0])

int main(void)
{
    /* the campaign's probe-1.jsonl:5, 4 threads frozen 1.2 s in: seven ticks of 0 at the end */
    static const double frozen[] = {456, 304, 340, 388, 228, 0, 0, 0, 0, 0, 0, 0};
    /* its probe-3.jsonl:2, the re-measure after a thaw: two ticks of 0 (0.5 s) */
    static const double dip[] = {470, 642, 920, 576, 596, 197, 0, 0, 168, 628};
    /* the level: 3,832 tps for 2 s, then 0-46 tps for 1.5 s (answers every tick, so no
     * silence), then back */
    static const double trickle[] = {3790, 3870, 3810, 3850, 3800, 3860, 3820, 3840, 46,
                                     12,   0,    31,   8,    0,    3900, 3810, 3850, 3830};
    /* the same trickle, 1.0 s long: under PROBE_SILENCE_FLAG_S */
    static const double short_trickle[] = {3790, 3870, 3810, 3850, 46, 12, 0, 31, 3900, 3810};
    /* a cold start (what the MSER cut is for): low before it ever ran higher */
    static const double ramp[] = {0, 5, 20, 40, 90, 300, 900, 2000, 3000, 3800, 3820, 3810};
    /* 1 s report intervals of a fixed level, 1 thread, a 1 s lock wait timed out twice
     * (test_probe_faults' ignorable 1205 case): the waits end with an error's answer */
    static const double lock[] = {180, 0, 1, 170, 175};
    static const double lock_err[] = {0, 0, 1, 0, 0};
    static const double lock_after[] = {180, 0, 0, 120, 175};
    static const double lock_after_err[] = {0, 0, 0, 1, 0};
    /* a slow open loop (--rate 2): its gaps are chance, no trickle */
    static const double slow[] = {3, 1, 4, 0, 0, 0, 2, 5, 0, 0};
    /* a trickle still going on at the level's end counts */
    static const double at_end[] = {900, 880, 910, 905, 20, 0, 0, 10, 0, 0};

    CHECK_NEAR(near(frozen, NULL, N(frozen), 0.25), 1.75, 1e-9);
    CHECK_NEAR(near(dip, NULL, N(dip), 0.25), 0.5, 1e-9);
    CHECK_NEAR(near(trickle, NULL, N(trickle), 0.25), 1.5, 1e-9);
    CHECK(near(trickle, NULL, N(trickle), 0.25) >= PROBE_SILENCE_FLAG_S);
    CHECK_NEAR(near(short_trickle, NULL, N(short_trickle), 0.25), 1.0, 1e-9);
    CHECK(near(short_trickle, NULL, N(short_trickle), 0.25) < PROBE_SILENCE_FLAG_S);
    CHECK_NEAR(near(ramp, NULL, N(ramp), 0.25), 0.0, 1e-12);
    CHECK_NEAR(near(lock, lock_err, N(lock), 1.0), 0.0, 1e-12);
    CHECK_NEAR(near(lock_after, lock_after_err, N(lock_after), 1.0), 0.0, 1e-12);
    /* without the errors' answers the same intervals are a 2 s trickle */
    CHECK_NEAR(near(lock_after, NULL, N(lock_after), 1.0), 2.0, 1e-9);
    CHECK_NEAR(near(slow, NULL, N(slow), 1.0), 0.0, 1e-12);
    CHECK_NEAR(near(at_end, NULL, N(at_end), 0.25), 1.5, 1e-9);
    CHECK_NEAR(probe_near_silence_s(NULL, 0), 0.0, 1e-12);
    return check_report();
}
