/*
 * catalog.h - the sizeup.catalog/1 record: instances, disks, on-premises servers and
 * configurations, each price with its currency, source, as-of date and estimate flag.
 *
 * The JSON layout is documented in docs/catalog-format.md. This module loads one or more
 * catalog files into one struct cat_catalog, validates every field (types, ranges, unknown
 * keys, references between sections, duplicate ids across all loaded files) and answers
 * look-ups by id. Errors name the file, the line and column of the offending value and its
 * JSON path ("$.instances[2].prices[0].amount").
 *
 * All amounts stay in the currency they were written in; conversion into the catalog's
 * currency happens only through the rates the catalog declares (cat_catalog_convert()).
 *
 * Thread-safety: a loaded catalog is read-only; concurrent readers are safe.
 *
 * This header fronts catalog.c (the catalog in memory: lookups, merge, derived configurations,
 * prices and units) and catalog_file.c (reading catalogs: cat_catalog_add_buffer,
 * cat_catalog_add_file, cat_catalog_add_source, cat_is_url, cat_default_source).
 */
#ifndef SIZEUP_CATALOGS_CATALOG_H
#define SIZEUP_CATALOGS_CATALOG_H

#include <stddef.h>

#define CAT_SCHEMA "sizeup.catalog/1"
/* Hours per month used to turn monthly prices into hourly ones (AWS and Azure convention,
 * docs/reference/catalogs.md 2e). */
#define CAT_HOURS_PER_MONTH 730.0
/* Hours per year (365 x 24), used by the on-premises amortisation formula. */
#define CAT_HOURS_PER_YEAR 8760.0

/* Error returns of every catalogs function. */
enum {
    CAT_OK = 0,
    CAT_EINVAL = -1,    /* a value is out of range, a reference is unknown, an id is repeated */
    CAT_ENOMEM = -2,    /* allocation failed */
    CAT_EIO = -3,       /* a file could not be read or written (errno text in the message) */
    CAT_EPARSE = -4,    /* the input is not JSON */
    CAT_ESCHEMA = -5,   /* schema missing or not sizeup.catalog/1 */
    CAT_ENOTFOUND = -6, /* an id or a price for the asked pricing model does not exist */
    CAT_ENET = -7,      /* a URL could not be fetched (network error, HTTP error status) */
    CAT_ETOOBIG = -8    /* a download exceeded its size cap */
};

/* Error detail. msg reads "FILE:LINE:COLUMN: $.path: what was expected"; line and column are
 * 1-based (0 when unknown), path is the JSON path of the offending value ("" when none). */
struct cat_error {
    char msg[640];
    char path[192]; /* JR_PATH_MAX of util/jsonread.h */
    long line, column;
};

/* Pricing models. Hourly figures of reserved terms are effective rates (upfront spread over
 * the term), as ec2instances.info publishes them; the model says when the money is paid
 * (cat_pricing_term: the commitment in months and whether it is paid upfront). */
enum cat_pricing {
    CAT_PRICING_ON_DEMAND,       /* "on-demand": pay as you go */
    CAT_PRICING_RESERVED_1Y,     /* "reserved-1y": 1-year commitment, no upfront (monthly) */
    CAT_PRICING_RESERVED_3Y,     /* "reserved-3y": 3-year commitment, no upfront (monthly) */
    CAT_PRICING_SPOT,            /* "spot" */
    CAT_PRICING_SUBSCRIPTION_1M, /* "subscription-1m": monthly subscription (Alibaba, Huawei) */
    CAT_PRICING_SUBSCRIPTION_1Y, /* "subscription-1y": a year prepaid */
    CAT_PRICING_RESERVED_1Y_ALL, /* "reserved-1y-all-upfront": the whole year paid at its start */
    CAT_PRICING_RESERVED_3Y_ALL, /* "reserved-3y-all-upfront": three years paid at the start */
    CAT_PRICING_SAVINGS_1Y,      /* "savings-plan-1y": 1-year commitment, no upfront */
    CAT_PRICING_SAVINGS_3Y,      /* "savings-plan-3y": 3-year commitment, no upfront */
    CAT_PRICING_COUNT
};

/* Unit a price amount is quoted per. */
enum cat_unit { CAT_UNIT_HOUR, CAT_UNIT_MONTH, CAT_UNIT_YEAR };

