/*
 * test_rank.c - ranking of hand-built curves and prices (advisor/rank/rank.h).
 *
 * Every curve is generated exactly from a closed form, so the fit recovers its parameters and
 * the right answer is computed here by hand:
 *   USL X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1))   (Gunther, GCaP 2007, eq. 4.31)
 *   N* = sqrt((1 - sigma) / kappa)                           (GCaP eq. 4.33)
 *   mean latency by Little's law R(N) = N / X(N); at R_t the quadratic
 *   kappa N^2 + (sigma - kappa) N + (1 - sigma - lambda R_t) = 0  (docs/reference/models.md 1.3)
 *   measured percentiles on a straight line are reproduced by Steffen's interpolation
 *   (a monotone cubic through collinear data is the line).
 */
#include "check.h"
#include "rank.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

static double usl(double l, double s, double k, double n)
{
    return l * n / (1 + s * (n - 1) + k * n * (n - 1));
}

/* Build a curve from arrays (lat_s NULL: no measured latency). */
static int build(struct curve *c, const double *n, const double *x, const double *lat_s, size_t m,
                 int by_nodes, double lat_pct)
{
    struct curve_obs o[16];
    struct curve_spec spec = curve_spec_default();
    char err[256];
    for (size_t i = 0; i < m; i++) {
        o[i].n = n[i];
        o[i].x = x[i];
        o[i].ci95_x = NAN;
        o[i].lat_s = lat_s ? lat_s[i] : NAN;
        o[i].ci95_df = 0;
        o[i].pooled = 0;
    }
    spec.x = by_nodes ? CURVE_X_NODES : CURVE_X_THREADS;
    spec.lat_pct = lat_pct;
    return curve_init(c, o, m, &spec, NULL, err, sizeof err);
}

static const double usl_n[] = {1, 2, 4, 8, 16, 32, 64};
#define USL_M 7
#define LAMBDA 100.0
#define SIGMA 0.05
#define KAPPA 0.001

static void make_usl(struct curve *c, double lat_pct)
{
    double x[USL_M];
    for (int i = 0; i < USL_M; i++)
        x[i] = usl(LAMBDA, SIGMA, KAPPA, usl_n[i]);
    CHECK_INT_EQ(build(c, usl_n, x, NULL, USL_M, 0, lat_pct), CURVE_OK);
}

static void test_mix_parse(void)
{
    struct rank_mix_item it[RANK_MAX_MIX];
    size_t n;
    char err[320];
    CHECK_INT_EQ(
        rank_mix_parse("oltp_read_write:0.7,oltp_point_select:0.3", it, &n, err, sizeof err), 0);
    CHECK_INT_EQ(n, 2);
    CHECK_STR_EQ(it[1].workload, "oltp_point_select");
    CHECK_NEAR(it[0].weight, 0.7, 1e-12);
    CHECK_INT_EQ(rank_mix_parse("a:1,b:3", it, &n, err, sizeof err), 0);
    CHECK_NEAR(it[1].weight, 0.75, 1e-12); /* normalised */
    CHECK_INT_EQ(rank_mix_parse("a:1,a:2", it, &n, err, sizeof err), -1);
    CHECK_INT_EQ(rank_mix_parse("a:0", it, &n, err, sizeof err), -1);
    CHECK_INT_EQ(rank_mix_parse("a", it, &n, err, sizeof err), -1);
    CHECK_INT_EQ(rank_mix_parse("a:1,", it, &n, err, sizeof err), -1);
}

/* Mean target met inside the rise: the quadratic's root. */
static void test_usl_mean_target(void)
{
    struct curve c;
    struct slo slo = {0, 0.020};
    struct curve_at a;
    double qa = KAPPA, qb = SIGMA - KAPPA, qc = 1 - SIGMA - LAMBDA * 0.020;
    double nt = (-qb + sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
    make_usl(&c, 0);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_MET);
    CHECK_NEAR_REL(a.n, nt, 1e-6);
    CHECK_NEAR_REL(a.x.value, usl(LAMBDA, SIGMA, KAPPA, nt), 1e-6);
    CHECK_NEAR_REL(a.latency_s, 0.020, 1e-6);
    CHECK_INT_EQ(a.latency_model, 1);
    CHECK_INT_EQ(a.binds, CURVE_BINDS_LATENCY);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_INTERPOLATED);
    /* the interval contains the value */
    CHECK(a.x.lo <= a.x.value && a.x.value <= a.x.hi);
    /* headroom to the peak X(N*) */
    CHECK_NEAR_REL(a.peak_x, usl(LAMBDA, SIGMA, KAPPA, sqrt((1 - SIGMA) / KAPPA)), 1e-6);
    /* best measured point meeting 20 ms: N = 16 (R = 16/X(16)); N = 32 exceeds it */
    CHECK_NEAR(a.best_measured_n, 16, 0);
    curve_destroy(&c);
}

