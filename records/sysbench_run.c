/* sysbench_run.c - what the sysbench output readers share: messages and extra fields
 * (sysbench_log_int.h). */
#include "sblex.h"
#include "sysbench_log_int.h"

#include <stdarg.h>
#include <stdio.h>

void sblog_report(struct parser *ps, long line, const char *fmt, ...)
{
    char text[440];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    import_diag(ps->src, IMPORT_ERROR, line, "%s", text);
}

int sblog_set_extra(struct point *p, const char *key, json_t *v)
{
    return import_set_extra(p, key, v);
}

int sblog_bad_line(struct parser *ps, const char *expected, const char *line)
{
    return import_bad_line(ps->src, ps->line_no, expected, line);
}
