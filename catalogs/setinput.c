/* setinput.c - `--set CONFIG.INPUT=VALUE[:LOW..HIGH]`: the user's own cost inputs (setinput.h). */
#include "setinput.h"

#include "today.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, cap, fmt, ap);
    va_end(ap);
    return -1;
}

/* A whole finite number from s up to end (exclusive) into *v; 0 or -1. */
static int number(const char *s, const char *end, double *v)
{
    char buf[64], *e;
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (buf[0] == ' ' || buf[0] == '\t' || strpbrk(buf, "xXpP"))
        return -1; /* a decimal figure: strtod would read "0x10" as 16 */
    errno = 0;
    *v = strtod(buf, &e);
    return *e || errno || !isfinite(*v) ? -1 : 0;
}

int cat_set_parse(const char *arg, struct cat_set *out, char *err, size_t cap)
{
    const char *eq = strchr(arg, '='), *dot = NULL, *colon, *dots, *end;
    memset(out, 0, sizeof *out);
    if (strlen(arg) >= sizeof out->text)
        return fail(err, cap, "'%.40s...' is longer than %zu bytes", arg, sizeof out->text - 1);
    snprintf(out->text, sizeof out->text, "%s", arg);
    if (!eq)
        return fail(err, cap,
                    "'%s' is not CONFIG.INPUT=VALUE[:LOW..HIGH], e.g. idc-nvme.capital=18000 or "
                    "idc-nvme.capital=18000:15000..22000",
                    arg);
    for (const char *p = arg; p < eq; p++)
        if (*p == '.')
            dot = p;
    if (!dot || dot == arg || dot + 1 == eq)
        return fail(err, cap,
                    "'%s' does not name CONFIG.INPUT before '=' (a configuration id, a dot, an "
                    "input name), e.g. idc-nvme.capital=18000",
                    arg);
    if ((size_t)(dot - arg) >= sizeof out->config || (size_t)(eq - dot - 1) >= sizeof out->input)
        return fail(err, cap, "'%s': the configuration id or the input name is too long", arg);
    memcpy(out->config, arg, (size_t)(dot - arg));
    memcpy(out->input, dot + 1, (size_t)(eq - dot - 1));
    end = eq + 1 + strlen(eq + 1);
    colon = strchr(eq + 1, ':');
    if (number(eq + 1, colon ? colon : end, &out->value) != 0)
        return fail(err, cap,
                    "'%s': '%.*s' is not a number (the value in the catalog's unit, e.g. 18000)",
                    arg, (int)((colon ? colon : end) - (eq + 1)), eq + 1);
    if (!colon)
        return 0;
    dots = strstr(colon + 1, "..");
    if (!dots || number(colon + 1, dots, &out->low) != 0 || number(dots + 2, end, &out->high) != 0)
        return fail(err, cap, "'%s': the range after ':' is not LOW..HIGH, e.g. 15000..22000", arg);
    if (!(out->low <= out->value && out->value <= out->high))
        return fail(err, cap, "'%s': the range %g..%g does not hold the value %g", arg, out->low,
                    out->high, out->value);
    out->has_range = 1;
    return 0;
}

/* The input of cost c a setting names: its name, or a disk price's name without "disk ". */
static const struct cat_cost_input *find_input(const struct cat_cost *c, const char *name)
{
    for (size_t i = 0; i < c->n_inputs; i++) {
        const char *n = c->inputs[i].name;
        if (strcmp(n, name) == 0 || (strncmp(n, "disk ", 5) == 0 && strcmp(n + 5, name) == 0))
            return &c->inputs[i];
    }
    return NULL;
}

/* "10000 USD, range 5000 to 15000, an estimate" of figure f with unit u. */
static void figure_text(char *buf, size_t cap, const struct cat_price *f, double value,
                        const char *unit)
{
    size_t l = (size_t)snprintf(buf, cap, "%g%s%s", value, *unit ? " " : "", unit);
    if (l < cap && f->has_range)
        l += (size_t)snprintf(buf + l, cap - l, ", range %g to %g", f->low, f->high);
    if (l < cap && f->estimate)
        snprintf(buf + l, cap - l, ", an estimate");
}

/* "CONFIG has no input \"NAME\" (its inputs: ...)" of setting set into err (cap bytes), the
 * inputs of its cost listed by the names a setting takes. */
static void no_input(const struct cat_cost *cost, const struct cat_set *set, char *err, size_t cap)
{
    size_t l = (size_t)snprintf(err, cap, "%s: %s has no input \"%s\" (its inputs: ", set->text,
                                set->config, set->input);
    for (size_t i = 0; i < cost->n_inputs && l < cap; i++)
        l += (size_t)snprintf(err + l, cap - l, "%s%s", i ? ", " : "",
                              strncmp(cost->inputs[i].name, "disk ", 5) == 0
                                  ? cost->inputs[i].name + 5
                                  : cost->inputs[i].name);
    if (l < cap)
        snprintf(err + l, cap - l, ")");
}

/* The ids of the configurations other than config whose cost (priced as pricing, into the
 * scratch other) reads figure fig, ", "-separated into shared (scap bytes, "..." when full). */
