/* cost.c - cost per hour of a configuration, term by term (formulas in cost.h). */
#include "cost.h"

#include <math.h>
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

static int server_terms(const struct cat_catalog *cat, const struct cat_server *s, double share,
                        int nodes, struct cat_cost *c, struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64];
    double capex, x;
    const struct cat_rate *rate;
    int rc;

    if (!(share > 0 && share <= 1))
        return cat_error_set(err, CAT_EINVAL, "server share %g is outside (0, 1]", share);
    if ((rc = convert(cat, &s->capital, s->capital.amount, &capex, &rate, conv, sizeof conv,
                      err)) != CAT_OK)
        return rc;
    t = add_term(c, "capital", &s->capital);
    t->rate = rate;
    t->per_hour = nodes * capex * share / (s->amortisation_years * CAT_HOURS_PER_YEAR);
    snprintf(t->formula, sizeof t->formula, "%d x %g %s%s x %.6g / (%g y x 8760 h)", nodes,
             s->capital.amount, s->capital.currency, conv, share, s->amortisation_years);

    t = add_term(c, "maintenance", &s->capital);
    t->rate = rate;
    t->per_hour = nodes * s->maintenance_rate * capex * share / CAT_HOURS_PER_YEAR;
    snprintf(t->formula, sizeof t->formula, "%d x %g/y x %g %s%s x %.6g / 8760 h", nodes,
             s->maintenance_rate, s->capital.amount, s->capital.currency, conv, share);

    if ((rc = convert(cat, &s->energy_per_kwh, s->energy_per_kwh.amount, &x, &rate, conv,
                      sizeof conv, err)) != CAT_OK)
        return rc;
    t = add_term(c, "power", &s->energy_per_kwh);
    t->rate = rate;
    t->per_hour = nodes * s->power_kw * share * s->pue * x;
    snprintf(t->formula, sizeof t->formula, "%d x %g kW x %.6g x PUE %g x %g %s/kWh%s", nodes,
             s->power_kw, share, s->pue, s->energy_per_kwh.amount, s->energy_per_kwh.currency,
             conv);

    if ((rc = convert(cat, &s->rack_per_month, s->rack_per_month.amount, &x, &rate, conv,
                      sizeof conv, err)) != CAT_OK)
        return rc;
    t = add_term(c, "rack", &s->rack_per_month);
    t->rate = rate;
    t->per_hour =
        nodes * x * (s->rack_units / s->rack_units_per_rack) * share / CAT_HOURS_PER_MONTH;
    snprintf(t->formula, sizeof t->formula, "%d x %g %s/month%s x (%g U / %g U) x %.6g / 730 h",
             nodes, s->rack_per_month.amount, s->rack_per_month.currency, conv, s->rack_units,
             s->rack_units_per_rack, share);

    if (s->staff_per_month.present) {
        if ((rc = convert(cat, &s->staff_per_month, s->staff_per_month.amount, &x, &rate, conv,
                          sizeof conv, err)) != CAT_OK)
            return rc;
        t = add_term(c, "staff", &s->staff_per_month);
        t->rate = rate;
        t->per_hour = nodes * x * share / CAT_HOURS_PER_MONTH;
        snprintf(t->formula, sizeof t->formula, "%d x %g %s/month%s x %.6g / 730 h", nodes,
                 s->staff_per_month.amount, s->staff_per_month.currency, conv, share);
    }
    return CAT_OK;
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
    memset(out, 0, sizeof *out);
    memcpy(out->currency, cat->currency, sizeof out->currency);
    out->nodes = 1;
    if ((rc = server_terms(cat, s, share, 1, out, err)) != CAT_OK)
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
                      const struct cat_disk *d, int nodes, struct cat_cost *c,
                      struct cat_error *err)
{
    struct cat_cost_term *t;
    char conv[64];
    double x;
    const struct cat_rate *rate;
    int rc;

