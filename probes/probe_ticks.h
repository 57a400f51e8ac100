/*
 * probe_ticks.h - inside probes/: the aggregator's record of a calibrated level, tick by tick
 * (throughput, counters, one latency histogram per MSER batch), the stopping rule asked after
 * each tick (calib.h), and the kept figures of the final decision. Used by probe.c only.
 *
 * Thread-safety: owned by the aggregating thread.
 */
#ifndef SIZEUP_PROBES_PROBE_TICKS_H
#define SIZEUP_PROBES_PROBE_TICKS_H

#include "calib.h"
#include "probe_types.h"

#include <stdio.h>

struct ticks {
    double tick_s;
    size_t cap, n;            /* ticks: capacity, measured */
    double *tps;              /* throughput of each tick */
    double *end_s;            /* end of each tick, s since the start (measured, not nominal) */
    struct probe_totals *tot; /* counters of each tick */
    struct hist **batch;      /* latencies of each MSER batch of PROBE_MSER_M ticks */
};

/** Allocate for the ticks of cfg->max_time_s (+ slack). @return 0 or -1 (out of memory). */
int ticks_init(struct ticks *c, const struct probe_config *cfg);

/** Free; leaves c zeroed. */
void ticks_destroy(struct ticks *c);

/**
 * Record one tick ending end_s (s since the start), dt_s long, with its counters and latencies.
 * @return 0, or -1 when out of room or memory.
 */
int ticks_add(struct ticks *c, double end_s, double dt_s, const struct probe_totals *d,
              const struct hist *ih);

/** calib_decide() over the ticks so far. */
int ticks_decide(const struct ticks *c, const struct probe_config *cfg, struct calib_decision *dec);

/**
 * The kept figures of r (calibrated, ticks, cut, warm-up, kept counters and histogram, interval)
 * from the final decision; a stalled level (r->stalled) keeps every tick and is not steady.
 * @return 0, or -1 out of memory.
 */
int ticks_finish(const struct ticks *c, const struct probe_config *cfg, struct probe_result *r);

/** A live progress line after a tick (a terminal). */
void ticks_progress(FILE *f, unsigned threads, const struct ticks *c,
                    const struct calib_decision *dec);

#endif
