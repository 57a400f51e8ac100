/*
 * test_fetch.c - cat_fetch() and `sizeup catalog fetch|check|convert` against a local HTTP
 * server (http_server.py, started here on 127.0.0.1 with an ephemeral port and stopped at the
 * end). Expected values come from what the server is written to send (its docstring).
 */
#include "catalog.h"
#include "check.h"
#include "fetch.h"

#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static pid_t server_pid;
static int server_stdin = -1;
static int port;
static char tmpdir[256];

static int start_server(void)
{
    int in[2], out[2];
    char line[64];
    FILE *f;
    if (pipe(in) != 0 || pipe(out) != 0)
        return -1;
    server_pid = fork();
    if (server_pid < 0)
        return -1;
    if (server_pid == 0) {
        dup2(in[0], STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        close(in[1]);
        close(out[0]);
        execlp("python3", "python3", "tests/catalogs/http_server.py", "--idle-exit", "60",
               (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    server_stdin = in[1];
    f = fdopen(out[0], "r");
    if (!f || !fgets(line, sizeof line, f) || sscanf(line, "PORT %d", &port) != 1) {
        if (f)
            fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

static void stop_server(void)
{
    if (server_pid > 0) {
        kill(server_pid, SIGTERM);
        waitpid(server_pid, NULL, 0);
        server_pid = 0;
    }
    if (server_stdin >= 0)
        close(server_stdin);
}

static void url(char *buf, size_t cap, const char *path)
{
    snprintf(buf, cap, "http://127.0.0.1:%d%s", port, path);
}

static void test_options(struct cat_fetch_options *o)
{
    cat_fetch_options_default(o);
    o->connect_timeout_ms = 2000;
    o->timeout_ms = 2000;
    o->max_retries = 3;
    o->backoff_initial_ms = 50;
    o->backoff_max_ms = 200;
    o->retry_after_max_ms = 3000;
}

static json_t *fetch_json(const char *path, const struct cat_fetch_options *o,
                          struct cat_fetch_result *res, int *rc, struct cat_error *err)
{
    char u[200], *buf = NULL;
    size_t len = 0;
    json_t *doc = NULL;
    url(u, sizeof u, path);
    *rc = cat_fetch(u, o, &buf, &len, res, err);
    if (*rc == CAT_OK)
        doc = json_loadb(buf, len, 0, NULL);
    free(buf);
    return doc;
}

static long server_count(const char *path)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    char p[200];
    int rc;
    json_t *doc;
    long n;
    test_options(&o);
    o.cache_dir = "";
    snprintf(p, sizeof p, "/count%s", path);
    doc = fetch_json(p, &o, &res, &rc, &err);
    n = doc ? (long)json_integer_value(json_object_get(doc, "count")) : -1;
    json_decref(doc);
    return n;
}

static void test_paging(void)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    json_t *doc, *items;
    test_options(&o);
    doc = fetch_json("/pages/1", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.pages, 3);
    CHECK_INT_EQ(res.requests, 3);
    items = json_object_get(doc, "Items");
    CHECK_INT_EQ(json_array_size(items), 8); /* 3 + 3 + 2 */
    CHECK_INT_EQ(json_integer_value(json_object_get(doc, "Count")), 8);
    CHECK(json_is_null(json_object_get(doc, "NextPageLink")));
    CHECK_STR_EQ(json_string_value(json_object_get(doc, "BillingCurrency")), "USD");
    for (size_t i = 0; i < json_array_size(items); i++) {
        char want[32];
        snprintf(want, sizeof want, "meter-%04zu", i);
        CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(items, i), "meterId")), want);
    }
    json_decref(doc);

    /* $skip fallback: NextPageLink empty, Count == 100 -> $skip=100, $skip=200 */
    doc = fetch_json("/skip", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.pages, 3);
    items = json_object_get(doc, "Items");
    CHECK_INT_EQ(json_array_size(items), 237);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(items, 236), "meterId")),
                 "meter-0236");
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(items, 100), "meterId")),
                 "meter-0100");
    json_decref(doc);

    /* without paging only the first page */
    o.follow_pages = 0;
    doc = fetch_json("/pages/1", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(json_array_size(json_object_get(doc, "Items")), 3);
    json_decref(doc);
}

