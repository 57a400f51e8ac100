/* mysql_conn.c - connections, prepared statements and classified errors (see mysql_conn.h). */
#include "mysql_conn.h"

#include "clock.h"

#include <mysql.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* Client and server errnos that mean the connection is gone. */
static const unsigned lost_errnos[] = {
    2002, /* CR_CONNECTION_ERROR (socket) */
    2003, /* CR_CONN_HOST_ERROR */
    2006, /* CR_SERVER_GONE_ERROR */
    2011, /* CR_TCP_CONNECTION */
    2013, /* CR_SERVER_LOST */
    2055, /* CR_SERVER_LOST_EXTENDED */
    1053, /* ER_SERVER_SHUTDOWN */
    1927, /* ER_CONNECTION_KILLED (MariaDB) */
};

int myconn_library_init(void)
{
    return mysql_library_init(0, NULL, NULL) == 0 ? 0 : -1;
}

void myconn_library_end(void)
{
    mysql_library_end();
}

/* --defaults-extra-file's folder and file (myconn_defaults_extra_file), "" when none. */
static char extra_dir[PATH_MAX], extra_cnf[PATH_MAX + 16];

/* Remove the folders "sizeup-cnf.PID.*" in tmp that a run killed before its cleanup left
 * (SIGKILL: issue 27.3), when PID is gone and the folder holds nothing but its my.cnf (the
 * include line, no secret). A live run's folder, or anything else, is left alone. */
