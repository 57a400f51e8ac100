/* load_server.c - the servers and configs sections of a catalog document (load_server.h). */
#include "load_server.h"
#include "disk_perf.h"
#include "load_field.h"

#include <stdlib.h>
#include <string.h>

/* The power curve {points: [[load, watts], ...], source, as_of, estimate, note}. */
static int get_power_curve(struct cat_jr *ld, json_t *obj, struct cat_server *s)
{
    static const char *const keys[] = {"points", "source", "as_of", "estimate", "note", NULL};
    json_t *v = json_object_get(obj, "power_curve"), *pts;
    size_t n, m;
    int rc;
    if (!v || json_is_null(v))
        return CAT_OK;
    n = jr_push_key(&ld->jr, "power_curve");
    if (!json_is_object(v)) {
        rc = jr_fail(&ld->jr,
                     "expected an object {points: [[load, watts], ...], source, as_of}, "
                     "got %s",
                     jr_type_name(v));
        goto out;
    }
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK ||
        (rc = cat_ld_provenance(ld, v, &s->power_curve_src, 0)) != CAT_OK)
        goto out;
    pts = json_object_get(v, "points");
    if (!pts) {
        rc = jr_fail(&ld->jr, "missing required key 'points' (an array of [load, watts])");
        goto out;
    }
    m = jr_push_key(&ld->jr, "points");
    if (!json_is_array(pts) || json_array_size(pts) < 2 || json_array_size(pts) > CAT_POWER_POINTS)
        rc = jr_fail(&ld->jr, "expected 2 to %d points [load, watts], got %s", CAT_POWER_POINTS,
                     json_is_array(pts) ? "fewer or more" : jr_type_name(pts));
    for (size_t i = 0; rc == CAT_OK && i < json_array_size(pts); i++) {
        json_t *pt = json_array_get(pts, i);
        size_t k = jr_push_index(&ld->jr, i);
        json_t *a = json_array_get(pt, 0), *b = json_array_get(pt, 1);
        if (!json_is_array(pt) || json_array_size(pt) != 2 || !json_is_number(a) ||
            !json_is_number(b))
            rc = jr_fail(&ld->jr, "expected [load, watts] (two numbers)");
        else {
            double load = json_number_value(a), w = json_number_value(b);
            if (!(load >= 0 && load <= 1))
                rc = jr_fail(&ld->jr, "load %g is outside [0, 1]", load);
            else if (!(w >= 0 && w <= 1e6))
                rc = jr_fail(&ld->jr, "watts %g are outside [0, 1e6]", w);
            else if (i > 0 && !(load > s->power_load[i - 1]))
                rc = jr_fail(&ld->jr, "loads must rise from point to point (%g after %g)", load,
                             s->power_load[i - 1]);
            else {
                s->power_load[i] = load;
                s->power_w[i] = w;
                s->n_power = i + 1;
            }
        }
        jr_pop(&ld->jr, k);
    }
    if (rc == CAT_OK && (s->power_load[0] != 0 || s->power_load[s->n_power - 1] != 1))
        rc = jr_fail(&ld->jr, "the curve must run from load 0 (idle) to load 1 (full)");
    jr_pop(&ld->jr, m);
    s->has_power_curve = rc == CAT_OK;
out:
    jr_pop(&ld->jr, n);
    return rc;
}

/* The licence's unit: licence_per "server" (the default) or "core", which needs a licence; frees
 * per. */
static int server_licence_per(struct cat_jr *ld, struct cat_server *s, char *per)
{
    int rc = CAT_OK;
    s->licence_per = CAT_LICENCE_SERVER;
    if (per) {
        size_t n = jr_push_key(&ld->jr, "licence_per");
        if (strcmp(per, "core") == 0)
            s->licence_per = CAT_LICENCE_CORE;
        else if (strcmp(per, "server") != 0)
            rc = jr_fail(&ld->jr, "expected \"server\" or \"core\", got \"%s\"", per);
        jr_pop(&ld->jr, n);
        free(per);
        if (rc != CAT_OK)
            return rc;
        if (!s->licence.present)
            return jr_fail_key(&ld->jr, "licence_per", "'licence_per' needs a 'licence' price");
    }
    return CAT_OK;
}

