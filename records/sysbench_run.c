/* sysbench_run.c - what the sysbench output readers share: messages and extra fields
 * (sysbench_log_int.h). */
#include "sblex.h"
#include "sysbench_log_int.h"

#include "errtext.h"

#include <stdarg.h>
#include <stdio.h>

void sblog_report(struct parser *ps, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errtext_vset(ps->report->msg, sizeof ps->report->msg, ps->name, line, 0, fmt, ap);
    va_end(ap);
}

int sblog_set_extra(struct point *p, const char *key, json_t *v)
{
    if (!v)
        return -1;
    if (!p->extra && !(p->extra = json_object())) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(p->extra, key, v);
}

int sblog_bad_line(struct parser *ps, const char *expected, const char *line)
{
    char shown[120];
    sblex_sanitize(shown, sizeof shown, line);
    sblog_report(ps, ps->line_no, "expected %s, found \"%s\"", expected, shown);
    return IMPORT_EPARSE;
}
