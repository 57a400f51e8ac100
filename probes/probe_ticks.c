/* probe_ticks.c - a calibrated level tick by tick (see probe_ticks.h). */
#include "probe_ticks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void add_totals(struct probe_totals *a, const struct probe_totals *d)
{
    a->events += d->events;
    a->reads += d->reads;
    a->writes += d->writes;
    a->other += d->other;
    a->errors += d->errors;
    a->reconnects += d->reconnects;
}

void ticks_destroy(struct ticks *c)
{
    if (c->batch)
        for (size_t b = 0; b < c->cap / PROBE_MSER_M + 1; b++)
            hist_free(c->batch[b]);
    free(c->batch);
    free(c->tps);
    free(c->end_s);
    free(c->tot);
    memset(c, 0, sizeof *c);
}

int ticks_init(struct ticks *c, const struct probe_config *cfg)
{
    memset(c, 0, sizeof *c);
    c->tick_s = cfg->tick_s > 0 ? cfg->tick_s : PROBE_TICK_S;
    /* ticks are never more than max_time / tick (+ the slack the workers run on), since
     * missed ticks are skipped rather than caught up */
    c->cap = (size_t)ceil(cfg->max_time_s / c->tick_s) + 8;
    c->tps = malloc(c->cap * sizeof *c->tps);
    c->end_s = malloc(c->cap * sizeof *c->end_s);
    c->tot = malloc(c->cap * sizeof *c->tot);
    c->batch = calloc(c->cap / PROBE_MSER_M + 1, sizeof *c->batch);
    if (!c->tps || !c->end_s || !c->tot || !c->batch) {
        ticks_destroy(c);
        return -1;
    }
    return 0;
}

/* Record one tick: its end (s since start), length dt (s), counters and latencies. */
int ticks_add(struct ticks *c, double end_s, double dt, const struct probe_totals *d,
              const struct hist *ih)
{
    size_t b;
    if (c->n >= c->cap)
        return -1;
    b = c->n / PROBE_MSER_M;
    if (!c->batch[b] && !(c->batch[b] = hist_new()))
        return -1;
    hist_merge(c->batch[b], ih);
    c->tps[c->n] = dt > 0 ? (double)d->events / dt : 0;
    c->end_s[c->n] = end_s;
    c->tot[c->n] = *d;
    c->n++;
    return 0;
}

int ticks_decide(const struct ticks *c, const struct probe_config *cfg, struct calib_decision *dec)
{
    return calib_decide(c->tps, c->n, c->tick_s, PROBE_MSER_M, cfg->precision, cfg->min_time_s,
                        cfg->max_time_s, dec);
}

/* The kept figures of a calibrated result, from the final decision over every full tick. */
int ticks_finish(const struct ticks *c, const struct probe_config *cfg, struct probe_result *r)
{
    struct calib_decision dec;
    r->calibrated = 1;
    r->ticks = c->n;
    r->ci95_tps = r->rel95 = r->lag1 = NAN;
    if (!(r->kept_hist = hist_new()))
        return -1;
    if (c->n == 0 || ticks_decide(c, cfg, &dec) != CALIB_OK)
        return 0;
    if (r->stalled) { /* every tick kept, never steady: the figures of the whole level */
        dec.cut = 0;
        dec.steady = 0;
        dec.have_est =
            c->n >= CALIB_MIN_BATCHES && calib_batch_means(c->tps, c->n, &dec.est) == CALIB_OK;
    }
    r->cut_ticks = dec.cut;
    r->steady = dec.steady;
    r->warmup_s = dec.cut ? c->end_s[dec.cut - 1] : 0;
    r->kept_s = c->end_s[c->n - 1] - r->warmup_s;
    for (size_t i = dec.cut; i < c->n; i++)
        add_totals(&r->kept, &c->tot[i]);
    for (size_t b = dec.cut / PROBE_MSER_M; b <= (c->n - 1) / PROBE_MSER_M; b++)
        if (c->batch[b])
            hist_merge(r->kept_hist, c->batch[b]);
    if (dec.have_est) {
        r->ci95_tps = dec.est.half95;
        r->rel95 = dec.est.rel95;
        r->lag1 = dec.est.lag1;
    }
    return 0;
}

/* The progress of a calibrated level after a tick: a live line on a terminal. */
void ticks_progress(FILE *f, unsigned threads, const struct ticks *c,
                    const struct calib_decision *dec)
{
    double t = c->end_s[c->n - 1];
    if (dec->have_est)
        fprintf(f, "\rsizeup probe: %u threads, %5.1f s: %.1f tps +/- %.1f %% (warm-up %.2f s)  ",
                threads, t, dec->est.mean, 100 * dec->est.rel95,
                dec->cut ? c->end_s[dec->cut - 1] : 0.0);
    else
        fprintf(f, "\rsizeup probe: %u threads, %5.1f s: %.1f tps (too few ticks for an interval)",
                threads, t, c->tps[c->n - 1]);
    fflush(f);
}
