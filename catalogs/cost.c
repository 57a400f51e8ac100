/* cost.c - cost per hour of a configuration, term by term (formulas in cost.h). */
#include "cost.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

static struct cat_cost_term *add_term(struct cat_cost *c, const char *name,
                                      const struct cat_price *price)
{
    struct cat_cost_term *t;
    if (c->n_terms >= CAT_MAX_TERMS)
        return NULL;
    t = &c->terms[c->n_terms++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->price = price;
    if (price && price->estimate)
        c->estimate = 1;
    return t;
}

/* The term's formula, unless the caller asked for figures only (cat_cost_opts.values_only). */
static void formula(const struct cat_cost_opts *o, struct cat_cost_term *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void formula(const struct cat_cost_opts *o, struct cat_cost_term *t, const char *fmt, ...)
{
    va_list ap;
    if (o && o->values_only)
        return;
    va_start(ap, fmt);
    vsnprintf(t->formula, sizeof t->formula, fmt, ap);
    va_end(ap);
}

/* Zero what a cost is built on; the terms and inputs arrays are not cleared, as add_term and
 * add_input clear each element they hand out (a cat_cost is 7 KiB; ranking a million
 * configurations prices each several times). */
static void cost_reset(struct cat_cost *c)
{
    memset(c, 0, offsetof(struct cat_cost, terms));
    memset(&c->has_disk, 0,
           offsetof(struct cat_cost, inputs) - offsetof(struct cat_cost, has_disk));
}

/* amount of price in the catalog's currency; describes the conversion in conv. */
static int convert(const struct cat_catalog *cat, const struct cat_price *p, double amount,
                   double *out, const struct cat_rate **rate, char *conv, size_t cap,
                   struct cat_error *err)
{
    if (cat_catalog_convert(cat, amount, p->currency, out, rate) != CAT_OK)
        return cat_error_set(err, CAT_EINVAL, "no rate from %s to %s declared in the catalog",
                             p->currency, cat->currency);
    if (*rate)
        snprintf(conv, cap, " x %g %s/%s", (*rate)->rate.amount, cat->currency, p->currency);
    else
        conv[0] = '\0';
    return CAT_OK;
}

static double unit_hours(enum cat_unit u)
{
    return u == CAT_UNIT_HOUR    ? 1.0
           : u == CAT_UNIT_MONTH ? CAT_HOURS_PER_MONTH
                                 : CAT_HOURS_PER_YEAR;
}

/* The value of figure f: an override's, else the catalog's. */
static double val(const struct cat_cost_opts *o, const struct cat_price *f)
{
    for (size_t i = 0; o && i < o->n_ov; i++)
        if (o->ov[i].fig == f)
            return o->ov[i].value;
    return f->amount;
}

/* "USD/month" from a currency and a suffix (into buf). */
static const char *cu(char *buf, size_t cap, const char *currency, const char *suffix)
{
    snprintf(buf, cap, "%s%s", currency, suffix);
    return buf;
}

/* Record an input (first use only); domain [min, max]. */
static void add_input(struct cat_cost *c, const char *name, const struct cat_price *f, double v,
                      const char *unit, double min, double max)
{
    struct cat_cost_input *in;
    for (size_t i = 0; i < c->n_inputs; i++)
        if (c->inputs[i].fig == f)
            return;
    if (c->n_inputs >= CAT_MAX_INPUTS)
        return;
    in = &c->inputs[c->n_inputs++];
    memset(in, 0, sizeof *in);
    snprintf(in->name, sizeof in->name, "%s", name);
    snprintf(in->unit, sizeof in->unit, "%.*s", (int)sizeof in->unit - 1, unit);
    in->fig = f;
    in->value = v;
    in->min = min;
    in->max = max;
    if (f->estimate)
        c->estimate = 1;
}

/* An override outside [min, max] of its input. */
static int check_overrides(const struct cat_cost *c, const struct cat_cost_opts *o,
                           struct cat_error *err)
{
    for (size_t i = 0; o && i < o->n_ov; i++)
        for (size_t k = 0; k < c->n_inputs; k++)
            if (c->inputs[k].fig == o->ov[i].fig &&
                !(o->ov[i].value >= c->inputs[k].min && o->ov[i].value <= c->inputs[k].max))
                return cat_error_set(err, CAT_EINVAL, "%s %g is outside [%g, %g]",
                                     c->inputs[k].name, o->ov[i].value, c->inputs[k].min,
                                     c->inputs[k].max);
    return CAT_OK;
}

double cat_server_power_kw(const struct cat_server *s, double load)
{
    if (!s->has_power_curve)
        return s->power_kw.amount;
    load = fmin(fmax(load, 0), 1);
    for (size_t i = 1; i < s->n_power; i++)
        if (load <= s->power_load[i]) {
            double f = (load - s->power_load[i - 1]) / (s->power_load[i] - s->power_load[i - 1]);
            return (s->power_w[i - 1] + f * (s->power_w[i] - s->power_w[i - 1])) / 1000.0;
        }
    return s->power_w[s->n_power - 1] / 1000.0;
}

/* Power in kW at load with the curve read from o (power_kw may be overridden). */
static double power_kw(const struct cat_server *s, const struct cat_cost_opts *o, double load)
{
    return s->has_power_curve ? cat_server_power_kw(s, load) : val(o, &s->power_kw);
}

/* A price term: amount (override applied) converted; fills x (catalog currency) and conv. */
#define PRICE(f, x)                                                                                \
    do {                                                                                           \
        if ((rc = convert(cat, (f), val(o, (f)), &(x), &rate, conv, sizeof conv, err)) != CAT_OK)  \
            return rc;                                                                             \
    } while (0)

/* The capital (refreshed over the amortisation period), maintenance and licence terms of
 * copies x e of server s into c. CAT_OK or an error (err set). */
static int capital_terms(const struct cat_catalog *cat, const struct cat_server *s, double e,
                         int copies, const struct cat_cost_opts *o, struct cat_cost *c,
                         struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64], cur[32];
    double capex, x, life = val(o, &s->amortisation_years), maint = val(o, &s->maintenance_rate);
    const struct cat_rate *rate;
    int rc;

    PRICE(&s->capital, capex);
    snprintf(cur, sizeof cur, "%s", s->capital.currency);
    add_input(c, "capital", &s->capital, val(o, &s->capital), cur, 0, 1e12);
    add_input(c, "amortisation_years", &s->amortisation_years, life, "y", 0.1, 50);
    c->owned = 1;
    c->life_years = life;
    c->capex += copies * capex * e;
    c->capex_per_hour += copies * capex * e / (life * CAT_HOURS_PER_YEAR);
    t = add_term(c, "capital", &s->capital);
    t->rate = rate;
    t->per_hour = copies * capex * e / (life * CAT_HOURS_PER_YEAR);
    formula(o, t, "%d x %g %s%s x %.6g / (%g y x 8760 h)", copies, val(o, &s->capital),
            s->capital.currency, conv, e, life);

    add_input(c, "maintenance_rate", &s->maintenance_rate, maint, "/y", 0, 10);
    t = add_term(c, "maintenance", &s->capital);
    t->rate = rate;
    t->per_hour = copies * maint * capex * e / CAT_HOURS_PER_YEAR;
    formula(o, t, "%d x %g/y x %g %s%s x %.6g / 8760 h", copies, maint, val(o, &s->capital),
            s->capital.currency, conv, e);

    if (s->licence.present) {
        int units = s->licence_per == CAT_LICENCE_CORE ? s->cores : 1;
        PRICE(&s->licence, x);
        add_input(c, "licence", &s->licence, val(o, &s->licence),
                  cu(cur, sizeof cur, s->licence.currency, "/y"), 0, 1e12);
        t = add_term(c, "licence", &s->licence);
        t->rate = rate;
        t->per_hour = copies * units * x * e / CAT_HOURS_PER_YEAR;
        formula(o, t, "%d x %d %s x %g %s%s x %.6g / 8760 h", copies, units,
                s->licence_per == CAT_LICENCE_CORE ? "cores" : "server", val(o, &s->licence),
                cu(cur, sizeof cur, s->licence.currency, "/y"), conv, e);
    }
    return CAT_OK;
}

/* The power term of copies x e of server s into c: its power at load (on its curve, measured:
 * the load a point measured x packing) x PUE x the energy price. CAT_OK or an error. */
static int power_term(const struct cat_catalog *cat, const struct cat_server *s, double e,
                      double packing, int copies, double load, int measured,
                      const struct cat_cost_opts *o, struct cat_cost *c, struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64], cur[32];
    double x, pue = val(o, &s->pue), kw;
    const struct cat_rate *rate;
    int rc;

    PRICE(&s->energy_per_kwh, x);
    kw = power_kw(s, o, load);
    c->power_load = s->has_power_curve ? load : NAN;
    c->power_load_measured = measured;
    if (s->has_power_curve && !measured)
        add_input(c, "cpu_load", &s->cpu_load, load, "", 0, 1);
    else if (!s->has_power_curve)
        add_input(c, "power_kw", &s->power_kw, kw, "kW", 0, 1000);
    add_input(c, "pue", &s->pue, pue, "", 1, 5);
    snprintf(cur, sizeof cur, "%s/kWh", s->energy_per_kwh.currency);
    add_input(c, "energy_per_kwh", &s->energy_per_kwh, val(o, &s->energy_per_kwh), cur, 0, 1e12);
    t = add_term(c, "power", &s->energy_per_kwh);
    t->rate = rate;
    t->per_hour = copies * kw * e * pue * x;
    if (measured)
        formula(o, t,
                "%d x %.4g kW (curve at measured load %.4g = %.4g x %g) x %.6g x PUE %g x %g "
                "%s/kWh%s",
                copies, kw, load, fmin(1.0, o->measured_load), packing, e, pue,
                val(o, &s->energy_per_kwh), s->energy_per_kwh.currency, conv);
    else if (s->has_power_curve)
        formula(o, t, "%d x %.4g kW (curve at load %g) x %.6g x PUE %g x %g %s/kWh%s", copies, kw,
                load, e, pue, val(o, &s->energy_per_kwh), s->energy_per_kwh.currency, conv);
    else
        formula(o, t, "%d x %g kW x %.6g x PUE %g x %g %s/kWh%s", copies, kw, e, pue,
                val(o, &s->energy_per_kwh), s->energy_per_kwh.currency, conv);
    return CAT_OK;
}

