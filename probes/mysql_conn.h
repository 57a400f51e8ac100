/*
 * mysql_conn.h - one MySQL-protocol connection for the probes (MariaDB Connector/C, i.e.
 * libmysqlclient's API): connect with TLS options, server-side prepared statements with the
 * binds sysbench uses, text queries, and errors kept with their class.
 *
 * Call sequence (docs/reference/sysbench.md 2.5): myconn_library_init() once in the main thread
 * before any thread starts; per thread mysql_thread_init() (myconn_thread_init) and
 * myconn_thread_end(); myconn_connect() takes a *fresh* handle from mysql_init() every time,
 * including reconnects (reusing a closed handle is what crashes sysbench 1.0.20 with libmariadb,
 * its issue #527).
 *
 * Error classes (struct myconn_error):
 *   MYCONN_IGNORABLE  errno in --mysql-ignore-errors (default 1213,1020,1205, or "all"): the
 *                     transaction is restarted and counted as an error;
 *   MYCONN_RECONNECT  the connection is gone (2002, 2003, 2006, 2011, 2013, 2055, 1053 server
 *                     shutdown, 1927 connection killed): the caller reconnects with a fresh
 *                     handle (sizeup always does; sysbench only when the errno is ignored);
 *   MYCONN_FATAL      anything else: the run stops.
 * The raw mysql_errno, SQLSTATE and message are kept beside the class.
 *
 * Option files (MySQL's my.cnf), read by Connector/C itself as each connection is made
 * (mysql_optionsv MYSQL_READ_DEFAULT_FILE and MYSQL_READ_DEFAULT_GROUP; libmariadb/ma_default.c):
 *   - groups [client], [client-server], [client-mariadb] and defaults_group ([sizeup]);
 *   - defaults_file: only that file; else the library's search, /etc/my.cnf, /etc/mysql/my.cnf,
 *     $MARIADB_HOME/my.cnf (else $MYSQL_HOME/my.cnf), ~/.my.cnf, later files winning;
 *     myconn_defaults_extra_file() adds one file to the search (before ~/.my.cnf);
 *   - !include FILE and !includedir DIR (Connector/C reads DIR/my.cnf of a DIR);
 *   - every key the library knows: host, port, user, password, socket, database, ssl-ca,
 *     ssl-cert, ssl-key, ssl-verify-server-cert, tls-version, connect-timeout, ...
 * The values given in struct myconn_opts (the command line) go to mysql_real_connect as its
 * arguments, which the library takes before the files; the files take precedence over sizeup's
 * defaults (MYCONN_DEFAULT_*), which are set on the handle before they are read. The password:
 * myconn_opts.password when set, else the files', else MYSQL_PWD (Connector/C's order).
 * TLS options set here (ssl_mode, ssl_ca/cert/key) are set on the handle before the files are
 * read: a file that sets the same key would replace them (myconn_resolve() says so).
 *
 * Passwords: struct myconn_opts holds the password for mysql_real_connect only; no function
 * here prints or copies it anywhere else.
 *
 * Thread-safety: a struct myconn and its statements belong to one thread at a time.
 */
#ifndef SIZEUP_PROBES_MYSQL_CONN_H
#define SIZEUP_PROBES_MYSQL_CONN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

enum myconn_class { MYCONN_OK = 0, MYCONN_IGNORABLE = 1, MYCONN_RECONNECT = 2, MYCONN_FATAL = 3 };

/* --mysql-ssl-mode (MySQL's names). Connector/C has no separate VERIFY_CA: both VERIFY modes
 * verify the certificate chain *and* the host name (the stricter of the two). */
enum myconn_ssl_mode {
    MYCONN_SSL_DISABLED,
    MYCONN_SSL_PREFERRED,
    MYCONN_SSL_REQUIRED,
    MYCONN_SSL_VERIFY_CA,
    MYCONN_SSL_VERIFY_IDENTITY
};

/* --db-ps-mode */
enum myconn_ps_mode { MYCONN_PS_AUTO, MYCONN_PS_DISABLE };

#define MYCONN_MAX_IGNORE 64

/* --mysql-ignore-errors */
struct myconn_ignore {
    int all;  /* "all": every errno is ignorable */
    size_t n; /* number of codes */
    unsigned codes[MYCONN_MAX_IGNORE];
};

/* sizeup's defaults, below the option files (sysbench's user and database). */
#define MYCONN_DEFAULT_HOST "localhost"
#define MYCONN_DEFAULT_PORT 3306
#define MYCONN_DEFAULT_USER "sbtest"
#define MYCONN_DEFAULT_DB "sbtest"
/* The group of the option files that only sizeup reads. */
#define MYCONN_DEFAULT_GROUP "sizeup"