static void test_retries(void)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    json_t *doc;
    test_options(&o);

    /* 429 with Retry-After: 1 -> one retry after 1 s (not the 50 ms backoff) */
    doc = fetch_json("/ratelimit/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.requests, 2);
    CHECK_INT_EQ(res.retries, 1);
    CHECK_INT_EQ(res.waited_ms, 1000);
    CHECK_INT_EQ(json_integer_value(json_object_get(doc, "attempt")), 2);
    json_decref(doc);

    /* 500 twice -> backoff 50 ms then 100 ms (doubling), third attempt succeeds */
    doc = fetch_json("/flaky/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.requests, 3);
    CHECK_INT_EQ(res.retries, 2);
    CHECK_INT_EQ(res.waited_ms, 150);
    CHECK_INT_EQ(json_integer_value(json_object_get(doc, "attempt")), 3);
    json_decref(doc);

    /* 500 twice with only one retry allowed -> error naming the status */
    o.max_retries = 1;
    doc = fetch_json("/flaky/b", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_ENET);
    CHECK(strstr(err.msg, "HTTP 500 after 2 attempts") != NULL);
    CHECK(doc == NULL);

    /* backoff is capped: initial 150 ms, cap 200 ms -> waits 150 + 200 */
    o.max_retries = 3;
    o.backoff_initial_ms = 150;
    doc = fetch_json("/flaky/c", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.waited_ms, 350);
    json_decref(doc);
}

static void test_bad_bodies(void)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    json_t *doc;
    test_options(&o);
    o.max_retries = 1;

    doc = fetch_json("/truncated", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_ENET);
    CHECK(strstr(err.msg, "truncated") != NULL);
    CHECK_INT_EQ(res.requests, 2); /* a transient error: retried once */
    CHECK(doc == NULL);

    doc = fetch_json("/notjson", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_EPARSE);
    CHECK(strstr(err.msg, "not JSON") != NULL);
    CHECK_INT_EQ(err.line, 1);
    CHECK(doc == NULL);

    o.max_bytes = 1 << 20;
    doc = fetch_json("/big", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_ETOOBIG);
    CHECK(strstr(err.msg, "cap of 1048576 bytes") != NULL);
    CHECK(doc == NULL);

    doc = fetch_json("/nothere", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_ENET);
    CHECK(strstr(err.msg, "HTTP 404") != NULL);
    CHECK_INT_EQ(res.requests, 1); /* 404 is not retried */
    json_decref(doc);
}