/* The running terms of copies x e of server s into c: space (rack units, else colocation per
 * peak kW), network, and staff (per month, else an administrator's cost per year over the servers
 * one looks after). CAT_OK or an error (err set). */
static int site_terms(const struct cat_catalog *cat, const struct cat_server *s, double e,
                      int copies, const struct cat_cost_opts *o, struct cat_cost *c,
                      struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64], cur[32];
    double x;
    const struct cat_rate *rate;
    int rc;

    if (s->rack_per_month.present) {
        PRICE(&s->rack_per_month, x);
        add_input(c, "rack_per_month", &s->rack_per_month, val(o, &s->rack_per_month),
                  cu(cur, sizeof cur, s->rack_per_month.currency, "/month"), 0, 1e12);
        t = add_term(c, "rack", &s->rack_per_month);
        t->rate = rate;
        t->per_hour =
            copies * x * (s->rack_units / s->rack_units_per_rack) * e / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %g %s/month%s x (%g U / %g U) x %.6g / 730 h", copies,
                val(o, &s->rack_per_month), s->rack_per_month.currency, conv, s->rack_units,
                s->rack_units_per_rack, e);
    } else {
        double peak = power_kw(s, o, 1.0);
        PRICE(&s->colocation_per_kw_month, x);
        add_input(c, "colocation_per_kw_month", &s->colocation_per_kw_month,
                  val(o, &s->colocation_per_kw_month),
                  cu(cur, sizeof cur, s->colocation_per_kw_month.currency, "/kW-month"), 0, 1e12);
        t = add_term(c, "colocation", &s->colocation_per_kw_month);
        t->rate = rate;
        t->per_hour = copies * peak * x * e / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %.4g kW peak x %g %s/kW-month%s x %.6g / 730 h", copies, peak,
                val(o, &s->colocation_per_kw_month), s->colocation_per_kw_month.currency, conv, e);
    }

    if (s->network_per_port_month.present) {
        PRICE(&s->network_per_port_month, x);
        add_input(c, "network_per_port_month", &s->network_per_port_month,
                  val(o, &s->network_per_port_month),
                  cu(cur, sizeof cur, s->network_per_port_month.currency, "/port-month"), 0, 1e12);
        t = add_term(c, "network", &s->network_per_port_month);
        t->rate = rate;
        t->per_hour = copies * s->network_ports * x * e / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %d ports x %g %s/port-month%s x %.6g / 730 h", copies, s->network_ports,
                val(o, &s->network_per_port_month), s->network_per_port_month.currency, conv, e);
    }

    if (s->staff_per_month.present) {
        PRICE(&s->staff_per_month, x);
        add_input(c, "staff_per_month", &s->staff_per_month, val(o, &s->staff_per_month),
                  cu(cur, sizeof cur, s->staff_per_month.currency, "/month"), 0, 1e12);
        t = add_term(c, "staff", &s->staff_per_month);
        t->rate = rate;
        t->per_hour = copies * x * e / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %g %s/month%s x %.6g / 730 h", copies, val(o, &s->staff_per_month),
                s->staff_per_month.currency, conv, e);
    } else if (s->admin_cost_per_year.present) {
        double spa = val(o, &s->servers_per_admin);
        PRICE(&s->admin_cost_per_year, x);
        add_input(c, "admin_cost_per_year", &s->admin_cost_per_year,
                  val(o, &s->admin_cost_per_year),
                  cu(cur, sizeof cur, s->admin_cost_per_year.currency, "/y"), 0, 1e12);
        add_input(c, "servers_per_admin", &s->servers_per_admin, spa, "servers", 1e-6, 1e6);
        if (!(spa > 0))
            return cat_error_set(err, CAT_EINVAL, "servers_per_admin %g is not above 0", spa);
        t = add_term(c, "staff", &s->admin_cost_per_year);
        t->rate = rate;
        t->per_hour = copies * x / spa * e / CAT_HOURS_PER_YEAR;
        formula(o, t, "%d x %g %s/y%s / %g servers per admin x %.6g / 8760 h", copies,
                val(o, &s->admin_cost_per_year), s->admin_cost_per_year.currency, conv, spa, e);
    }
    return CAT_OK;
}

