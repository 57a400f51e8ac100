/* mva.c - exact mean-value analysis with Seidmann's multi-server stations (see mva.h). */
#include "mva.h"

#include <math.h>

int mva_bottleneck(const struct mva_station *st, size_t k, double *x_max)
{
    int best = -1;
    double dmax = 0;
    for (size_t i = 0; i < k; i++) {
        double d;
        if (st[i].servers == 0)
            continue;
        d = st[i].demand_s / st[i].servers;
        if (best < 0 || d > dmax) {
            best = (int)i;
            dmax = d;
        }
    }
    if (best < 0 || !(dmax > 0)) {
        *x_max = INFINITY;
        return -1; /* no station queues, or none has a demand */
    }
    *x_max = 1 / dmax;
    return best;
}

int mva_solve(const struct mva_station *st, size_t k, double think_s, unsigned n_max, double *x,
              double *r, double *q)
{
    /* the split network: queue part and delay part of each station */
    double dq[MVA_MAX_STATIONS], dd[MVA_MAX_STATIONS], qlen[MVA_MAX_STATIONS];
    double total;
    if (!st || !x || k == 0 || k > MVA_MAX_STATIONS || n_max == 0 || !(think_s >= 0) ||
        !isfinite(think_s))
        return -1;
    total = think_s;
    for (size_t i = 0; i < k; i++) {
        double d = st[i].demand_s, c = st[i].servers;
        if (!(d >= 0) || !isfinite(d) || !(c == 0 || (c >= 1 && isfinite(c))))
            return -1;
        total += d;
        dq[i] = c == 0 ? 0 : d / c;
        dd[i] = c == 0 ? d : d * (c - 1) / c;
        qlen[i] = 0;
    }
    if (!(total > 0))
        return -1; /* no time anywhere: no finite throughput */
    for (unsigned n = 1; n <= n_max; n++) {
        double rq[MVA_MAX_STATIONS], rsum = 0, xn;
        for (size_t i = 0; i < k; i++) {
            rq[i] = dq[i] * (1 + qlen[i]);
            rsum += rq[i] + dd[i];
        }
        xn = n / (think_s + rsum);
        x[n - 1] = xn;
        if (r)
            r[n - 1] = rsum;
        for (size_t i = 0; i < k; i++) {
            qlen[i] = xn * rq[i];
            if (q)
                q[(size_t)(n - 1) * k + i] = qlen[i] + xn * dd[i];
        }
    }
    return 0;
}
