/* fetch.c - libcurl downloads with retries, paging, size cap and a conditional cache. */
#include "fetch.h"

#include "outfile.h"
#include "readfile.h"

#include <curl/curl.h>
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void cat_fetch_options_default(struct cat_fetch_options *o)
{
    memset(o, 0, sizeof *o);
    o->connect_timeout_ms = 10000;
    o->timeout_ms = 600000;
    o->max_retries = 4;
    o->backoff_initial_ms = 1000;
    o->backoff_max_ms = 30000;
    o->retry_after_max_ms = 120000;
    o->max_bytes = 1LL << 30;
    o->max_pages = 10000;
    o->cache_dir = NULL;
    o->follow_pages = 1;
    o->require_json = 1;
    o->progress = 0;
}

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* ---- one response ------------------------------------------------------------------------- */

struct response {
    char *body;
    size_t len, cap;
    long long max_bytes;
    int too_big;
    char etag[256];
    char last_modified[128];
    long retry_after_ms; /* -1 when absent */
    /* progress */
    int progress, tty;
    const char *url;
    int64_t start_ms, last_print_ms;
    int printed;
};

static size_t on_body(char *data, size_t size, size_t n, void *arg)
{
    struct response *r = arg;
    size_t add = size * n;
    if ((long long)(r->len + add) > r->max_bytes) {
        r->too_big = 1;
        return 0;
    }
    if (r->len + add + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 65536;
        char *p;
        while (cap < r->len + add + 1)
            cap *= 2;
        if (!(p = realloc(r->body, cap)))
            return 0;
        r->body = p;
        r->cap = cap;
    }
    memcpy(r->body + r->len, data, add);
    r->len += add;
    r->body[r->len] = '\0';
    return add;
}

static void trim_copy(char *dst, size_t cap, const char *src, size_t n)
{
    while (n && (*src == ' ' || *src == '\t')) {
        src++;
        n--;
    }
    while (n && (src[n - 1] == '\r' || src[n - 1] == '\n' || src[n - 1] == ' '))
        n--;
    if (n >= cap)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static size_t on_header(char *data, size_t size, size_t n, void *arg)
{
    struct response *r = arg;
    size_t len = size * n;
    char value[256];
    if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        /* a new response (after a redirect): forget the headers of the previous one */
        r->etag[0] = r->last_modified[0] = '\0';
        r->retry_after_ms = -1;
        return len;
    }
    if (len > 5 && strncasecmp(data, "ETag:", 5) == 0)
        trim_copy(r->etag, sizeof r->etag, data + 5, len - 5);
    else if (len > 14 && strncasecmp(data, "Last-Modified:", 14) == 0)
        trim_copy(r->last_modified, sizeof r->last_modified, data + 14, len - 14);
    else if (len > 12 && strncasecmp(data, "Retry-After:", 12) == 0) {
        char *end = NULL;
        long s;
        trim_copy(value, sizeof value, data + 12, len - 12);
        s = strtol(value, &end, 10);
        if (end != value && *end == '\0' && s >= 0) {
            r->retry_after_ms = s * 1000;
        } else {
            time_t t = curl_getdate(value, NULL);
            if (t != -1) {
                time_t now = time(NULL);
                r->retry_after_ms = t > now ? (long)(t - now) * 1000 : 0;
            }
        }
    }
    return len;
}

static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
    struct response *r = arg;
    int64_t t = now_ms();
    (void)ultotal;
    (void)ulnow;
    if (!r->progress || t - r->start_ms < 2000 || t - r->last_print_ms < 1000)
        return 0;
    r->last_print_ms = t;
    r->printed = 1;
    if (dltotal > 0)
        fprintf(stderr, "%ssizeup: fetching %s: %.1f of %.1f MiB (%.0f%%)%s", r->tty ? "\r" : "",
                r->url, dlnow / 1048576.0, dltotal / 1048576.0, 100.0 * dlnow / dltotal,
                r->tty ? "" : "\n");
    else
        fprintf(stderr, "%ssizeup: fetching %s: %.1f MiB%s", r->tty ? "\r" : "", r->url,
                dlnow / 1048576.0, r->tty ? "" : "\n");
    return 0;
}

