/* main.c - the sizeup command: dispatches to a subcommand (commands.c), nothing else. */
#include "cli.h"
#include "commands.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    return cmd_sizeup(argc, argv);
}
