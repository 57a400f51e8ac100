/* cmd_import.c - `sizeup import FILE...`: benchmark results -> sizeup.point/1 records. */
#include "cli.h"
#include "commands.h"
#include "import.h"
#include "outfile.h"
#include "point.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct import_cli {
    struct import_options opt; /* workload, target, format */
    const char *output;
    int summary;
};

static const struct cli_choice import_formats[] = {{"auto", IMPORT_AUTO},
                                                   {"sysbench", IMPORT_SYSBENCH},
                                                   {"csv", IMPORT_CSV},
                                                   {"points", IMPORT_POINTS},
                                                   {NULL, 0}};

#define A(field) CLI_AT(struct import_cli, field)
static const struct cli_opt import_options[] = {
    {"output", 'o', CLI_PATH, A(output),
     .help = "write the records to FILE (replaced whole at the end) instead of stdout"},
    {"workload", 'w', CLI_STRING, A(opt.workload), .dflt_doc = "from the file name, else unknown",
     .help = "workload when a file does not say it"},
    {"target", 't', CLI_STRING, A(opt.target), .dflt_doc = "the file's base name",
     .help = "target when a file does not say it"},
    {"format", 0, CLI_CHOICE, A(opt.format), .arg_name = "FMT", .choices = import_formats,
     .dflt = "auto", .help = "the input format (points: sizeup.point/1 JSON Lines)"},
    {"summary", 0, CLI_FLAG, A(summary),
     .help = "print one line per curve (target, workload) instead of the records"},
    {0}};
#undef A

const struct cli_cmd cmd_import_cli = {
    .name = "import",
    .usage = "Usage: sizeup import [OPTIONS] FILE...",
    .description =
        "Read benchmark results and write one sizeup.point/1 record (JSON Lines) per measured\n"
        "point. FILE may be sysbench output (1.0, 1.1, legacy 0.4/0.5; OLTP, fileio, cpu, memory;\n"
        "several runs in one file), a CSV table with a header row (as in data/published/), or\n"
        "point records; '-' reads stdin. A file with an error contributes no record; the others\n"
        "are still imported, and the exit status is 3. A run killed before its summary is\n"
        "imported from its intermediate reports, marked incomplete, with a warning (exit 3).",
    .options = import_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "no input files: give one or more FILEs ('-' for stdin)"};

struct curve_summary {
    const char *target, *workload;
    size_t n;
    double x_min, x_max, best_y, best_x, best_lat;
    const char *lat_name;
    int by_nodes;
};

/* Latency to show for a point: p95, else p99, else avg. */
static double point_lat(const struct point *p, const char **which)
{
    double v = point_percentile(p, 95);
    *which = "p95";
    if (isnan(v)) {
        v = point_percentile(p, 99);
        *which = "p99";
    }
    if (isnan(v)) {
        v = p->latency_ms.avg;
        *which = "avg";
    }
    return v;
}

