/* clock.c - CLOCK_MONOTONIC in integer nanoseconds. */
#include "clock.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

uint64_t clock_now_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        abort();
    return (uint64_t)ts.tv_sec * CLOCK_NS_PER_S + (uint64_t)ts.tv_nsec;
}

int clock_sleep_until_ns(uint64_t deadline_ns)
{
    struct timespec ts;
    int rc;
    ts.tv_sec = (time_t)(deadline_ns / CLOCK_NS_PER_S);
    ts.tv_nsec = (long)(deadline_ns % CLOCK_NS_PER_S);
    rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    if (rc == EINTR)
        return -1;
    return 0;
}

double clock_ns_to_ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

double clock_ns_to_s(uint64_t ns)
{
    return (double)ns / 1e9;
}
