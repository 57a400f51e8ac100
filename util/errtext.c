/* errtext.c - error text with a position (errtext.h). */
#include "errtext.h"

#include <stdio.h>

char *errtext_vset(char *buf, size_t cap, const char *file, long line, long column, const char *fmt,
                   va_list ap)
{
    char body[1024];
    if (!buf || cap == 0)
        return buf;
    vsnprintf(body, sizeof body, fmt, ap);
    if (!file || !*file)
        snprintf(buf, cap, "%s", body);
    else if (line <= 0)
        snprintf(buf, cap, "%s: %s", file, body);
    else if (column <= 0)
        snprintf(buf, cap, "%s:%ld: %s", file, line, body);
    else
        snprintf(buf, cap, "%s:%ld:%ld: %s", file, line, column, body);
    return buf;
}

char *errtext_set(char *buf, size_t cap, const char *file, long line, long column, const char *fmt,
                  ...)
{
    va_list ap;
    va_start(ap, fmt);
    errtext_vset(buf, cap, file, line, column, fmt, ap);
    va_end(ap);
    return buf;
}