/* Connection options. Strings are borrowed (the caller keeps them alive); NULL = unset. */
struct myconn_opts {
    const char *host;     /* --mysql-host; NULL: the option files', else MYCONN_DEFAULT_HOST */
    unsigned port;        /* --mysql-port; 0: the option files', else MYCONN_DEFAULT_PORT */
    const char *socket;   /* --mysql-socket; when set, host "localhost" and this socket are used */
    const char *user;     /* --mysql-user; NULL: the option files', else MYCONN_DEFAULT_USER */
    const char *password; /* password file / MYSQL_PWD; NULL: the option files', else
                             MYSQL_PWD; never printed */
    const char *db; /* --mysql-db; NULL: the option files', else MYCONN_DEFAULT_DB; "": none */
    const char *defaults_file;  /* --defaults-file: read only this option file */
    const char *defaults_group; /* the group read besides [client], [client-server] and
                                   [client-mariadb]; NULL: MYCONN_DEFAULT_GROUP */
    int no_defaults;            /* --no-defaults: read no option file */
    enum myconn_ssl_mode ssl_mode;
    const char *ssl_ca, *ssl_cert, *ssl_key;
    enum myconn_ps_mode ps_mode;
    struct myconn_ignore ignore;
    unsigned connect_timeout_s; /* 0 = the library's default; covers the handshake too */
    unsigned timeout_s; /* read and write timeout of every statement, s; 0 = none (the library
                         * waits for ever): a frozen server then ends the statement with 2013 */
};

struct myconn_error {
    enum myconn_class cls;
    unsigned errnum;  /* raw mysql_errno / mysql_stmt_errno */
    char sqlstate[6]; /* SQLSTATE, e.g. "40001" */
    char msg[256];    /* the server's or library's message */
    char func[32];    /* the failing call, e.g. "mysql_stmt_execute" */
};

/* Connector/C's handles, by their struct tags (MYSQL, MYSQL_STMT, MYSQL_BIND in <mysql.h>):
 * only the .c files of probes/ include <mysql.h>, so no caller of the probes sees it. */
struct st_mysql;
struct st_mysql_stmt;
struct st_mysql_bind;

struct myconn {
    struct st_mysql *mysql; /* MYSQL *; NULL while disconnected */
    const struct myconn_opts *opts;
    struct myconn_error err;
};

/* Parameter types of a statement (sysbench's INT -> MYSQL_TYPE_LONG, CHAR -> MYSQL_TYPE_STRING). */
enum myconn_ptype { MYCONN_P_INT, MYCONN_P_CHAR };

struct myconn_param {
    enum myconn_ptype type;
    int32_t ival;
    char *sval;        /* CHAR buffer of capacity cap (owned) */
    unsigned long len; /* CHAR length */
    unsigned long cap;
};

/*
 * A statement: a template with '?' markers, prepared on the server (ps_mode auto) or sent as
 * text with the markers replaced by %d / '%s' (ps_mode disable, or when the server answers
 * 1295 ER_UNSUPPORTED_PS), exactly as sysbench's driver does.
 */
struct myconn_stmt {
    char *sql;
    size_t n_params;
    struct myconn_param *params;
    struct st_mysql_bind *binds; /* MYSQL_BIND[n_params] */
    struct st_mysql_stmt *stmt;  /* MYSQL_STMT *; NULL when emulated */
    char *text;                  /* emulation buffer */
    size_t text_cap;
};

/* What one successful statement did. */
struct myconn_result {
    int is_read;   /* returned a result set (field count > 0) */
    uint64_t rows; /* rows returned (read) or affected rows (otherwise) */
};

/** Initialise the client library once, in the main thread. @return 0 or -1. */
int myconn_library_init(void);

/** mysql_library_end(): after every connection is closed, in the main thread. */
void myconn_library_end(void);

/**
 * --defaults-extra-file: read FILE too, after the system files and before ~/.my.cnf (as the
 * MySQL clients do). Connector/C has no option for it; its search reads $MARIADB_HOME/my.cnf
 * there, so this writes a private my.cnf (a new mode-0700 folder under $TMPDIR or /tmp) holding
 * "!include FILE" (after an !include of the $MARIADB_HOME or $MYSQL_HOME file the caller had)
 * and points MARIADB_HOME at it. The folder is named sizeup-cnf.PID.XXXXXX; a run first removes
 * such folders of this user whose PID is gone (a run killed with SIGKILL before its cleanup)
 * when they hold nothing but their my.cnf. Call once, in the main thread, before
 * myconn_library_init() (the library takes its search folders then); myconn_defaults_cleanup()
 * removes the folder.
 * @param path  the file; it must exist and be readable
 * @param err   why not (cap bytes): "FILE: No such file or directory", ...
 * @return 0, or -1.
 */