static void list_sharing(const struct cat_catalog *cat, const char *config,
                         enum cat_pricing pricing, const struct cat_price *fig,
                         struct cat_cost *other, char *shared, size_t scap)
{
    struct cat_cost_opts quick = {.values_only = 1};
    struct cat_error e;
    size_t l = 0;
    for (size_t i = 0; i < cat->n_configs; i++) {
        const struct cat_config *cf = &cat->configs[i];
        int reads = 0;
        if (strcmp(cf->id, config) == 0 ||
            cat_config_cost_x(cat, cf->id, pricing, 0, &quick, other, &e) != CAT_OK)
            continue;
        for (size_t k = 0; k < other->n_inputs; k++)
            reads |= other->inputs[k].fig == fig;
        if (!reads)
            continue;
        if (l + strlen(cf->id) + 6 >= scap) {
            snprintf(shared + l, scap - l, "%s...", l ? ", " : "");
            break;
        }
        l += (size_t)snprintf(shared + l, scap - l, "%s%s", l ? ", " : "", cf->id);
    }
}

int cat_set_apply(struct cat_catalog *cat, const struct cat_set *set, enum cat_pricing pricing,
                  const char *origin, char *err, size_t cap, char *shared, size_t scap)
{
    struct cat_cost_opts quick = {.values_only = 1};
    struct cat_cost *cost = malloc(sizeof *cost), *other = NULL;
    struct cat_error e;
    const struct cat_cost_input *in;
    struct cat_price *fig;
    char was[200], today[11], *source = NULL, *note = NULL, *as_of = NULL;
    size_t need;
    int rc;

    if (shared && scap)
        shared[0] = '\0';
    if (!cost) {
        snprintf(err, cap, "out of memory");
        return CAT_ENOMEM;
    }
    if (!cat_find_config(cat, set->config)) {
        snprintf(err, cap,
                 "%s: no configuration \"%s\" in the catalogs ('sizeup catalog list' names "
                 "them)",
                 set->text, set->config);
        free(cost);
        return CAT_ENOTFOUND;
    }
    if ((rc = cat_config_cost_x(cat, set->config, pricing, 0, &quick, cost, &e)) != CAT_OK) {
        snprintf(err, cap, "%s: %s cannot be priced %s: %s", set->text, set->config,
                 cat_pricing_name(pricing), e.msg);
        free(cost);
        return rc == CAT_ENOMEM ? CAT_ENOMEM : CAT_ENOTFOUND;
    }
    if (!(in = find_input(cost, set->input))) {
        no_input(cost, set, err, cap);
        free(cost);
        return CAT_ENOTFOUND;
    }
    /* the figure lives in the catalog, which the caller gave us to change: the cost only
     * borrows it read-only */
    fig = (struct cat_price *)in->fig;
    if (fig->user_set) {
        snprintf(err, cap, "%s: the %s it sets was set before (%s): set it once", set->text,
                 in->name, fig->source ? fig->source : "");
        free(cost);
        return CAT_EINVAL;
    }
    if (strcmp(in->name, "instance") == 0 && !(set->value > 0)) {
        /* as the catalog refuses it at load: a free instance has no throughput per cost */
        snprintf(err, cap,
                 "%s: an instance's price must be above 0 (throughput per cost needs a "
                 "cost)",
                 set->text);
        free(cost);
        return CAT_EINVAL;
    }
    if (!(set->value >= in->min && set->value <= in->max) ||
        (set->has_range && !(set->low >= in->min && set->high <= in->max))) {
        snprintf(err, cap, "%s: %s %s outside the values it can take, %g to %g%s%s", set->text,
                 in->name, set->has_range ? "or its range is" : "is", in->min, in->max,
                 *in->unit ? " " : "", in->unit);
        free(cost);
        return CAT_EINVAL;
    }
    if (!set->has_range && fig->has_range && !(set->value >= fig->low && set->value <= fig->high)) {
        snprintf(err, cap,
                 "%s: %g is outside the range the catalog states for %s.%s, %g to %g%s%s: give a "
                 "value within it, or a range that holds it (%s.%s=%g:LOW..HIGH)",
                 set->text, set->value, set->config, set->input, fig->low, fig->high,
                 *in->unit ? " " : "", in->unit, set->config, set->input, set->value);
        free(cost);
        return CAT_EINVAL;
    }
    figure_text(was, sizeof was, fig, in->value, in->unit);
    need = strlen(origin) + strlen(set->text) + 3;
    source = malloc(need);
    note = malloc(strlen(was) + 40);
    as_of = strdup(today_ymd(today));
    if (!source || !note || !as_of) {
        free(source);
        free(note);
        free(as_of);
        free(cost);
        snprintf(err, cap, "out of memory");
        return CAT_ENOMEM;
    }
    snprintf(source, need, "%s: %s", origin, set->text);
    sprintf(note, "the catalog's figure was %s", was);
    free(fig->source);
    free(fig->note);
    free(fig->as_of);
    fig->source = source;
    fig->note = note;
    fig->as_of = as_of;
    fig->amount = set->value;
    fig->estimate = 0;
    fig->user_set = 1;
    if (set->has_range) {
        fig->has_range = 1;
        fig->low = set->low;
        fig->high = set->high;
    }
    /* the other configurations whose cost reads this figure */
    if (shared && scap && (other = malloc(sizeof *other)))
        list_sharing(cat, set->config, pricing, fig, other, shared, scap);
    free(other);
    free(cost);
    return CAT_OK;
}

const char *cat_set_describe(const struct cat_cost_input *in, char *buf, size_t cap)
{
    char now[200];
    figure_text(now, sizeof now, in->fig, in->value, in->unit);
    snprintf(buf, cap, "%s %s: %s%s%s", in->name, now, in->fig->source ? in->fig->source : "",
             in->fig->note ? "; " : "", in->fig->note ? in->fig->note : "");
    return buf;
}