/* A retrograde curve (measured to 64, peak at 30.8) with a generous target: the answer is at
 * the peak, before the end of the data, never the end. The USL's X(N*) lies above every measured
 * point (N* falls between the levels 16 and 32), and a ranking never claims more than was
 * measured: the answer is the best level, 32 threads, measured. (Until the curve module the
 * answer was N* itself, above the highest measured throughput and labelled interpolated.) */
static void test_retrograde_capped(void)
{
    struct curve c;
    struct slo slo = {0, 1.0};
    struct curve_at a;
    double ns = sqrt((1 - SIGMA) / KAPPA);
    make_usl(&c, 0);
    CHECK_INT_EQ(c.shape.cls, SHAPE_PEAKED);
    CHECK(c.peak.has && c.peak.from_model);
    CHECK_NEAR_REL(c.peak.n.value, ns, 1e-6);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_MET);
    CHECK_INT_EQ(a.binds, CURVE_BINDS_PEAK);
    CHECK_NEAR(a.n, 32, 0);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_MEASURED);
    CHECK_NEAR_REL(a.x.value, usl(LAMBDA, SIGMA, KAPPA, 32), 1e-12);
    CHECK(a.x.value > usl(LAMBDA, SIGMA, KAPPA, 64));
    CHECK(a.x.lo <= a.x.value && a.x.value <= a.x.hi);
    curve_destroy(&c);
}

/* Below R(1) = 1/lambda = 10 ms nothing meets the target. */
static void test_never(void)
{
    struct curve c;
    struct slo slo = {0, 0.005};
    struct curve_at a;
    make_usl(&c, 0);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_NEVER);
    CHECK_NEAR_REL(a.latency_s, 1 / LAMBDA, 1e-6);
    CHECK(isnan(a.x.value));
    curve_destroy(&c);
}

/* Measured p95 = 5 ms x N (a line), Amdahl throughput X = 100 N / (1 + 0.1 (N-1)):
 * p95 <= 30 ms at N = 6, X(6) = 600 / 1.5 = 400. */
static void amdahl_curve(struct curve *c, double p95_per_thread_ms, double lambda)
{
    double n[4] = {1, 2, 4, 8}, x[4], l[4];
    for (int i = 0; i < 4; i++) {
        x[i] = lambda * n[i] / (1 + 0.1 * (n[i] - 1));
        l[i] = p95_per_thread_ms * n[i] * 1e-3;
    }
    CHECK_INT_EQ(build(c, n, x, l, 4, 0, 95), CURVE_OK);
}

static void test_percentile(void)
{
    struct curve c;
    struct slo slo = {95, 0.030};
    struct curve_at a;
    amdahl_curve(&c, 5, 100);
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_MET);
    CHECK_NEAR_REL(a.n, 6, 1e-6);
    CHECK_NEAR_REL(a.x.value, 400, 1e-6);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_INTERPOLATED);
    CHECK_INT_EQ(a.latency_model, 0);
    /* at exactly the measured 20 ms of N = 4: measured, X(4) = 400 / 1.3 */
    slo.target_s = 0.020;
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_NEAR_REL(a.n, 4, 1e-9);
    CHECK_NEAR_REL(a.x.value, 400 / 1.3, 1e-9);
    CHECK_INT_EQ(a.x_basis, CURVE_BASIS_MEASURED);
    /* p99 was not measured */
    slo.pct = 99;
    CHECK_INT_EQ(curve_at_target(&c, &slo, 1, 1, &a), CURVE_OK);
    CHECK_INT_EQ(a.status, CURVE_NOLATENCY);
    curve_destroy(&c);
}

/* Prices per node for rank_row_price: ctx holds USD per hour per node. */
static double price_per_node(void *ctx, long nodes)
{
    return *(const double *)ctx * (double)nodes;
}