/* ---- cache -------------------------------------------------------------------------------- */

struct cache {
    char dir[1024];
    int enabled;
};

static void cache_open(struct cache *c, const struct cat_fetch_options *o)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    c->enabled = 0;
    if (o->cache_dir && !*o->cache_dir)
        return;
    if (o->cache_dir)
        snprintf(c->dir, sizeof c->dir, "%s", o->cache_dir);
    else if (xdg && *xdg)
        snprintf(c->dir, sizeof c->dir, "%s/sizeup", xdg);
    else if (home && *home)
        snprintf(c->dir, sizeof c->dir, "%s/.cache/sizeup", home);
    else
        return;
    /* create the folder and its parent (one level is enough for $HOME/.cache) */
    if (mkdir(c->dir, 0700) != 0 && errno != EEXIST) {
        char parent[1024];
        char *slash;
        snprintf(parent, sizeof parent, "%s", c->dir);
        slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            mkdir(parent, 0700);
        }
        if (mkdir(c->dir, 0700) != 0 && errno != EEXIST)
            return;
    }
    c->enabled = 1;
}

static void cache_path(const struct cache *c, const char *url, const char *ext, char *out,
                       size_t cap)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a 64 */
    for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
        h ^= *p;
        h *= 1099511628211ULL;
    }
    snprintf(out, cap, "%s/%016llx.%s", c->dir, (unsigned long long)h, ext);
}

/* Read the validators of url from the cache; 0 when present. */
static int cache_validators(const struct cache *c, const char *url, char *etag, size_t ecap,
                            char *lm, size_t lcap)
{
    char path[1100];
    json_t *meta;
    struct stat st;
    const char *u, *e, *l;
    etag[0] = lm[0] = '\0';
    if (!c->enabled)
        return -1;
    cache_path(c, url, "body", path, sizeof path);
    if (stat(path, &st) != 0)
        return -1;
    cache_path(c, url, "meta", path, sizeof path);
    if (!(meta = json_load_file(path, 0, NULL)))
        return -1;
    u = json_string_value(json_object_get(meta, "url"));
    e = json_string_value(json_object_get(meta, "etag"));
    l = json_string_value(json_object_get(meta, "last_modified"));
    if (!u || strcmp(u, url) != 0) {
        json_decref(meta);
        return -1;
    }
    snprintf(etag, ecap, "%s", e ? e : "");
    snprintf(lm, lcap, "%s", l ? l : "");
    json_decref(meta);
    return etag[0] || lm[0] ? 0 : -1;
}

static void cache_store(const struct cache *c, const char *url, const struct response *r)
{
    char path[1100];
    json_t *meta;
    char *text;
    if (!c->enabled || (!r->etag[0] && !r->last_modified[0]))
        return;
    cache_path(c, url, "body", path, sizeof path);
    if (outfile_write(path, r->body ? r->body : "", r->len, NULL, 0) != 0)
        return;
    meta = json_pack("{s:s, s:s, s:s}", "url", url, "etag", r->etag, "last_modified",
                     r->last_modified);
    if (!meta)
        return;
    text = json_dumps(meta, JSON_COMPACT);
    json_decref(meta);
    if (text) {
        cache_path(c, url, "meta", path, sizeof path);
        outfile_write(path, text, strlen(text), NULL, 0);
        free(text);
    }
}

/* Largest cached body read back: no cap of its own (the body was within --max-size when it
 * was stored). */
#define CACHE_BODY_MAX ((size_t)1 << 40)

static int cache_load_body(const struct cache *c, const char *url, struct response *r)
{
    char path[1100], *body;
    size_t len;
    cache_path(c, url, "body", path, sizeof path);
    if (readfile(path, CACHE_BODY_MAX, &body, &len, NULL, 0) != READFILE_OK)
        return -1;
    free(r->body);
    r->body = body;
    r->len = r->cap = len;
    return 0;
}

/* ---- one URL, with retries ---------------------------------------------------------------- */