/* Cores, the electrical draw (power_kw, or power_curve read at cpu_load), PUE, the energy price. */
static int server_power(struct cat_jr *ld, json_t *v, struct cat_server *s)
{
    int rc;
    if ((rc = cat_ld_int(ld, v, "cores", 0, 1, 100000, s->vcpu > 1 ? s->vcpu / 2 : 1, &s->cores)) !=
            CAT_OK ||
        (rc = get_power_curve(ld, v, s)) != CAT_OK)
        return rc;
    if (s->has_power_curve && json_object_get(v, "power_kw"))
        return jr_fail_key(&ld->jr, "power_kw", "give 'power_kw' or 'power_curve', not both");
    if (!s->has_power_curve &&
        (rc = cat_ld_figure(ld, v, "power_kw", 0, 1000, 1, 0, &s->power_kw)) != CAT_OK) {
        if (!json_object_get(v, "power_kw"))
            return jr_fail(&ld->jr, "missing required key 'power_kw' or 'power_curve' (the "
                                    "server's electrical draw)");
        return rc;
    }
    if (!s->has_power_curve && json_object_get(v, "cpu_load"))
        return jr_fail_key(&ld->jr, "cpu_load", "'cpu_load' reads a 'power_curve'");
    if ((rc = cat_ld_figure(ld, v, "cpu_load", 0, 1, 0, 0.5, &s->cpu_load)) != CAT_OK ||
        (rc = cat_ld_figure(ld, v, "pue", 1, 5, 0, 1.5, &s->pue)) != CAT_OK ||
        (rc = cat_ld_price(ld, v, "energy_per_kwh", 1, &s->energy_per_kwh)) != CAT_OK)
        return rc;
    return CAT_OK;
}

/* The space the server takes: rack_per_month with its rack units, or colocation_per_kw_month. */
static int server_space(struct cat_jr *ld, json_t *v, struct cat_server *s)
{
    int rc;
    if ((rc = cat_ld_price(ld, v, "rack_per_month", 0, &s->rack_per_month)) != CAT_OK ||
        (rc = cat_ld_price(ld, v, "colocation_per_kw_month", 0, &s->colocation_per_kw_month)) !=
            CAT_OK)
        return rc;
    if (s->rack_per_month.present == s->colocation_per_kw_month.present)
        return jr_fail(&ld->jr, s->rack_per_month.present
                                    ? "give 'rack_per_month' or 'colocation_per_kw_month', not "
                                      "both"
                                    : "missing required key 'rack_per_month' or "
                                      "'colocation_per_kw_month' (the space the server takes)");
    if (s->rack_per_month.present) {
        if ((rc = jr_get_num(&ld->jr, v, "rack_units", 1, 0.1, 100, 0, &s->rack_units)) != CAT_OK ||
            (rc = jr_get_num(&ld->jr, v, "rack_units_per_rack", 0, 1, 100, 42,
                             &s->rack_units_per_rack)) != CAT_OK)
            return rc;
        if (s->rack_units > s->rack_units_per_rack)
            return jr_fail(&ld->jr, "rack_units %g exceed rack_units_per_rack %g", s->rack_units,
                           s->rack_units_per_rack);
    } else if (json_object_get(v, "rack_units") || json_object_get(v, "rack_units_per_rack")) {
        return jr_fail_key(&ld->jr,
                           json_object_get(v, "rack_units") ? "rack_units" : "rack_units_per_rack",
                           "rack units price space by 'rack_per_month'; colocation per kW "
                           "needs none");
    }
    return CAT_OK;
}

