/* confirm.c - the open-loop confirmation of a closed-loop answer (confirm.h). */
#include "confirm.h"

#include "dblock.h"
#include "session.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The target's statistic of p, ms. */
static double statistic_ms(const struct slo *target, const struct point *p)
{
    return target->pct > 0 ? point_latency_pct(p, target->pct, NULL) : p->latency_ms.avg;
}

int drive_confirm_held(const struct slo *target, const struct point *p)
{
    double lo = statistic_ms(target, p);
    return isfinite(lo) && lo <= target->target_s * 1e3;
}

void drive_confirm_line(const struct slo *target, const struct point *p, const char *earlier,
                        char *line, size_t cap)
{
    const json_t *cl = p->options ? json_object_get(p->options, "confirm") : NULL;
    double n = json_number_value(json_object_get(cl, "closed_loop_threads"));
    double lc = json_number_value(json_object_get(cl, "closed_loop_latency_ms"));
    double lo = statistic_ms(target, p);
    int held = drive_confirm_held(target, p);
    char slo[SLO_TEXT_MAX], stat[16];
    slo_format(target, slo, sizeof slo);
    if (target->pct > 0)
        snprintf(stat, sizeof stat, "p%g", target->pct);
    else
        snprintf(stat, sizeof stat, "avg");
    snprintf(line, cap,
             "%sopen loop at %.1f tps (the closed loop's answer at %s), Poisson arrivals over %lld "
             "connections for %.0f s: %s %.2f ms at %.1f tps, the target %s%s; closed loop: %s "
             "%.2f ms at %.1f threads%s",
             earlier, p->rate, slo, (long long)p->threads, p->duration_s, stat, lo, p->tps,
             held ? "held" : "was NOT held",
             held ? "" : " (production traffic arrives open loop: size for less)", stat, lc, n,
             p->n_flags ? " (the run was flagged: read it with care)" : "");
}

/* The session's status after a failed open or check. */
static enum drive_status failed(int rc)
{
    return rc == -MYCONN_RECONNECT ? DRIVE_UNREACHABLE : DRIVE_FAIL;
}

enum drive_status drive_confirm_run(const struct probe_config *cfg0, const char *target,
                                    const char *config, const struct slo *slo,
                                    const struct confirm_answer *a, double time_s,
                                    const char *out_path, FILE *progress, char *line, size_t cap)
{
    struct probe_config cfg = *cfg0;
    struct probe_session_opts so;
    struct probe_session *ps;
    struct probe_level lv;
    struct dblock lock;
    enum probe_level_status st;
    enum drive_status rc = DRIVE_OK;
    unsigned conns = DRIVE_CONFIRM_CONNS(a->threads);
    char err[600];
    json_t *opts;
    int orc;

    memset(&lock, 0, sizeof lock);
    cfg.precision = 0;
    cfg.time_s = time_s;
    cfg.events = 0;
    cfg.rate = a->tps;
    opts = json_pack("{s:{s:f,s:f,s:f}}", "confirm", "closed_loop_tps", a->tps,
                     "closed_loop_threads", a->threads, "closed_loop_latency_ms", a->latency_ms);
    memset(&so, 0, sizeof so);
    so.cfg = &cfg;
    so.target = target;
    so.config = config;
    so.tool = "sizeup " SIZEUP_VERSION;
    so.out_path = out_path;
    so.options = opts;
    so.give_up_s = cfg.give_up_s;
    so.latency = *slo;
    so.recheck_tables = 1;
    ps = opts ? probe_session_new(&so, err, sizeof err) : NULL;
    if (!ps) {
        snprintf(line, cap, "not run: %s", opts ? err : "out of memory");
        json_decref(opts);
        return DRIVE_FAIL;
    }
    if ((orc = probe_session_open(ps)) != 0 || (orc = probe_session_check(ps)) != 0) {
        snprintf(line, cap, "not run: %s", probe_session_msg(ps));
        rc = failed(orc);
    } else if (dblock_acquire(&lock, &cfg.conn, err, sizeof err) != 0) {
        snprintf(line, cap, "not run: %s", err);
        rc = DRIVE_FAIL;
    } else {
        fprintf(progress,
                "sizeup: confirm %s open loop at %.1f tps (Poisson arrivals) over %u connections, "
                "%.0f s\n",
                target, cfg.rate, conns, cfg.time_s);
        st = probe_session_level(ps, conns, &lv);
        if ((st == PROBE_LEVEL_OK || st == PROBE_LEVEL_FLAGGED) && lv.record) {
            drive_confirm_line(slo, lv.record, "", line, cap);
        } else {
            snprintf(line, cap, "the open-loop run failed (%s): nothing confirmed",
                     probe_session_msg(ps));
            rc = st == PROBE_LEVEL_INTERRUPTED   ? DRIVE_INTERRUPTED
                 : st == PROBE_LEVEL_UNREACHABLE ? DRIVE_UNREACHABLE
                                                 : DRIVE_FAIL;
        }
    }
    dblock_release(&lock);
    probe_session_free(ps);
    json_decref(opts);
    return rc;
}