static int transient(CURLcode cc)
{
    switch (cc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_COULDNT_CONNECT:
    case CURLE_PARTIAL_FILE:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
        return 1;
    default:
        return 0;
    }
}

static int get_url(CURL *h, const char *url, const struct cat_fetch_options *o,
                   const struct cache *cache, struct response *r, struct cat_fetch_result *res,
                   struct cat_error *err)
{
    char etag[256], lm[128];
    int have_cache = cache_validators(cache, url, etag, sizeof etag, lm, sizeof lm) == 0;
    char curl_msg[CURL_ERROR_SIZE];

    for (int attempt = 0;; attempt++) {
        struct curl_slist *hdrs = NULL;
        char line[400];
        CURLcode cc;
        long status = 0, wait_ms;
        int retry = 0;

        r->len = 0;
        if (r->body)
            r->body[0] = '\0';
        r->too_big = 0;
        r->etag[0] = r->last_modified[0] = '\0';
        r->retry_after_ms = -1;
        r->start_ms = r->last_print_ms = now_ms();
        curl_msg[0] = '\0';
        if (have_cache && etag[0]) {
            snprintf(line, sizeof line, "If-None-Match: %s", etag);
            hdrs = curl_slist_append(hdrs, line);
        }
        if (have_cache && lm[0]) {
            snprintf(line, sizeof line, "If-Modified-Since: %s", lm);
            hdrs = curl_slist_append(hdrs, line);
        }
        curl_easy_setopt(h, CURLOPT_URL, url);
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, curl_msg);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
        curl_easy_setopt(h, CURLOPT_XFERINFODATA, r);
        cc = curl_easy_perform(h);
        curl_slist_free_all(hdrs);
        res->requests++;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        res->http_status = status;
        if (r->printed && r->tty)
            fputc('\n', stderr);
        r->printed = 0;

        if (r->too_big || cc == CURLE_FILESIZE_EXCEEDED)
            return cat_error_set(err, CAT_ETOOBIG, "%s: response larger than the cap of %lld bytes",
                                 url, o->max_bytes);
        if (cc != CURLE_OK) {
            if (!transient(cc) || attempt >= o->max_retries) {
                if (cc == CURLE_PARTIAL_FILE)
                    return cat_error_set(
                        err, CAT_ENET,
                        "%s: truncated body: the connection closed after %zu bytes, "
                        "before the announced length (%d attempt%s)",
                        url, r->len, attempt + 1, attempt ? "s" : "");
                return cat_error_set(err, CAT_ENET, "%s: %s (%d attempt%s)", url,
                                     curl_msg[0] ? curl_msg : curl_easy_strerror(cc), attempt + 1,
                                     attempt ? "s" : "");
            }
            retry = 1;
        } else if (status == 304) {
            if (!have_cache || cache_load_body(cache, url, r) != 0)
                return cat_error_set(err, CAT_ENET, "%s: HTTP 304 Not Modified but no cached copy",
                                     url);
            res->cached++;
            return CAT_OK;
        } else if (status == 429 || status >= 500 || (status == 404 && o->retry_not_found)) {
            if (attempt >= o->max_retries)
                return cat_error_set(err, CAT_ENET, "%s: HTTP %ld after %d attempt%s", url, status,
                                     attempt + 1, attempt ? "s" : "");
            retry = 1;
        } else if (status >= 200 && status < 300) {
            cache_store(cache, url, r);
            return CAT_OK;
        } else {
            return cat_error_set(err, CAT_ENET, "%s: HTTP %ld", url, status);
        }
        if (retry) {
            long long b = o->backoff_initial_ms;
            for (int i = 0; i < attempt && b < o->backoff_max_ms; i++)
                b *= 2;
            wait_ms = (long)(b < o->backoff_max_ms ? b : o->backoff_max_ms);
            if (r->retry_after_ms >= 0)
                wait_ms = r->retry_after_ms < o->retry_after_max_ms ? r->retry_after_ms
                                                                    : o->retry_after_max_ms;
            if (o->progress)
                fprintf(stderr, "sizeup: %s: %s%ld; retrying in %.1f s\n", url,
                        cc != CURLE_OK ? "transfer error " : "HTTP ",
                        cc != CURLE_OK ? (long)cc : status, wait_ms / 1000.0);
            sleep_ms(wait_ms);
            res->waited_ms += wait_ms;
            res->retries++;
        }
    }
}