static void test_rows_and_order(void)
{
    struct curve fast, slow, same;
    struct rank_options opt;
    struct rank_row rows[4];
    struct rank_at at[4][RANK_MAX_MIX];
    const struct curve *cv[1];
    double p_fast = 2.0, p_slow = 0.5, p_same = 2.0, p_never = 0.1;
    struct curve never;

    memset(&opt, 0, sizeof opt);
    opt.slo.pct = 95;
    opt.slo.target_s = 0.030;
    opt.n_mix = 1;
    strcpy(opt.mix[0].workload, "oltp_read_write");
    opt.mix[0].weight = 1;
    amdahl_curve(&fast, 5, 100);   /* X = 400 at 30 ms */
    amdahl_curve(&slow, 10, 100);  /* p95 = 10 ms x N: N = 3, X = 300 / 1.2 = 250 */
    amdahl_curve(&same, 5, 100);   /* identical to fast: tie broken by id */
    amdahl_curve(&never, 40, 100); /* 40 ms at N = 1 > 30 ms */
    cv[0] = &fast;
    rank_row_eval(&rows[0], at[0], "zeta-fast", 1, cv, &opt);
    rank_row_price(&rows[0], cv, &opt, price_per_node, &p_fast);
    cv[0] = &slow;
    rank_row_eval(&rows[1], at[1], "slow", 1, cv, &opt);
    rank_row_price(&rows[1], cv, &opt, price_per_node, &p_slow);
    cv[0] = &same;
    rank_row_eval(&rows[2], at[2], "alpha-same", 1, cv, &opt);
    rank_row_price(&rows[2], cv, &opt, price_per_node, &p_same);
    cv[0] = &never;
    rank_row_eval(&rows[3], at[3], "cheap-never", 1, cv, &opt);
    rank_row_price(&rows[3], cv, &opt, price_per_node, &p_never);

    /* slow: 250 tps for 0.5 USD/h = 500 tps per USD/h; fast: 400 / 2 = 200 */
    CHECK_NEAR_REL(rows[1].x.value, 250, 1e-6);
    CHECK_NEAR_REL(rows[1].n, 3, 1e-6);
    CHECK_NEAR_REL(rows[1].tps_per_cost, 500, 1e-6);
    CHECK_NEAR_REL(rows[0].tps_per_cost, 200, 1e-6);
    /* USD per million transactions = 1e6 x 2 / (3600 x 400) */
    CHECK_NEAR_REL(rows[0].cost_per_mtx, 1e6 * 2.0 / (3600 * 400), 1e-6);
    /* the curve still rises at 8 threads: the headroom is to its best measured level, X(8) =
     * 800 / 1.7, a lower bound (not to the Amdahl ceiling lambda / sigma = 1000, which lies
     * beyond the data): 470.6 / 400 - 1 */
    CHECK_NEAR_REL(rows[0].headroom, 800.0 / 1.7 / 400 - 1, 1e-9);
    CHECK_INT_EQ(rows[0].headroom_lower_bound, 1);
    CHECK_INT_EQ(rows[3].status, RANK_NEVER);

    rank_sort(rows, 4, &opt);
    CHECK_STR_EQ(rows[0].config, "slow");
    CHECK_STR_EQ(rows[1].config, "alpha-same"); /* tie with zeta-fast: by id */
    CHECK_STR_EQ(rows[2].config, "zeta-fast");
    CHECK_STR_EQ(rows[3].config, "cheap-never"); /* cheapest, but never meets: last */
    CHECK_INT_EQ(rows[0].rank, 1);
    CHECK_INT_EQ(rows[2].rank, 3);
    CHECK_INT_EQ(rows[3].rank, 0);

    /* required 1000 tps of a configuration the catalog does not say scales out (issue 28.12:
     * copies of a single-primary database do not add up): fast's 400 tps is one copy's most,
     * so it cannot carry the load; nothing is priced as if copies helped */
    opt.required_tps = 1000;
    cv[0] = &fast;
    rank_row_eval(&rows[0], at[0], "fast", 1, cv, &opt);
    rank_row_price(&rows[0], cv, &opt, price_per_node, &p_fast);
    CHECK_INT_EQ(rows[0].status, RANK_NO_SCALE_OUT);
    CHECK_INT_EQ(rows[0].nodes_needed, 0);
    CHECK(isnan(rows[0].cost_per_month) || rows[0].cost_per_month == 0);
    /* one copy that carries it is sized as before: 300 tps needs 1 copy of fast, 2 x 730 */
    opt.required_tps = 300;
    rank_row_eval(&rows[0], at[0], "fast", 1, cv, &opt);
    rank_row_price(&rows[0], cv, &opt, price_per_node, &p_fast);
    CHECK_INT_EQ(rows[0].status, RANK_MET);
    CHECK_INT_EQ(rows[0].nodes_needed, 1);
    CHECK_NEAR_REL(rows[0].cost_per_month, 2 * 730, 1e-12);

    /* required 1000 tps, linear scale-out of configurations that say they scale out: fast
     * ceil(1000/400) = 3 copies at 2 USD/h each, 3 x 2 x 730 = 4380 USD/month; slow
     * ceil(1000/250) = 4 x 0.5 x 730 = 1460 */
    opt.required_tps = 1000;
    cv[0] = &fast;
    rank_row_eval(&rows[0], at[0], "fast", 1, cv, &opt);
    rows[0].scale_out = 1;
    rank_row_price(&rows[0], cv, &opt, price_per_node, &p_fast);
    cv[0] = &slow;
    rank_row_eval(&rows[1], at[1], "slow", 1, cv, &opt);
    rows[1].scale_out = 1;
    rank_row_price(&rows[1], cv, &opt, price_per_node, &p_slow);
    CHECK_INT_EQ(rows[0].nodes_needed, 3);
    CHECK_INT_EQ(rows[0].nodes_basis, CURVE_BASIS_LINEAR);
    CHECK_NEAR_REL(rows[0].cost_per_month, 4380, 1e-12);
    CHECK_INT_EQ(rows[1].nodes_needed, 4);
    CHECK_NEAR_REL(rows[1].cost_per_month, 1460, 1e-12);
    /* a configuration of 2 nodes scales in copies of 2 */
    cv[0] = &fast;
    rank_row_eval(&rows[2], at[2], "fast2", 2, cv, &opt);
    rows[2].scale_out = 1;
    rank_row_price(&rows[2], cv, &opt, price_per_node, &p_fast);
    CHECK_INT_EQ(rows[2].units, 3);
    CHECK_INT_EQ(rows[2].nodes_needed, 6);
    rank_sort(rows, 2, &opt);
    CHECK_STR_EQ(rows[0].config, "slow");

    /* mix 0.7 / 0.3 of fast (400) and slow (250): 1 / (0.7/400 + 0.3/250) */
    {
        const struct curve *mv[2] = {&fast, &slow};
        opt.required_tps = 0;
        opt.n_mix = 2;
        strcpy(opt.mix[1].workload, "oltp_point_select");
        opt.mix[0].weight = 0.7;
        opt.mix[1].weight = 0.3;
        rank_row_eval(&rows[0], at[0], "mixed", 1, mv, &opt);
        CHECK_INT_EQ(rows[0].status, RANK_MET);
        CHECK_NEAR_REL(rows[0].x.value, 1 / (0.7 / 400 + 0.3 / 250), 1e-6);
        CHECK(isnan(rows[0].n));
        mv[1] = NULL; /* no points for the second workload */
        rank_row_eval(&rows[1], at[1], "half", 1, mv, &opt);
        CHECK_INT_EQ(rows[1].status, RANK_NOCURVE);
    }
    curve_destroy(&fast);
    curve_destroy(&slow);
    curve_destroy(&same);
    curve_destroy(&never);
}

