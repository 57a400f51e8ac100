/*
 * test_jsonread.c - the strict JSON reader of util/jsonread.h. Positions are checked against
 * the test's own texts (the line and column where each value is written in them), messages
 * against the grammar of jsonread.h ("FILE:LINE:COL: $.path: expected ..., got ...").
 */
#include "check.h"
#include "jsonread.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char doc_text[] = "{\n"
                               "  \"name\": \"db1\",\n"
                               "  \"empty\": \"\",\n"
                               "  \"n\": 4,\n"
                               "  \"x\": 2.5,\n"
                               "  \"bad\": \"fast\",\n"
                               "  \"list\": [1, {\"deep\": -3}],\n"
                               "  \"flag\": true,\n"
                               "  \"nothing\": null,\n"
                               "  \"when\": \"2026-13-01\"\n"
                               "}\n";

static void test_getters(void)
{
    json_error_t je;
    json_t *doc = json_loads(doc_text, 0, &je);
    struct jr r;
    char msg[512], *s = NULL;
    double d;
    long long i;
    int b;
    CHECK(doc != NULL);
    jr_init(&r, "doc.json", doc_text, strlen(doc_text), 1, msg, sizeof msg);

    CHECK_INT_EQ(jr_get_str(&r, doc, "name", JR_REQUIRED, &s), JR_OK);
    CHECK(s && strcmp(s, "db1") == 0);
    free(s);
    /* absent and null are absent; required makes them errors at the object's path */
    CHECK_INT_EQ(jr_get_str(&r, doc, "nothing", 0, &s), JR_OK);
    CHECK(s == NULL);
    CHECK_INT_EQ(jr_get_str(&r, doc, "missing", JR_REQUIRED, &s), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:1:1: $: missing required key 'missing' (a string)") == 0);
    CHECK_INT_EQ(jr_get_str(&r, doc, "empty", JR_REQUIRED, &s), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:3:12: $.empty: expected a non-empty string") == 0);
    CHECK_INT_EQ(jr_get_str(&r, doc, "n", 0, &s), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:4:8: $.n: expected a string, got a number") == 0);
    CHECK_INT_EQ(r.line, 4);
    CHECK_INT_EQ(r.column, 8);
    CHECK(strcmp(r.fail_path, "$.n") == 0);
    CHECK(strcmp(r.path, "$") == 0); /* the path is left as it was */

    CHECK_INT_EQ(jr_get_num(&r, doc, "x", 0, 0, INFINITY, -1, &d), JR_OK);
    CHECK_NEAR(d, 2.5, 0);
    CHECK_INT_EQ(jr_get_num(&r, doc, "absent", 0, 0, 10, 7, &d), JR_OK);
    CHECK_NEAR(d, 7, 0);
    CHECK_INT_EQ(jr_get_num(&r, doc, "x", 0, 0, 1, -1, &d), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:5:8: $.x: expected a number in [0, 1], got 2.5") == 0);
    CHECK_INT_EQ(jr_get_num(&r, doc, "bad", 0, 0, INFINITY, -1, &d), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:6:10: $.bad: expected a number >= 0, got a string") == 0);

    CHECK_INT_EQ(jr_get_int(&r, doc, "n", JR_REQUIRED, 1, 8, 0, &i), JR_OK);
    CHECK_INT_EQ(i, 4);
    CHECK_INT_EQ(jr_get_int(&r, doc, "x", 0, 0, 8, 0, &i), JR_EINVAL);
    CHECK(strstr(msg, "$.x: expected an integer in [0, 8], got 2.5") != NULL);
    CHECK_INT_EQ(jr_get_int(&r, doc, "n", 0, 5, 8, 0, &i), JR_EINVAL);
    CHECK(strstr(msg, "$.n: expected an integer in [5, 8], got 4") != NULL);

    CHECK_INT_EQ(jr_get_bool(&r, doc, "flag", 0, 0, &b), JR_OK);
    CHECK_INT_EQ(b, 1);
    CHECK_INT_EQ(jr_get_bool(&r, doc, "n", 0, 0, &b), JR_EINVAL);
    CHECK(strstr(msg, "$.n: expected true or false, got a number") != NULL);

    CHECK_INT_EQ(jr_get_date(&r, doc, "when", 0, &s), JR_EINVAL);
    CHECK(s == NULL);
    CHECK(strcmp(msg, "doc.json:10:11: $.when: expected a date YYYY-MM-DD, got \"2026-13-01\"") ==
          0);

    /* a path into an array: the value's own position */
    {
        json_t *item = json_array_get(json_object_get(doc, "list"), 1);
        size_t a = jr_push_key(&r, "list"), c = jr_push_index(&r, 1);
        CHECK(strcmp(r.path, "$.list[1]") == 0);
        CHECK_INT_EQ(jr_get_num(&r, item, "deep", 0, 0, 100, 0, &d), JR_EINVAL);
        CHECK(strcmp(msg, "doc.json:7:24: $.list[1].deep: expected a number in [0, 100], got -3") ==
              0);
        jr_pop(&r, c);
        jr_pop(&r, a);
        CHECK(strcmp(r.path, "$") == 0);
    }

    /* a path built by the caller */
    CHECK_INT_EQ(jr_fail_at(&r, "$.list[1].deep", "expected %s", "less"), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:7:24: $.list[1].deep: expected less") == 0);
    CHECK(strcmp(r.path, "$") == 0);
    jr_set_path(&r, "$.x");
    CHECK_INT_EQ(jr_fail(&r, "no"), JR_EINVAL);
    CHECK(strcmp(msg, "doc.json:5:8: $.x: no") == 0);
    jr_set_path(&r, "$");

    /* unknown keys are named with the list of the known ones */
    {
        static const char *const keys[] = {"name", "empty", "n", "x", "bad", "list", "flag", NULL};
        CHECK_INT_EQ(jr_check_keys(&r, doc, keys), JR_EINVAL);
        CHECK(strstr(msg, "doc.json:9:14: $.nothing: unknown key 'nothing' (expected one of: "
                          "name, empty, n, x, bad, list, flag)") != NULL);
    }
    json_decref(doc);
}

/* One JSON Lines record: the record's line is the file's line; the column is in the line. */
static void test_jsonl_and_no_text(void)
{
    const char line[] = "{\"schema\":\"x\",\"tps\":\"fast\"}";
    json_t *o = json_loads(line, 0, NULL);
    struct jr r;
    char msg[256];
    double d;
    jr_init(&r, "points.jsonl", line, strlen(line), 42, msg, sizeof msg);
    CHECK_INT_EQ(jr_get_num(&r, o, "tps", 0, 0, INFINITY, NAN, &d), JR_EINVAL);
    CHECK(strcmp(msg, "points.jsonl:42:21: $.tps: expected a number >= 0, got a string") == 0);
    /* no text: the line alone */
    jr_init(&r, "points.jsonl", NULL, 0, 7, msg, sizeof msg);
    CHECK_INT_EQ(jr_get_num(&r, o, "tps", 0, 0, INFINITY, NAN, &d), JR_EINVAL);
    CHECK(strcmp(msg, "points.jsonl:7: $.tps: expected a number >= 0, got a string") == 0);
    /* no message buffer: codes only */
    jr_init(&r, NULL, NULL, 0, 0, NULL, 0);
    CHECK_INT_EQ(jr_get_num(&r, o, "tps", 0, 0, INFINITY, NAN, &d), JR_EINVAL);
    CHECK(isnan(d));
    json_decref(o);
}

/* A path deeper than JR_PATH_MAX is cut with "...", never overflows. */
static void test_long_path(void)
{
    struct jr r;
    size_t marks[100];
    jr_init(&r, "x", NULL, 0, 0, NULL, 0);
    for (int k = 0; k < 100; k++)
        marks[k] = jr_push_key(&r, "a-rather-long-key");
    CHECK(strlen(r.path) < JR_PATH_MAX);
    CHECK(strstr(r.path, "...") != NULL);
    for (int k = 99; k >= 0; k--)
        jr_pop(&r, marks[k]);
    CHECK(strcmp(r.path, "$") == 0);
    CHECK(jr_valid_date("2026-02-28") && !jr_valid_date("2026-2-28") && !jr_valid_date(NULL));
}

int main(void)
{
    test_getters();
    test_jsonl_and_no_text();
    test_long_path();
    return check_report();
}
