/*
 * conn_cli.h - the MySQL connection options every command that connects to a server takes
 * (`probe`, `observe`): one option block, one check of how they combine, one place that turns
 * them into a struct myconn_opts ready for myconn_connect() (the password's order, the extra
 * option file, the client library, TLS set in two places).
 *
 * A command embeds struct conn_cli in its option struct and puts CONN_CLI_OPTIONS(T, member,
 * conn) in its option table, where conn is the path of its struct myconn_opts inside T:
 *     struct observe_cli { struct conn_cli cc; struct myconn_opts conn; ... };
 *     static const struct cli_opt t[] = { CONN_CLI_OPTIONS(struct observe_cli, cc, conn), ... };
 *
 * Passwords: the password read here (--mysql-password-file, MYSQL_PWD) is held in cc->password
 * for mysql_real_connect only, never printed or copied elsewhere, and wiped by conn_cli_close().
 *
 * Thread-safety: call from the main thread, before any connection thread starts.
 */
#ifndef SIZEUP_CLI_CONN_CLI_H
#define SIZEUP_CLI_CONN_CLI_H

#include "cli.h"
#include "limit.h"
#include "mysql_conn.h"

#define CONN_CLI_STR_(x) #x
#define CONN_CLI_STR(x) CONN_CLI_STR_(x)

/* What the connection options set besides struct myconn_opts. */
struct conn_cli {
    const char *pwfile;     /* --mysql-password-file */
    const char *extra_file; /* --defaults-extra-file */
    char *password;         /* owned: read by conn_cli_open, wiped by conn_cli_close */
    int ssl_mode_given;     /* --mysql-ssl-mode was on the command line (conn_cli_check) */
    int connect_first;      /* set by the caller: conn_cli_open does not resolve the option files
                             * with a login of its own; the caller connects, then calls
                             * conn_cli_connected() */
};

/* --mysql-ssl-mode's values (MySQL's names). */
extern const struct cli_choice conn_cli_ssl_modes[];

/* The paragraph of --help that says where the connection options come from. */
#define CONN_CLI_DOC                                                                               \
    "Connection options are read as the MySQL clients read them, by MariaDB Connector/C\n"         \
    "itself: the option files (--defaults-file, else /etc/my.cnf, /etc/mysql/my.cnf,\n"            \
    "$MARIADB_HOME/my.cnf, --defaults-extra-file, ~/.my.cnf; !include and !includedir\n"           \
    "work), groups [client], [client-server], [client-mariadb] and [sizeup], every key the\n"      \
    "library knows (host, port, user, password, socket, database, ssl-ca, ssl-cert,\n"             \
    "ssl-key, ssl-verify-server-cert, ...). The command line overrides the files, and the\n"       \
    "files override sizeup's defaults. The password, first found: --mysql-password-file;\n"        \
    "the option files, when --defaults-file or --defaults-extra-file names one; MYSQL_PWD;\n"      \
    "the option files of the default search. It is never printed or recorded."

/* The option table's entries: T the command's option struct, CC its struct conn_cli member,
 * CONN the path of its struct myconn_opts. */