/* One price with its provenance. Strings are owned by the catalog. */
struct cat_price {
    int present;      /* 0 when the catalog does not give this price */
    double amount;    /* >= 0, in currency per the unit the context says */
    char currency[8]; /* ISO 4217 code, e.g. "USD", "CNY" */
    char *source;     /* where the figure comes from (document, URL, file) */
    char *as_of;      /* date of the figure, YYYY-MM-DD */
    int estimate;     /* 1 when derived or second-hand rather than a published list price */
    char *note;       /* how an estimate was made; may be NULL */
    int has_range;    /* 1 when the catalog states a range: low <= amount <= high */
    double low, high; /* the range (an estimate's plausible low and high values) */
    int user_set;     /* 1: amount (and maybe the range) set by the user after loading, not read
                         from the catalog (setinput.h, `--set`): source says where, note what
                         the catalog had; estimate is then 0 */
};

/*
 * A figure of the owned-server cost model that is not money (a life in years, a rate, a PUE, a
 * utilisation): the same record as a price, with amount = the value and currency "" (no unit
 * conversion). A bare number in the catalog gives a figure without provenance (source NULL,
 * not an estimate); an object {value, source, as_of, estimate, note, low, high} gives one with.
 */
typedef struct cat_price cat_figure;

/* Most points of a power curve. */
#define CAT_POWER_POINTS 12

/* Licences are counted per server or per physical core. */
enum cat_licence_per { CAT_LICENCE_SERVER, CAT_LICENCE_CORE };

/* A price of an instance under one pricing model. */
struct cat_instance_price {
    enum cat_pricing pricing;
    enum cat_unit unit;
    struct cat_price price;
};

/* Instances without a vcpu count whose position a loaded file keeps (cat_instance.where): the
 * position costs a scan of the text up to the instance, so it is bounded per file. */
#define CAT_WHERE_MAX 64

/* A cloud instance type (or a managed database instance class). */
struct cat_instance {
    char *id;          /* unique across the catalog, e.g. "aws-c5.2xlarge" */
    char *provider;    /* "aws", "alibaba", "huawei", "azure", ... */
    char *region;      /* e.g. "us-east-1"; may be NULL */
    char *name;        /* provider's name, e.g. "c5.2xlarge"; may be NULL */
    char *description; /* may be NULL */
    char *family;      /* instance family, e.g. "c5" (sizes of one family share a processor and
                          scale with vCPUs); NULL when not given (cat_instance_family derives it) */
    char *processor;   /* e.g. "Intel Xeon Platinum 8124M"; NULL when unknown */
    double clock_ghz;  /* processor clock, GHz (> 0), or 0 when unknown */
    int vcpu;          /* > 0, or 0 when unknown */
    char *where;       /* "FILE:LINE:COLUMN" of the instance object when its vcpu is not given
                          (for messages: sizeup predict cannot scale it), for the first
                          CAT_WHERE_MAX such instances of a file; else NULL */
    double memory_gib; /* > 0, or 0 when unknown */
    char *local_disk;  /* disk id of the instance store, or NULL */
    int local_disk_count;
    double local_disk_gib;             /* size of one local disk, GiB */
    double block_max_iops;             /* per-instance cap on attached block storage, 0 = none */
    double block_max_throughput_mb_s;  /* same for MB/s, 0 = none */
    struct cat_instance_price *prices; /* n_prices >= 1 */
    size_t n_prices;
};

/* A performance function of capacity C in GiB: max(floor, min(base + per_gib*C, cap,
 * cap_per_gib*C)). Absent floor is 0, absent caps are +infinity. */
struct cat_perf_rule {
    double base, per_gib, floor, cap, cap_per_gib;
};