/* The storage term of copies of server s into c: size_gib x redundancy at its price per GiB,
 * a capital cost refreshed and maintained as the server's (none unless size_gib > 0 and the
 * server prices storage). CAT_OK or an error (err set). */
static int storage_term(const struct cat_catalog *cat, const struct cat_server *s, int copies,
                        double size_gib, const struct cat_cost_opts *o, struct cat_cost *c,
                        struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64], cur[32];
    double x, life = val(o, &s->amortisation_years), maint = val(o, &s->maintenance_rate);
    double red = val(o, &s->storage_redundancy), sc;
    const struct cat_rate *rate;
    int rc;

    if (!(size_gib > 0 && s->storage_per_gib.present))
        return CAT_OK;
    PRICE(&s->storage_per_gib, x);
    add_input(c, "storage_per_gib", &s->storage_per_gib, val(o, &s->storage_per_gib),
              cu(cur, sizeof cur, s->storage_per_gib.currency, "/GiB"), 0, 1e12);
    add_input(c, "storage_redundancy", &s->storage_redundancy, red, "x", 1, 100);
    sc = copies * size_gib * red * x;
    c->capex += sc;
    c->capex_per_hour += sc / (life * CAT_HOURS_PER_YEAR);
    t = add_term(c, "storage", &s->storage_per_gib);
    t->rate = rate;
    t->per_hour = sc * (1.0 / life + maint) / CAT_HOURS_PER_YEAR;
    formula(o, t, "%d x %g GiB x redundancy %g x %g %s/GiB%s x (1/%g y + %g/y) / 8760 h", copies,
            size_gib, red, val(o, &s->storage_per_gib), s->storage_per_gib.currency, conv, life,
            maint);
    return CAT_OK;
}

