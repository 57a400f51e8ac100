/* nodump.c - keep secrets out of core dumps (nodump.h). */
#include "nodump.h"

#include <sys/prctl.h>

int nodump_process(void)
{
    return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 ? 0 : -1;
}