/* A disk type: performance and price rules as data. */
struct cat_disk {
    char *id;                  /* e.g. "alibaba-essd-pl1" */
    char *provider;            /* may be NULL */
    char *name;                /* e.g. "ESSD PL1"; may be NULL */
    int local;                 /* 1: instance store or server disk, priced in the instance/server */
    double min_gib, max_gib;   /* allowed capacity */
    struct cat_perf_rule iops; /* baseline IOPS at capacity C */
    struct cat_perf_rule throughput_mb_s; /* baseline MB/s at capacity C */
    /* Provisioned IOPS bought on top of the baseline (gp3, io2, AutoPL, GPSSD2). */
    int has_prov_iops;
    double prov_iops_max;            /* most extra IOPS, +inf when absent */
    double prov_iops_total_min;      /* least total IOPS once provisioned (io2: 100), 0 = none */
    double prov_iops_total_max;      /* most total IOPS, +inf when absent */
    double prov_iops_total_per_gib;  /* most total IOPS per GiB, +inf when absent */
    double throughput_per_prov_iops; /* MB/s each provisioned IOPS adds (AutoPL 16/1024) */
    double prov_iops_throughput_max; /* ceiling of MB/s with provisioned IOPS (io2: 4000), +inf */
    /* Provisioned throughput bought on top of the baseline (gp3, GPSSD2). */
    int has_prov_throughput;
    double prov_tp_total_max;      /* most total MB/s, +inf when absent */
    double prov_tp_total_per_iops; /* most total MB/s per total IOPS, +inf when absent */
    /* Prices per month; absent (present == 0) for local disks. */
    struct cat_price per_gib_month, per_prov_iops_month, per_prov_mb_s_month;
    char *source; /* where the performance rule comes from */
    /* Latency of one small random I/O at queue depth 1, ms (a figure: the vendor's published
     * figure with its source, or an estimate with a range); present == 0 when the catalog gives
     * none (sizeup predicts nothing on this disk type without a latency stated elsewhere). */
    cat_figure latency_ms;
};

/*
 * An on-premises server and the figures of its cost (docs/catalog-format.md "Servers"; the
 * formulas are in cost.h). Optional prices have present == 0 when absent; figures always
 * hold a value (the default when absent).
 */
struct cat_server {
    char *id;
    char *description;
    int vcpu;          /* hardware threads sold as vCPU, > 0 */
    double memory_gib; /* > 0 */
    char *local_disk;  /* disk id or NULL */
    int local_disk_count;
    double local_disk_gib;
    struct cat_price capital;         /* purchase price of the whole server, bought again at the
                                         end of each life */
    cat_figure amortisation_years;    /* life before the refresh, years, > 0; default 5 */
    cat_figure maintenance_rate;      /* support and maintenance, fraction of capital per year,
                                         >= 0; default 0.15 */
    struct cat_price licence;         /* software licence per unit per year; optional */
    enum cat_licence_per licence_per; /* unit of licence: the server or a physical core */
    int cores;                        /* physical cores (licence per core), > 0; default vcpu/2 */
    /* power: a constant average draw (power_kw) or a curve of watts against CPU load */
    int has_power_curve;
    cat_figure power_kw; /* constant average draw, kW (without a curve) */
    size_t n_power;      /* points of the curve, >= 2, load ascending from 0 to 1 */
    double power_load[CAT_POWER_POINTS], power_w[CAT_POWER_POINTS];
    struct cat_price power_curve_src; /* provenance of the curve (amount unused) */
    cat_figure cpu_load;              /* average CPU load the curve is read at, [0, 1];
                                         default 0.5 */
    cat_figure pue;                   /* power usage effectiveness, >= 1; default 1.5 */
    struct cat_price energy_per_kwh;
    /* space: a share of a rack by U, or colocation per kW of the server's peak power */
    struct cat_price rack_per_month;          /* one whole rack per month; or absent */
    double rack_units;                        /* U the server occupies, > 0 */
    double rack_units_per_rack;               /* U of a rack, > 0; default 42 */
    struct cat_price colocation_per_kw_month; /* per kW of peak draw per month; or absent */
    struct cat_price network_per_port_month;  /* optional */
    int network_ports;                        /* ports, >= 1; default 1 */
    /* staff: a share per server per month, or an administrator's cost and servers each */
    struct cat_price staff_per_month;
    struct cat_price admin_cost_per_year; /* one administrator (FTE), fully loaded */
    cat_figure servers_per_admin;         /* servers one administrator runs, > 0 */
    struct cat_price storage_per_gib;     /* capital per raw GiB of storage; optional */
    cat_figure storage_redundancy;        /* raw GiB per usable GiB (RAID 1: 2), >= 1; default 1 */
    cat_figure utilisation; /* packing: share of the server its slices use, (0, 1]; default 1 */
};

