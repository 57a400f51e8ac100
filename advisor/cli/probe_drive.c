/* probe_drive.c - the levels of one curve over a probe session (see probe_drive.h). */
#include "probe_drive.h"

#include "cli.h"
#include "curve.h"
#include "sbtables.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

static void say(const struct probe_drive_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void say(const struct probe_drive_opts *o, const char *fmt, ...)
{
    va_list ap;
    if (!o->progress)
        return;
    va_start(ap, fmt);
    vfprintf(o->progress, fmt, ap);
    va_end(ap);
    fflush(o->progress);
}

/* Open and check; 0 or the exit status. */
static int start(struct probe_session *s, const struct probe_drive_opts *o, struct ladder_opts *lo)
{
    int rc = probe_session_open(s);
    if (rc) {
        say(o, "sizeup: %s\n", probe_session_msg(s));
        return rc == -MYCONN_RECONNECT ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
    }
    rc = probe_session_check(s);
    if (rc) {
        say(o, "sizeup: %s\n", probe_session_msg(s));
        return rc == -MYCONN_RECONNECT ? SIZEUP_EXIT_UNREACHABLE : SIZEUP_EXIT_FAIL;
    }
    if (o->auto_threads) {
        unsigned mc = probe_session_max_connections(s);
        /* one connection left for the operator */
        if (mc >= 2 && mc - 1 < lo->max_threads) {
            say(o, "sizeup probe: --max-threads %u capped at %u (max_connections %u - 1)\n",
                lo->max_threads, mc - 1, mc);
            lo->max_threads = mc - 1;
        }
    }
    return 0;
}

int probe_drive(struct probe_session *s, const struct probe_drive_opts *o,
                struct probe_drive_result *res)
{
    struct probe_drive_result tmp;
    struct ladder lad;
    struct ladder_opts lo = o->ladder;
    struct usl_workspace *ws = NULL;
    int told_doubling = 0, rc;
    if (!res)
        res = &tmp;
    memset(res, 0, sizeof *res);
    if ((rc = start(s, o, &lo)) != 0)
        return rc;
    if (o->auto_threads) {
        if (ladder_init(&lad, &lo) != 0 || !(ws = usl_workspace_new())) {
            say(o, "sizeup: %s\n", ws ? "invalid ladder options" : "out of memory");
            usl_workspace_free(ws);
            return SIZEUP_EXIT_FAIL;
        }
    }
    rc = SIZEUP_EXIT_OK;
    for (size_t i = 0;; i++) {
        struct probe_level lv;
        const struct point *before;
        unsigned threads;
        if (o->auto_threads) {
            threads = ladder_next(&lad, ws);
            if (lad.phase != LADDER_DOUBLING && !told_doubling) {
                say(o, "sizeup probe: ladder: doubling ends: %s\n", lad.doubling_why);
                told_doubling = 1;
            }
            say(o, "sizeup probe: ladder: %s%s\n", threads ? "" : "done: ", lad.why);
            if (!threads) {
                res->ladder_done = 1;
                break;
            }
        } else {
            if (i >= o->n_threads)
                break;
            threads = (unsigned)o->threads[i];
        }
        before = o->done ? curve_find_point(o->done, o->target, o->workload, threads) : NULL;
        if (before && !isnan(before->tps)) {
            say(o, "sizeup probe: %u threads: already in %s (%.2f tps), not measured again\n",
                threads, o->done_name ? o->done_name : "the results", before->tps);
            res->taken++;
            if (o->auto_threads)
                ladder_add(&lad, threads, before->tps, point_percentile(before, o->latency_pct));
            continue;
        }
        if (o->auto_threads)
            say(o, "sizeup probe: level %zu (auto, at most %zu): %s, %u thread%s\n", i + 1,
                lo.max_points, o->workload, threads, threads == 1 ? "" : "s");
        else
            say(o, "sizeup probe: level %zu/%zu: %s, %u thread%s\n", i + 1, o->n_threads,
                o->workload, threads, threads == 1 ? "" : "s");
        probe_session_level(s, threads, &lv);
        res->measured++;
        res->attempts += lv.attempts;
        if (lv.status == PROBE_LEVEL_OK || lv.status == PROBE_LEVEL_FLAGGED) {
            if (lv.status == PROBE_LEVEL_FLAGGED) {
                res->flagged++;
                say(o, "sizeup probe: %s\n", probe_session_msg(s));
            }
            /* a level that does not count enters the ladder without a throughput */
            if (o->auto_threads)
                ladder_add(&lad, threads, lv.counts ? lv.tps : NAN, lv.latency_ms);
            continue;
        }
        switch (lv.status) {
        case PROBE_LEVEL_INTERRUPTED:
            say(o, "sizeup: interrupted; the level so far was written, marked interrupted\n");
            rc = SIZEUP_EXIT_INTERRUPTED;
            break;
        case PROBE_LEVEL_UNREACHABLE:
            say(o, "sizeup: %s; later levels were not run\n", probe_session_msg(s));
            rc = SIZEUP_EXIT_UNREACHABLE;
            break;
        default:
            say(o, "sizeup: %s\n", probe_session_msg(s));
            rc = SIZEUP_EXIT_FAIL;
            break;
        }
        break;
    }
    usl_workspace_free(ws);
    return rc;
}
