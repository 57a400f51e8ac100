/*
 * decision_output.c - the decision section as Markdown and HTML (decision_output.h); the items
 * are decision.h's.
 */
#include "decision_output.h"

#include "decision.h"
#include "svg.h"
#include "textsafe.h"

#include <stdlib.h>
#include <string.h>

int decision_write_markdown(FILE *f, const struct ranking *rk)
{
    char(*items)[DECISION_ITEM_MAX] = malloc(DECISION_MAX_ITEMS * sizeof *items);
    size_t n;
    if (!items)
        return -1;
    n = decision_items(rk, items);
    if (n)
        fprintf(f, "\n## Decision\n\n");
    for (size_t i = 0; i < n; i++) {
        char md[2 * DECISION_ITEM_MAX];
        fprintf(f, "- %s\n", textsafe_md(items[i], md, sizeof md)); /* names in it: escaped */
    }
    free(items);
    return ferror(f) ? -1 : 0;
}

int decision_write_html(FILE *f, const struct ranking *rk)
{
    char(*items)[DECISION_ITEM_MAX] = malloc(DECISION_MAX_ITEMS * sizeof *items);
    size_t n;
    if (!items)
        return -1;
    n = decision_items_parts(rk, items);
    if (n == 0) {
        free(items);
        return 0;
    }
    fprintf(f, "<h2>Decision</h2>\n<ul class=\"decision\">\n");
    for (size_t i = 0; i < n; i++) {
        char *alt = strchr(items[i], DECISION_ALT);
        fputs("<li>", f);
        if (alt) {
            /* one estimate a line (issue 28.18: one very long sentence) */
            *alt = '\0';
            svg_escape(f, items[i]); /* names in it: escaped */
            fputs(":<ul>", f);
            while (alt) {
                char *p = alt + 1, *next = strchr(p, DECISION_ALT);
                size_t len;
                if (next)
                    *next = '\0';
                len = strlen(p);
                if (!next && len && p[len - 1] == '.')
                    p[len - 1] = '\0'; /* the sentence's full stop */
                fputs("<li>", f);
                svg_escape(f, p);
                fputs("</li>", f);
                alt = next;
            }
            fputs("</ul>", f);
        } else {
            svg_escape(f, items[i]);
        }
        fputs("</li>\n", f);
    }
    fprintf(f, "</ul>\n");
    free(items);
    return ferror(f) ? -1 : 0;
}