int myconn_defaults_extra_file(const char *path, char *err, size_t cap);

/** Remove what myconn_defaults_extra_file() wrote (safe when it wrote nothing). */
void myconn_defaults_cleanup(void);

/* Where connections of a myconn_opts go once the option files are read (myconn_resolve). */
struct myconn_where {
    char host[256], user[256], db[256], socket[4096];
    unsigned port;
    int has_socket; /* socket[] is used: the host is localhost */
    /* a TLS option of o that an option file replaces ("--mysql-ssl-ca"), else NULL: Connector/C
     * applies the files after what is set on the handle, so the command line would lose */
    const char *tls_conflict;
    /* 1: o->ssl_mode is DISABLED but an option file turns TLS on (ssl, ssl-ca, ssl-capath,
     * ssl-cert, ssl-key, ssl-cipher or ssl-verify-server-cert): the connections will use TLS (a
     * caller told DISABLED on its command line refuses it) */
    int tls_from_files;
};

/**
 * Fill the unset host, port, user, db and socket of o from the option files (else sizeup's
 * defaults), so every connection, record and message says where it went. Connector/C reads
 * the files only as it connects: this makes one connection attempt with o and reads the
 * handle's options after it (a failure is not reported here: the connections that follow
 * report it); a caller for whom that extra login matters (observe: an account that locks after
 * failed logins) connects first and calls myconn_where_of() on that connection instead. With
 * o->no_defaults nothing is read. A db of "" asks for no default database (the files' database, if
 * they name one, else none); NULL takes the files', else MYCONN_DEFAULT_DB. Host and socket follow
 * the library's rule: a socket (o's or the files') is used when the host is localhost.
 * w->tls_conflict says when a file sets ssl-ca, ssl-cert or ssl-key that o sets too,
 * w->tls_from_files when a file turns TLS on while o says DISABLED (the caller refuses either when
 * its user set the option).
 * @param w  storage for the values; o's pointers point into it (keep w as long as o)
 * @return 0, or MYCONN_FATAL when out of memory.
 */
int myconn_resolve(struct myconn_opts *o, struct myconn_where *w);

/**
 * myconn_resolve() from a connection already made with o (myconn_connect): the files' values
 * as that connection read them, with no further connection. w and o as myconn_resolve fills
 * them. The connection is left as it was.
 */
void myconn_where_of(const struct myconn *c, struct myconn_opts *o, struct myconn_where *w);

/** mysql_thread_init() for a thread that will use connections. */
void myconn_thread_init(void);

/** mysql_thread_end() before a thread that used connections exits. */
void myconn_thread_end(void);

/**
 * Parse --mysql-ignore-errors: "" (none), "all", or a comma-separated list of errnos.
 * @return 0, or -1 when an item is not a number in 1..65535 or there are > MYCONN_MAX_IGNORE.
 */
int myconn_ignore_parse(const char *s, struct myconn_ignore *out);

/** Class of an errno under an ignore list (see the top of this file). */
enum myconn_class myconn_classify(unsigned errnum, const struct myconn_ignore *ig);

/** Parse a --mysql-ssl-mode name (case-insensitive). @return 0 or -1. */
int myconn_ssl_mode_parse(const char *s, enum myconn_ssl_mode *out);

/**
 * Open a connection with a fresh handle (mysql_init) and the options o (borrowed for the
 * connection's life). A previous handle in c is closed first.
 * @return 0, or the error class (c->err filled; c->mysql NULL).
 */
int myconn_connect(struct myconn *c, const struct myconn_opts *o);

/**
 * A fresh handle with the options o (mysql_init + mysql_options: timeouts, TLS), for
 * myconn_connect() or, with nonblock, for mysql_async.h's non-blocking connect
 * (MYSQL_OPT_NONBLOCK). c->opts is set to o and c->err cleared; a previous handle is closed.
 * @return 0 with c->mysql set, or MYCONN_FATAL (out of memory; c->err filled).
 */
int myconn_handle_new(struct myconn *c, const struct myconn_opts *o, int nonblock);

/**
 * Fill c->err for a failed call: errno, SQLSTATE (NULL = "HY000"), message, the call's name, and
 * the class of the errno under c->opts' ignore list.
 * @return the class.
 */
int myconn_fail(struct myconn *c, const char *func, unsigned errnum, const char *sqlstate,
                const char *msg);

