/* csvfield.c - one safe CSV text field (see csvfield.h). */
#include "csvfield.h"

#include <string.h>

int csv_is_formula_start(const char *s)
{
    return s && *s && strchr("=+-@\t\r", *s) != NULL;
}

void csv_write_field(FILE *f, const char *s)
{
    int formula;
    if (!s)
        return;
    formula = csv_is_formula_start(s);
    if (!formula && !s[strcspn(s, ",\"\r\n")]) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
