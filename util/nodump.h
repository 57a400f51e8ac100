/*
 * nodump.h - keep secrets out of core dumps. A process that holds a password (read from a
 * password file, MYSQL_PWD, or an option file Connector/C reads) is marked not dumpable with
 * prctl(PR_SET_DUMPABLE, 0) (Linux prctl(2)): a crash then writes no core file that would hold
 * the password, and another process of the same user cannot ptrace it. The mark stays for the
 * process's life (a later execve of a set-user-ID program aside, which sizeup never does).
 *
 * Thread-safety: call from any thread; idempotent.
 */
#ifndef SIZEUP_UTIL_NODUMP_H
#define SIZEUP_UTIL_NODUMP_H

/**
 * Mark this process not dumpable.
 * @return 0, or -1 when the system refused (errno set; the caller goes on: a core dump is a risk,
 *         not a reason to stop).
 */
int nodump_process(void);

#endif
