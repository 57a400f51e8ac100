/*
 * mva.h - mean-value analysis of a closed queueing network: the throughput and response time a
 * server gives at each concurrency N from the demands one transaction puts on its resources
 * (a CPU with c cores, a disk with its IOPS limit), the model behind "what does this workload
 * do on another disk or another size".
 *
 * Exact MVA (Reiser & Lavenberg, "Mean-Value Analysis of Closed Multichain Queuing Networks",
 * JACM 27(2), 1980; Lazowska et al., "Quantitative System Performance", 1984, ch. 6) for
 * single-server queueing stations and delay (infinite-server) stations, with N customers and a
 * think time Z:
 *     R_k(n) = D_k (1 + Q_k(n-1))   (queueing station)     R_k(n) = D_k   (delay station)
 *     X(n)   = n / (Z + sum_k R_k(n))                       Q_k(n) = X(n) R_k(n)
 * A station of c > 1 identical servers is taken by Seidmann's approximation (Seidmann, Schweitzer
 * & Shalev-Oded, "Computerized closed queueing network models of flexible manufacturing
 * systems", Large Scale Systems 12, 1987; Menascé, Almeida & Dowdy, "Performance by Design",
 * 2004, ch. 15): a single-server queue of demand D/c in series with a delay of D (c - 1) / c. It
 * is exact at n = 1 (response D) and as n grows (throughput c / D) and within a few per cent
 * between for the c of a database host.
 *
 * Units: demands and times in seconds per transaction, throughput in transactions per second.
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_MODELS_MVA_H
#define SIZEUP_MODELS_MVA_H

#include <stddef.h>

/* One resource of the server. */
struct mva_station {
    double demand_s; /* service demand of one transaction, s (visits x service time), >= 0 */
    double servers;  /* 1 = a single-server queue; c > 1 = c servers (Seidmann's split, which
                      * takes a c that is not whole too); 0 = a delay; (0, 1) is refused */
};

/* Most stations of one network (before Seidmann's split). */
#define MVA_MAX_STATIONS 16

/**
 * Solve the network for n = 1..n_max customers.
 * @param st, k    the stations (k <= MVA_MAX_STATIONS), demands finite and >= 0, servers 0 or
 *                 >= 1
 * @param think_s  think time Z, s (>= 0)
 * @param n_max    largest population (>= 1)
 * @param x        out: x[n-1] = throughput at n customers, transactions/s (n_max values)
 * @param r        out: r[n-1] = response time at n (without Z), s; may be NULL
 * @param q        out: q[(n-1) k + i] = customers at station i (a multi-server station's queue
 *                 and delay parts added), n_max x k values; may be NULL
 * @return 0, or -1 for a bad argument (nothing written; also when Z and every demand are 0, which
 *         has no finite throughput). Memory: O(k), no allocation.
 */
int mva_solve(const struct mva_station *st, size_t k, double think_s, unsigned n_max, double *x,
              double *r, double *q);

/**
 * The bottleneck: the station with the largest demand per server (D / c; a delay station never
 * binds). Its throughput bound 1 / max(D / c) into *x_max (INFINITY when no station queues).
 * @return its index, or -1 when no station queues or none has a demand > 0.
 */
int mva_bottleneck(const struct mva_station *st, size_t k, double *x_max);

#endif