/* ---- paging ------------------------------------------------------------------------------- */

/* url with the query parameter $skip set to skip (a new string; free()). */
static char *with_skip(const char *url, long skip)
{
    const char *keys[] = {"$skip=", "%24skip=", "%24Skip=", "$Skip="};
    size_t n = strlen(url) + 32;
    char *out = malloc(n);
    if (!out)
        return NULL;
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *p = strstr(url, keys[k]);
        if (p && (p[-1] == '?' || p[-1] == '&')) {
            const char *v = p + strlen(keys[k]);
            const char *end = strchr(v, '&');
            snprintf(out, n, "%.*s%ld%s", (int)(v - url), url, skip, end ? end : "");
            return out;
        }
    }
    snprintf(out, n, "%s%s$skip=%ld", url, strchr(url, '?') ? "&" : "?", skip);
    return out;
}

static int is_azure_page(json_t *doc)
{
    return json_is_object(doc) && json_is_array(json_object_get(doc, "Items")) &&
           json_object_get(doc, "NextPageLink") != NULL;
}

/* The libcurl options of every request of h: redirects within http and https, o's timeouts and
 * size cap, any compression, the body, header and progress callbacks. */
static void setup_handle(CURL *h, const struct cat_fetch_options *o)
{
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, o->timeout_ms);
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(h, CURLOPT_USERAGENT, "sizeup-catalog/1 (libcurl)");
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_bytes);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
}

/* The Azure pages of one fetch, merged. */
struct pages {
    json_t *merged; /* every page's Items (NULL before the first page) */
    json_t *first;  /* the first page, for its billing keys */
    char *next;     /* the next page's URL (malloc'd), or NULL */
    long skipped;   /* items read so far (the $skip of the next page) */
};

/* Azure page doc (not consumed) appended to pg: its Items merged, pg->next the next page's URL
 * (NextPageLink, else url with $skip when the page was full), or NULL. CAT_OK or CAT_ENOMEM. */
static int add_page(json_t *doc, const char *url, struct pages *pg, struct cat_error *err)
{
    json_t *items = json_object_get(doc, "Items");
    json_t *link = json_object_get(doc, "NextPageLink");
    json_t *count = json_object_get(doc, "Count");
    size_t n_items = json_array_size(items);
    long long cnt = json_is_integer(count) ? json_integer_value(count) : (long long)n_items;
    if (!pg->merged) {
        pg->merged = json_array();
        pg->first = json_incref(doc);
    }
    if (!pg->merged || json_array_extend(pg->merged, items) != 0)
        return cat_error_set(err, CAT_ENOMEM, "%s: out of memory", url);
    pg->skipped += (long)n_items;
    free(pg->next);
    pg->next = NULL;
    if (json_is_string(link) && json_string_length(link) > 0)
        pg->next = strdup(json_string_value(link));
    else if (cnt == CAT_AZURE_PAGE_SIZE && n_items == CAT_AZURE_PAGE_SIZE)
        pg->next = with_skip(url, pg->skipped);
    return CAT_OK;
}

/* The merged pages as one Azure document (the first page's billing keys, Count, Items and a null
 * NextPageLink) into *buf (malloc'd) and *len. CAT_OK or CAT_ENOMEM. */
