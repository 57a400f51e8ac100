/* test_csvfield.c - CSV text fields: RFC 4180 section 2 (quoting, doubled quotes) and OWASP's
 * CSV-injection rule (a leading = + - @ tab CR gets an apostrophe and quotes). */
#include "check.h"
#include "csvfield.h"

#include <stdlib.h>

static void field_is(const char *in, const char *want)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    csv_write_field(f, in);
    fclose(f);
    CHECK_STR_EQ(buf, want);
    free(buf);
}

int main(void)
{
    field_is("idc-nvme", "idc-nvme");
    field_is(NULL, "");
    field_is("a,b", "\"a,b\"");
    field_is("say \"hi\"", "\"say \"\"hi\"\"\"");
    field_is("two\nlines", "\"two\nlines\"");
    field_is("=HYPERLINK(\"http://x\",\"a,b\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"a,b\"\")\"");
    field_is("+1", "\"'+1\"");
    field_is("-cmd", "\"'-cmd\"");
    field_is("@SUM(A1)", "\"'@SUM(A1)\"");
    field_is("\tx", "\"'\tx\"");
    field_is("\rx", "\"'\rx\"");
    field_is("a=b", "a=b"); /* only a leading formula character counts */
    CHECK(csv_is_formula_start("=1"));
    CHECK(!csv_is_formula_start("x=1"));
    CHECK(!csv_is_formula_start(""));
    return check_report();
}
