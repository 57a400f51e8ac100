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

enum { OPT_FORMAT = 256, OPT_SUMMARY };

static const struct cli_option import_options[] = {
    {"output", required_argument, 'o', "FILE",
     "write the records to FILE (replaced whole at the end) instead of stdout"},
    {"workload", required_argument, 'w', "NAME",
     "workload when a file does not say it (default: from the file name, else unknown)"},
    {"target", required_argument, 't', "NAME",
     "target when a file does not say it (default: the file's base name)"},
    {"format", required_argument, OPT_FORMAT, "FMT",
     "auto (default), sysbench, csv or points (sizeup.point/1 JSON Lines)"},
    {"summary", no_argument, OPT_SUMMARY, NULL,
     "print one line per curve (target, workload) instead of the records"},
    {"help", no_argument, 'h', NULL, "this text"},
    {NULL, 0, 0, NULL, NULL}};

static const char import_usage[] = "Usage: sizeup import [OPTIONS] FILE...";
static const char import_description[] =
    "Read benchmark results and write one sizeup.point/1 record (JSON Lines) per measured\n"
    "point. FILE may be sysbench output (1.0, 1.1, legacy 0.4/0.5; OLTP, fileio, cpu, memory;\n"
    "several runs in one file), a CSV table with a header row (as in data/published/), or\n"
    "point records; '-' reads stdin. A file with an error contributes no record; the others\n"
    "are still imported, and the exit status is 3. A run killed before its summary is\n"
    "imported from its intermediate reports, marked incomplete, with a warning (exit 3).";

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
    struct option longs[16];
    char shorts[32];
    struct import_options opt = {NULL, NULL, IMPORT_AUTO};
    const char *output = NULL;
    int summary = 0, c, status = SIZEUP_EXIT_OK;
    struct point_list pts;
    FILE *out;
    struct outfile of;
    char errbuf[512];
    int n_files_ok = 0;

    cli_build_getopt(import_options, longs, 16, shorts, sizeof shorts);
    optind = 0; /* full re-initialisation: the dispatcher before stopped at the first operand */
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        switch (c) {
        case 'o':
            output = optarg;
            break;
        case 'w':
            opt.workload = optarg;
            break;
        case 't':
            opt.target = optarg;
            break;
        case OPT_FORMAT:
            if (strcmp(optarg, "auto") == 0)
                opt.format = IMPORT_AUTO;
            else if (strcmp(optarg, "sysbench") == 0)
                opt.format = IMPORT_SYSBENCH;
            else if (strcmp(optarg, "csv") == 0)
                opt.format = IMPORT_CSV;
            else if (strcmp(optarg, "points") == 0)
                opt.format = IMPORT_POINTS;
            else
                return cli_usage_error(
                    "import", "--format takes auto, sysbench, csv or points, not '%s'", optarg);
            break;
        case OPT_SUMMARY:
            summary = 1;
            break;
        case 'h':
            cli_print_help(import_usage, import_description, import_options);
            return SIZEUP_EXIT_OK;
        default:
            return cli_getopt_error("import", c, argv);
        }
    }
    if (optind >= argc)
        return cli_usage_error("import", "no input files: give one or more FILEs ('-' for stdin)");

    point_list_init(&pts);
    for (int i = optind; i < argc; i++) {
        struct import_report rep;
        int rc = import_file(argv[i], &opt, &pts, &rep);
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
    if (!summary || output) {
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
    if (summary)
        print_summary(&pts);
    if (status != SIZEUP_EXIT_FAIL)
        fprintf(stderr, "sizeup: imported %zu point(s) from %d of %d file(s)\n", pts.n, n_files_ok,
                argc - optind);
    point_list_destroy(&pts);
    return status;
}