/* Network ports, staff, storage and utilisation, and the rules between them. */
static int server_running(struct cat_jr *ld, json_t *v, struct cat_server *s)
{
    int rc;
    if ((rc = cat_ld_price(ld, v, "network_per_port_month", 0, &s->network_per_port_month)) !=
            CAT_OK ||
        (rc = cat_ld_int(ld, v, "network_ports", 0, 1, 1000, 1, &s->network_ports)) != CAT_OK ||
        (rc = cat_ld_price(ld, v, "staff_per_month", 0, &s->staff_per_month)) != CAT_OK ||
        (rc = cat_ld_price(ld, v, "admin_cost_per_year", 0, &s->admin_cost_per_year)) != CAT_OK ||
        (rc = cat_ld_figure(ld, v, "servers_per_admin", 0, 1e6, 0, 0, &s->servers_per_admin)) !=
            CAT_OK ||
        (rc = cat_ld_price(ld, v, "storage_per_gib", 0, &s->storage_per_gib)) != CAT_OK ||
        (rc = cat_ld_figure(ld, v, "storage_redundancy", 1, 100, 0, 1, &s->storage_redundancy)) !=
            CAT_OK ||
        (rc = cat_ld_figure(ld, v, "utilisation", -1e12, 1e12, 0, 1, &s->utilisation)) != CAT_OK)
        return rc;
    if (json_object_get(v, "network_ports") && !s->network_per_port_month.present)
        return jr_fail_key(&ld->jr, "network_ports",
                           "'network_ports' needs a 'network_per_port_month' price");
    if (s->admin_cost_per_year.present != (json_object_get(v, "servers_per_admin") != NULL))
        return jr_fail(&ld->jr, "'admin_cost_per_year' and 'servers_per_admin' go together (staff "
                                "cost = admin cost / servers per admin)");
    if (s->admin_cost_per_year.present && s->staff_per_month.present)
        return jr_fail_key(&ld->jr, "staff_per_month",
                           "give 'staff_per_month' or 'admin_cost_per_year' with "
                           "'servers_per_admin', not both");
    if (s->servers_per_admin.present && !(s->servers_per_admin.amount > 0))
        return jr_fail_key(&ld->jr, "servers_per_admin",
                           "servers per administrator must be above 0, got %g",
                           s->servers_per_admin.amount);
    if (!(s->utilisation.amount > 0 && s->utilisation.amount <= 1))
        return jr_fail_key(&ld->jr, "utilisation",
                           "a utilisation (packing factor: the share of the server its slices "
                           "use) must be in (0, 1], got %g",
                           s->utilisation.amount);
    if (s->utilisation.has_range && !(s->utilisation.low > 0 && s->utilisation.high <= 1))
        return jr_fail_key(&ld->jr, "utilisation",
                           "the range of a utilisation must lie in (0, 1], got %g to %g",
                           s->utilisation.low, s->utilisation.high);
    if (json_object_get(v, "storage_redundancy") && !s->local_disk)
        return jr_fail_key(&ld->jr, "storage_redundancy",
                           "'storage_redundancy' needs a 'local_disk'");
    if (s->storage_per_gib.present && !s->local_disk)
        return jr_fail_key(&ld->jr, "storage_per_gib", "'storage_per_gib' needs a 'local_disk'");
    return CAT_OK;
}

int cat_ld_server(struct cat_jr *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "description",
                                       "vcpu",
                                       "memory_gib",
                                       "local_disk",
                                       "capital",
                                       "amortisation_years",
                                       "maintenance_rate",
                                       "licence",
                                       "licence_per",
                                       "cores",
                                       "power_kw",
                                       "power_curve",
                                       "cpu_load",
                                       "pue",
                                       "energy_per_kwh",
                                       "rack_per_month",
                                       "rack_units",
                                       "rack_units_per_rack",
                                       "colocation_per_kw_month",
                                       "network_per_port_month",
                                       "network_ports",
                                       "staff_per_month",
                                       "admin_cost_per_year",
                                       "servers_per_admin",
                                       "storage_per_gib",
                                       "storage_redundancy",
                                       "utilisation",
                                       NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_server *s;
    char *per = NULL;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected a server object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->servers = cat_ld_grow(c->servers, c->n_servers, sizeof *c->servers)))
        return jr_nomem(&ld->jr);
    s = &c->servers[c->n_servers];
    if ((rc = cat_ld_id(ld, v, CAT_SEC_SERVER, &s->id)) != CAT_OK)
        return rc;
    c->n_servers++;
    cat_index_add(c, CAT_SEC_SERVER);
    if ((rc = jr_get_str(&ld->jr, v, "description", 0, &s->description)) != CAT_OK ||
        (rc = cat_ld_int(ld, v, "vcpu", 1, 1, 100000, 0, &s->vcpu)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "memory_gib", 1, 0.001, 1e9, 0, &s->memory_gib)) != CAT_OK ||
        (rc = cat_ld_local_disk(ld, v, &s->local_disk, &s->local_disk_count, &s->local_disk_gib)) !=
            CAT_OK ||
        (rc = cat_ld_price(ld, v, "capital", 1, &s->capital)) != CAT_OK ||
        (rc = cat_ld_figure(ld, v, "amortisation_years", 0.1, 50, 0, 5, &s->amortisation_years)) !=
            CAT_OK ||
        (rc = cat_ld_figure(ld, v, "maintenance_rate", 0, 10, 0, 0.15, &s->maintenance_rate)) !=
            CAT_OK ||
        (rc = cat_ld_price(ld, v, "licence", 0, &s->licence)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "licence_per", 0, &per)) != CAT_OK)
        return rc;
    if ((rc = server_licence_per(ld, s, per)) != CAT_OK ||
        (rc = server_power(ld, v, s)) != CAT_OK || (rc = server_space(ld, v, s)) != CAT_OK)
        return rc;
    return server_running(ld, v, s);
}