static int merged_document(const struct pages *pg, const char *url, char **buf, size_t *len,
                           struct cat_error *err)
{
    json_t *out = json_object();
    const char *keys[] = {"BillingCurrency", "CustomerEntityId", "CustomerEntityType"};
    for (size_t k = 0; out && k < 3; k++) {
        json_t *v = json_object_get(pg->first, keys[k]);
        if (v)
            json_object_set(out, keys[k], v);
    }
    if (out) {
        json_object_set_new(out, "Count", json_integer((json_int_t)json_array_size(pg->merged)));
        json_object_set(out, "Items", pg->merged);
        json_object_set_new(out, "NextPageLink", json_null());
        *buf = json_dumps(out, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    }
    json_decref(out);
    if (!*buf)
        return cat_error_set(err, CAT_ENOMEM, "%s: out of memory", url);
    *len = strlen(*buf);
    return CAT_OK;
}

int cat_fetch(const char *url, const struct cat_fetch_options *opts, char **buf, size_t *len,
              struct cat_fetch_result *res_out, struct cat_error *err)
{
    struct cat_fetch_options defaults;
    const struct cat_fetch_options *o = opts;
    struct cat_fetch_result res_local = {0}, *res = res_out ? res_out : &res_local;
    struct response r;
    struct cache cache;
    struct pages pg = {NULL, NULL, NULL, 0};
    CURL *h;
    int rc = CAT_OK;

    *buf = NULL;
    *len = 0;
    memset(res, 0, sizeof *res);
    if (!o) {
        cat_fetch_options_default(&defaults);
        o = &defaults;
    }
    if (strncasecmp(url, "http://", 7) != 0 && strncasecmp(url, "https://", 8) != 0)
        return cat_error_set(err, CAT_EINVAL, "%s: not an http:// or https:// URL", url);
    if (!(h = curl_easy_init()))
        return cat_error_set(err, CAT_ENOMEM, "%s: cannot start libcurl", url);
    memset(&r, 0, sizeof r);
    r.max_bytes = o->max_bytes;
    r.progress = o->progress;
    r.tty = isatty(STDERR_FILENO);
    cache_open(&cache, o);
    setup_handle(h, o);

    for (const char *page_url = url; page_url;) {
        json_t *doc;
        json_error_t jerr;
        if (res->pages >= o->max_pages) {
            rc = cat_error_set(err, CAT_ETOOBIG, "%s: more than %d pages", url, o->max_pages);
            break;
        }
        r.url = page_url;
        if ((rc = get_url(h, page_url, o, &cache, &r, res, err)) != CAT_OK)
            break;
        res->pages++;
        if (!o->require_json && !o->follow_pages)
            break;
        doc = json_loadb(r.body ? r.body : "", r.len, JSON_DECODE_ANY, &jerr);
        if (!doc) {
            if (o->require_json) {
                rc = cat_error_set(err, CAT_EPARSE, "%s:%d:%d: the response is not JSON: %s",
                                   page_url, jerr.line, jerr.column, jerr.text);
                if (err) {
                    err->line = jerr.line;
                    err->column = jerr.column;
                }
            }
            break;
        }
        if (!o->follow_pages || !is_azure_page(doc)) {
            json_decref(doc);
            break;
        }
        rc = add_page(doc, url, &pg, err);
        json_decref(doc);
        if (rc != CAT_OK)
            break;
        page_url = pg.next;
    }
    if (rc == CAT_OK && pg.merged) {
        rc = merged_document(&pg, url, buf, len, err);
    } else if (rc == CAT_OK) {
        if (!r.body && !(r.body = calloc(1, 1)))
            rc = cat_error_set(err, CAT_ENOMEM, "%s: out of memory", url);
        *buf = r.body;
        *len = r.len;
        r.body = NULL;
    }
    if (rc == CAT_OK)
        res->bytes = (long long)*len;
    json_decref(pg.merged);
    json_decref(pg.first);
    free(pg.next);
    free(r.body);
    curl_easy_cleanup(h);
    return rc;
}

int cat_fetch_to_file(const char *url, const char *path, const struct cat_fetch_options *o,
                      struct cat_fetch_result *res, struct cat_error *err)
{
    char *buf;
    size_t len;
    int rc = cat_fetch(url, o, &buf, &len, res, err);
    if (rc != CAT_OK)
        return rc;
    {
        char msg[512];
        if (outfile_write(path, buf, len, msg, sizeof msg) != 0)
            rc = cat_error_set(err, CAT_EIO, "%s", msg);
    }
    free(buf);
    return rc;
}