/* A scale-out curve X = 1000 x nodes with measured p95 10 ms: 3500 tps need 4 nodes. */
static void test_nodes_curve(void)
{
    double n[4] = {2, 4, 8, 16}, x[4], l[4];
    struct curve c;
    struct slo slo = {95, 0.050};
    enum curve_basis b;
    for (int i = 0; i < 4; i++) {
        x[i] = 1000 * n[i];
        l[i] = 0.010;
    }
    CHECK_INT_EQ(build(&c, n, x, l, 4, 1, 95), CURVE_OK);
    CHECK_INT_EQ(curve_nodes_for(&c, &slo, 3500, 1000, 1, &b), 4);
    CHECK_INT_EQ(b, CURVE_BASIS_MEASURED);
    CHECK_INT_EQ(curve_nodes_for(&c, &slo, 5000, 1000, 1, &b), 5);
    CHECK_INT_EQ(b, CURVE_BASIS_INTERPOLATED);
    slo.target_s = 0.005; /* below every measured p95 */
    CHECK_INT_EQ(curve_nodes_for(&c, &slo, 3500, 1000, 1, &b), 0);
    curve_destroy(&c);
}

int main(void)
{
    gsl_set_error_handler_off();
    test_mix_parse();
    test_usl_mean_target();
    test_retrograde_capped();
    test_never();
    test_percentile();
    test_rows_and_order();
    test_nodes_curve();
    return check_report();
}
