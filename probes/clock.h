/*
 * clock.h - the one time source of the probes: CLOCK_MONOTONIC in integer nanoseconds.
 *
 * Every latency, interval and deadline in probes/ is a difference of clock_now_ns() values,
 * so wall-clock steps (NTP, settimeofday) never show up in a measurement.
 *
 * Thread-safety: all functions are safe to call from any thread.
 */
#ifndef SIZEUP_PROBES_CLOCK_H
#define SIZEUP_PROBES_CLOCK_H

#include <stdint.h>

/* Nanoseconds per microsecond, millisecond and second. */
#define CLOCK_NS_PER_US UINT64_C(1000)
#define CLOCK_NS_PER_MS UINT64_C(1000000)
#define CLOCK_NS_PER_S UINT64_C(1000000000)

/**
 * Current value of CLOCK_MONOTONIC in nanoseconds (arbitrary origin, never goes back).
 * CLOCK_MONOTONIC is mandatory on Linux, so clock_gettime cannot fail here; should it ever,
 * the function aborts rather than return a value that would corrupt every latency.
 */
uint64_t clock_now_ns(void);

/**
 * Sleep until CLOCK_MONOTONIC reaches deadline_ns (a clock_now_ns() value). Returns at once
 * when the deadline has passed.
 * @return 0 when the deadline was reached, or -1 when a signal interrupted the sleep (the
 *         caller checks its stop flag and calls again if it wants to keep waiting).
 */
int clock_sleep_until_ns(uint64_t deadline_ns);

/** Convert nanoseconds to milliseconds as a double (ns / 1e6). */
double clock_ns_to_ms(uint64_t ns);

/** Convert nanoseconds to seconds as a double (ns / 1e9). */
double clock_ns_to_s(uint64_t ns);

#endif
