/* setnotes.c - a ranked row's cost inputs set by the user, for the outputs (setnotes.h). */
#include "setnotes.h"

#include "setinput.h"

#include <stdlib.h>

/* Row i's cost into *c (heap, freed by the caller), or NULL when it cannot be priced. */
static struct cat_cost *row_cost(const struct rank_set *s, size_t i)
{
    struct cat_cost *c = malloc(sizeof *c);
    struct cat_error err;
    if (c && rank_set_row_figures(s, &s->rows[i], -1, 0, NULL, 0, c, &err) != CAT_OK) {
        free(c);
        return NULL;
    }
    return c;
}

size_t setnotes_row(const struct rank_set *s, size_t i,
                    void (*fn)(void *ctx, const char *config, const char *line), void *ctx)
{
    struct cat_cost *c = row_cost(s, i);
    size_t n = 0;
    for (size_t k = 0; c && k < c->n_inputs; k++) {
        char line[800];
        if (!c->inputs[k].fig->user_set)
            continue;
        if (fn)
            fn(ctx, s->rows[i].config, cat_set_describe(&c->inputs[k], line, sizeof line));
        n++;
    }
    free(c);
    return n;
}

json_t *setnotes_row_json(const struct rank_set *s, size_t i)
{
    struct cat_cost *c = row_cost(s, i);
    json_t *arr = NULL;
    for (size_t k = 0; c && k < c->n_inputs; k++) {
        const struct cat_cost_input *in = &c->inputs[k];
        json_t *e;
        if (!in->fig->user_set)
            continue;
        if ((!arr && !(arr = json_array())) || !(e = json_object()))
            break;
        json_object_set_new(e, "name", json_string(in->name));
        json_object_set_new(e, "value", json_real(in->value));
        json_object_set_new(e, "unit", json_string(in->unit));
        if (in->fig->has_range) {
            json_object_set_new(e, "low", json_real(in->fig->low));
            json_object_set_new(e, "high", json_real(in->fig->high));
        }
        if (in->fig->source)
            json_object_set_new(e, "source", json_string(in->fig->source));
        if (in->fig->as_of)
            json_object_set_new(e, "as_of", json_string(in->fig->as_of));
        if (in->fig->note)
            json_object_set_new(e, "note", json_string(in->fig->note));
        json_array_append_new(arr, e);
    }
    free(c);
    return arr;
}
