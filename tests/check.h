/*
 * check.h - a tiny assertion header for sizeup's tests.
 *
 * Checks are non-fatal and counted; each test executable ends with
 * `return check_report();`, which prints "N passed, M failed" alone on a line
 * and returns 0 only when nothing failed.  A failed check prints the file, line,
 * the expression and both values to stderr.
 *
 * Expected values must come from somewhere nameable (sysbench's own output,
 * a published table, a closed form, a certified dataset): never the code's own
 * output pasted back.
 */
#ifndef SIZEUP_TESTS_CHECK_H
#define SIZEUP_TESTS_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed_;
static int check_failed_;

static inline void check_fail_(const char *file, int line, const char *what)
{
    check_failed_++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (cond)                                                                                  \
            check_passed_++;                                                                       \
        else                                                                                       \
            check_fail_(__FILE__, __LINE__, #cond);                                                \
    } while (0)

#define CHECK_INT_EQ(actual, expected)                                                             \
    do {                                                                                           \
        long long a_ = (long long)(actual), e_ = (long long)(expected);                            \
        if (a_ == e_) {                                                                            \
            check_passed_++;                                                                       \
        } else {                                                                                   \
            check_fail_(__FILE__, __LINE__, #actual " == " #expected);                             \
            fprintf(stderr, "    actual %lld, expected %lld\n", a_, e_);                           \
        }                                                                                          \
    } while (0)

#define CHECK_STR_EQ(actual, expected)                                                             \
    do {                                                                                           \
        const char *a_ = (actual), *e_ = (expected);                                               \
        if (a_ && e_ && strcmp(a_, e_) == 0) {                                                     \
            check_passed_++;                                                                       \
        } else {                                                                                   \
            check_fail_(__FILE__, __LINE__, #actual " == " #expected);                             \
            fprintf(stderr, "    actual \"%s\", expected \"%s\"\n", a_ ? a_ : "(null)",            \
                    e_ ? e_ : "(null)");                                                           \
        }                                                                                          \
    } while (0)

/* |actual - expected| <= abs_tol */
#define CHECK_NEAR(actual, expected, abs_tol)                                                      \
    do {                                                                                           \
        double a_ = (double)(actual), e_ = (double)(expected), t_ = (double)(abs_tol);             \
        if (fabs(a_ - e_) <= t_) {                                                                 \
            check_passed_++;                                                                       \
        } else {                                                                                   \
            check_fail_(__FILE__, __LINE__, #actual " ~= " #expected);                             \
            fprintf(stderr, "    actual %.10g, expected %.10g (abs tol %g)\n", a_, e_, t_);        \
        }                                                                                          \
    } while (0)

/* |actual - expected| <= rel * |expected| */
#define CHECK_NEAR_REL(actual, expected, rel)                                                      \
    do {                                                                                           \
        double a_ = (double)(actual), e_ = (double)(expected), r_ = (double)(rel);                 \
        if (fabs(a_ - e_) <= r_ * fabs(e_)) {                                                      \
            check_passed_++;                                                                       \
        } else {                                                                                   \
            check_fail_(__FILE__, __LINE__, #actual " ~= " #expected);                             \
            fprintf(stderr, "    actual %.10g, expected %.10g (rel tol %g)\n", a_, e_, r_);        \
        }                                                                                          \
    } while (0)

static inline int check_report(void)
{
    printf("%d passed, %d failed\n", check_passed_, check_failed_);
    return check_failed_ == 0 && check_passed_ > 0 ? 0 : 1;
}

#endif