/* The config's machine: exactly one of an instance and a server, known; a server's slice. */
static int config_host(struct cat_jr *ld, json_t *v, struct cat_config *cf)
{
    static const char *const slice_keys[] = {"vcpu", "memory_gib", NULL};
    struct cat_catalog *c = ld->cat;
    json_t *o;
    size_t n;
    int rc = CAT_OK;
    if (!cf->instance == !cf->server)
        return jr_fail(&ld->jr, "a config names exactly one of 'instance' and 'server'");
    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(c, cf->instance);
        if (!in && ld->base)
            in = cat_find_instance(ld->base, cf->instance);
        if (!in) {
            n = jr_push_key(&ld->jr, "instance");
            rc = jr_fail(&ld->jr, "unknown instance \"%s\" (not among $.instances)", cf->instance);
            jr_pop(&ld->jr, n);
            return rc;
        }
    } else {
        const struct cat_server *s = cat_find_server(c, cf->server);
        if (!s && ld->base)
            s = cat_find_server(ld->base, cf->server);
        if (!s) {
            n = jr_push_key(&ld->jr, "server");
            rc = jr_fail(&ld->jr, "unknown server \"%s\" (not among $.servers)", cf->server);
            jr_pop(&ld->jr, n);
            return rc;
        }
        if ((o = json_object_get(v, "slice")) != NULL) {
            n = jr_push_key(&ld->jr, "slice");
            if (!json_is_object(o))
                rc = jr_fail(&ld->jr, "expected an object {vcpu, memory_gib}, got %s",
                             jr_type_name(o));
            else if ((rc = jr_check_keys(&ld->jr, o, slice_keys)) == CAT_OK &&
                     (rc = cat_ld_int(ld, o, "vcpu", 1, 1, s->vcpu, 0, &cf->slice_vcpu)) == CAT_OK)
                rc = jr_get_num(&ld->jr, o, "memory_gib", 1, 0.001, s->memory_gib, 0,
                                &cf->slice_memory_gib);
            jr_pop(&ld->jr, n);
            if (rc != CAT_OK)
                return rc;
        }
    }
    return CAT_OK;
}

/* A local disk d of the config: the machine's own, and no larger than it has (raw GiB). */
static int config_local_disk(struct cat_jr *ld, const struct cat_config *cf,
                             const struct cat_disk *d)
{
    struct cat_catalog *c = ld->cat;
    size_t n;
    int rc = CAT_OK;
    const char *host_disk = NULL, *host = cf->instance ? cf->instance : cf->server;
    double host_gib = 0, raw = 1;
    if (cf->instance) {
        const struct cat_instance *in = cat_find_instance(c, cf->instance);
        if (!in && ld->base)
            in = cat_find_instance(ld->base, cf->instance);
        host_disk = in->local_disk;
        host_gib = in->local_disk_count * in->local_disk_gib;
    } else {
        const struct cat_server *sv = cat_find_server(c, cf->server);
        if (!sv && ld->base)
            sv = cat_find_server(ld->base, cf->server);
        host_disk = sv->local_disk;
        host_gib = sv->local_disk_count * sv->local_disk_gib;
        raw = sv->storage_redundancy.amount;
    }
    n = jr_push_key(&ld->jr, "disk");
    if (!host_disk || strcmp(host_disk, d->id) != 0)
        rc = jr_fail(&ld->jr, "local disk \"%s\" is not the local disk of %s (%s)", d->id, host,
                     host_disk ? host_disk : "it has none");
    jr_pop(&ld->jr, n);
    if (rc != CAT_OK)
        return rc;
    if (cf->size_gib * raw > host_gib) {
        n = jr_push_key(&ld->jr, "size_gib");
        if (raw > 1)
            rc = jr_fail(&ld->jr,
                         "%g GiB x storage redundancy %g = %g raw GiB exceed the %g GiB "
                         "of local disk %s has",
                         cf->size_gib, raw, cf->size_gib * raw, host_gib, host);
        else
            rc = jr_fail(&ld->jr, "%g GiB exceed the %g GiB of local disk %s has", cf->size_gib,
                         host_gib, host);
        jr_pop(&ld->jr, n);
        return rc;
    }
    return CAT_OK;
}

