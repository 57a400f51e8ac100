"""Student's t quantiles for any real degrees of freedom, for the tests' independent replays.

The tests recompute intervals sizeup states (Satterthwaite degrees of freedom are not integers
and can fall below 1), so a table of integer quantiles is not enough. Python's standard library
has no t distribution; this is the textbook route:
    P(|T| > t) = I_x(df / 2, 1 / 2),  x = df / (df + t^2)
(Abramowitz & Stegun 26.7.1 and 26.5.27), I_x the regularized incomplete beta function, computed
by its continued fraction (A&S 26.5.8) with the modified Lentz method (Lentz 1976; Thompson &
Barnett 1986), and the quantile by bisection on log t.
"""
import math


def _betacf(a, b, x):
    """The continued fraction of I_x(a, b) (A&S 26.5.8), modified Lentz."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def betainc(a, b, x):
    """The regularized incomplete beta function I_x(a, b), 0 <= x <= 1."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * _betacf(a, b, x) / a
    return 1.0 - math.exp(lbt) * _betacf(b, a, 1 - x) / b


def t_two_sided(t, df):
    """P(|T| > t) for Student's t with df > 0 degrees of freedom, t >= 0."""
    return betainc(df / 2.0, 0.5, df / (df + t * t))


def t_quantile(p, df):
    """The p quantile of Student's t with df > 0 (real) degrees of freedom, 0.5 < p < 1."""
    tail = 2 * (1 - p)
    lo, hi = 0.0, 1.0
    while t_two_sided(hi, df) > tail:
        lo, hi = hi, hi * 2
        if hi > 1e300:
            return math.inf
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided(mid, df) > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-12 * hi:
            break
    return (lo + hi) / 2


def f_upper(f, d1, d2):
    """P(F > f) for Fisher's F with (d1, d2) degrees of freedom, f >= 0:
    I_x(d2 / 2, d1 / 2) with x = d2 / (d2 + d1 f) (A&S 26.6.2)."""
    return betainc(d2 / 2.0, d1 / 2.0, d2 / (d2 + d1 * f)) if f > 0 else 1.0


def f_quantile_upper(alpha, d1, d2):
    """The f with P(F > f) = alpha (0 < alpha < 1), by bisection on log f."""
    lo, hi = 1e-12, 1.0
    while f_upper(hi, d1, d2) > alpha:
        lo, hi = hi, hi * 2
        if hi > 1e300:
            return math.inf
    for _ in range(300):
        mid = math.sqrt(lo * hi)
        if f_upper(mid, d1, d2) > alpha:
            lo = mid
        else:
            hi = mid
        if hi / lo - 1 <= 1e-13:
            break
    return math.sqrt(lo * hi)


def t975(df):
    """t(0.975, df); the normal quantile 1.959964 for df >= 1e6 (sizeup's NOISE_DF_LARGE)."""
    return 1.959963984540054 if df >= 1e6 else t_quantile(0.975, df)


if __name__ == "__main__":
    # F upper quantiles (NIST/SEMATECH e-Handbook 1.3.6.7.3, the 1 % table): F(0.99; 2, 10) =
    # 7.559, F(0.99; 5, 20) = 4.103, F(0.99; 1, 1) = 4052.181
    for (d1, d2), f in {(2, 10): 7.559, (5, 20): 4.103, (1, 1): 4052.181}.items():
        got = f_quantile_upper(0.01, d1, d2)
        assert abs(got / f - 1) < 5e-4, (d1, d2, got, f)
    # published quantiles (A&S table 26.10; NIST/SEMATECH e-Handbook 1.3.6.7.2) and two closed
    # forms: df 1 is Cauchy, t = tan(pi (p - 1/2)); df 2 has t = (2p - 1) sqrt(2 / (4 p (1 - p)))
    table = {1: 12.7062047, 2: 4.3026527, 3: 3.1824463, 5: 2.5705818, 9: 2.2621572,
             19: 2.0930241, 30: 2.0422725, 120: 1.9799304}
    for df, t in table.items():
        assert abs(t975(df) - t) < 2e-6 * t, (df, t975(df), t)
    assert abs(t_quantile(0.9, 1) - math.tan(math.pi * 0.4)) < 1e-9
    assert abs(t_quantile(0.99, 2) - 0.98 * math.sqrt(2 / (4 * 0.99 * 0.01))) < 1e-9
    assert t975(0.5) > t975(1) > t975(1.5) > t975(2)
    print("tdist: ok")
