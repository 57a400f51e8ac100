/* catalog_file.c - parse catalog documents and add them to a loaded catalog (catalog.h). */
#include "catalog.h"
#include "fetch.h"
#include "load.h"

#include "readfile.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest catalog file read: the bundled AWS catalog is about a megabyte. */
#define CAT_MAX_FILE_BYTES ((size_t)256 * 1024 * 1024)

int cat_catalog_add_buffer(struct cat_catalog *cat, const char *text, size_t len, const char *name,
                           struct cat_error *err)
{
    struct cat_catalog tmp;
    struct cat_jr ld;
    json_error_t jerr;
    json_t *root;
    int rc;

    if (err) {
        memset(err, 0, sizeof *err);
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte order mark */
        text += 3;
        len -= 3;
    }
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
    if (!root) {
        if (err) {
            err->line = jerr.line;
            err->column = jerr.column;
            jr_syntax_error(err->msg, sizeof err->msg, name, 1, &jerr);
        }
        return CAT_EPARSE;
    }
    memset(&tmp, 0, sizeof tmp);
    memset(&ld, 0, sizeof ld);
    jr_init(&ld.jr, name, text, len, 1, err ? err->msg : NULL, err ? sizeof err->msg : 0);
    ld.base = cat;
    ld.cat = &tmp;
    rc = cat_load_document(&ld, root);
    json_decref(root);
    if (rc != CAT_OK && err) {
        err->line = ld.jr.line;
        err->column = ld.jr.column;
        snprintf(err->path, sizeof err->path, "%s", ld.jr.fail_path);
    }
    if (rc == CAT_OK && cat_catalog_merge(cat, &tmp, name) != CAT_OK)
        rc = jr_nomem(&ld.jr);
    cat_catalog_clear(&tmp);
    return rc;
}

int cat_catalog_add_file(struct cat_catalog *cat, const char *path, struct cat_error *err)
{
    char *buf = NULL, msg[400];
    size_t len = 0;
    int rc;
    if (err)
        memset(err, 0, sizeof *err);
    rc = readfile(path, CAT_MAX_FILE_BYTES, &buf, &len, msg, sizeof msg);
    if (rc != READFILE_OK) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "%s", msg);
        return rc == READFILE_ENOMEM ? CAT_ENOMEM : CAT_EIO;
    }
    rc = cat_catalog_add_buffer(cat, buf, len, path, err);
    free(buf);
    return rc;
}

int cat_is_url(const char *s)
{
    return strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0;
}

int cat_catalog_add_source(struct cat_catalog *cat, const char *src, struct cat_error *err)
{
    struct cat_fetch_options o;
    char *buf;
    size_t len;
    int rc;
    if (!cat_is_url(src))
        return cat_catalog_add_file(cat, src, err);
    cat_fetch_options_default(&o);
    o.follow_pages = 0;
    rc = cat_fetch(src, &o, &buf, &len, NULL, err);
    if (rc != CAT_OK)
        return rc;
    rc = cat_catalog_add_buffer(cat, buf, len, src, err);
    free(buf);
    return rc;
}

#ifndef SIZEUP_DEFAULT_CATALOG
#define SIZEUP_DEFAULT_CATALOG "data/catalogs/published.json"
#endif

const char *cat_default_source(void)
{
    const char *env = getenv("SIZEUP_CATALOG");
    return env && *env ? env : SIZEUP_DEFAULT_CATALOG;
}
