/* cmd_merge.c - `sizeup merge PARTS... [-o POINT]`: the parts of points measured by several load
 * generators (`sizeup probe run --client I/K`) combined into the points (records/merge.h). */
#include "cli.h"
#include "commands.h"
#include "merge.h"
#include "outfile.h"
#include "point.h"
#include "readfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct merge_cmd {
    double skew_s;
    const char *output;
};

static const struct cli_opt merge_options[] = {
    {"output", 'o', CLI_PATH, CLI_AT(struct merge_cmd, output),
     .help = "write the merged points to FILE (replaced whole) instead of stdout"},
    {"skew", 0, CLI_SECONDS, CLI_AT(struct merge_cmd, skew_s), .min = 0, .max = 3600,
     .dflt = "100ms",
     .help = "warn when the parts' starts or ends (wall clock) differ by more than this"},
    {0}};

const struct cli_cmd cmd_merge_cli = {
    .name = "merge",
    .usage = "Usage: sizeup merge [OPTIONS] PARTS... [-o POINTS]",
    .description =
        "Combine the parts of a level measured by K load generators (`sizeup probe run\n"
        "--client I/K --out PART`, JSON Lines) into one sizeup.point/1 record per level: counts\n"
        "summed, latency histograms merged bucket by bucket and the percentiles read from the\n"
        "merged histogram (never averaged), rates over each part's window, the common window\n"
        "as duration_s. Parts are grouped by their client count and --start-at (else their\n"
        "level); every group must be complete (clients 0..K-1, each once) and agree on target,\n"
        "workload, level, rate and options. Warnings (clocks or windows apart by more than\n"
        "--skew) go to stderr.",
    .options = merge_options,
    .min_operands = 1,
    .max_operands = CLI_ANY,
    .operands_hint = "name at least one PARTS file",
    .epilog = "Exit status:\n"
              "  0    merged\n"
              "  1    the output could not be written\n"
              "  2    bad command line\n"
              "  3    a file could not be read or parsed, or the parts were refused (nothing is\n"
              "       written)"};

/* The parts of one file, with "FILE:LINE" of each. 0, or -1 with the reason on stderr. */
static int read_parts(const char *path, struct point_list *parts, char ***where, size_t *n_where,
                      size_t *cap_where)
{
    char err[400], *buf = NULL;
    size_t len = 0;
    long line = 0;
    if (readfile(path, (size_t)256 << 20, &buf, &len, err, sizeof err) != READFILE_OK) {
        fprintf(stderr, "sizeup: %s\n", err);
        return -1;
    }
    for (size_t at = 0; at < len;) {
        const char *s = buf + at, *nl = memchr(s, '\n', len - at);
        size_t n = nl ? (size_t)(nl - s) : len - at;
        struct point p;
        struct point_error pe;
        int rc;
        line++;
        at += n + (nl ? 1 : 0);
        point_init(&p);
        rc = point_parse_line(s, n, path, line, &p, &pe);
        if (rc < 0) {
            fprintf(stderr, "sizeup: %s\n", pe.msg);
            point_destroy(&p);
            free(buf);
            return -1;
        }
        if (rc == 0) {
            point_destroy(&p);
            continue;
        }
        if (*n_where == *cap_where) {
            size_t cap = *cap_where ? 2 * *cap_where : 16;
            char **w = realloc(*where, cap * sizeof *w);
            if (!w) {
                point_destroy(&p);
                free(buf);
                fprintf(stderr, "sizeup: out of memory\n");
                return -1;
            }
            *where = w;
            *cap_where = cap;
        }
        {
            struct point *slot = point_list_push(parts);
            size_t wl = strlen(path) + 24;
            char *w = malloc(wl);
            if (!slot || !w) {
                free(w);
                point_destroy(&p);
                free(buf);
                fprintf(stderr, "sizeup: out of memory\n");
                return -1;
            }
            *slot = p; /* the list's fresh point is moved over, not copied */
            snprintf(w, wl, "%s:%ld", path, line);
            (*where)[(*n_where)++] = w;
        }
    }
    free(buf);
    return 0;
}

static int write_points(FILE *f, const void *ctx)
{
    const struct point_list *l = ctx;
    for (size_t i = 0; i < l->n; i++) {
        struct point_error pe;
        if (point_write(f, &l->items[i], &pe) != POINT_OK) {
            fprintf(stderr, "sizeup: %s\n", pe.msg);
            return -1;
        }
    }
    return 0;
}

int cmd_merge(int argc, char **argv)
{
    struct merge_cmd o;
    struct cli_args args;
    struct point_list parts, merged;
    char **where = NULL, msg[1024];
    size_t n_where = 0, cap_where = 0;
    int rc, status = SIZEUP_EXIT_OK;

    memset(&o, 0, sizeof o);
    rc = cli_parse(&cmd_merge_cli, argc, argv, &o, &args);
    if (rc != CLI_RUN)
        return rc;
    point_list_init(&parts);
    point_list_init(&merged);
    for (int i = 0; i < args.argc && status == SIZEUP_EXIT_OK; i++)
        if (read_parts(args.argv[i], &parts, &where, &n_where, &cap_where))
            status = SIZEUP_EXIT_INPUT;
    if (status == SIZEUP_EXIT_OK && parts.n == 0) {
        fprintf(stderr, "sizeup merge: no parts in the files given\n");
        status = SIZEUP_EXIT_INPUT;
    }
    if (status == SIZEUP_EXIT_OK) {
        msg[0] = '\0';
        rc = merge_parts(parts.items, (const char *const *)where, parts.n, o.skew_s, &merged,
                         stderr, msg, sizeof msg);
        if (rc == MERGE_ENOMEM) {
            fprintf(stderr, "sizeup merge: out of memory\n");
            status = SIZEUP_EXIT_FAIL;
        } else if (rc != MERGE_OK) {
            fprintf(stderr, "sizeup merge: %s\n", msg);
            status = SIZEUP_EXIT_INPUT;
        }
    }
    if (status == SIZEUP_EXIT_OK &&
        outfile_emit(o.output && strcmp(o.output, "-") ? o.output : NULL, "the merged points",
                     write_points, &merged) != 0)
        status = SIZEUP_EXIT_FAIL;
    for (size_t i = 0; i < n_where; i++)
        free(where[i]);
    free(where);
    point_list_destroy(&parts);
    point_list_destroy(&merged);
    return status;
}
