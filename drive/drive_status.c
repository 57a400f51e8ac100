/*
 * drive_status.c - the name of a measurement run's ending (drive_status.h).
 */
#include "drive_status.h"

const char *drive_status_name(enum drive_status st)
{
    switch (st) {
    case DRIVE_OK:
        return "ok";
    case DRIVE_FAIL:
        return "failed";
    case DRIVE_UNREACHABLE:
        return "server unreachable";
    case DRIVE_INTERRUPTED:
        return "interrupted";
    }
    return "unknown";
}
