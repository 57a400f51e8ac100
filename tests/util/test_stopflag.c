/*
 * test_stopflag.c - the SIGINT/SIGTERM stop flag of util/stopflag.h: a real signal sets it to
 * the signal's number, the handler does not restart system calls, exit status 128 + signal
 * (the shell's convention), and restore puts the previous handler back.
 */
#include "check.h"
#include "stopflag.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t previous_calls;

static void previous_handler(int sig)
{
    (void)sig;
    previous_calls++;
}

int main(void)
{
    struct sigaction sa, cur;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = previous_handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    CHECK_INT_EQ(stopflag_install(), 0);
    CHECK_INT_EQ(stopflag_signal(), 0);
    CHECK_INT_EQ(atomic_load(stopflag_get()), 0);
    CHECK_INT_EQ(stopflag_exit_status(), 0);
    sigaction(SIGINT, NULL, &cur);
    CHECK(cur.sa_handler != previous_handler && cur.sa_handler != SIG_DFL);
    CHECK((cur.sa_flags & SA_RESTART) == 0);

    /* kill() to oneself delivers the signal before it returns (POSIX, when unblocked) */
    CHECK_INT_EQ(kill(getpid(), SIGINT), 0);
    CHECK_INT_EQ(stopflag_signal(), SIGINT);
    CHECK_INT_EQ(atomic_load(stopflag_get()), SIGINT);
    CHECK_INT_EQ(stopflag_exit_status(), 130);
    CHECK(strcmp(stopflag_name(stopflag_signal()), "SIGINT") == 0);
    CHECK_INT_EQ(previous_calls, 0);

    stopflag_clear();
    CHECK_INT_EQ(stopflag_signal(), 0);
    CHECK_INT_EQ(kill(getpid(), SIGTERM), 0);
    CHECK_INT_EQ(stopflag_signal(), SIGTERM);
    CHECK_INT_EQ(stopflag_exit_status(), 143);
    CHECK(strcmp(stopflag_name(SIGTERM), "SIGTERM") == 0);

    /* installing again only clears */
    CHECK_INT_EQ(stopflag_install(), 0);
    CHECK_INT_EQ(stopflag_signal(), 0);
    stopflag_raise(SIGINT);
    CHECK_INT_EQ(stopflag_exit_status(), 130);

    stopflag_restore();
    CHECK_INT_EQ(stopflag_signal(), SIGINT); /* the flag keeps its value */
    stopflag_clear();
    CHECK_INT_EQ(kill(getpid(), SIGINT), 0);
    CHECK_INT_EQ(previous_calls, 1);
    CHECK_INT_EQ(stopflag_signal(), 0);
    CHECK(strcmp(stopflag_name(0), "") == 0);
    CHECK(strcmp(stopflag_name(SIGHUP), "signal 1") == 0);
    return check_report();
}