/*
 * The server terms for copies x e of server s (e: the share paid; packing: the server's
 * utilisation u for a slice, 1 for a whole server); size_gib > 0 prices that much storage per
 * copy when the server has storage_per_gib.
 */
static int server_terms(const struct cat_catalog *cat, const struct cat_server *s, double e,
                        double packing, int copies, double size_gib, const struct cat_cost_opts *o,
                        struct cat_cost *c, struct cat_error *err)
{
    double load = val(o, &s->cpu_load);
    int measured = s->has_power_curve && o && o->measured_load > 0;
    int rc;

    if (measured)
        load = fmin(1.0, fmin(1.0, o->measured_load) * packing);

    if (!(e > 0 && e <= 1))
        return cat_error_set(err, CAT_EINVAL, "server share %g is outside (0, 1]", e);
    if ((rc = capital_terms(cat, s, e, copies, o, c, err)) != CAT_OK ||
        (rc = power_term(cat, s, e, packing, copies, load, measured, o, c, err)) != CAT_OK ||
        (rc = site_terms(cat, s, e, copies, o, c, err)) != CAT_OK ||
        (rc = storage_term(cat, s, copies, size_gib, o, c, err)) != CAT_OK)
        return rc;
    return check_overrides(c, o, err);
}

static void total(struct cat_cost *c)
{
    c->per_hour = 0;
    for (size_t i = 0; i < c->n_terms; i++)
        c->per_hour += c->terms[i].per_hour;
    c->per_month = c->per_hour * CAT_HOURS_PER_MONTH;
}

int cat_server_cost(const struct cat_catalog *cat, const struct cat_server *s, double share,
                    struct cat_cost *out, struct cat_error *err)
{
    int rc;
    cost_reset(out);
    out->power_load = NAN;
    memcpy(out->currency, cat->currency, sizeof out->currency);
    out->nodes = 1;
    if ((rc = server_terms(cat, s, share, 1.0, 1, 0, NULL, out, err)) != CAT_OK)
        return rc;
    total(out);
    return CAT_OK;
}

static const struct cat_instance_price *instance_price(const struct cat_instance *in,
                                                       enum cat_pricing p)
{
    for (size_t i = 0; i < in->n_prices; i++)
        if (in->prices[i].pricing == p)
            return &in->prices[i];
    return NULL;
}

unsigned cat_config_pricings(const struct cat_catalog *cat, const struct cat_config *cf)
{
    const struct cat_instance *in;
    unsigned mask = 0;
    if (cf->server)
        return (1u << CAT_PRICING_COUNT) - 1;
    in = cat_find_instance(cat, cf->instance);
    for (size_t i = 0; in && i < in->n_prices; i++)
        mask |= 1u << in->prices[i].pricing;
    return mask;
}

