/*
 * probe_curve.c - one curve of `sizeup probe run` over its own session (probe_curve.h).
 */
#include "probe_curve.h"

enum drive_status probe_curve_run(const struct probe_session_opts *so,
                                  const struct probe_drive_opts *d, struct probe_drive_result *res,
                                  int *opened, FILE *err)
{
    char msg[600];
    struct probe_session *s = probe_session_new(so, msg, sizeof msg);
    enum drive_status st;
    if (opened)
        *opened = s != NULL;
    if (!s) {
        fprintf(err, "sizeup: %s\n", msg);
        return DRIVE_FAIL;
    }
    st = probe_drive(s, d, res);
    probe_session_free(s);
    return st;
}
