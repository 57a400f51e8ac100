/*
 * disk_stop.h - the warm-up cut and precision stop of the disk probes (batch means).
 *
 * The rule, small on purpose (the general calibration of all probes comes later and will
 * replace it):
 *   1. Time is cut into batches of at least --interval (default 1 s; each batch starts when
 *      the previous one was collected, so a late wake-up lengthens one batch). Batches are
 *      dropped until the dropped time reaches --warmup (default 1 s, i.e. the first batch):
 *      they hold thread start-up and the first touches of the device's queues and caches.
 *   2. Each kept batch gives one IOPS value x_i (I/Os completed in the batch / its length).
 *      With n kept batches, mean m and sample standard deviation s, the 95 % confidence
 *      interval of the mean IOPS by the method of batch means (Law & Kelton, "Simulation
 *      Modeling and Analysis", 3rd ed., section 9.5.3) has half-width
 *          h = t(0.975, n - 1) * s / sqrt(n).
 *   3. The probe stops early once n >= DISK_STOP_MIN_BATCHES, the measured time is at least
 *      --min-time, and h / m <= --precision (default 2 %); otherwise it stops when the
 *      measured time reaches --time (or, when not one I/O has completed by then because the
 *      device stalled, when the first completes, at most 60 s later). The point is "steady"
 *      when h / m <= precision at the end.
 * Batches of 1 s are long against one I/O (microseconds to milliseconds), so consecutive
 * batch means are close to independent, which the t interval assumes.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_PROBES_DISK_STOP_H
#define SIZEUP_PROBES_DISK_STOP_H

#include <stddef.h>

/* Fewest kept batches before the precision stop may end a run. */
#define DISK_STOP_MIN_BATCHES 5

/**
 * Two-sided 95 % quantile of Student's t distribution, t(0.975, df).
 * df 1..30 from the standard table (Abramowitz & Stegun, table 26.10, to 3 decimals); above 30
 * the Cornish-Fisher expansion z + (z^3 + z)/(4 df) + (5 z^5 + 16 z^3 + 3 z)/(96 df^2) with
 * z = 1.959964 (A&S 26.7.5), within 0.001 of the exact value for df > 30.
 * @param df  degrees of freedom, >= 1
 * @return the quantile, or NAN when df is 0.
 */
double disk_stop_t975(size_t df);

/**
 * Mean and 95 % confidence half-width of the mean of n batch values (formula above).
 * @param x     batch values (IOPS), n of them
 * @param mean  out: arithmetic mean (NAN when n == 0)
 * @param half  out: t(0.975, n-1) * s / sqrt(n), or NAN when n < 2
 * @return 0, or -1 when n == 0.
 */
int disk_stop_ci95(const double *x, size_t n, double *mean, double *half);

/**
 * Whether the kept batches are precise enough: n >= DISK_STOP_MIN_BATCHES, mean > 0 and
 * half / mean <= precision.  The --min-time condition is the caller's (it knows the time).
 * @param precision  relative half-width asked for, in (0, 1], e.g. 0.02
 * @return 1 when precise enough, else 0.
 */
int disk_stop_precise(const double *x, size_t n, double precision);

#endif