static int disk_terms(const struct cat_catalog *cat, const struct cat_config *cf,
                      const struct cat_disk *d, int nodes, const struct cat_cost_opts *o,
                      struct cat_cost *c, struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64], unit[32];
    double x;
    const struct cat_rate *rate;
    int rc;

    if (d->local)
        return CAT_OK;
    if (!d->per_gib_month.present)
        return cat_error_set(err, CAT_ENOTFOUND, "%s: disk type %s has no prices", cf->id, d->id);
    if ((rc = convert(cat, &d->per_gib_month, val(o, &d->per_gib_month), &x, &rate, conv,
                      sizeof conv, err)) != CAT_OK)
        return rc;
    add_input(c, "disk per_gib_month", &d->per_gib_month, val(o, &d->per_gib_month),
              cu(unit, sizeof unit, d->per_gib_month.currency, "/GiB-month"), 0, 1e12);
    t = add_term(c, "disk capacity", &d->per_gib_month);
    t->rate = rate;
    t->per_hour = nodes * cf->size_gib * x / CAT_HOURS_PER_MONTH;
    formula(o, t, "%d x %g GiB x %g %s/GiB-month%s / 730 h (%s)", nodes, cf->size_gib,
            val(o, &d->per_gib_month), d->per_gib_month.currency, conv, d->id);
    if (cf->provisioned_iops > 0) {
        if ((rc = convert(cat, &d->per_prov_iops_month, val(o, &d->per_prov_iops_month), &x, &rate,
                          conv, sizeof conv, err)) != CAT_OK)
            return rc;
        add_input(c, "disk per_provisioned_iops_month", &d->per_prov_iops_month,
                  val(o, &d->per_prov_iops_month),
                  cu(unit, sizeof unit, d->per_prov_iops_month.currency, "/IOPS-month"), 0, 1e12);
        t = add_term(c, "disk IOPS", &d->per_prov_iops_month);
        t->rate = rate;
        t->per_hour = nodes * cf->provisioned_iops * x / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %g provisioned IOPS x %g %s/IOPS-month%s / 730 h", nodes,
                cf->provisioned_iops, val(o, &d->per_prov_iops_month),
                d->per_prov_iops_month.currency, conv);
    }
    if (cf->provisioned_throughput_mb_s > 0) {
        if ((rc = convert(cat, &d->per_prov_mb_s_month, val(o, &d->per_prov_mb_s_month), &x, &rate,
                          conv, sizeof conv, err)) != CAT_OK)
            return rc;
        add_input(c, "disk per_provisioned_mb_s_month", &d->per_prov_mb_s_month,
                  val(o, &d->per_prov_mb_s_month),
                  cu(unit, sizeof unit, d->per_prov_mb_s_month.currency, "/(MB/s)-month"), 0, 1e12);
        t = add_term(c, "disk throughput", &d->per_prov_mb_s_month);
        t->rate = rate;
        t->per_hour = nodes * cf->provisioned_throughput_mb_s * x / CAT_HOURS_PER_MONTH;
        formula(o, t, "%d x %g provisioned MB/s x %g %s/(MB/s)-month%s / 730 h", nodes,
                cf->provisioned_throughput_mb_s, val(o, &d->per_prov_mb_s_month),
                d->per_prov_mb_s_month.currency, conv);
    }
    return CAT_OK;
}

int cat_config_cost(const struct cat_catalog *cat, const char *config_id, enum cat_pricing pricing,
                    int nodes, struct cat_cost *out, struct cat_error *err)
{
    return cat_config_cost_x(cat, config_id, pricing, nodes, NULL, out, err);
}

int cat_config_cost_x(const struct cat_catalog *cat, const char *config_id,
                      enum cat_pricing pricing, int nodes, const struct cat_cost_opts *o,
                      struct cat_cost *out, struct cat_error *err)
{
    const struct cat_config *cf = cat_find_config(cat, config_id);
    int copies;
    const struct cat_disk *d = NULL;
    int rc;

