/*
 * table_int.h - the state shared by the table reader's two files: table.c (columns, rows ->
 * points; the entry) and table_split.c (the dialects: how a line becomes cells, what is a
 * header, the known column names; it calls nothing in table.c). Internal to the table reader.
 */
#ifndef SIZEUP_RECORDS_TABLE_INT_H
#define SIZEUP_RECORDS_TABLE_INT_H

#include "import_types.h"

#define TBL_MAX_COLS 64
#define TBL_CELL_MAX 256

enum tbl_dialect { D_CSV, D_TSV, D_MARKDOWN, D_GNUPLOT };

struct tbl_row {
    int n;
    long line; /* line the row starts on */
    char cell[TBL_MAX_COLS][TBL_CELL_MAX];
};

enum col_kind {
    C_EXTRA,
    C_TARGET,
    C_CONFIG,
    C_WORKLOAD,
    C_THREADS,
    C_NODES,
    C_TPS,
    C_QPS,
    C_DURATION,
    C_AVG,
    C_MIN,
    C_MAX,
    C_PCT,
    C_TPMC,
    C_TPM_TOTAL,
    C_FLAG
};

struct tbl_col {
    enum col_kind kind;
    double pct;
    char name[TBL_CELL_MAX];  /* normalised (lower case, units folded): matched to known columns */
    char label[TBL_CELL_MAX]; /* as written, trimmed: a wide table's configuration (target) */
};

struct tbl {
    struct import_src *src;
    enum tbl_dialect d;
    /* the header */
    int have_header;
    int ncols, has_tps, wide, x_col;
    long header_line;
    struct tbl_col cols[TBL_MAX_COLS];
    /* the row being turned into points (wide tables give one point per column) */
    struct tbl_row row;
    int wide_active; /* the row's columns are being handed out one point each */
    int wide_next;   /* next column of row to look at */
    size_t n_rows;
    /* dialect state */
    struct tbl_row held; /* a row read ahead (gnuplot: the data row after a new header) */
    int has_held;
    struct tbl_row comment; /* gnuplot: the last '#' comment line, as names */
    int has_comment;
    char *held_line; /* markdown: a line read ahead */
    size_t held_line_cap;
    long held_line_no;
    int has_held_line;
    int eof;
};

/**
 * The next row of the dialect into row (row->line set).
 * @param is_header  out: 1 when the row is a header (the first row of CSV/TSV; a Markdown row
 *                   above its separator; the gnuplot comment naming the columns)
 * @return 1, 0 at the end, or a negative IMPORT_E* code (reported).
 */
int tbl_split_next(struct tbl *t, struct tbl_row *row, int *is_header);

/** Parse a whole-cell number (strtod, nothing after it); 0 or -1. With thousands = 1, commas
 *  between groups of three digits are accepted ("1,234.5"). */
int tbl_number(const char *s, int thousands, double *out);

/** The kind of column c->name (normalised) names, into c->kind (C_EXTRA when none; a pNN_ms
 *  column is C_PCT with c->pct = NN, in (0, 100]). */
void tbl_classify(struct tbl_col *c);

/** 1 when the (normalised) column name is one detection accepts as a table's. */
int tbl_known_name(const char *name);

/** Normalise a header name in place: lower case, trimmed, " (ms)" -> "_ms", blanks -> '_',
 *  bytes outside printable ASCII -> '?'. */
void tbl_normalise_name(char *s);

/** A header cell as written, for a wide table's configuration id: trimmed, case and bytes kept
 *  (the reader refuses a name that is not UTF-8); cut at cap - 1 bytes. */
void tbl_trim_label(char *dst, size_t cap, const char *cell);

#endif