    if (d->local)
        return CAT_OK;
    if (!d->per_gib_month.present)
        return cat_error_set(err, CAT_ENOTFOUND, "%s: disk type %s has no prices", cf->id, d->id);
    if ((rc = convert(cat, &d->per_gib_month, d->per_gib_month.amount, &x, &rate, conv, sizeof conv,
                      err)) != CAT_OK)
        return rc;
    t = add_term(c, "disk capacity", &d->per_gib_month);
    t->rate = rate;
    t->per_hour = nodes * cf->size_gib * x / CAT_HOURS_PER_MONTH;
    snprintf(t->formula, sizeof t->formula, "%d x %g GiB x %g %s/GiB-month%s / 730 h (%s)", nodes,
             cf->size_gib, d->per_gib_month.amount, d->per_gib_month.currency, conv, d->id);
    if (cf->provisioned_iops > 0) {
        if ((rc = convert(cat, &d->per_prov_iops_month, d->per_prov_iops_month.amount, &x, &rate,
                          conv, sizeof conv, err)) != CAT_OK)
            return rc;
        t = add_term(c, "disk IOPS", &d->per_prov_iops_month);
        t->rate = rate;
        t->per_hour = nodes * cf->provisioned_iops * x / CAT_HOURS_PER_MONTH;
        snprintf(t->formula, sizeof t->formula,
                 "%d x %g provisioned IOPS x %g %s/IOPS-month%s / 730 h", nodes,
                 cf->provisioned_iops, d->per_prov_iops_month.amount,
                 d->per_prov_iops_month.currency, conv);
    }
    if (cf->provisioned_throughput_mb_s > 0) {
        if ((rc = convert(cat, &d->per_prov_mb_s_month, d->per_prov_mb_s_month.amount, &x, &rate,
                          conv, sizeof conv, err)) != CAT_OK)
            return rc;
        t = add_term(c, "disk throughput", &d->per_prov_mb_s_month);
        t->rate = rate;
        t->per_hour = nodes * cf->provisioned_throughput_mb_s * x / CAT_HOURS_PER_MONTH;
        snprintf(t->formula, sizeof t->formula,
                 "%d x %g provisioned MB/s x %g %s/(MB/s)-month%s / 730 h", nodes,
                 cf->provisioned_throughput_mb_s, d->per_prov_mb_s_month.amount,
                 d->per_prov_mb_s_month.currency, conv);
    }
    return CAT_OK;
}

int cat_config_cost(const struct cat_catalog *cat, const char *config_id, enum cat_pricing pricing,
                    int nodes, struct cat_cost *out, struct cat_error *err)
{
    const struct cat_config *cf = cat_find_config(cat, config_id);
    const struct cat_disk *d = NULL;
    int rc;

    memset(out, 0, sizeof *out);
    if (!cf)
        return cat_error_set(err, CAT_ENOTFOUND, "no configuration \"%s\" in the catalog",
                             config_id);
    if (nodes < 0)
        return cat_error_set(err, CAT_EINVAL, "node count %d is negative", nodes);
    out->config = cf;
    out->pricing = pricing;
    out->nodes = nodes ? nodes : cf->nodes;
    memcpy(out->currency, cat->currency, sizeof out->currency);

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
        if ((rc = convert(cat, &ip->price, ip->price.amount, &x, &rate, conv, sizeof conv, err)) !=
            CAT_OK)
            return rc;
        t = add_term(out, "instance", &ip->price);
        t->rate = rate;
        t->per_hour = out->nodes * x / unit_hours(ip->unit);
        if (ip->unit == CAT_UNIT_HOUR)
            snprintf(t->formula, sizeof t->formula, "%d x %g %s/h%s (%s %s)", out->nodes,
                     ip->price.amount, ip->price.currency, conv, in->id, cat_pricing_name(pricing));
        else
            snprintf(t->formula, sizeof t->formula, "%d x %g %s/%s%s / %g h (%s %s)", out->nodes,
                     ip->price.amount, ip->price.currency, cat_unit_name(ip->unit), conv,
                     unit_hours(ip->unit), in->id, cat_pricing_name(pricing));
    } else {
        const struct cat_server *s = cat_find_server(cat, cf->server);
        double share = 1.0;
        if (!s)
            return cat_error_set(err, CAT_ENOTFOUND, "%s: unknown server \"%s\"", cf->id,
                                 cf->server);
        if (cf->slice_vcpu > 0)
            share = fmax((double)cf->slice_vcpu / s->vcpu, cf->slice_memory_gib / s->memory_gib);
        if ((rc = server_terms(cat, s, share, out->nodes, out, err)) != CAT_OK)
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
        if ((rc = disk_terms(cat, cf, d, out->nodes, out, err)) != CAT_OK)
            return rc;
    }
    total(out);
    return CAT_OK;
}

void cat_cost_print(FILE *f, const struct cat_cost *c)
{
    const char *id = c->config ? c->config->id : "(server)";
    fprintf(f, "%s  (%s, %d node%s, %s)\n", id,
            c->config && c->config->server ? "owned server" : cat_pricing_name(c->pricing),
            c->nodes, c->nodes == 1 ? "" : "s", c->currency);
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
    fprintf(f, "  sources:\n");
    for (size_t i = 0; i < c->n_terms; i++) {
        const struct cat_price *p = c->terms[i].price;
        int dup = 0;
        if (!p)
            continue;
        for (size_t j = 0; j < i; j++)
            if (c->terms[j].price == p)
                dup = 1;
        if (dup)
            continue;
        fprintf(f, "    %s: %s (as of %s)%s%s\n", c->terms[i].name, p->source, p->as_of,
                p->estimate ? "; estimate: " : "", p->estimate && p->note ? p->note : "");
        if (c->terms[i].rate)
            fprintf(f, "    rate %s: %g %s per %s, %s (as of %s)%s\n", c->terms[i].rate->code,
                    c->terms[i].rate->rate.amount, c->currency, c->terms[i].rate->code,
                    c->terms[i].rate->rate.source, c->terms[i].rate->rate.as_of,
                    c->terms[i].rate->rate.estimate ? "; estimate" : "");
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