    cost_reset(out);
    out->power_load = NAN;
    if (!cf)
        return cat_error_set(err, CAT_ENOTFOUND, "no configuration \"%s\" in the catalog",
                             config_id);
    if (nodes < 0)
        return cat_error_set(err, CAT_EINVAL, "node count %d is negative", nodes);
    out->config = cf;
    out->pricing = pricing;
    out->nodes = nodes ? nodes : cf->nodes;
    memcpy(out->currency, cat->currency, sizeof out->currency);
    out->ha = cf->ha;
    out->standby = cf->standby;
    if (!cf->ha && o && o->add_standby > 0) {
        out->standby = o->add_standby;
        out->ha = 1;
    }
    copies = out->nodes * (1 + out->standby);

    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(cat, cf->instance);
        const struct cat_instance_price *ip = in ? instance_price(in, pricing) : NULL;
        struct cat_cost_term *t;
        const struct cat_rate *rate;
        char conv[64], have[160] = "";
        double x;
        if (!in)
            return cat_error_set(err, CAT_ENOTFOUND, "%s: unknown instance \"%s\"", cf->id,
                                 cf->instance);
        if (!ip) {
            for (size_t i = 0; i < in->n_prices; i++) {
                size_t l = strlen(have);
                snprintf(have + l, sizeof have - l, "%s%s", l ? ", " : "",
                         cat_pricing_name(in->prices[i].pricing));
            }
            return cat_error_set(err, CAT_ENOTFOUND, "%s: instance %s has no %s price (it has: %s)",
                                 cf->id, in->id, cat_pricing_name(pricing), have);
        }
        if ((rc = convert(cat, &ip->price, val(o, &ip->price), &x, &rate, conv, sizeof conv,
                          err)) != CAT_OK)
            return rc;
        {
            char unit[32];
            snprintf(unit, sizeof unit, "%s/%s", ip->price.currency,
                     ip->unit == CAT_UNIT_HOUR    ? "h"
                     : ip->unit == CAT_UNIT_MONTH ? "month"
                                                  : "y");
            add_input(out, "instance", &ip->price, val(o, &ip->price), unit, 0, 1e12);
        }
        t = add_term(out, "instance", &ip->price);
        t->rate = rate;
        t->per_hour = copies * x / unit_hours(ip->unit);
        out->commit_per_hour = t->per_hour;
        if (ip->unit == CAT_UNIT_HOUR)
            formula(o, t, "%d x %g %s/h%s (%s %s)", copies, val(o, &ip->price), ip->price.currency,
                    conv, in->id, cat_pricing_name(pricing));
        else
            formula(o, t, "%d x %g %s/%s%s / %g h (%s %s)", copies, val(o, &ip->price),
                    ip->price.currency, cat_unit_name(ip->unit), conv, unit_hours(ip->unit), in->id,
                    cat_pricing_name(pricing));
    } else {
        const struct cat_server *s = cat_find_server(cat, cf->server);
        double share = 1.0, gib = 0, packing = 1.0;
        if (!s)
            return cat_error_set(err, CAT_ENOTFOUND, "%s: unknown server \"%s\"", cf->id,
                                 cf->server);
        if (cf->slice_vcpu > 0) {
            double u = val(o, &s->utilisation);
            add_input(out, "utilisation", &s->utilisation, u, "", 1e-9, 1);
            if (!(u > 0 && u <= 1))
                return cat_error_set(err, CAT_EINVAL, "utilisation %g is outside (0, 1]", u);
            packing = u;
            share = fmax((double)cf->slice_vcpu / s->vcpu, cf->slice_memory_gib / s->memory_gib);
            share = fmin(1.0, share / u);
        }
        if (cf->disk && s->local_disk && strcmp(cf->disk, s->local_disk) == 0)
            gib = cf->size_gib;
        if ((rc = server_terms(cat, s, share, packing, copies, gib, o, out, err)) != CAT_OK)
            return rc;
    }

    if (cf->disk) {
        char msg[300];
        d = cat_find_disk(cat, cf->disk);
        if (!d)
            return cat_error_set(err, CAT_ENOTFOUND, "%s: unknown disk type \"%s\"", cf->id,
                                 cf->disk);
        if (cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                 cf->provisioned_throughput_mb_s, &out->disk, msg,
                                 sizeof msg) != CAT_OK)
            return cat_error_set(err, CAT_EINVAL, "%s: %s", cf->id, msg);
        out->has_disk = 1;
        out->iops = out->disk.iops;
        out->throughput_mb_s = out->disk.throughput_mb_s;
        if (cf->instance && !d->local) {
            const struct cat_instance *in = cat_find_instance(cat, cf->instance);
            if (in->block_max_iops > 0)
                out->iops = fmin(out->iops, in->block_max_iops);
            if (in->block_max_throughput_mb_s > 0)
                out->throughput_mb_s = fmin(out->throughput_mb_s, in->block_max_throughput_mb_s);
        }
        if ((rc = disk_terms(cat, cf, d, copies, o, out, err)) != CAT_OK)
            return rc;
    }
    if ((rc = check_overrides(out, o, err)) != CAT_OK)
        return rc;
    total(out);
    return CAT_OK;
}

