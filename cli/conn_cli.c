/* conn_cli.c - the MySQL connection options of `probe` and `observe` (conn_cli.h). */
#include "conn_cli.h"

#include "nodump.h"
#include "readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct cli_choice conn_cli_ssl_modes[] = {{"DISABLED", MYCONN_SSL_DISABLED},
                                                {"PREFERRED", MYCONN_SSL_PREFERRED},
                                                {"REQUIRED", MYCONN_SSL_REQUIRED},
                                                {"VERIFY_CA", MYCONN_SSL_VERIFY_CA},
                                                {"VERIFY_IDENTITY", MYCONN_SSL_VERIFY_IDENTITY},
                                                {NULL, 0}};

int conn_cli_check(const char *cmd, const struct cli_cmd *table, const struct cli_args *a,
                   const struct myconn_opts *o, struct conn_cli *cc)
{
    cc->ssl_mode_given = cli_given(table, a, "mysql-ssl-mode");
    if (o->no_defaults && (o->defaults_file || cc->extra_file))
        return cli_usage_error(cmd, "--no-defaults reads no option file: it excludes "
                                    "--defaults-file and --defaults-extra-file");
    if (o->defaults_file && cc->extra_file)
        return cli_usage_error(cmd, "--defaults-file reads only its file: include the other "
                                    "one in it (!include FILE) instead of "
                                    "--defaults-extra-file");
    if (o->defaults_file && access(o->defaults_file, R_OK) != 0) {
        fprintf(stderr, "sizeup: --defaults-file %s: %s\n", o->defaults_file, strerror(errno));
        return SIZEUP_EXIT_USAGE;
    }
    return CLI_RUN;
}

/* The password sizeup passes to the connections (cc->password; NULL: Connector/C's own order,
 * the option files' then MYSQL_PWD). */
static int resolve_password(const struct myconn_opts *o, struct conn_cli *cc)
{
    const char *env = getenv("MYSQL_PWD");
    char why[512];
    if (cc->pwfile) {
        if (readfile_secret_line(cc->pwfile, &cc->password, why, sizeof why) == 0)
            return 0;
        fprintf(stderr, "sizeup: --mysql-password-file: %s\n", why);
        return -1;
    }
    if (env && !o->defaults_file && !cc->extra_file) {
        cc->password = strdup(env);
        if (!cc->password) {
            fprintf(stderr, "sizeup: out of memory\n");
            return -1;
        }
    }
    return 0;
}

static int tls_checks(const struct conn_cli *cc, const struct myconn_where *where);

/* Set by conn_cli_open once the library is initialised, for conn_cli_close. */
static int library_up;

int conn_cli_open(struct myconn_opts *o, struct conn_cli *cc, struct myconn_where *where)
{
    char msg[4096];
    /* a password is about to be held (ours, MYSQL_PWD's or an option file's): no core dump */
    nodump_process();
    if (resolve_password(o, cc))
        return SIZEUP_EXIT_USAGE;
    o->password = cc->password;
    if (cc->extra_file && myconn_defaults_extra_file(cc->extra_file, msg, sizeof msg) != 0) {
        fprintf(stderr, "sizeup: --defaults-extra-file %s\n", msg);
        return SIZEUP_EXIT_USAGE;
    }
    if (myconn_library_init()) {
        fprintf(stderr, "sizeup: cannot initialise the MySQL client library\n");
        return SIZEUP_EXIT_FAIL;
    }
    library_up = 1;
    if (cc->connect_first)
        return CLI_RUN; /* the caller's first connection reads the files (conn_cli_connected) */
    if (myconn_resolve(o, where) != 0) {
        fprintf(stderr, "sizeup: out of memory\n");
        return SIZEUP_EXIT_FAIL;
    }
    return tls_checks(cc, where);
}

int conn_cli_connected(const struct myconn *c, struct myconn_opts *o, struct conn_cli *cc,
                       struct myconn_where *where)
{
    myconn_where_of(c, o, where);
    return tls_checks(cc, where);
}

/* TLS set on the command line that an option file would override. CLI_RUN or exit status. */
static int tls_checks(const struct conn_cli *cc, const struct myconn_where *where)
{
    if (where->tls_conflict) {
        fprintf(stderr,
                "sizeup: %s: an option file sets it too, and Connector/C applies the files "
                "after the command line: remove it from the file, or use --no-defaults or a "
                "--defaults-file without it\n",
                where->tls_conflict);
        return SIZEUP_EXIT_USAGE;
    }
    if (where->tls_from_files && cc->ssl_mode_given) {
        fprintf(stderr, "sizeup: --mysql-ssl-mode DISABLED: an option file turns TLS on (ssl, "
                        "ssl-ca, ssl-capath, ssl-cert, ssl-key, ssl-cipher or "
                        "ssl-verify-server-cert), and Connector/C applies the files after "
                        "the command line: remove them from the file, or use --no-defaults or a "
                        "--defaults-file without them\n");
        return SIZEUP_EXIT_USAGE;
    }
    return CLI_RUN;
}

void conn_cli_close(struct conn_cli *cc)
{
    if (cc->password) {
        memset(cc->password, 0, strlen(cc->password));
        free(cc->password);
        cc->password = NULL;
    }
    if (library_up) {
        myconn_library_end();
        library_up = 0;
    }
    myconn_defaults_cleanup();
}