static void test_cache(void)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    int rc;
    json_t *doc;
    test_options(&o);

    doc = fetch_json("/etag/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.cached, 0);
    CHECK_INT_EQ(json_integer_value(json_object_get(doc, "version")), 1);
    json_decref(doc);
    doc = fetch_json("/etag/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.requests, 1); /* one conditional request */
    CHECK_INT_EQ(res.cached, 1);
    CHECK_INT_EQ(res.http_status, 304);
    CHECK_STR_EQ(json_string_value(json_object_get(doc, "path")), "/etag/a");
    json_decref(doc);
    CHECK_INT_EQ(server_count("/etag/a"), 2);

    doc = fetch_json("/lastmod/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    json_decref(doc);
    doc = fetch_json("/lastmod/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.cached, 1);
    CHECK_INT_EQ(json_integer_value(json_object_get(doc, "version")), 2);
    json_decref(doc);

    /* no cache: a plain request, 200 again */
    o.cache_dir = "";
    doc = fetch_json("/etag/a", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(res.cached, 0);
    CHECK_INT_EQ(res.http_status, 200);
    json_decref(doc);
}

static void test_redirect_timeout_gzip(void)
{
    struct cat_fetch_options o;
    struct cat_fetch_result res;
    struct cat_error err;
    struct timespec t0, t1;
    double elapsed;
    int rc;
    json_t *doc;
    test_options(&o);

    doc = fetch_json("/redirect", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK_INT_EQ(json_array_size(json_object_get(doc, "Items")), 2); /* page 3 */
    json_decref(doc);

    doc = fetch_json("/redirect-file", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_ENET);
    CHECK(doc == NULL);

    o.timeout_ms = 300;
    o.max_retries = 1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    doc = fetch_json("/slow", &o, &res, &rc, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    elapsed = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK_INT_EQ(rc, CAT_ENET);
    CHECK(strstr(err.msg, "imed out") != NULL);
    CHECK_INT_EQ(res.requests, 2);
    CHECK(elapsed < 2.0); /* 2 x 300 ms + 50 ms backoff, not the server's 3 s */
    CHECK(doc == NULL);

    test_options(&o);
    doc = fetch_json("/gzip", &o, &res, &rc, &err);
    CHECK_INT_EQ(rc, CAT_OK);
    CHECK(json_is_true(json_object_get(doc, "compressed")));
    CHECK_INT_EQ(strlen(json_string_value(json_object_get(doc, "pad"))), 1000);
    json_decref(doc);

    CHECK_INT_EQ(cat_fetch("ftp://127.0.0.1/x", &o, &(char *){NULL}, &(size_t){0}, &res, &err),
                 CAT_EINVAL);
}

/* Run the sizeup binary through the shell; returns its exit status. */
static int run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int run(const char *fmt, ...)
{
    char cmd[4096], args[1800];
    va_list ap;
    int st;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "\"%s\" %s >%s/out 2>%s/err", getenv("SIZEUP_BIN"), args, tmpdir,
             tmpdir);
    st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int file_contains(const char *name, const char *text)
{
    char path[400], buf[65536];
    size_t n;
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    if (!(f = fopen(path, "r")))
        return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strstr(buf, text) != NULL;
}

static int exists(const char *name)
{
    char path[400];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return stat(path, &st) == 0;
}

static void test_cli(void)
{
    char u[200];
    struct cat_catalog *cat;
    struct cat_error err;
    char path[400];

    /* fetch Azure pages, then convert them */
    url(u, sizeof u, "/pages/1");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/azure.json --backoff 50ms", u, tmpdir), 0);
    CHECK(file_contains("err", "in 3 pages"));
    CHECK(file_contains("azure.json", "meter-0007"));
    CHECK_INT_EQ(run("catalog convert --from azure-retail %s/azure.json -o %s/azure-cat.json",
                     tmpdir, tmpdir),
                 0);
    CHECK(file_contains("err", "8 instances, 8 prices"));
    cat = cat_catalog_new();
    snprintf(path, sizeof path, "%s/azure-cat.json", tmpdir);
    CHECK_INT_EQ(cat_catalog_add_file(cat, path, &err), CAT_OK);
    CHECK_INT_EQ(cat->n_instances, 8);
    /* item k has retailPrice 0.01 * (k + 1) (http_server.py azure_item) */
    CHECK(cat_find_instance(cat, "azure-Standard_T7") != NULL);
    if (cat_find_instance(cat, "azure-Standard_T7"))
        CHECK_NEAR(cat_find_instance(cat, "azure-Standard_T7")->prices[0].price.amount, 0.08,
                   1e-12);
    cat_catalog_free(cat);

    /* fetch the ec2instances fixture, then convert it */
    url(u, sizeof u, "/file/ec2-instances.json");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/ec2.json --quiet", u, tmpdir), 0);
    CHECK_INT_EQ(run("catalog convert --from ec2instances %s/ec2.json -o %s/ec2-cat.json "
                     "--as-of 2026-12-01",
                     tmpdir, tmpdir),
                 0);
    cat = cat_catalog_new();
    snprintf(path, sizeof path, "%s/ec2-cat.json", tmpdir);
    CHECK_INT_EQ(cat_catalog_add_file(cat, path, &err), CAT_OK);
    CHECK(cat_find_instance(cat, "aws-x2iedn.32xlarge") != NULL);
    if (cat_find_instance(cat, "aws-x2iedn.32xlarge"))
        CHECK_NEAR(cat_find_instance(cat, "aws-x2iedn.32xlarge")->prices[0].price.amount, 26.676,
                   1e-12);
    cat_catalog_free(cat);

    /* a body that is not JSON: exit 3, nothing written */
    url(u, sizeof u, "/notjson");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/notjson.json --retries 0", u, tmpdir), 3);
    CHECK(file_contains("err", "not JSON"));
    CHECK(!exists("notjson.json"));

    /* unreachable after retries: exit 4, nothing written */
    url(u, sizeof u, "/flaky/cli");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/flaky.json --retries 1 --backoff 10ms", u, tmpdir), 4);
    CHECK(file_contains("err", "HTTP 500 after 2 attempts"));
    CHECK(!exists("flaky.json"));

    /* a repeated fetch is served from the cache after one conditional request */
    url(u, sizeof u, "/etag/cli");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/etag1.json", u, tmpdir), 0);
    CHECK_INT_EQ(run("catalog fetch %s -o %s/etag2.json", u, tmpdir), 0);
    CHECK(file_contains("err", "1 request (0 retries, 1 from cache)"));
    CHECK(file_contains("etag2.json", "\"/etag/cli\""));

    /* a long download shows progress on stderr (a plain line per second when not a tty) */
    url(u, sizeof u, "/drip");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/drip.json --no-cache", u, tmpdir), 0);
    CHECK(file_contains("err", "sizeup: fetching http://127.0.0.1:"));
    CHECK(file_contains("err", " of 0.2 MiB ("));
    CHECK(file_contains("err", "262144 bytes in 1 page"));

    /* 404 is final unless --retry-404: the first request gets 404 and stops */
    url(u, sizeof u, "/late/cli");
    CHECK_INT_EQ(run("catalog fetch %s -o %s/late.json --backoff 10ms", u, tmpdir), 4);
    CHECK(file_contains("err", "HTTP 404"));
    /* second and third requests: 404 then the body */
    CHECK_INT_EQ(run("catalog fetch %s -o %s/late.json --backoff 10ms --retry-404", u, tmpdir), 0);
    CHECK(file_contains("late.json", "\"attempt\": 3"));

    /* catalog check of a URL */
    url(u, sizeof u, "/file/published.json");
    CHECK_INT_EQ(run("catalog check %s", u), 0);
    CHECK(file_contains("out", "ok: 8 instances, 3 disks, 2 servers, 9 configs"));
    url(u, sizeof u, "/notjson");
    CHECK_INT_EQ(run("catalog check %s", u), 3);
}

int main(void)
{
    char cache[300];
    snprintf(tmpdir, sizeof tmpdir, "%s/sizeup-fetch-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    setenv("XDG_CACHE_HOME", cache, 1);
    if (start_server() != 0) {
        fprintf(stderr, "cannot start tests/catalogs/http_server.py\n");
        stop_server();
        return 1;
    }
    test_paging();
    test_retries();
    test_bad_bodies();
    test_cache();
    test_redirect_timeout_gzip();
    test_cli();
    stop_server();
    {
        char cmd[400];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", tmpdir);
    }
    return check_report();
}
