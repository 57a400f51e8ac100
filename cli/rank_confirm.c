/* rank_confirm.c - `sizeup rank --confirm` (rank_confirm.h). */
#include "rank_confirm.h"

#include "cli.h"
#include "commands.h"
#include "confirm.h"
#include "curve.h"

#include <math.h>
#include <string.h>

/* The open-loop run's length when the record says none, s. */
#define RANK_CONFIRM_TIME_S 10.0

/* A record `sizeup probe` measured of config and workload (the last that counts), or NULL. */
static const struct point *probe_record(const struct point_list *pts, const char *config,
                                        const char *workload, const struct rank_map *maps,
                                        size_t n_maps)
{
    const struct point *found = NULL;
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        if (p->source_kind == POINT_SRC_PROBE && p->options && json_is_object(p->options) &&
            p->tool && strncmp(p->tool, "sizeup ", 7) == 0 && p->workload &&
            strcmp(p->workload, workload) == 0 && curve_point_counts(p) &&
            strcmp(rank_point_config(p, maps, n_maps), config) == 0)
            found = p;
    }
    return found;
}

int rank_confirm(const struct ranking *rk, const struct point_list *pts,
                 const struct rank_map *maps, size_t n_maps, const char *out_path, FILE *out)
{
    const struct rank_set *s = &rk->set;
    const struct rank_row *w = s->n && s->rows[0].rank == 1 ? &s->rows[0] : NULL;
    const char *workload = s->opt.mix[0].workload;
    const struct point *rec;
    struct confirm_answer a;
    struct probe_cli *pc;
    const struct probe_config *cfg;
    char line[1200];
    double time_s;
    enum drive_status st;

    if (!w || w->status != RANK_MET || w->n_at != 1) {
        fprintf(out, "confirm: nothing to confirm: no configuration meets the target\n");
        return SIZEUP_EXIT_OK;
    }
    if (w->basis == CURVE_BASIS_PREDICTED || s->from ||
        !(rec = probe_record(pts, w->config, workload, maps, n_maps))) {
        fprintf(out,
                "confirm: %s / %s: not run: its points were not measured by sizeup probe "
                "(imported or predicted), so there is no server to run it on\n",
                w->config, workload);
        return SIZEUP_EXIT_OK;
    }
    if (!(pc = cmd_probe_from_record(rec->options))) {
        fprintf(out,
                "confirm: %s / %s: not run: the record's options do not rebuild a probe "
                "(the reason above)\n",
                w->config, workload);
        return SIZEUP_EXIT_FAIL;
    }
    cfg = cmd_probe_record_config(pc);
    a.tps = w->at[0].c.x.value;
    a.threads = w->at[0].c.n;
    a.latency_ms = w->at[0].c.latency_s * 1e3;
    time_s = cfg->precision > 0 ? cfg->max_time_s : cfg->time_s;
    if (!(time_s > 0))
        time_s = RANK_CONFIRM_TIME_S;
    st = drive_confirm_run(cfg, rec->target ? rec->target : w->config, w->config, &s->opt.slo, &a,
                           time_s, out_path, stderr, line, sizeof line);
    fprintf(out, "confirm: %s / %s: %s\n", w->config, workload, line);
    cmd_probe_record_free(pc);
    return cli_exit_of_drive(st);
}
