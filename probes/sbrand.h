/*
 * sbrand.h - sysbench 1.0.20's random numbers, reproduced: the xoroshiro128+ generator, its
 * seeding from the C library's random(), and the distributions of --rand-type (uniform,
 * gaussian, special, pareto), the unique-sequence generator and the '#'/'@' string templates.
 *
 * Sources (read, not copied): akopytov/sysbench 1.0.20 src/sb_rand.c, src/sb_rand.h,
 * src/xoroshiro128plus.h (xoroshiro128+ by Blackman and Vigna, 2016, public domain).  Every formula
 * below keeps sysbench's operation order and double -> uint32 truncations, so the same state gives
 * the same numbers.
 *
 * Seeding (docs/reference/sysbench.md 4): sysbench seeds libc random() with --rand-seed (or the
 * time), the main thread takes 4 random() values for its own generator and 2 for the unique
 * sequence, and each worker then takes 4.  Here the libc generator is a struct sbrand_seeder
 * (glibc's random_r with a private 128-byte state, which is what srandom()/random() use), so there
 * is no hidden global state; workers are seeded in thread order, which makes a run with a given
 * --rand-seed repeatable (in sysbench the workers race for random()).
 *
 * Thread-safety: a struct sbrand belongs to one thread.  sbrand_unique_next() is safe from
 * any number of threads (one atomic add).  Everything else touches only its arguments.
 */
#ifndef SIZEUP_PROBES_SBRAND_H
#define SIZEUP_PROBES_SBRAND_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

/* --rand-type values. */
enum sbrand_dist { SBRAND_UNIFORM, SBRAND_GAUSSIAN, SBRAND_SPECIAL, SBRAND_PARETO };

/* The distribution settings (--rand-type, --rand-spec-iter/-pct/-res, --rand-pareto-h) and the
 * constants sysbench precomputes from them. Fill with sbrand_params_init(). */
struct sbrand_params {
    enum sbrand_dist dist;
    unsigned iter, pct, res; /* defaults 12, 1, 75 */
    double pareto_h;         /* default 0.2 */
    double iter_mult;        /* 1 / iter */
    double pct_mult;         /* pct / 100 */
    double pct_2_mult;       /* pct / 200 */
    double res_mult;         /* 100 / (100 - res) */
    double pareto_power;     /* ln(h) / ln(1 - h) */
};

/* One thread's xoroshiro128+ state. */
struct sbrand {
    uint64_t s[2];
};

/* The libc-compatible seeding generator (glibc random_r, TYPE_3, 128-byte state). */
struct sbrand_seeder {
    struct random_data rd;
    char state[128];
};

/* The unique sequence (oltp_insert with --auto-inc=off): a permutation of a 32-bit counter. */
struct sbrand_unique {
    _Atomic uint32_t index;
    uint32_t offset;
};

/**
 * Fill p for distribution dist with sysbench's parameters.
 * @param iter      --rand-spec-iter, >= 1
 * @param pct       --rand-spec-pct, 1..100
 * @param res       --rand-spec-res, 0..99
 * @param pareto_h  --rand-pareto-h, in (0, 1)
 * @return 0, or -1 when a parameter is out of range (p unchanged).
 */
int sbrand_params_init(struct sbrand_params *p, enum sbrand_dist dist, unsigned iter, unsigned pct,
                       unsigned res, double pareto_h);

/** Parse a --rand-type name ("uniform", "gaussian", "special", "pareto"). @return 0 or -1. */
int sbrand_dist_parse(const char *name, enum sbrand_dist *out);

/** Name of a distribution, as --rand-type spells it. */
const char *sbrand_dist_name(enum sbrand_dist d);

/** Seed the libc-compatible generator, as srandom(seed) would. */
void sbrand_seeder_init(struct sbrand_seeder *sd, unsigned seed);

/** Next value of the libc-compatible generator, as random() would return: 0 .. 2^31-1. */
uint32_t sbrand_seeder_next(struct sbrand_seeder *sd);

/**
 * Seed a thread's generator as sb_rand_thread_init() does: s[0] = r1 << 32 | r2,
 * s[1] = r3 << 32 | r4 with r1..r4 four consecutive seeder values.
 */
void sbrand_seed(struct sbrand *r, struct sbrand_seeder *sd);

/** Next raw 64-bit output of xoroshiro128+ (s0 + s1), advancing the state. */
uint64_t sbrand_next(struct sbrand *r);

/** Uniform double in [0, 1): the top 52 bits of sbrand_next() as a mantissa of [1, 2), minus 1. */
double sbrand_double(struct sbrand *r);

/** sb_rand_uniform: a + (uint32)(u * (b - a + 1)), a <= b. */
uint32_t sbrand_uniform(struct sbrand *r, uint32_t a, uint32_t b);

/** sb_rand_gaussian: a + (uint32)(sum_{i<iter} u_i * (b-a+1) / iter). */
uint32_t sbrand_gaussian(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b);

/**
 * sb_rand_special: with t = b - a and u uniform, if u * t * 100/(100-res) < t (probability
 * (100-res) %) return a + (sum of iter uniforms) * t / iter, else return
 * a + (uint32)(u * (t*pct/100 + 1) + t/2 - t*pct/200): res % of the draws fall in a window of
 * pct % of the range around its middle.
 */
uint32_t sbrand_special(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b);

/** sb_rand_pareto: a + (uint32)((b - a + 1) * u^(ln h / ln(1-h))). */
uint32_t sbrand_pareto(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b);

/** sb_rand_default: the distribution p->dist over [a, b]. */
uint32_t sbrand_default(struct sbrand *r, const struct sbrand_params *p, uint32_t a, uint32_t b);

/**
 * sb_rand_str: copy fmt into buf replacing each '#' with a uniform digit ('0' + uniform(0,9)
 * in sysbench's form) and each '@' with a uniform letter a..z. buf needs strlen(fmt) bytes; no
 * terminating NUL is written.
 */
void sbrand_str(struct sbrand *r, const char *fmt, char *buf);

/** Seed the unique sequence from two seeder values (index, offset), as rand_unique_seed(). */
void sbrand_unique_seed(struct sbrand_unique *u, uint32_t index, uint32_t offset);

/** Next value of the unique sequence: every 32-bit value at most once per 2^32 calls. */
uint32_t sbrand_unique_next(struct sbrand_unique *u);

#endif
