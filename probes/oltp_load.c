/* oltp_load.c - one sbtest table created and loaded as sysbench's prepare (oltp_load.h). */
#include "oltp_load.h"

#include <stdlib.h>
#include <string.h>

/* Bulk-insert buffer of sysbench's driver (BULK_PACKET_SIZE). */
#define BULK_SIZE (512u * 1024u)

int oltp_prepare_table(struct myconn *conn, const struct oltp_opts *o,
                       const struct sbrand_params *rp, struct sbrand *rng, unsigned n, FILE *out)
{
    char sql[512], row[256], cval[OLTP_C_LEN + 1], pad[OLTP_PAD_LEN + 1];
    char *buf;
    size_t len, head, rows = 0;
    int legacy = o->workload == OLTP_LEGACY, rc;
    unsigned table_size = o->workload == OLTP_INSERT && !o->auto_inc ? 0 : o->table_size;

    if (out)
        fprintf(out, "Creating table 'sbtest%u'...\n", n);
    if (legacy)
        snprintf(sql, sizeof sql,
                 "CREATE TABLE sbtest%u (\nid INTEGER UNSIGNED NOT NULL %s,\n"
                 "k INTEGER UNSIGNED DEFAULT '0' NOT NULL,\nc CHAR(120) DEFAULT '' NOT NULL,\n"
                 "pad CHAR(60) DEFAULT '' NOT NULL,\n%s (id)\n) /*! ENGINE = %s MAX_ROWS = "
                 "1000000 */ COMMENT='%s'",
                 n, o->auto_inc ? "AUTO_INCREMENT" : "", o->secondary ? "KEY xid" : "PRIMARY KEY",
                 o->storage_engine, OLTP_TABLE_MARK_LOADING);
    else
        snprintf(sql, sizeof sql,
                 "CREATE TABLE sbtest%u(\n  id %s,\n  k INTEGER DEFAULT '0' NOT NULL,\n"
                 "  c CHAR(120) DEFAULT '' NOT NULL,\n  pad CHAR(60) DEFAULT '' NOT NULL,\n"
                 "  %s (id)\n) /*! ENGINE = %s */ COMMENT='%s'",
                 n, o->auto_inc ? "INTEGER NOT NULL AUTO_INCREMENT" : "INTEGER NOT NULL",
                 o->secondary ? "KEY xid" : "PRIMARY KEY", o->storage_engine,
                 OLTP_TABLE_MARK_LOADING);
    if ((rc = myconn_query(conn, sql, strlen(sql), NULL)))
        return rc;
    if (table_size > 0 && out)
        fprintf(out, "Inserting %u records into 'sbtest%u'\n", table_size, n);
    buf = malloc(BULK_SIZE);
    if (!buf) {
        snprintf(conn->err.msg, sizeof conn->err.msg, "out of memory");
        conn->err.cls = MYCONN_FATAL;
        return MYCONN_FATAL;
    }
    head = (size_t)snprintf(buf, BULK_SIZE,
                            o->auto_inc ? "INSERT INTO sbtest%u(k, c, pad) VALUES"
                                        : "INSERT INTO sbtest%u(id, k, c, pad) VALUES",
                            n);
    len = head;
    for (unsigned i = 1; i <= table_size; i++) {
        size_t rl;
        sbrand_str(rng, oltp_c_template, cval);
        sbrand_str(rng, oltp_pad_template, pad);
        cval[OLTP_C_LEN] = pad[OLTP_PAD_LEN] = '\0';
        if (o->auto_inc)
            rl = (size_t)snprintf(row, sizeof row, "(%u, '%s', '%s')",
                                  (unsigned)sbrand_default(rng, rp, 1, o->table_size), cval, pad);
        else if (legacy)
            rl = (size_t)snprintf(row, sizeof row, "(%u,%u,'%s', '%s'  )", i,
                                  (unsigned)sbrand_default(rng, rp, 1, o->table_size), cval, pad);
        else
            rl = (size_t)snprintf(row, sizeof row, "(%u, %u, '%s', '%s')", i,
                                  (unsigned)sbrand_default(rng, rp, 1, o->table_size), cval, pad);
        /* room for the row, a ',' unless first, and a NUL (sysbench's db_bulk_insert_next) */
        if (len + rl + 1 + (rows > 0) > BULK_SIZE) {
            if ((rc = myconn_query(conn, buf, len, NULL))) {
                free(buf);
                return rc;
            }
            len = head;
            rows = 0;
        }
        if (rows > 0)
            buf[len++] = ',';
        memcpy(buf + len, row, rl);
        len += rl;
        rows++;
    }
    if (rows > 0 && (rc = myconn_query(conn, buf, len, NULL))) {
        free(buf);
        return rc;
    }
    free(buf);
    if (o->create_secondary) {
        if (out)
            fprintf(out,
                    legacy ? "Creating secondary indexes on 'sbtest%u'...\n"
                           : "Creating a secondary index on 'sbtest%u'...\n",
                    n);
        snprintf(sql, sizeof sql,
                 legacy ? "CREATE INDEX k_%u on sbtest%u(k)" : "CREATE INDEX k_%u ON sbtest%u(k)",
                 n, n);
        if ((rc = myconn_query(conn, sql, strlen(sql), NULL)))
            return rc;
    }
    /* loaded: the table now carries sizeup's mark (a metadata-only change) */
    snprintf(sql, sizeof sql, "ALTER TABLE sbtest%u COMMENT='%s'", n, OLTP_TABLE_MARK);
    return myconn_query(conn, sql, strlen(sql), NULL);
}
