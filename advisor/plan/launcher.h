/*
 * launcher.h - which share of a level this load generator runs, when an existing engine
 * launched several of them (issue 18, docs/load-generator.md): the client index I (0-based)
 * and count K of `sizeup probe run --client I/K`, from the command line or from the
 * launcher's environment, and the agreed start time of --start-at.
 *
 * Precedence (the first that applies wins):
 *   1. --client given by hand: "I/K" (0 <= I < K, K <= LAUNCH_MAX_CLIENTS; for pdsh, ssh,
 *      or to override a launcher), or "none" (one client: the environment is ignored);
 *   2. Open MPI (mpirun): OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE;
 *   3. Slurm (srun): SLURM_PROCID and SLURM_NTASKS;
 *   4. a Kubernetes Indexed Job: JOB_COMPLETION_INDEX and SIZEUP_CLIENT_COUNT (Kubernetes does
 *      not put the Job's completions in the pod's environment; the manifest sets the count,
 *      deploy/kubernetes/probe-indexed-job.yaml);
 *   5. none of them: one client.
 * The innermost launcher comes first: mpirun run inside a Slurm allocation sets both its own
 * variables and Slurm's, and its ranks are the processes that actually run; an Indexed Job's
 * pod that runs mpirun or srun is launching in turn. A launcher whose count is 1 means one
 * client (not a part), so a single process started by mpirun -np 1 or srun -n 1 measures the
 * whole point. Only --client I/K by hand makes a part of a one-client "group" (K = 1).
 *
 * A launcher's variables must both be present and be decimal integers with index < count;
 * half a pair (JOB_COMPLETION_INDEX without SIZEUP_CLIENT_COUNT) or a bad value is an error
 * naming the variable and its value, never silently one client.
 *
 * Thread-safety: the functions touch only their arguments (and what getenv returns).
 */
#ifndef SIZEUP_ADVISOR_LAUNCHER_H
#define SIZEUP_ADVISOR_LAUNCHER_H

#include <stddef.h>
#include <stdint.h>

/* Most clients of one level (a level has at most 4096 connections, limit.h). */
#define LAUNCH_MAX_CLIENTS 4096

/* Where the client index and count came from. */
enum launch_source {
    LAUNCH_ONE = 0,   /* one client: nothing set, --client none, or a launcher of count 1 */
    LAUNCH_CLI = 1,   /* --client I/K */
    LAUNCH_MPI = 2,   /* OMPI_COMM_WORLD_RANK / _SIZE */
    LAUNCH_SLURM = 3, /* SLURM_PROCID / SLURM_NTASKS */
    LAUNCH_K8S = 4    /* JOB_COMPLETION_INDEX / SIZEUP_CLIENT_COUNT */
};

struct launch_client {
    unsigned index, count; /* count 0 = one client (not a part); else 0 <= index < count */
    enum launch_source source;
    char what[160]; /* how it was found, for the progress line: "Open MPI
                       (OMPI_COMM_WORLD_RANK=1, OMPI_COMM_WORLD_SIZE=3)" */
};

/* Reads one environment variable; NULL when unset. ctx is the caller's. */
typedef const char *(*launch_getenv_fn)(const char *name, void *ctx);

/**
 * Resolve this process's share by the precedence above.
 * @param cli     the --client value, or NULL when the option was not given
 * @param getenv_fn  the environment (NULL: the process's, getenv(3))
 * @param ctx     passed to getenv_fn
 * @param out     filled on success
 * @param err     the reason on failure: "--client takes I/K ... not 'x'" or
 *                "SLURM_PROCID=7 is not below SLURM_NTASKS=4" (cap bytes)
 * @return 0, or -1 with err set (out then says one client).
 */
int launch_client_resolve(const char *cli, launch_getenv_fn getenv_fn, void *ctx,
                          struct launch_client *out, char *err, size_t cap);

/**
 * Parse an RFC 3339 date-time (--start-at): YYYY-MM-DDTHH:MM:SS[.fraction](Z|+hh:mm|-hh:mm);
 * 't', 'z' and a space for 'T' are accepted as RFC 3339 allows. Nanoseconds beyond 9 fraction
 * digits are dropped.
 * @param s    the text
 * @param out  nanoseconds since the Unix epoch (UTC)
 * @return 0, or -1 (not RFC 3339, a field out of range: month 13, 25:00, Feb 30, or a time
 *         before 1970 or after 2262, which nanoseconds in an int64_t cannot hold).
 */
int launch_parse_rfc3339(const char *s, int64_t *out);

#endif
