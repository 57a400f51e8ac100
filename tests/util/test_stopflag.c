/*
 * test_stopflag.c - the SIGINT/SIGTERM stop flag of util/stopflag.h: a real signal sets it to
 * the signal's number, the handler does not restart system calls, exit status 130 for SIGINT and
 * SIGTERM alike (SIGTERM is treated as SIGINT), and restore puts the previous handler back.
 */
#include "check.h"
#include "stopflag.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child that calls stopflag_term_as_int (SIGINT ignored first when ignore_int; a stop flag
 * installed and restored after it when with_flag) and sends itself SIGTERM: the signal that
 * ended it (0 when it exited). */
static int child_term(int ignore_int, int with_flag)
{
    int st;
    pid_t pid = fork();
    if (pid == 0) {
        if (ignore_int)
            signal(SIGINT, SIG_IGN);
        if (stopflag_term_as_int() != 0)
            _exit(2);
        if (with_flag && stopflag_install() != 0)
            _exit(3);
        if (with_flag)
            stopflag_restore(); /* back to term_as_int for SIGTERM */
        kill(getpid(), SIGTERM);
        _exit(0);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
}

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
    CHECK_INT_EQ(stopflag_exit_status(), 130); /* SIGTERM is treated as SIGINT */
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

    /* SIGTERM acts as SIGINT: the process ends by SIGINT (the shell's 130), also when SIGINT
     * was ignored, and after a stop flag was installed and restored */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    CHECK_INT_EQ(child_term(0, 0), SIGINT);
    CHECK_INT_EQ(child_term(1, 0), SIGINT);
    CHECK_INT_EQ(child_term(0, 1), SIGINT);
    return check_report();
}