/* A configuration: what a ranked candidate runs on. Exactly one of instance/server is set. */
struct cat_config {
    char *id;          /* e.g. "idc-nvme": the target name used in points */
    char *description; /* may be NULL */
    char *instance;    /* instance id or NULL */
    char *server;      /* server id or NULL */
    int slice_vcpu;    /* server slice, vCPU (0 = whole server) */
    double slice_memory_gib;
    char *disk;                         /* disk id or NULL (no storage priced) */
    double size_gib;                    /* disk capacity per node, GiB */
    double provisioned_iops;            /* extra IOPS per node, >= 0 */
    double provisioned_throughput_mb_s; /* extra MB/s per node, >= 0 */
    int nodes;                          /* >= 1 */
    int ha;        /* 1: highly available (an instance: the price includes a standby; a server:
                      standby copies are priced) */
    int standby;   /* server configurations with ha: standby copies priced, >= 1; default 1 */
    int scale_out; /* 1: copies of it serve a load together (sharding, a distributed engine):
                    * rank --required-tps may buy several; 0 (default): one copy is the most */
};

/* A currency conversion rate declared by the catalog: 1 unit of code = rate catalog units. */
struct cat_rate {
    char code[8];
    struct cat_price rate; /* amount = catalog currency per one unit of code */
};

/* Sections of a catalog (for cat_index_add). */
enum cat_section { CAT_SEC_INSTANCE, CAT_SEC_DISK, CAT_SEC_SERVER, CAT_SEC_CONFIG, CAT_SEC_COUNT };

/*
 * An id index of one section: open addressing (linear probing) on FNV-1a hashes of the ids,
 * slot = entry index + 1 (0 empty), at most half full. Entries [0, n) are indexed; look-ups
 * scan the entries after them linearly, so an entry appended without cat_index_add is still
 * found.
 */
struct cat_index {
    size_t *slot;
    size_t cap; /* a power of two, or 0 */
    size_t n;   /* entries indexed */
};

/* A loaded catalog: the union of every file added to it. */
struct cat_catalog {
    char currency[8]; /* currency every cost is reported in */
    char *as_of;      /* as-of date of the first file */
    char *name;       /* name of the first file's catalog, may be NULL */
    struct cat_rate *rates;
    size_t n_rates;
    struct cat_instance *instances;
    size_t n_instances;
    struct cat_disk *disks;
    size_t n_disks;
    struct cat_server *servers;
    size_t n_servers;
    struct cat_config *configs;
    size_t n_configs;
    char **files; /* names of the files added */
    size_t n_files;
    char **licences; /* n_files: each file's top-level "licence" (the terms its data is under,
                        e.g. "CC BY-SA 4.0"), or NULL when it states none */
    char *licence;   /* while one document is read: its "licence" (moved by cat_catalog_merge) */
    struct cat_index index[CAT_SEC_COUNT]; /* id look-ups in O(1) (cat_find_*) */
};

/**
 * Index the entries of section sec that are not yet indexed (call after appending one, as
 * the loader does). Out of memory leaves the index as it was: look-ups stay correct (they scan
 * what is not indexed).
 */
void cat_index_add(struct cat_catalog *cat, enum cat_section sec);

/** Free what a catalog holds and leave it empty (all counts 0). NULL-safe. */
void cat_catalog_clear(struct cat_catalog *cat);

/**
 * Move the contents of src (one document just read, whose rates already include dst's) into
 * dst and record name among dst's files; src is left holding nothing that dst needs (clear it
 * with cat_catalog_clear()).
 * @return CAT_OK or CAT_ENOMEM (dst keeps what it had).
 */
int cat_catalog_merge(struct cat_catalog *dst, struct cat_catalog *src, const char *name);

/**
 * Add a configuration to a loaded catalog: a copy of configuration base (its host, slice,
 * nodes, high availability, scale-out) with its own id and disk: disk type disk_id (a
 * non-local type that has prices, or the host's own local disk) at size_gib per node, nothing
 * provisioned. For configurations derived after loading (`rank --disks`); the catalog is not
 * loaded into afterwards.
 * @param cat    loaded catalog; base and disk_id must be in it, id must not be
 * @param descr  its description (copied; may be NULL)
 * @param err    on CAT_EINVAL, why (may be NULL)
 * @return CAT_OK; CAT_EINVAL (base or the disk type unknown, id taken, the size outside the
 *         type's range, a disk without prices, a local disk the host does not have, or larger
 *         than the host's local disks); CAT_ENOMEM.
 */
int cat_config_derive(struct cat_catalog *cat, const char *base, const char *id,
                      const char *disk_id, double size_gib, const char *descr,
                      struct cat_error *err);

/** Heap catalog, empty. NULL when out of memory. Free with cat_catalog_free(). */
struct cat_catalog *cat_catalog_new(void);

/** Free a catalog and everything it owns. NULL-safe. */
void cat_catalog_free(struct cat_catalog *cat);