int cat_cost_npv(const struct cat_cost *c, int months, double rate, struct cat_npv *out)
{
    double rm, monthly;
    memset(out, 0, sizeof *out);
    if (months < 1 || !(rate >= 0 && rate < 10))
        return CAT_EINVAL;
    out->months = months;
    out->rate = rate;
    rm = pow(1 + rate, 1.0 / 12); /* d(t) = rm^-t */
    for (int t = 1; t <= months; t++)
        out->discounted_hours += CAT_HOURS_PER_MONTH * pow(rm, -t);
    if (c->owned) {
        int life_m = (int)lround(c->life_years * 12);
        int last = 0;
        if (life_m < 1)
            return CAT_EINVAL;
        for (int t = 0; t < months; t += life_m) {
            out->capital += c->capex * pow(rm, -t);
            out->purchases++;
            last = t;
        }
        if (months - last < life_m)
            out->residual = c->capex * (1.0 - (double)(months - last) / life_m) * pow(rm, -months);
        monthly = (c->per_hour - c->capex_per_hour) * CAT_HOURS_PER_MONTH;
        for (int t = 1; t <= months; t++)
            out->running += monthly * pow(rm, -t);
    } else {
        int term, upfront;
        double commit = c->commit_per_hour * CAT_HOURS_PER_MONTH;
        double rest = (c->per_hour - c->commit_per_hour) * CAT_HOURS_PER_MONTH;
        cat_pricing_term(c->pricing, &term, &upfront);
        for (int t = 1; t <= months; t++)
            out->running += rest * pow(rm, -t);
        if (term == 0) {
            for (int t = 1; t <= months; t++)
                out->running += commit * pow(rm, -t);
        } else {
            for (int t0 = 0; t0 < months; t0 += term) {
                out->purchases++;
                if (upfront)
                    out->capital += commit * term * pow(rm, -t0);
                else
                    for (int t = t0 + 1; t <= t0 + term; t++)
                        out->running += commit * pow(rm, -t);
            }
        }
    }
    out->total = out->capital + out->running - out->residual;
    return CAT_OK;
}

void cat_cost_print(FILE *f, const struct cat_cost *c)
{
    const char *id = c->config ? c->config->id : "(server)";
    char standby[64] = "";
    if (c->standby)
        snprintf(standby, sizeof standby, " + %d standby cop%s", c->standby,
                 c->standby == 1 ? "y" : "ies");
    else if (c->ha)
        snprintf(standby, sizeof standby, ", highly available (standby in the price)");
    fprintf(f, "%s  (%s, %d node%s%s, %s)\n", id,
            c->config && c->config->server ? "owned server" : cat_pricing_name(c->pricing),
            c->nodes, c->nodes == 1 ? "" : "s", standby, c->currency);
    for (size_t i = 0; i < c->n_terms; i++)
        fprintf(f, "  %-16s %12.6f %s/h  = %s%s\n", c->terms[i].name, c->terms[i].per_hour,
                c->currency, c->terms[i].formula,
                c->terms[i].price && c->terms[i].price->estimate ? "  [estimate]" : "");
    fprintf(f, "  %-16s %12.6f %s/h\n", "total", c->per_hour, c->currency);
    fprintf(f, "  %-16s %12.2f %s/month (730 h)%s\n", "per month", c->per_month, c->currency,
            c->estimate ? "  [rests on estimates]" : "");
    if (c->has_disk) {
        fprintf(f,
                "  disk             %g GiB: %.0f IOPS (baseline %.0f), %.1f MB/s (baseline %.1f)",
                c->disk.size_gib, c->disk.iops, c->disk.baseline_iops, c->disk.throughput_mb_s,
                c->disk.baseline_throughput_mb_s);
        if (c->iops < c->disk.iops || c->throughput_mb_s < c->disk.throughput_mb_s)
            fprintf(f, "; instance cap: %.0f IOPS, %.1f MB/s", c->iops, c->throughput_mb_s);
        fputc('\n', f);
    }
    fprintf(f, "  inputs:\n");
    for (size_t i = 0; i < c->n_inputs; i++) {
        const struct cat_cost_input *in = &c->inputs[i];
        char range[96] = "";
        if (in->fig->has_range)
            snprintf(range, sizeof range, "range %g to %g", in->fig->low, in->fig->high);
        fprintf(f, "    %-24s %g%s%s", in->name, in->value, *in->unit ? " " : "", in->unit);
        if (in->fig->user_set)
            fprintf(f, "  [set, %s]", *range ? range : "no range");
        else if (in->fig->estimate)
            fprintf(f, "  [estimate, %s]", *range ? range : "no range given");
        else if (*range)
            fprintf(f, "  (%s)", range);
        fputc('\n', f);
    }
    fprintf(f, "  sources:\n");
    for (size_t i = 0; i < c->n_inputs; i++) {
        const struct cat_price *p = c->inputs[i].fig;
        if (!p->source)
            continue;
        fprintf(f, "    %s: %s (as of %s)%s%s\n", c->inputs[i].name, p->source, p->as_of,
                p->estimate              ? "; estimate: "
                : p->user_set && p->note ? "; "
                                         : "",
                (p->estimate || p->user_set) && p->note ? p->note : "");
    }
    for (size_t i = 0; i < c->n_terms; i++) {
        const struct cat_rate *r = c->terms[i].rate;
        int dup = 0;
        if (!r)
            continue;
        for (size_t j = 0; j < i; j++)
            if (c->terms[j].rate == r)
                dup = 1;
        if (!dup)
            fprintf(f, "    rate %s: %g %s per %s, %s (as of %s)%s\n", r->code, r->rate.amount,
                    c->currency, r->code, r->rate.source, r->rate.as_of,
                    r->rate.estimate ? "; estimate" : "");
    }
}

