/* import_src.c - what every reader calls on its source: diagnostics with file:line, the next
 * line, a bad line's error, a point's extra keys (declared in import_types.h). Apart from
 * import.c, which drives the readers, so that the readers and the dispatcher do not call
 * each other. */
#include "import_types.h"

#include "errtext.h"

#include "textsafe.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void import_diag(struct import_src *src, enum import_severity sev, long line, const char *fmt, ...)
{
    struct import_report *rep = src->report;
    char text[512], name[300];
    va_list ap;
    va_start(ap, fmt);
    if (line < 0)
        vsnprintf(text, sizeof text, fmt, ap);
    else /* a file name is shown as safe text: it may come from a hostile folder's listing */
        errtext_vset(text, sizeof text, textsafe_visible(src->name, name, sizeof name), line, 0,
                     fmt, ap);
    va_end(ap);
    if (sev == IMPORT_ERROR || (sev == IMPORT_WARNING && rep->msg[0] == '\0'))
        snprintf(rep->msg, sizeof rep->msg, "%s", text);
    if (sev == IMPORT_WARNING)
        rep->n_warnings++;
    if (sev == IMPORT_NOTE) {
        if (rep->note[0] == '\0')
            snprintf(rep->note, sizeof rep->note, "%s", text);
        rep->n_notes++;
    }
    if (src->opt->diag)
        src->opt->diag(src->opt->diag_ctx, sev, text);
}

int import_read_line(struct import_src *src)
{
    char err[400];
    int rc = lines_next(src->lines, err, sizeof err);
    if (rc >= 0)
        return rc;
    import_diag(src, IMPORT_ERROR, -1, "%s", err);
    return rc == LINES_ENOMEM ? IMPORT_ENOMEM : rc == LINES_ETOOLONG ? IMPORT_EPARSE : IMPORT_EIO;
}

int import_bad_line(struct import_src *src, long line, const char *expected, const char *text)
{
    char shown[104];
    size_t i = 0;
    for (; text[i] && i + 1 < sizeof shown - 3; i++)
        shown[i] = (text[i] >= 32 && text[i] < 127) ? text[i] : '?';
    shown[i] = '\0';
    if (text[i])
        strcat(shown, "...");
    import_diag(src, IMPORT_ERROR, line, "expected %s, found \"%s\"", expected, shown);
    return IMPORT_EPARSE;
}

int import_set_extra(struct point *p, const char *key, json_t *v)
{
    if (!v)
        return -1;
    if (!p->extra && !(p->extra = json_object())) {
        json_decref(v);
        return -1;
    }
    return json_object_set_new(p->extra, key, v) ? -1 : 0;
}
