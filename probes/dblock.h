/*
 * dblock.h - one sizeup run at a time on a database's probe tables: a named lock of the server
 * (GET_LOCK, held by a connection of its own for as long as the run lasts).
 *
 * Two studies or probes on one database would drop and recreate each other's sbtest tables
 * (issue 27.8: the first failed with error 1146, or its level was flagged partial). The lock's
 * name is "sizeup.sbtest/" and the database's name (a name of more than 50 characters: its first
 * 17, '#' and its MD5, within the server's 64),
 * so runs on other databases of the server go on side by side. The server releases the lock when
 * its connection ends, so a run that died (SIGKILL, a crash, the host gone) leaves nothing stale
 * behind: the next run takes it at once. A run that finds it held is refused with the holder
 * named (its connection id, user and host, from information_schema.PROCESSLIST where visible).
 *
 * The parts of a multi-client level (probe run --client I/K) do not take it: their launcher
 * holds it, or they run on hosts that coordinate among themselves.
 *
 * MySQL 5.7+ and MariaDB 10.0+ have GET_LOCK with these semantics; a server without it (another
 * MySQL-protocol engine) is said once and the run goes on unlocked.
 *
 * Thread-safety: a lock belongs to one thread.
 */
#ifndef SIZEUP_PROBES_DBLOCK_H
#define SIZEUP_PROBES_DBLOCK_H

#include "mysql_conn.h"

#include <stddef.h>

struct dblock {
    struct myconn c;                /* holds the lock while open */
    int held;                       /* 1: taken */
    char db[96];                    /* the database the lock is for, as the server named it */
    char name[96];                  /* the lock's name */
    const struct myconn_opts *opts; /* where it was taken (borrowed), for dblock_keep */
};

/* dblock_acquire's return when another run holds the lock. */
#define DBLOCK_HELD 1

/**
 * Take the lock of the database opts connect to, without waiting.
 * @param l    zeroed (or released) by the caller
 * @param msg  on DBLOCK_HELD: who holds it and what to do; on an error: the server's message;
 *             when the server has no GET_LOCK: a note (and 0 is returned, unlocked)
 * @return 0 (l->held 1, or 0 for a server without named locks: msg says so), DBLOCK_HELD, or
 *         -(myconn class) when the server could not be asked (-MYCONN_RECONNECT: unreachable).
 */
int dblock_acquire(struct dblock *l, const struct myconn_opts *opts, char *msg, size_t cap);

/**
 * Between levels: the lock is still this run's (its connection answers and holds it). When the
 * connection ended (a server restart, a killed connection) it is taken again (msg says so, 0),
 * unless another run has it by now.
 * @return 0 (held; msg non-empty when taken again), DBLOCK_HELD (another run took it: msg says
 *         who; stop), or -(myconn class) (the server cannot be asked: msg says why).
 */
int dblock_keep(struct dblock *l, char *msg, size_t cap);

/** Release the lock (close its connection). NULL-safe; a lock not taken is left as it is. */
void dblock_release(struct dblock *l);

#endif