#define CONN_CLI_OPTIONS(T, CC, CONN)                                                              \
    {"mysql-host",         0,                                                                      \
     CLI_STRING,           CLI_AT(T, CONN.host),                                                   \
     .arg_name = "HOST",   .dflt_doc = "the option files' host, else " MYCONN_DEFAULT_HOST,        \
     .help = "server host"},                                                                       \
        {"mysql-port",                                                                             \
         0,                                                                                        \
         CLI_INT,                                                                                  \
         CLI_AT(T, CONN.port),                                                                     \
         .min = LIMIT_PORT_MIN,                                                                    \
         .max = LIMIT_PORT_MAX,                                                                    \
         .dflt_doc = "the option files' port, else " CONN_CLI_STR(MYCONN_DEFAULT_PORT),            \
         .help = "server TCP port"},                                                               \
        {"mysql-socket",                                                                           \
         0,                                                                                        \
         CLI_PATH,                                                                                 \
         CLI_AT(T, CONN.socket),                                                                   \
         .arg_name = "PATH",                                                                       \
         .dflt_doc = "the option files' socket when the host is localhost",                        \
         .help = "Unix socket (then the host is localhost)"},                                      \
        {"mysql-user",                                                                             \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_AT(T, CONN.user),                                                                     \
         .dflt_doc = "the option files' user, else " MYCONN_DEFAULT_USER,                          \
         .help = "user"},                                                                          \
        {"mysql-db",                                                                               \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_AT(T, CONN.db),                                                                       \
         .dflt_doc = "the option files' database, else " MYCONN_DEFAULT_DB,                        \
         .help = "database"},                                                                      \
        {"mysql-password-file", 0, CLI_PATH, CLI_AT(T, CC.pwfile),                                 \
         .help = "read the password from the first line of FILE (the order of the password's "     \
                 "sources is above); never printed or stored"},                                    \
        {"defaults-file", 0, CLI_PATH, CLI_AT(T, CONN.defaults_file),                              \
         .help = "read only this option file (with what it includes), not the default search"},    \
        {"defaults-extra-file", 0, CLI_PATH, CLI_AT(T, CC.extra_file),                             \
         .help = "read this option file too, after the system ones and before ~/.my.cnf"},         \
        {"no-defaults", 0, CLI_FLAG, CLI_AT(T, CONN.no_defaults), .help = "read no option file"},  \
        {"defaults-group",                                                                         \
         0,                                                                                        \
         CLI_STRING,                                                                               \
         CLI_AT(T, CONN.defaults_group),                                                           \
         .dflt = MYCONN_DEFAULT_GROUP,                                                             \
         .help = "the option files' group read besides [client], [client-server] and "             \
                 "[client-mariadb]"},                                                              \
        {"mysql-ssl-mode",   0,                                                                    \
         CLI_CHOICE,         CLI_AT(T, CONN.ssl_mode),                                             \
         .arg_name = "MODE", .choices = conn_cli_ssl_modes,                                        \
         .dflt = "DISABLED", .help = "TLS"},                                                       \
        {"mysql-ssl-ca", 0, CLI_PATH, CLI_AT(T, CONN.ssl_ca), .help = "CA certificate (PEM)"},     \
        {"mysql-ssl-cert", 0, CLI_PATH, CLI_AT(T, CONN.ssl_cert),                                  \
         .help = "client certificate (PEM)"},                                                      \
    {                                                                                              \
        "mysql-ssl-key", 0, CLI_PATH, CLI_AT(T, CONN.ssl_key), .help = "client key (PEM)"          \
    }

/**
 * How the connection options combine, after cli_parse: --no-defaults excludes the option
 * files named, --defaults-file excludes --defaults-extra-file and must be readable.
 * Sets cc->ssl_mode_given from a (the parse's cli_args).
 * @param cmd  the command's name for misuse messages ("probe")
 * @return CLI_RUN, or SIZEUP_EXIT_USAGE with the reason on stderr.
 */
int conn_cli_check(const char *cmd, const struct cli_cmd *table, const struct cli_args *a,
                   const struct myconn_opts *o, struct conn_cli *cc);

/**
 * Ready o for myconn_connect(): the password (--mysql-password-file, else MYSQL_PWD when no
 * option file is named on the command line, so that it comes before ~/.my.cnf), the extra
 * option file, the client library (myconn_library_init), the files' values resolved
 * (myconn_resolve into *where) and TLS set both on the command line and in a file refused.
 * o->password borrows cc->password.
 * @return CLI_RUN, or the exit status (SIZEUP_EXIT_USAGE: a password file, extra option file or
 *         TLS conflict; SIZEUP_EXIT_FAIL: the library or memory) with the reason on stderr.
 *         Either way call conn_cli_close() at the end.
 */
int conn_cli_open(struct myconn_opts *o, struct conn_cli *cc, struct myconn_where *where);

/**
 * With connect_first: after the first connection c made with o, what conn_cli_open would have
 * checked (myconn_where_of: the files' values as that connection read them into *where; TLS set
 * both on the command line and in a file refused). @return CLI_RUN, or SIZEUP_EXIT_USAGE with
 * the reason on stderr.
 */
int conn_cli_connected(const struct myconn *c, struct myconn_opts *o, struct conn_cli *cc,
                       struct myconn_where *where);

/** Wipe and free the password, end the client library, remove the option-file folder.
 * Safe after a failed or absent conn_cli_open. */
void conn_cli_close(struct conn_cli *cc);

#endif
