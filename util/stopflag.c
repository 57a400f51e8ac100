/* stopflag.c - the SIGINT/SIGTERM stop flag (stopflag.h). */
#include "stopflag.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the stop flag must be lock-free to be set by a handler");

/* The one global the conventions allow: the signal that asked to stop, 0 for none. */
static atomic_int stop_signal;

/* What stopflag_install replaced (only touched by the installing thread). */
static struct sigaction old_int, old_term;
static int installed;

static void on_signal(int sig)
{
    atomic_store(&stop_signal, sig);
}

int stopflag_install(void)
{
    struct sigaction sa;
    atomic_store(&stop_signal, 0);
    if (installed)
        return 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a sleeping or reading thread wakes with EINTR */
    if (sigaction(SIGINT, &sa, &old_int) != 0)
        return -1;
    if (sigaction(SIGTERM, &sa, &old_term) != 0) {
        sigaction(SIGINT, &old_int, NULL);
        return -1;
    }
    installed = 1;
    return 0;
}

void stopflag_restore(void)
{
    if (!installed)
        return;
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    installed = 0;
}

/* SIGTERM outside stopflag_install: act as SIGINT (sigaction, signal and raise are
 * async-signal-safe, POSIX 2.4.3). */
static void term_as_int(int sig)
{
    struct sigaction cur;
    (void)sig;
    if (sigaction(SIGINT, NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
        cur.sa_handler == SIG_IGN)
        signal(SIGINT, SIG_DFL);
    raise(SIGINT);
}

int stopflag_term_as_int(void)
{
    struct sigaction sa, old;
    if (sigaction(SIGTERM, NULL, &old) != 0)
        return -1;
    if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN)
        return 0; /* whoever started us asked for SIGTERM to be ignored */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = term_as_int;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(SIGTERM, &sa, NULL);
}

const atomic_int *stopflag_get(void)
{
    return &stop_signal;
}

int stopflag_signal(void)
{
    return atomic_load(&stop_signal);
}

void stopflag_raise(int sig)
{
    atomic_store(&stop_signal, sig > 0 ? sig : SIGINT);
}

void stopflag_clear(void)
{
    atomic_store(&stop_signal, 0);
}

const char *stopflag_name(int sig)
{
    static _Thread_local char other[24];
    if (sig == 0)
        return "";
    if (sig == SIGINT)
        return "SIGINT";
    if (sig == SIGTERM)
        return "SIGTERM";
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}

int stopflag_exit_status(void)
{
    return atomic_load(&stop_signal) > 0 ? 128 + SIGINT : 0;
}