static void sweep_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    struct dirent *e;
    struct stat st;
    if (!d)
        return;
    while ((e = readdir(d))) {
        char dir[PATH_MAX], cnf[PATH_MAX + 16], *end;
        long pid;
        if (strncmp(e->d_name, "sizeup-cnf.", 11) != 0)
            continue;
        pid = strtol(e->d_name + 11, &end, 10);
        if (end == e->d_name + 11 || *end != '.' || pid <= 0 || pid == (long)getpid() ||
            kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        if ((size_t)snprintf(dir, sizeof dir, "%s/%s", tmp, e->d_name) >= sizeof dir ||
            lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
            continue; /* ours only: a folder of this user */
        snprintf(cnf, sizeof cnf, "%s/my.cnf", dir);
        unlink(cnf);
        rmdir(dir); /* fails, and leaves it, when anything else is in it */
    }
    closedir(d);
}

int myconn_defaults_extra_file(const char *path, char *err, size_t cap)
{
    char real[PATH_MAX];
    const char *tmp = getenv("TMPDIR"), *home = getenv("MARIADB_HOME");
    FILE *f;
    int fd;
    if (!home)
        home = getenv("MYSQL_HOME"); /* the library reads this one only without MARIADB_HOME */
    if (access(path, R_OK) != 0 || !realpath(path, real)) {
        snprintf(err, cap, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (strchr(real, '\n') || (home && strchr(home, '\n'))) {
        snprintf(err, cap, "%s: a file name with a line break cannot be included", path);
        return -1;
    }
    sweep_stale(tmp && *tmp ? tmp : "/tmp");
    /* the pid in the name: a later run removes the folder of one killed before its cleanup */
    snprintf(extra_dir, sizeof extra_dir, "%s/sizeup-cnf.%ld.XXXXXX", tmp && *tmp ? tmp : "/tmp",
             (long)getpid());
    if (!mkdtemp(extra_dir)) {
        snprintf(err, cap, "cannot make a folder for --defaults-extra-file in %s: %s",
                 tmp && *tmp ? tmp : "/tmp", strerror(errno));
        extra_dir[0] = '\0';
        return -1;
    }
    snprintf(extra_cnf, sizeof extra_cnf, "%s/my.cnf", extra_dir);
    fd = open(extra_cnf, O_WRONLY | O_CREAT | O_EXCL, 0600);
    f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        snprintf(err, cap, "cannot write %s: %s", extra_cnf, strerror(errno));
        if (fd >= 0)
            close(fd);
        myconn_defaults_cleanup();
        return -1;
    }
    /* what the search read in this place before, then the extra file */
    if (home && *home)
        fprintf(f, "!includedir %s\n", home);
    fprintf(f, "!include %s\n", real);
    if (fclose(f) != 0 || setenv("MARIADB_HOME", extra_dir, 1) != 0) {
        snprintf(err, cap, "cannot write %s: %s", extra_cnf, strerror(errno));
        myconn_defaults_cleanup();
        return -1;
    }
    return 0;
}

void myconn_defaults_cleanup(void)
{
    if (extra_cnf[0])
        unlink(extra_cnf);
    if (extra_dir[0])
        rmdir(extra_dir);
    extra_cnf[0] = extra_dir[0] = '\0';
}

void myconn_thread_init(void)
{
    mysql_thread_init();
}

void myconn_thread_end(void)
{
    mysql_thread_end();
}

int myconn_ignore_parse(const char *s, struct myconn_ignore *out)
{
    const char *p = s;
    memset(out, 0, sizeof *out);
    if (strcmp(s, "all") == 0) {
        out->all = 1;
        return 0;
    }
    while (*p) {
        char *end;
        long v;
        errno = 0;
        v = strtol(p, &end, 10);
        if (end == p || errno || v < 1 || v > 65535 || (*end != ',' && *end != '\0') ||
            out->n >= MYCONN_MAX_IGNORE)
            return -1;
        out->codes[out->n++] = (unsigned)v;
        p = *end == ',' ? end + 1 : end;
        if (*end == ',' && *p == '\0')
            return -1;
    }
    return 0;
}

enum myconn_class myconn_classify(unsigned errnum, const struct myconn_ignore *ig)
{
    for (size_t i = 0; i < sizeof lost_errnos / sizeof lost_errnos[0]; i++)
        if (errnum == lost_errnos[i])
            return MYCONN_RECONNECT;
    if (ig->all)
        return MYCONN_IGNORABLE;
    for (size_t i = 0; i < ig->n; i++)
        if (ig->codes[i] == errnum)
            return MYCONN_IGNORABLE;
    return MYCONN_FATAL;
}

int myconn_ssl_mode_parse(const char *s, enum myconn_ssl_mode *out)
{
    static const char *const names[] = {"DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA",
                                        "VERIFY_IDENTITY"};
    for (int i = 0; i < 5; i++) {
        if (strcasecmp(s, names[i]) == 0) {
            *out = (enum myconn_ssl_mode)i;
            return 0;
        }
    }
    return -1;
}

int myconn_fail(struct myconn *c, const char *func, unsigned errnum, const char *state,
                const char *msg)
{
    c->err.errnum = errnum;
    snprintf(c->err.sqlstate, sizeof c->err.sqlstate, "%s", state ? state : "HY000");
    snprintf(c->err.msg, sizeof c->err.msg, "%s", msg ? msg : "");
    snprintf(c->err.func, sizeof c->err.func, "%s", func);
    c->err.cls = myconn_classify(errnum, &c->opts->ignore);
    return (int)c->err.cls;
}

static int conn_error(struct myconn *c, const char *func)
{
    return myconn_fail(c, func, mysql_errno(c->mysql), mysql_sqlstate(c->mysql),
                       mysql_error(c->mysql));
}

int myconn_handle_new(struct myconn *c, const struct myconn_opts *o, int nonblock)
{
    MYSQL *m;
    myconn_close(c);
    c->opts = o;
    memset(&c->err, 0, sizeof c->err);
    m = mysql_init(NULL);
    if (!m || (nonblock && mysql_options(m, MYSQL_OPT_NONBLOCK, 0) != 0)) {
        if (m)
            mysql_close(m);
        return myconn_fail(c, "mysql_init", 2008, "HY000", "out of memory");
    }
    /* sizeup's defaults, then the option files over them (read by mysql_real_connect) */
    mysql_optionsv(m, MARIADB_OPT_HOST, MYCONN_DEFAULT_HOST);
    mysql_optionsv(m, MARIADB_OPT_PORT, &(unsigned){MYCONN_DEFAULT_PORT});
    mysql_optionsv(m, MARIADB_OPT_USER, MYCONN_DEFAULT_USER);
    if (!o->db) /* "" asks for no default database: no default of sizeup's either */
        mysql_optionsv(m, MARIADB_OPT_SCHEMA, MYCONN_DEFAULT_DB);
    if (!o->no_defaults) {
        if (o->defaults_file)
            mysql_optionsv(m, MYSQL_READ_DEFAULT_FILE, o->defaults_file);
        mysql_optionsv(m, MYSQL_READ_DEFAULT_GROUP,
                       o->defaults_group ? o->defaults_group : MYCONN_DEFAULT_GROUP);
    }
    if (o->connect_timeout_s) {
        unsigned t = o->connect_timeout_s;
        mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &t);
    }
    if (o->timeout_s) { /* Connector/C waits this long once (libmysqlclient: 3 tries) */
        unsigned t = o->timeout_s;
        mysql_options(m, MYSQL_OPT_READ_TIMEOUT, &t);
        mysql_options(m, MYSQL_OPT_WRITE_TIMEOUT, &t);
    }
    if (o->ssl_mode != MYCONN_SSL_DISABLED) {
        my_bool on = 1, verify = o->ssl_mode >= MYCONN_SSL_VERIFY_CA;
        mysql_ssl_set(m, o->ssl_key, o->ssl_cert, o->ssl_ca, NULL, NULL);
        if (o->ssl_mode >= MYCONN_SSL_REQUIRED)
            mysql_options(m, MYSQL_OPT_SSL_ENFORCE, &on);
        mysql_options(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
    } else {
        my_bool off = 0;
        mysql_options(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &off);
    }
    c->mysql = m;
    return 0;
}

int myconn_connect(struct myconn *c, const struct myconn_opts *o)
{
    const char *host = o->socket ? "localhost" : (o->host ? o->host : "localhost");
    int rc = myconn_handle_new(c, o, 0);
    if (rc)
        return rc;
    if (!mysql_real_connect(c->mysql, host, o->user, o->password, o->db, o->socket ? 0 : o->port,
                            o->socket, CLIENT_MULTI_STATEMENTS)) {
        conn_error(c, "mysql_real_connect");
        mysql_close(c->mysql);
        c->mysql = NULL;
        /* a refused or failed connection is never "ignorable" */
        if (c->err.cls == MYCONN_IGNORABLE)
            c->err.cls = MYCONN_FATAL;
        return (int)c->err.cls;
    }
    return 0;
}

/* Copy s (may be NULL: "") into a buffer of cap bytes. */
static void copy(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

/* 1 when the handle's value of a TLS file option differs from the one o set. */
static int replaced(const char *mine, const char *handle)
{
    return mine && (!handle || strcmp(mine, handle) != 0);
}

/* Fill w and o from a handle whose options the files have been read into (after
 * mysql_real_connect, successful or not, with CLIENT_REMEMBER_OPTIONS): the handle's options
 * (mysql.h's struct st_mysql_options: Connector/C 3.3 has no mysql_get_optionv for host, user,
 * db, port or socket), below o's own values, above sizeup's defaults; m NULL: no files. */
static void where_from(const MYSQL *m, struct myconn_opts *o, struct myconn_where *w)
{
    const char *host = NULL, *user = NULL, *db = NULL, *socket = NULL;
    unsigned port = 0;
    memset(w, 0, sizeof *w);
    if (m) {
        host = m->options.host;
        user = m->options.user;
        db = m->options.db;
        socket = m->options.unix_socket;
        port = m->options.port;
        if (replaced(o->ssl_ca, m->options.ssl_ca))
            w->tls_conflict = "--mysql-ssl-ca";
        else if (replaced(o->ssl_cert, m->options.ssl_cert))
            w->tls_conflict = "--mysql-ssl-cert";
        else if (replaced(o->ssl_key, m->options.ssl_key))
            w->tls_conflict = "--mysql-ssl-key";
        w->tls_from_files = o->ssl_mode == MYCONN_SSL_DISABLED &&
                            (m->options.use_ssl || m->options.ssl_ca || m->options.ssl_capath ||
                             m->options.ssl_cert || m->options.ssl_key || m->options.ssl_cipher ||
                             (m->options.client_flag & CLIENT_SSL_VERIFY_SERVER_CERT));
    }
    copy(w->host, sizeof w->host,
         o->socket ? "localhost"
         : o->host ? o->host
         : host    ? host
                   : MYCONN_DEFAULT_HOST);
    copy(w->user, sizeof w->user, o->user ? o->user : user ? user : MYCONN_DEFAULT_USER);
    copy(w->db, sizeof w->db, o->db ? o->db : db ? db : MYCONN_DEFAULT_DB);
    if (o->db && !*o->db && db && *db)
        copy(w->db, sizeof w->db, db); /* "" takes the files' database, if they name one */
    w->port = o->port ? o->port : port ? port : MYCONN_DEFAULT_PORT;
    if (o->socket || (strcmp(w->host, "localhost") == 0 && socket)) {
        copy(w->socket, sizeof w->socket, o->socket ? o->socket : socket);
        w->has_socket = 1;
    }
    o->host = w->host;
    o->user = w->user;
    o->db = w->db;
    o->port = w->port;
    o->socket = w->has_socket ? w->socket : NULL;
}

int myconn_resolve(struct myconn_opts *o, struct myconn_where *w)
{
    struct myconn c;
    memset(&c, 0, sizeof c);
    if (!o->no_defaults) {
        /* the files are read at the start of mysql_real_connect; its outcome does not matter
         * here (a refusal is reported by the connections that follow), and a failed connect
         * keeps the handle's options with CLIENT_REMEMBER_OPTIONS */
        if (myconn_handle_new(&c, o, 0) != 0)
            return MYCONN_FATAL;
        mysql_real_connect(c.mysql, o->socket ? "localhost" : o->host, o->user, o->password, o->db,
                           o->socket ? 0 : o->port, o->socket, CLIENT_REMEMBER_OPTIONS);
    }
    where_from(c.mysql, o, w);
    myconn_close(&c);
    return 0;
}

void myconn_where_of(const struct myconn *c, struct myconn_opts *o, struct myconn_where *w)
{
    where_from(o->no_defaults ? NULL : c->mysql, o, w);
}

int myconn_socket(const struct myconn *c)
{
    return c->mysql ? (int)mysql_get_socket(c->mysql) : -1;
}

int myconn_wait_answer(const struct myconn_opts *o, double give_up_s, const atomic_int *stop,
                       struct myconn_error *err)
{
    uint64_t end = clock_now_ns() + (uint64_t)(give_up_s * 1e9), delay = 250 * CLOCK_NS_PER_MS;
    for (;;) {
        struct myconn c;
        int rc;
        memset(&c, 0, sizeof c);
        rc = myconn_connect(&c, o);
        if (rc == 0)
            rc = myconn_query(&c, "SELECT 1", 8, NULL);
        if (err)
            *err = c.err;
        myconn_close(&c);
        if (rc == 0)
            return 0;
        if (rc == MYCONN_FATAL && c.err.errnum != 1040 /* too many connections */)
            return -MYCONN_FATAL;
        for (uint64_t until = clock_now_ns() + delay; clock_now_ns() < until;) {
            uint64_t step = clock_now_ns() + 50 * CLOCK_NS_PER_MS;
            if (stop && atomic_load(stop))
                return 1;
            clock_sleep_until_ns(step < until ? step : until);
        }
        if (stop && atomic_load(stop))
            return 1;
        if (clock_now_ns() >= end)
            return -rc;
        delay = delay * 2 > 2 * CLOCK_NS_PER_S ? 2 * CLOCK_NS_PER_S : delay * 2;
    }
}

void myconn_close(struct myconn *c)
{
    if (c->mysql) {
        mysql_close(c->mysql);
        c->mysql = NULL;
    }
}

int myconn_query(struct myconn *c, const char *sql, size_t len, struct myconn_result *res)
{
    MYSQL_RES *rs;
    struct myconn_result r = {0, 0};
    if (!c->mysql)
        return myconn_fail(c, "mysql_real_query", 2006, "HY000", "not connected");
    if (mysql_real_query(c->mysql, sql, (unsigned long)len) != 0)
        return conn_error(c, "mysql_real_query");
    rs = mysql_store_result(c->mysql);
    if (rs) {
        r.is_read = 1;
        r.rows = mysql_num_rows(rs);
        mysql_free_result(rs);
    } else if (mysql_field_count(c->mysql) > 0) {
        return conn_error(c, "mysql_store_result");
    } else {
        r.rows = mysql_affected_rows(c->mysql);
    }
    /* drain any further results of a multi-statement (none in the probes' SQL) */
    while (mysql_more_results(c->mysql) && mysql_next_result(c->mysql) == 0) {
        rs = mysql_store_result(c->mysql);
        if (rs)
            mysql_free_result(rs);
    }
    if (res)
        *res = r;
    return 0;
}

int myconn_query_rows(struct myconn *c, const char *sql, myconn_row_fn fn, void *ctx)
{
    MYSQL_RES *rs;
    MYSQL_ROW row;
    unsigned n;
    if (!c->mysql) {
        myconn_fail(c, "mysql_real_query", 2006, "HY000", "not connected");
    } else if (mysql_real_query(c->mysql, sql, (unsigned long)strlen(sql)) != 0) {
        conn_error(c, "mysql_real_query");
    } else if (!(rs = mysql_store_result(c->mysql))) {
        if (mysql_field_count(c->mysql) == 0)
            return 0; /* a statement without a result set: no rows */
        conn_error(c, "mysql_store_result");
    } else {
        n = mysql_num_fields(rs);
        while ((row = mysql_fetch_row(rs)) != NULL)
            if (fn(ctx, n, (const char *const *)row) != 0)
                break;
        mysql_free_result(rs);
        return 0;
    }
    if (c->err.cls == MYCONN_IGNORABLE)
        c->err.cls = MYCONN_FATAL;
    return (int)c->err.cls;
}

int myconn_stmt_setup(struct myconn *c, struct myconn_stmt *s, const char *sql,
                      const enum myconn_ptype *types, const unsigned long *char_cap,
                      size_t n_params)
{
    memset(s, 0, sizeof *s);
    s->sql = strdup(sql);
    s->params = calloc(n_params ? n_params : 1, sizeof *s->params);
    s->binds = calloc(n_params ? n_params : 1, sizeof *s->binds);
    if (!s->sql || !s->params || !s->binds) {
        myconn_stmt_destroy(s);
        return myconn_fail(c, "malloc", 2008, "HY000", "out of memory");
    }
    s->n_params = n_params;
    for (size_t i = 0; i < n_params; i++) {
        struct myconn_param *p = &s->params[i];
        p->type = types[i];
        if (p->type == MYCONN_P_CHAR) {
            p->cap = char_cap[i];
            p->sval = calloc(p->cap + 1, 1);
            if (!p->sval) {
                myconn_stmt_destroy(s);
                return myconn_fail(c, "malloc", 2008, "HY000", "out of memory");
            }
            s->binds[i].buffer_type = MYSQL_TYPE_STRING;
            s->binds[i].buffer = p->sval;
            s->binds[i].buffer_length = p->cap;
            s->binds[i].length = &p->len;
        } else {
            s->binds[i].buffer_type = MYSQL_TYPE_LONG;
            s->binds[i].buffer = &p->ival;
        }
    }
    if (c->opts->ps_mode == MYCONN_PS_DISABLE && myconn_stmt_emulate(c, s) != 0) {
        myconn_stmt_destroy(s);
        return MYCONN_FATAL;
    }
    return 0;
}

int myconn_stmt_needs_prepare(const struct myconn_stmt *s)
{
    return s->sql && !s->stmt && !s->text;
}

int myconn_stmt_emulate(struct myconn *c, struct myconn_stmt *s)
{
    size_t cap = strlen(s->sql) + 1;
    myconn_stmt_unprepare(s);
    for (size_t i = 0; i < s->n_params; i++)
        cap += s->params[i].type == MYCONN_P_CHAR ? s->params[i].cap + 2 : 12;
    if (!s->text) {
        s->text = malloc(cap);
        if (!s->text)
            return myconn_fail(c, "malloc", 2008, "HY000", "out of memory");
        s->text_cap = cap;
    }
    return 0;
}

void myconn_stmt_unprepare(struct myconn_stmt *s)
{
    if (s->stmt) {
        mysql_stmt_close(s->stmt);
        s->stmt = NULL;
    }
}

void myconn_stmt_set_int(struct myconn_stmt *s, size_t i, int32_t v)
{
    s->params[i].ival = v;
}

void myconn_stmt_set_str(struct myconn_stmt *s, size_t i, const char *v, size_t len)
{
    struct myconn_param *p = &s->params[i];
    if (len > p->cap)
        len = p->cap;
    memcpy(p->sval, v, len);
    p->len = (unsigned long)len;
}

char *myconn_stmt_buf(struct myconn_stmt *s, size_t i)
{
    return s->params[i].sval;
}

void myconn_stmt_set_len(struct myconn_stmt *s, size_t i, size_t len)
{
    s->params[i].len = (unsigned long)(len > s->params[i].cap ? s->params[i].cap : len);
}

size_t myconn_stmt_text(struct myconn_stmt *s)
{
    char *o = s->text;
    size_t k = 0;
    for (const char *p = s->sql; *p; p++) {
        if (*p == '?' && k < s->n_params) {
            struct myconn_param *pr = &s->params[k++];
            if (pr->type == MYCONN_P_INT) {
                o += sprintf(o, "%d", (int)pr->ival);
            } else {
                *o++ = '\'';
                memcpy(o, pr->sval, pr->len);
                o += pr->len;
                *o++ = '\'';
            }
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return (size_t)(o - s->text);
}

void myconn_stmt_destroy(struct myconn_stmt *s)
{
    if (s->stmt)
        mysql_stmt_close(s->stmt);
    if (s->params)
        for (size_t i = 0; i < s->n_params; i++)
            free(s->params[i].sval);
    free(s->params);
    free(s->binds);
    free(s->sql);
    free(s->text);
    memset(s, 0, sizeof *s);
}

const char *myconn_server_version(const struct myconn *c)
{
    return c->mysql ? mysql_get_server_info(c->mysql) : "";
}