json_t *cat_cost_to_json(const struct cat_cost *c)
{
    json_t *o = json_object(), *terms = json_array();
    if (!o || !terms) {
        json_decref(o);
        json_decref(terms);
        return NULL;
    }
    json_object_set_new(o, "config", c->config ? json_string(c->config->id) : json_null());
    json_object_set_new(o, "pricing", json_string(cat_pricing_name(c->pricing)));
    json_object_set_new(o, "currency", json_string(c->currency));
    json_object_set_new(o, "nodes", json_integer(c->nodes));
    json_object_set_new(o, "per_hour", json_real(c->per_hour));
    json_object_set_new(o, "per_month", json_real(c->per_month));
    json_object_set_new(o, "estimate", json_boolean(c->estimate));
    json_object_set_new(o, "ha", json_boolean(c->ha));
    json_object_set_new(o, "standby", json_integer(c->standby));
    {
        json_t *ins = json_array();
        for (size_t i = 0; ins && i < c->n_inputs; i++) {
            const struct cat_cost_input *in = &c->inputs[i];
            json_t *ji = json_object();
            if (!ji)
                break;
            json_object_set_new(ji, "name", json_string(in->name));
            json_object_set_new(ji, "value", json_real(in->value));
            json_object_set_new(ji, "unit", json_string(in->unit));
            json_object_set_new(ji, "estimate", json_boolean(in->fig->estimate));
            if (in->fig->user_set) {
                json_object_set_new(ji, "set", json_true());
                if (in->fig->note)
                    json_object_set_new(ji, "note", json_string(in->fig->note));
            }
            if (in->fig->has_range) {
                json_object_set_new(ji, "low", json_real(in->fig->low));
                json_object_set_new(ji, "high", json_real(in->fig->high));
            }
            if (in->fig->source) {
                json_object_set_new(ji, "source", json_string(in->fig->source));
                json_object_set_new(ji, "as_of", json_string(in->fig->as_of));
            }
            json_array_append_new(ins, ji);
        }
        if (ins)
            json_object_set_new(o, "inputs", ins);
    }
    for (size_t i = 0; i < c->n_terms; i++) {
        const struct cat_cost_term *t = &c->terms[i];
        json_t *jt = json_object();
        if (!jt)
            break;
        json_object_set_new(jt, "name", json_string(t->name));
        json_object_set_new(jt, "formula", json_string(t->formula));
        json_object_set_new(jt, "per_hour", json_real(t->per_hour));
        if (t->price) {
            json_object_set_new(jt, "source", json_string(t->price->source));
            json_object_set_new(jt, "as_of", json_string(t->price->as_of));
            json_object_set_new(jt, "estimate", json_boolean(t->price->estimate));
            if (t->price->note)
                json_object_set_new(jt, "note", json_string(t->price->note));
        }
        if (t->rate) {
            json_object_set_new(jt, "rate", json_real(t->rate->rate.amount));
            json_object_set_new(jt, "rate_currency", json_string(t->rate->code));
            json_object_set_new(jt, "rate_source", json_string(t->rate->rate.source));
        }
        json_array_append_new(terms, jt);
    }
    json_object_set_new(o, "terms", terms);
    if (c->has_disk) {
        json_t *d = json_object();
        if (d) {
            json_object_set_new(d, "size_gib", json_real(c->disk.size_gib));
            json_object_set_new(d, "iops", json_real(c->iops));
            json_object_set_new(d, "throughput_mb_s", json_real(c->throughput_mb_s));
            json_object_set_new(d, "volume_iops", json_real(c->disk.iops));
            json_object_set_new(d, "volume_throughput_mb_s", json_real(c->disk.throughput_mb_s));
            json_object_set_new(d, "baseline_iops", json_real(c->disk.baseline_iops));
            json_object_set_new(d, "baseline_throughput_mb_s",
                                json_real(c->disk.baseline_throughput_mb_s));
            json_object_set_new(o, "disk", d);
        }
    }
    return o;
}
