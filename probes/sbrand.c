/* sbrand.c - sysbench 1.0.20-compatible random numbers (see sbrand.h for sources). */
#include "sbrand.h"

#include <math.h>
#include <string.h>

int sbrand_params_init(struct sbrand_params *p, enum sbrand_dist dist, unsigned iter, unsigned pct,
                       unsigned res, double pareto_h)
{
    if (iter < 1 || pct < 1 || pct > 100 || res > 99 || !(pareto_h > 0.0 && pareto_h < 1.0))
        return -1;
    p->dist = dist;
    p->iter = iter;
    p->pct = pct;
    p->res = res;
    p->pareto_h = pareto_h;
    p->iter_mult = 1.0 / iter;
    p->pct_mult = pct / 100.0;
    p->pct_2_mult = pct / 200.0;
    p->res_mult = 100.0 / (100.0 - res);
    p->pareto_power = log(pareto_h) / log(1.0 - pareto_h);
    return 0;
}

static const char *const dist_names[] = {"uniform", "gaussian", "special", "pareto"};

int sbrand_dist_parse(const char *name, enum sbrand_dist *out)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, dist_names[i]) == 0) {
            *out = (enum sbrand_dist)i;
            return 0;
        }
    }
    return -1;
}

const char *sbrand_dist_name(enum sbrand_dist d)
{
    return (unsigned)d < 4 ? dist_names[d] : "?";
}

void sbrand_seeder_init(struct sbrand_seeder *sd, unsigned seed)
{
    memset(sd, 0, sizeof *sd);
    initstate_r(seed, sd->state, sizeof sd->state, &sd->rd);
}

uint32_t sbrand_seeder_next(struct sbrand_seeder *sd)
{
    int32_t v = 0;
    random_r(&sd->rd, &v);
    return (uint32_t)v;
}

void sbrand_seed(struct sbrand *r, struct sbrand_seeder *sd)
{
    uint64_t a = sbrand_seeder_next(sd), b = sbrand_seeder_next(sd);
    uint64_t c = sbrand_seeder_next(sd), d = sbrand_seeder_next(sd);
    r->s[0] = (a << 32) | (b & UINT32_MAX);
    r->s[1] = (c << 32) | (d & UINT32_MAX);
}

static inline uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t sbrand_next(struct sbrand *r)
{
    const uint64_t s0 = r->s[0];
    uint64_t s1 = r->s[1];
    const uint64_t result = s0 + s1;
    s1 ^= s0;
    r->s[0] = rotl(s0, 55) ^ s1 ^ (s1 << 14);
    r->s[1] = rotl(s1, 36);
    return result;
}

double sbrand_double(struct sbrand *r)
{
    union {
        uint64_t u;
        double d;
    } x;
    x.u = UINT64_C(0x3FF) << 52 | sbrand_next(r) >> 12;
    return x.d - 1.0;
}

uint32_t sbrand_uniform(struct sbrand *r, uint32_t a, uint32_t b)
{
    return (uint32_t)(a + sbrand_double(r) * (uint32_t)(b - a + 1));
}

uint32_t sbrand_gaussian(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b)
{
    double t = (uint32_t)(b - a + 1), sum = 0.0;
    for (unsigned i = 0; i < p->iter; i++)
        sum += sbrand_double(r) * t;
    return a + (uint32_t)(sum * p->iter_mult);
}

uint32_t sbrand_special(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b)
{
    double t = (uint32_t)(b - a);
    double range_size = t * p->res_mult;
    double rnd = sbrand_double(r);
    double res = rnd * range_size, d;
    if (res < t) {
        double sum = 0.0;
        for (unsigned i = 0; i < p->iter; i++)
            sum += sbrand_double(r);
        return (uint32_t)(a + sum * t * p->iter_mult);
    }
    d = t * p->pct_mult;
    res = rnd * (d + 1);
    res += t / 2 - t * p->pct_2_mult;
    return a + (uint32_t)res;
}

uint32_t sbrand_pareto(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b)
{
    return a + (uint32_t)((uint32_t)(b - a + 1) * pow(sbrand_double(r), p->pareto_power));
}

uint32_t sbrand_default(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b)
{
    switch (p->dist) {
    case SBRAND_GAUSSIAN:
        return sbrand_gaussian(r, p, a, b);
    case SBRAND_SPECIAL:
        return sbrand_special(r, p, a, b);
    case SBRAND_PARETO:
        return sbrand_pareto(r, p, a, b);
    case SBRAND_UNIFORM:
    default:
        return sbrand_uniform(r, a, b);
    }
}

void sbrand_str(struct sbrand *r, const char *fmt, char *buf)
{
    for (size_t i = 0; fmt[i] != '\0'; i++) {
        if (fmt[i] == '#')
            buf[i] = (char)sbrand_uniform(r, '0', '9');
        else if (fmt[i] == '@')
            buf[i] = (char)sbrand_uniform(r, 'a', 'z');
        else
            buf[i] = fmt[i];
    }
}

/* Quadratic-residue permutation of the 32-bit integers (Preshing, "How to generate a sequence of
 * unique random integers", 2012): x^2 mod p for p = 4294967291 = 3 mod 4. */
static uint32_t unique_permute(uint32_t x)
{
    const uint32_t prime = UINT32_C(4294967291);
    uint32_t residue;
    if (x >= prime)
        return x;
    residue = (uint32_t)(((uint64_t)x * x) % prime);
    return x <= prime / 2 ? residue : prime - residue;
}

void sbrand_unique_seed(struct sbrand_unique *u, uint32_t index, uint32_t offset)
{
    atomic_init(&u->index, unique_permute(unique_permute(index) + 0x682f0161u));
    u->offset = unique_permute(unique_permute(offset) + 0x46790905u);
}

uint32_t sbrand_unique_next(struct sbrand_unique *u)
{
    uint32_t index = atomic_fetch_add_explicit(&u->index, 1, memory_order_relaxed);
    return unique_permute((unique_permute(index) + u->offset) ^ 0x5bf03635u);
}
