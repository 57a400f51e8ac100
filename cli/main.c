/* main.c - the sizeup command: dispatches to a subcommand (commands.c), nothing else. */
#include "cli.h"
#include "commands.h"
#include "stopflag.h"
#include "ttysafe.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    /* what messages quote (a file name, a value typed, a name from a table) never reaches the
     * terminal as a control sequence (util/ttysafe.h) */
    (void)ttysafe_stderr();
    /* SIGTERM is treated as SIGINT by every command (issue 12.5): exit 130, temporaries
     * removed; a command with a stop flag (stopflag_install) handles both itself */
    stopflag_term_as_int();
    return cmd_sizeup(argc, argv);
}