/* The config's disk: known, priced, its capacity (GiB) and provisioned figures in range. */
static int config_disk(struct cat_jr *ld, json_t *v, struct cat_config *cf)
{
    size_t n;
    int rc = CAT_OK;
    const struct cat_disk *d = cat_ld_disk(ld, cf->disk);
    n = jr_push_key(&ld->jr, "disk");
    if (!d) {
        rc = jr_fail(&ld->jr, "unknown disk type \"%s\" (not among $.disks)", cf->disk);
        jr_pop(&ld->jr, n);
        return rc;
    }
    if (!d->local && !d->per_gib_month.present)
        rc = jr_fail(&ld->jr, "disk type \"%s\" has no prices, so a configuration cannot use it",
                     cf->disk);
    jr_pop(&ld->jr, n);
    if (rc != CAT_OK)
        return rc;
    if (!json_object_get(v, "size_gib"))
        return jr_fail(&ld->jr, "missing required key 'size_gib' (disk capacity per node, GiB)");
    n = jr_push_key(&ld->jr, "size_gib");
    if (cf->size_gib < d->min_gib || cf->size_gib > d->max_gib)
        rc = jr_fail(&ld->jr, "%g GiB is outside %s's capacity range [%g, %g] GiB", cf->size_gib,
                     d->id, d->min_gib, d->max_gib);
    jr_pop(&ld->jr, n);
    if (rc != CAT_OK)
        return rc;
    {
        struct cat_disk_perf perf;
        char msg[300];
        if (cat_disk_performance(d, cf->size_gib, cf->provisioned_iops,
                                 cf->provisioned_throughput_mb_s, &perf, msg, sizeof msg) != CAT_OK)
            return jr_fail(&ld->jr, "%s", msg);
    }
    if (d->local)
        return config_local_disk(ld, cf, d);
    return CAT_OK;
}

int cat_ld_config(struct cat_jr *ld, json_t *v)
{
    static const char *const keys[] = {"id",
                                       "description",
                                       "instance",
                                       "server",
                                       "slice",
                                       "disk",
                                       "size_gib",
                                       "provisioned_iops",
                                       "provisioned_throughput_mb_s",
                                       "nodes",
                                       "ha",
                                       "standby",
                                       "scale_out",
                                       NULL};
    struct cat_catalog *c = ld->cat;
    struct cat_config *cf;
    int rc;
    if (!json_is_object(v))
        return jr_fail(&ld->jr, "expected a config object, got %s", jr_type_name(v));
    if ((rc = jr_check_keys(&ld->jr, v, keys)) != CAT_OK)
        return rc;
    if (!(c->configs = cat_ld_grow(c->configs, c->n_configs, sizeof *c->configs)))
        return jr_nomem(&ld->jr);
    cf = &c->configs[c->n_configs];
    if ((rc = cat_ld_id(ld, v, CAT_SEC_CONFIG, &cf->id)) != CAT_OK)
        return rc;
    c->n_configs++;
    cat_index_add(c, CAT_SEC_CONFIG);
    if ((rc = jr_get_str(&ld->jr, v, "description", 0, &cf->description)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "instance", 0, &cf->instance)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "server", 0, &cf->server)) != CAT_OK ||
        (rc = jr_get_str(&ld->jr, v, "disk", 0, &cf->disk)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "size_gib", 0, 0, 1e9, 0, &cf->size_gib)) != CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "provisioned_iops", 0, 0, 1e9, 0, &cf->provisioned_iops)) !=
            CAT_OK ||
        (rc = jr_get_num(&ld->jr, v, "provisioned_throughput_mb_s", 0, 0, 1e9, 0,
                         &cf->provisioned_throughput_mb_s)) != CAT_OK ||
        (rc = cat_ld_int(ld, v, "nodes", 0, 1, 100000, 1, &cf->nodes)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "ha", 0, 0, &cf->ha)) != CAT_OK ||
        (rc = cat_ld_int(ld, v, "standby", 0, 1, 100, 1, &cf->standby)) != CAT_OK ||
        (rc = jr_get_bool(&ld->jr, v, "scale_out", 0, 0, &cf->scale_out)) != CAT_OK)
        return rc;
    if ((rc = config_host(ld, v, cf)) != CAT_OK)
        return rc;
    if (cf->instance && json_object_get(v, "slice"))
        return jr_fail(&ld->jr, "'slice' applies to a server, not to an instance");
    if (json_object_get(v, "standby") && !(cf->server && cf->ha))
        return jr_fail_key(&ld->jr, "standby",
                           "'standby' counts the standby servers of an HA server configuration "
                           "(\"ha\": true with \"server\"); an HA instance's price includes its "
                           "standby");
    if (!cf->ha)
        cf->standby = 0;
    else if (cf->instance)
        cf->standby = 0; /* in the price */
    if (cf->disk)
        return config_disk(ld, v, cf);
    if (cf->size_gib > 0 || cf->provisioned_iops > 0)
        return jr_fail(&ld->jr, "size_gib and provisioned_iops need a 'disk'");
    return CAT_OK;
}