/**
 * Parse and validate one sizeup.catalog/1 document held in memory and add it to cat.
 * The whole document is checked before anything is added: on error cat is unchanged.
 *
 * @param cat   catalog to add to (may already hold other files)
 * @param text  the document, len bytes (need not be NUL-terminated)
 * @param name  file name or URL used in error messages
 * @param err   filled on error; may be NULL
 * @return CAT_OK, CAT_EPARSE (not JSON), CAT_ESCHEMA (schema missing or other version),
 *         CAT_EINVAL (a value out of range, an unknown key, an unknown reference, a duplicate id,
 *         a currency without a declared rate, a currency different from the files already
 *         added), CAT_ENOMEM.
 */
int cat_catalog_add_buffer(struct cat_catalog *cat, const char *text, size_t len, const char *name,
                           struct cat_error *err);

/**
 * Read a file and add it as cat_catalog_add_buffer() does.
 * @return as cat_catalog_add_buffer(), or CAT_EIO when the file cannot be read.
 */
int cat_catalog_add_file(struct cat_catalog *cat, const char *path, struct cat_error *err);

/**
 * Fill err (when not NULL) with a message and no position: the one error setter of catalogs/
 * (errtext.h formats it).
 * @return rc, for `return cat_error_set(err, CAT_EINVAL, ...)`.
 */
int cat_error_set(struct cat_error *err, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** 1 when s starts with http:// or https:// (case-insensitive), else 0. */
int cat_is_url(const char *s);

/**
 * Add a catalog file, or a catalog at an http(s) URL (fetched with cat_fetch_options_default
 * of fetch.h, without paging), as cat_catalog_add_buffer() does.
 * @return CAT_OK; a file: CAT_EIO (cannot be read); a URL: CAT_ENET, CAT_ETOOBIG, CAT_EIO
 *         (cat_fetch's errors); either: CAT_EPARSE, CAT_ESCHEMA, CAT_EINVAL (not a valid
 *         catalog), CAT_ENOMEM. err says which source and why.
 */
int cat_catalog_add_source(struct cat_catalog *cat, const char *src, struct cat_error *err);

/**
 * The catalog to read when none is named: $SIZEUP_CATALOG when it is set and not empty, else
 * the bundled data/catalogs/published.json (its absolute path fixed when sizeup was built).
 * @return environment or static text; not NULL.
 */
const char *cat_default_source(void);

/**
 * The family of an instance: its `family` when the catalog gives one, else the provider's name
 * up to its first '.' ("c5.2xlarge" -> "c5", "ecs.c8i.large" -> "ecs"; AWS names are
 * FAMILY.SIZE), else NULL (no name, or a name without '.').
 * @param buf  receives a derived family (cap bytes); the result is in->family or buf
 * @return the family (borrowed from in or buf), or NULL.
 */
const char *cat_instance_family(const struct cat_instance *in, char *buf, size_t cap);

/** Look-ups by id, O(1) on average (the index); NULL when absent. Borrowed from cat. */
const struct cat_instance *cat_find_instance(const struct cat_catalog *cat, const char *id);
const struct cat_disk *cat_find_disk(const struct cat_catalog *cat, const char *id);
const struct cat_server *cat_find_server(const struct cat_catalog *cat, const char *id);
const struct cat_config *cat_find_config(const struct cat_catalog *cat, const char *id);

/**
 * Convert an amount into the catalog's currency through its declared rates.
 * @param code  currency of amount; the catalog's own currency converts at 1
 * @param out   converted amount
 * @param rate  if not NULL, set to the rate record used (NULL for the catalog's own currency)
 * @return CAT_OK, or CAT_ENOTFOUND when the catalog declares no rate for code.
 */
int cat_catalog_convert(const struct cat_catalog *cat, double amount, const char *code, double *out,
                        const struct cat_rate **rate);

/** Name of a pricing model ("on-demand", ...); "?" for an out-of-range value. */
const char *cat_pricing_name(enum cat_pricing p);

/** Parse a pricing model name. @return 0 and *out set, or -1 for an unknown name. */
int cat_pricing_parse(const char *s, enum cat_pricing *out);

/**
 * When a pricing model is paid: the commitment in months (0: none, pay as you go) and whether
 * the whole commitment is paid at its start (1) or monthly (0).
 */
void cat_pricing_term(enum cat_pricing p, int *months, int *upfront);

/** Name of a unit: "hour", "month", "year". */
const char *cat_unit_name(enum cat_unit u);

#endif