static void print_summary(const struct point_list *pts)
{
    struct curve_summary *cs = calloc(pts->n ? pts->n : 1, sizeof *cs);
    size_t n = 0;
    if (!cs) {
        fprintf(stderr, "sizeup: out of memory\n");
        return;
    }
    for (size_t i = 0; i < pts->n; i++) {
        const struct point *p = &pts->items[i];
        struct curve_summary *c = NULL;
        int by_nodes = p->threads <= 0 || (p->nodes > 0);
        double x = by_nodes ? (double)p->nodes : (double)p->threads;
        double y = !isnan(p->tps) ? p->tps : p->qps;
        const char *which;
        double lat = point_lat(p, &which);
        for (size_t j = 0; j < n; j++)
            if (strcmp(cs[j].target, p->target) == 0 && strcmp(cs[j].workload, p->workload) == 0)
                c = &cs[j];
        if (!c) {
            c = &cs[n++];
            c->target = p->target;
            c->workload = p->workload;
            c->x_min = c->x_max = x;
            c->best_y = -1;
            c->by_nodes = by_nodes;
        }
        c->n++;
        c->x_min = fmin(c->x_min, x);
        c->x_max = fmax(c->x_max, x);
        if (!isnan(y) && y > c->best_y) {
            c->best_y = y;
            c->best_x = x;
            c->best_lat = lat;
            c->lat_name = which;
        }
    }
    printf("%-20s %-22s %6s %12s %12s %8s %12s\n", "target", "workload", "points", "x range",
           "peak tps", "at x", "latency ms");
    for (size_t j = 0; j < n; j++) {
        char range[32], lat[32];
        const struct curve_summary *c = &cs[j];
        snprintf(range, sizeof range, "%s %g-%g", c->by_nodes ? "n" : "t", c->x_min, c->x_max);
        if (c->best_y >= 0 && !isnan(c->best_lat))
            snprintf(lat, sizeof lat, "%s %.2f", c->lat_name, c->best_lat);
        else
            snprintf(lat, sizeof lat, "-");
        if (c->best_y >= 0)
            printf("%-20s %-22s %6zu %12s %12.2f %8g %12s\n", c->target, c->workload, c->n, range,
                   c->best_y, c->best_x, lat);
        else
            printf("%-20s %-22s %6zu %12s %12s %8s %12s\n", c->target, c->workload, c->n, range,
                   "-", "-", lat);
    }
    free(cs);
}

int cmd_import(int argc, char **argv)
{
    struct import_cli o;
    struct cli_args args;
    const char *output;
    int status = SIZEUP_EXIT_OK, rc;
    struct point_list pts;
    FILE *out;
    struct outfile of;
    char errbuf[512];
    int n_files_ok = 0;

    memset(&o, 0, sizeof o);
    if ((rc = cli_parse(&cmd_import_cli, argc, argv, &o, &args)) != CLI_RUN)
        return rc;
    output = o.output;

    point_list_init(&pts);
    for (int i = 0; i < args.argc; i++) {
        struct import_report rep;
        rc = import_file(args.argv[i], &o.opt, &pts, &rep);
        if (rc >= 0)
            n_files_ok++;
        if (rc < 0) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            status = SIZEUP_EXIT_INPUT;
        } else if (rc == IMPORT_WARN) {
            fprintf(stderr, "sizeup: %s\n", rep.msg);
            status = SIZEUP_EXIT_INPUT;
        }
    }

    if (output && pts.n == 0 && status != SIZEUP_EXIT_OK) {
        fprintf(stderr, "sizeup: nothing was imported; %s is left as it was\n", output);
        point_list_destroy(&pts);
        return status;
    }
    if (output && outfile_open(&of, output, errbuf, sizeof errbuf) != 0) {
        fprintf(stderr, "sizeup: %s\n", errbuf);
        point_list_destroy(&pts);
        return SIZEUP_EXIT_FAIL;
    }
    out = output ? of.f : stdout;
    if (!o.summary || output) {
        for (size_t i = 0; i < pts.n; i++) {
            struct point_error err;
            if (point_write(out, &pts.items[i], &err) != POINT_OK) {
                fprintf(stderr, "sizeup: %s: %s\n", output ? output : "stdout", err.msg);
                status = SIZEUP_EXIT_FAIL;
                break;
            }
        }
    }
    if (output) {
        if (status == SIZEUP_EXIT_FAIL) {
            outfile_abort(&of);
        } else if (outfile_commit(&of, errbuf, sizeof errbuf) != 0) {
            fprintf(stderr, "sizeup: %s\n", errbuf);
            status = SIZEUP_EXIT_FAIL;
        }
    }
    if (o.summary)
        print_summary(&pts);
    if (status != SIZEUP_EXIT_FAIL)
        fprintf(stderr, "sizeup: imported %zu point(s) from %d of %d file(s)\n", pts.n, n_files_ok,
                args.argc);
    point_list_destroy(&pts);
    return status;
}