/**
 * The socket of an open connection (mysql_get_socket), or -1 when closed. Another thread may
 * shutdown(2) it to end a statement that waits for a frozen server (probe.c does, at a level's
 * deadline); the owner must stop publishing it before myconn_close().
 */
int myconn_socket(const struct myconn *c);

/**
 * Wait until a server answers: connect (fresh handle) and run "SELECT 1", again with a backoff of
 * 250 ms doubling to 2 s, until it answers, give_up_s have passed, or *stop is raised.
 * @param stop  may be NULL
 * @param err   the last error when it did not answer
 * @return 0 answered, 1 stopped, or -(class) of the last error when it gave up
 *         (-MYCONN_FATAL for a refusal such as access denied: no use waiting).
 */
int myconn_wait_answer(const struct myconn_opts *o, double give_up_s, const atomic_int *stop,
                       struct myconn_error *err);

/** Close the handle (mysql_close). Safe on a closed connection. */
void myconn_close(struct myconn *c);

/**
 * Run a text query and discard its result (fully transferred, as sysbench does).
 * @return 0 with *res filled (res may be NULL), or the error class with c->err filled.
 */
int myconn_query(struct myconn *c, const char *sql, size_t len, struct myconn_result *res);

/**
 * Called for each row of a result set: n fields, each NUL-terminated text or NULL for SQL NULL
 * (borrowed until the callback returns). Return 0 to go on, non-zero to skip the other rows.
 */
typedef int (*myconn_row_fn)(void *ctx, unsigned n, const char *const *row);

/**
 * Run a text query that returns rows and hand each row to fn (in order).
 * @return 0, or the error class with c->err filled (an ignorable class is reported as fatal:
 *         the caller has no transaction to restart).
 */
int myconn_query_rows(struct myconn *c, const char *sql, myconn_row_fn fn, void *ctx);

/**
 * Set a statement up on the client side: its SQL, parameters of the given types (CHAR ones get a
 * buffer of char_cap[i] bytes; char_cap may be NULL when there is no CHAR) and their binds.
 * Nothing is sent. Under MYCONN_PS_DISABLE the statement is emulated as text at once; otherwise
 * mysql_async.h prepares it on the server (myconn_stmt_needs_prepare()).
 * @return 0, or MYCONN_FATAL when out of memory (c->err filled; s left empty and safe to
 *         destroy).
 */
int myconn_stmt_setup(struct myconn *c, struct myconn_stmt *s, const char *sql,
                      const enum myconn_ptype *types, const unsigned long *char_cap,
                      size_t n_params);

/** 1 when a set-up statement still has to be prepared on the server (neither prepared nor
 * emulated), else 0. */
int myconn_stmt_needs_prepare(const struct myconn_stmt *s);

/**
 * Send the statement as text from now on: '?' markers replaced by %d / '%s' (no escaping), as
 * sysbench's driver does under --db-ps-mode=disable or when the server answers 1295
 * ER_UNSUPPORTED_PS. A server statement it had is closed.
 * @return 0, or MYCONN_FATAL when out of memory (c->err filled).
 */
int myconn_stmt_emulate(struct myconn *c, struct myconn_stmt *s);

/**
 * The text of an emulated statement with its current parameters, built in s->text.
 * @return its length in bytes (s->text is NUL-terminated).
 */
size_t myconn_stmt_text(struct myconn_stmt *s);

/** Close the server statement (before a reconnect), keeping the set-up parameters and SQL, so
 * the statement can be prepared again on a new connection. Safe when not prepared. */
void myconn_stmt_unprepare(struct myconn_stmt *s);

/** Set INT parameter i. */
void myconn_stmt_set_int(struct myconn_stmt *s, size_t i, int32_t v);

/** Set CHAR parameter i to len bytes of v (len <= its capacity; longer is cut). */
void myconn_stmt_set_str(struct myconn_stmt *s, size_t i, const char *v, size_t len);

/** Pointer to CHAR parameter i's buffer, to fill in place; then myconn_stmt_set_len(). */
char *myconn_stmt_buf(struct myconn_stmt *s, size_t i);

/** Set CHAR parameter i's length after filling its buffer in place. */
void myconn_stmt_set_len(struct myconn_stmt *s, size_t i, size_t len);

/** Close the server statement (if the connection still has it) and free s's memory. Safe on
 * an empty or already destroyed statement; s is left empty. */
void myconn_stmt_destroy(struct myconn_stmt *s);

/** Version string of the connected server (mysql_get_server_info), or "" when closed. */
const char *myconn_server_version(const struct myconn *c);

#endif
