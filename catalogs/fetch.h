/*
 * fetch.h - download a price list or catalog over HTTP(S) with libcurl, politely:
 * connect and total timeouts, retries with capped exponential backoff on HTTP 429 and 5xx
 * (and on transient transport errors) honouring Retry-After, gzip/deflate transfer,
 * a size cap, a conditional-request cache (ETag / Last-Modified) and Azure Retail Prices
 * paging (NextPageLink, with the $skip fallback of Microsoft Q&A 1188465). Client checklist:
 * docs/reference/catalogs.md section 2e.
 *
 * Cache: one pair of files per URL in the cache folder, <fnv1a64(url)>.body and .meta
 * (JSON: url, etag, last_modified). A repeated fetch sends If-None-Match / If-Modified-Since
 * and a 304 answer is served from the cached body: one conditional request per URL.
 *
 * Paging: when a response is a JSON object with an "Items" array and a "NextPageLink" key
 * (Azure Retail Prices), the next page is NextPageLink; when that is missing, null or empty
 * while the page holds CAT_AZURE_PAGE_SIZE items, the next page is the first URL with
 * $skip advanced by the items read so far. The pages' Items are joined into one document
 * {BillingCurrency, CustomerEntityId, CustomerEntityType, Items, NextPageLink: null, Count}.
 *
 * Thread-safety: call curl_global_init() once before using this module from several threads;
 * each call uses its own curl handle.
 */
#ifndef SIZEUP_CATALOGS_FETCH_H
#define SIZEUP_CATALOGS_FETCH_H

#include "catalog.h"

#include <stddef.h>

/* Items per page of the Azure Retail Prices API. */
#define CAT_AZURE_PAGE_SIZE 100

struct cat_fetch_options {
    long connect_timeout_ms; /* per attempt; default 10000 */
    long timeout_ms;         /* whole transfer of one attempt; default 600000 */
    int max_retries;         /* further attempts after the first, >= 0; default 4 */
    long backoff_initial_ms; /* wait before the first retry; doubles each retry; default 1000 */
    long backoff_max_ms;     /* cap on the doubling wait; default 30000 */
    long retry_after_max_ms; /* cap on a server's Retry-After; default 120000 */
    long long max_bytes;     /* size cap of one response body (decoded), default 1 GiB */
    int max_pages;           /* most pages followed; default 10000 */
    const char *cache_dir;   /* NULL: $XDG_CACHE_HOME/sizeup (or $HOME/.cache/sizeup);
                                "" disables the cache */
    int follow_pages;        /* 1 (default): follow Azure paging */
    int require_json;        /* 1 (default): every response body must be JSON */
    int progress;            /* 1: progress on stderr for downloads taking over 2 s */
    int retry_not_found;     /* 1: retry HTTP 404 too (AWS region indexes name files that are
                                still being published; docs/reference/catalogs.md 2e); default 0 */
};

/* What a fetch did. */
struct cat_fetch_result {
    long http_status; /* status of the last response */
    int requests;     /* HTTP requests sent, retries included */
    int retries;      /* of which retries */
    int pages;        /* pages read */
    int cached;       /* pages served from the cache after a 304 */
    long long bytes;  /* bytes of the final document */
    long waited_ms;   /* total time slept between retries */
};

/** Set the defaults listed above. */
void cat_fetch_options_default(struct cat_fetch_options *o);

/**
 * Fetch url (and the pages that follow it) into memory.
 *
 * @param url   http:// or https:// URL (other schemes are refused, also in redirects)
 * @param o     options; NULL for the defaults
 * @param buf   out: the document, NUL-terminated, len bytes; free() it
 * @param res   out: what was done; may be NULL
 * @param err   detail on error; may be NULL
 * @return CAT_OK; CAT_ENET (unreachable, timeout, truncated body after the retries, an HTTP
 *         error status, too many redirects); CAT_ETOOBIG (a body over max_bytes, or more than
 *         max_pages pages); CAT_EPARSE (a body that is not JSON when require_json, with line and
 *         column); CAT_EINVAL (not an http(s) URL); CAT_EIO (cache folder not writable is NOT
 *         an error: the cache is skipped); CAT_ENOMEM.
 */
int cat_fetch(const char *url, const struct cat_fetch_options *o, char **buf, size_t *len,
              struct cat_fetch_result *res, struct cat_error *err);

/**
 * Fetch as cat_fetch() does and write the document to path. The file is written to a
 * temporary name in the same folder and renamed into place, so path is never half written.
 * @return as cat_fetch(), or CAT_EIO when path cannot be written.
 */
int cat_fetch_to_file(const char *url, const char *path, const struct cat_fetch_options *o,
                      struct cat_fetch_result *res, struct cat_error *err);

#endif
