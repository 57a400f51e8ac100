/* test_mva.c - mean-value analysis (models/mva.h) against closed forms computed here:
 *   - one queue, no think time: X(n) = 1 / D, R(n) = n D (every customer queues at it);
 *   - one queue with think time Z, the machine-repairman model (Kleinrock, "Queueing Systems"
 *     vol. 1, 1975, 3.10; Lazowska et al. 1984, ch. 6): utilisation U = 1 - p0 with
 *     p0 = 1 / sum_{j=0}^{N} N! / (N - j)! (D / Z)^j, X = U / D;
 *   - K balanced queues of demand D: X(N) = N / ((K + N - 1) D) (Lazowska et al. 1984, 6.3);
 *   - the asymptotic bounds X(N) <= min(N / (D + Z), 1 / Dmax) and R(N) >= max(D, N Dmax - Z)
 *     (Lazowska et al. 1984, ch. 5);
 *   - a c-server station by Seidmann: R(1) = D exactly, X(N) -> c / D;
 *   - Little's law per station: sum of queue lengths = X R. */
#include "check.h"
#include "mva.h"

#include <math.h>

static double repairman_x(unsigned n, double d, double z)
{
    double sum = 0, term = 1;
    for (unsigned j = 0; j <= n; j++) {
        sum += term;
        term *= (double)(n - j) * d / z; /* N! / (N - j - 1)! (D / Z)^(j + 1) */
    }
    return (1 - 1 / sum) / d;
}

int main(void)
{
    double x[64], r[64], q[64 * 3], xmax;
    struct mva_station one = {0.004, 1};
    struct mva_station bal[3] = {{0.01, 1}, {0.01, 1}, {0.01, 1}};
    struct mva_station cpu4 = {0.0028, 4};
    struct mva_station mixed[3] = {{0.0028, 4}, {0.0008, 1}, {0.0005, 0}};

    CHECK_INT_EQ(mva_solve(&one, 1, 0, 10, x, r, NULL), 0);
    for (unsigned n = 1; n <= 10; n++) {
        CHECK_NEAR_REL(x[n - 1], 250, 1e-12);
        CHECK_NEAR_REL(r[n - 1], n * 0.004, 1e-12);
    }
    CHECK_INT_EQ(mva_solve(&one, 1, 0.05, 40, x, NULL, NULL), 0);
    for (unsigned n = 1; n <= 40; n++)
        CHECK_NEAR_REL(x[n - 1], repairman_x(n, 0.004, 0.05), 1e-10);
    CHECK_INT_EQ(mva_solve(bal, 3, 0, 20, x, NULL, q), 0);
    for (unsigned n = 1; n <= 20; n++) {
        CHECK_NEAR_REL(x[n - 1], n / ((3.0 + n - 1) * 0.01), 1e-12);
        CHECK_NEAR_REL(q[(n - 1) * 3] + q[(n - 1) * 3 + 1] + q[(n - 1) * 3 + 2], n, 1e-12);
    }
    CHECK_INT_EQ(mva_solve(mixed, 3, 0.001, 64, x, r, q), 0);
    CHECK_INT_EQ(mva_bottleneck(mixed, 3, &xmax), 1); /* 0.8 ms a server against 0.7 */
    CHECK_NEAR_REL(xmax, 1250, 1e-12);
    for (unsigned n = 1; n <= 64; n++) {
        double dsum = 0.0028 + 0.0008 + 0.0005, qsum = 0;
        CHECK(x[n - 1] <= fmin(n / (dsum + 0.001), xmax) * (1 + 1e-12));
        CHECK(r[n - 1] >= fmax(dsum, n * 0.0008 - 0.001) * (1 - 1e-12));
        for (int i = 0; i < 3; i++)
            qsum += q[(n - 1) * 3 + i];
        CHECK_NEAR_REL(qsum, x[n - 1] * r[n - 1], 1e-12); /* Little's law */
    }
    CHECK_NEAR_REL(r[0], 0.0028 + 0.0008 + 0.0005, 1e-12); /* n = 1: the demands, no queue */
    CHECK_INT_EQ(mva_solve(&cpu4, 1, 0, 64, x, r, NULL), 0);
    CHECK_NEAR_REL(r[0], 0.0028, 1e-12);
    CHECK(x[63] <= 4 / 0.0028 && x[63] > 0.98 * 4 / 0.0028);
    /* bad arguments: nothing solved */
    CHECK_INT_EQ(mva_solve(&one, 0, 0, 10, x, r, NULL), -1);
    CHECK_INT_EQ(mva_solve(&one, 1, -1, 10, x, r, NULL), -1);
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 0, x, r, NULL), -1);
    one.demand_s = -0.001;
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 10, x, r, NULL), -1);
    one.demand_s = 0;
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 10, x, r, NULL), -1); /* no time anywhere */
    one.demand_s = NAN;
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 10, x, r, NULL), -1);
    one.demand_s = 0.004;
    one.servers = 0.5; /* between a delay and one server: no such station */
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 10, x, r, NULL), -1);
    /* Seidmann with c = 2.5 servers: R(1) = D, X(N) -> c / D */
    one.servers = 2.5;
    CHECK_INT_EQ(mva_solve(&one, 1, 0, 64, x, r, NULL), 0);
    CHECK_NEAR_REL(r[0], 0.004, 1e-12);
    CHECK(x[63] <= 2.5 / 0.004 && x[63] > 0.98 * 2.5 / 0.004);
    return check_report();
}
