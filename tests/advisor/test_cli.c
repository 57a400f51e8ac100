/* test_cli.c - the strict number, duration, size and list parsers of advisor/cli.c. */
#include "check.h"
#include "cli.h"

int main(void)
{
    long long i, list[8];
    double d;
    size_t n;
    CHECK(units_parse_int("42", 1, 100, &i) == 0 && i == 42);
    CHECK(units_parse_int("0", 1, 100, &i) == -1);
    CHECK(units_parse_int("4x", 1, 100, &i) == -1);
    CHECK(units_parse_int("", 1, 100, &i) == -1);
    CHECK(units_parse_int(" 4", 1, 100, &i) == -1);
    CHECK(units_parse_int("99999999999999999999", 1, 100, &i) == -1);
    CHECK(units_parse_double("2.5", 0, 10, &d) == 0 && d == 2.5);
    CHECK(units_parse_double("nan", 0, 10, &d) == -1);
    CHECK(units_parse_duration("10", &d) == 0 && d == 10);
    CHECK(units_parse_duration("10s", &d) == 0 && d == 10);
    CHECK(units_parse_duration("2m", &d) == 0 && d == 120);
    CHECK(units_parse_duration("500ms", &d) == 0 && d == 0.5);
    CHECK(units_parse_duration("1.5h", &d) == 0 && d == 5400);
    CHECK(units_parse_duration("-1s", &d) == -1);
    CHECK(units_parse_duration("10x", &d) == -1);
    CHECK(units_parse_duration("0x10", &d) == -1);
    CHECK(units_parse_size("64M", &i) == 0 && i == 64LL * 1024 * 1024);
    CHECK(units_parse_size("1GiB", &i) == 0 && i == 1024LL * 1024 * 1024);
    CHECK(units_parse_size("16k", &i) == 0 && i == 16384);
    CHECK(units_parse_size("4096", &i) == 0 && i == 4096);
    CHECK(units_parse_size("1.5K", &i) == 0 && i == 1536);
    CHECK(units_parse_size("1.3", &i) == -1);
    CHECK(units_parse_size("10P", &i) == -1);
    CHECK(units_parse_size("9999999T", &i) == -1);
    CHECK(units_parse_int_list("1,2,4,8", 1000, list, 8, &n) == 0 && n == 4 && list[3] == 8);
    CHECK(units_parse_int_list("1,,4", 1000, list, 8, &n) == -1);
    CHECK(units_parse_int_list("1,0", 1000, list, 8, &n) == -1);
    CHECK(units_parse_int_list("1,2,3,4,5,6,7,8,9", 1000, list, 8, &n) == -1);
    CHECK(units_parse_fraction("2%", &d) == 0 && d == 0.02);
    CHECK(units_parse_fraction("0.05", &d) == 0 && d == 0.05);
    CHECK(units_parse_fraction("0%", &d) == -1);
    CHECK(units_parse_fraction("150%", &d) == -1);
    return check_report();
}
