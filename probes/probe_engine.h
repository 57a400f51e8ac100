/*
 * probe_engine.h - inside probes/: the event-driven workers of a level (used by probe.c only).
 *
 * A level's N connections are split evenly over W worker threads (connections
 * [id * N / W, (id + 1) * N / W) to worker id). Each worker drives its connections with
 * Connector/C's non-blocking API (mysql_async.h) from one epoll(7) loop: a connection waits for
 * its socket, an arrival time (--rate) or a reconnect backoff, never for a thread. Per
 * connection the run model is probe.h's, as with one thread per connection: closed or open
 * loop, the same statements, draws, retries, reconnects and error classes.
 *
 * Sharing with the aggregator: each worker owns a 64-byte aligned
 * slot with its counters and latency histogram; a worker adds the events it completed in one
 * turn of its loop under the slot's own mutex (one lock per turn, not per event); the
 * aggregator drains every slot each tick. Beside the slot, two relaxed atomics the aggregator
 * reads for the stall rule: when the server last answered one of the worker's connections and
 * how many of them are in an event. Flags set by the aggregator (finish, cut) are atomics in
 * struct engine; it wakes the workers through their eventfds.
 *
 * Thread-safety: as above; the rest of a worker belongs to its thread until joined.
 */
#ifndef SIZEUP_PROBES_PROBE_ENGINE_H
#define SIZEUP_PROBES_PROBE_ENGINE_H

#include "engine_state.h"

#include <stddef.h>
#include <stdint.h>

/**
 * Allocate and initialise a level's engine: `threads` connections over `workers` threads
 * (1 <= workers <= threads), each connection with its generator seeded in sysbench's order from
 * `seed` (main generator 4 values, unique sequence 2, connections 4 each, the arrival generator
 * 4). Nothing is connected yet.
 * @return 0, or -1 out of memory or file descriptors (msg says which).
 */
int engine_init(struct engine *e, const struct probe_config *cfg, unsigned threads,
                unsigned workers, unsigned seed, char *msg, size_t cap);

/** Free what engine_init made (after the workers were joined). */
void engine_destroy(struct engine *e);

/**
 * Start the worker threads (SIGINT and SIGTERM blocked in them). Each connects and prepares its
 * connections, then counts itself ready or failed and waits for the gate (e->go / cancelled).
 * @return the number of threads started (< e->workers when pthread_create failed).
 */
unsigned engine_start(struct engine *e);

/** Wake every worker (after setting finish or cut). */
void engine_wake(struct engine *e);

/** Events and summed event latency of connection i after the workers were joined. */
void engine_conn_totals(const struct engine *e, unsigned i, uint64_t *events, uint64_t *time_ns);

#endif
