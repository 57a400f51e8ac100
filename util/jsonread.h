/*
 * jsonread.h - strict reading of a parsed JSON document with positions: typed, range-checked
 * getters that know the JSON path of what they read and, on error, write
 *
 *     FILE:LINE:COLUMN: $.path: what was expected, got what was there
 *
 * with the line and column of the offending value in the text (jsonpos_find), because jansson
 * keeps no positions once a document is parsed. One reader serves every sizeup record file:
 * catalogs (sizeup.catalog/1), point records (sizeup.point/1, one JSON Lines record at a
 * time) and study files.
 *
 * Cost: a getter that succeeds does one json_object_get and its type and range checks; the
 * path and the position are only worked out when something is wrong, so reading a large
 * points file costs what jansson costs.
 *
 * Conventions of every getter:
 *   - a key that is absent, or present with the value null, is "absent": with JR_REQUIRED
 *     that is an error, else *out is set to the default given (or left alone, see each);
 *   - return JR_OK, JR_EINVAL (a value is of the wrong type or out of range; the message is
 *     in the reader) or JR_ENOMEM;
 *   - strings handed out are new heap copies the caller frees with free().
 * JR_EINVAL and JR_ENOMEM have the values of CAT_EINVAL and CAT_ENOMEM (catalogs/catalog.h),
 * so catalog code returns them as they are.
 *
 * Thread-safety: a reader belongs to one thread; documents are only read.
 */
#ifndef SIZEUP_UTIL_JSONREAD_H
#define SIZEUP_UTIL_JSONREAD_H

#include <jansson.h>
#include <stddef.h>

/* Return codes. */
enum { JR_OK = 0, JR_EINVAL = -1, JR_ENOMEM = -2 };

/* Flags of the getters. */
#define JR_REQUIRED 1 /* absent (or null) is an error */

/* Longest list of allowed keys that jr_check_keys writes into its message, in bytes. */
#define JR_KEYS_LISTED_MAX 160

/* Longest JSON path kept, with its NUL; a deeper path is cut (the message says "..."). */
#define JR_PATH_MAX 192

/* A reader: where the document came from, where in it we are, and the last error. */
struct jr {
    const char *name;       /* file name in messages ("-" for stdin, "<input>"), not NULL */
    const char *text;       /* the text that was parsed, for positions; NULL: positions unknown */
    size_t len;             /* bytes of text */
    long first_line;        /* line of text's first line in the file: 1 for a whole file, the
                               record's line for one JSON Lines record */
    char path[JR_PATH_MAX]; /* the current path, "$" at the start */
    size_t path_len;
    char *msg; /* the message of a failure goes here (cap bytes; may be NULL) */
    size_t cap;
    long line, column;           /* position of the last failure, 0 when unknown */
    char fail_path[JR_PATH_MAX]; /* path of the last failure */
};

/**
 * Start reading a document.
 * @param name        file name for messages; NULL means "<input>"
 * @param text        the JSON text that was parsed (len bytes), or NULL
 * @param first_line  the file line of text's first line (>= 1), or 0 when unknown
 * @param msg         where a failure's message goes (cap bytes), or NULL
 */
void jr_init(struct jr *r, const char *name, const char *text, size_t len, long first_line,
             char *msg, size_t cap);

/** Append ".key" to the path; returns the old length, for jr_pop. */
size_t jr_push_key(struct jr *r, const char *key);

/** Append "[i]" to the path; returns the old length, for jr_pop. */
size_t jr_push_index(struct jr *r, size_t i);

/** Cut the path back to length n (a value jr_push_* returned). */
void jr_pop(struct jr *r, size_t n);

/**
 * Set the current path to an absolute path built by the caller ("$.candidates[2].mysql"); a
 * path not starting with "$" or too long is cut to "$...".
 * @return the old length (jr_pop restores the old path only when it was a prefix; callers
 *         that set paths keep setting them).
 */
size_t jr_set_path(struct jr *r, const char *path);

/**
 * Report an error at the current path: "FILE:LINE:COL: $.path: <formatted text>" into the
 * reader's msg, the position in line/column, the path in fail_path. Without text the message
 * is "FILE:LINE: $.path: ..." (first_line > 0) or "FILE: $.path: ...".
 * @return JR_EINVAL.
 */
int jr_fail(struct jr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** jr_fail at an absolute path (the current path is left as it was). */
int jr_fail_at(struct jr *r, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** jr_fail at the current path's member key (the path is left as it was). */
int jr_fail_key(struct jr *r, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/**
 * The message for a document jansson could not parse: "NAME:LINE:COL: not valid JSON: TEXT"
 * (errtext.h), with LINE counted from first_line (a JSON Lines record's line) when > 1.
 * @return buf (cap bytes).
 */
char *jr_syntax_error(char *buf, size_t cap, const char *name, long first_line,
                      const json_error_t *e);

/** Report that memory ran out ("FILE: out of memory"). @return JR_ENOMEM. */
int jr_nomem(struct jr *r);

/** "an object", "an array", "a string", "a number", "a boolean", "null": for messages. */
const char *jr_type_name(const json_t *v);

/**
 * Reject a member of obj whose key is not in allowed (a NULL-terminated list): "unknown key
 * 'x' (expected one of: a, b, c)" at the member's path ("unknown key 'x' (misspelt?)" when
 * the list is longer than JR_KEYS_LISTED_MAX).
 * @return JR_OK or JR_EINVAL.
 */
int jr_check_keys(struct jr *r, const json_t *obj, const char *const *allowed);

/**
 * A string member. JR_REQUIRED also refuses the empty string.
 * @param out  set to a new copy (free()), or NULL when absent
 */
int jr_get_str(struct jr *r, const json_t *obj, const char *key, int flags, char **out);

/**
 * A number member in [min, max] (finite; integers and reals alike; max may be INFINITY).
 * @param out  set to the value, or to dflt when absent
 */
int jr_get_num(struct jr *r, const json_t *obj, const char *key, int flags, double min, double max,
               double dflt, double *out);

/**
 * An integer member in [min, max] (a real such as 4.5 or 4.0 is refused).
 * @param out  set to the value, or to dflt when absent
 */
int jr_get_int(struct jr *r, const json_t *obj, const char *key, int flags, long long min,
               long long max, long long dflt, long long *out);

/**
 * A boolean member (true or false).
 * @param out  set to 1 or 0, or to dflt when absent
 */
int jr_get_bool(struct jr *r, const json_t *obj, const char *key, int flags, int dflt, int *out);

/**
 * A date member, a string YYYY-MM-DD (month 1-12, day 1-31).
 * @param out  set to a new copy (free()), or NULL when absent
 */
int jr_get_date(struct jr *r, const json_t *obj, const char *key, int flags, char **out);

/** 1 when s is a date YYYY-MM-DD as jr_get_date accepts it, else 0. */
int jr_valid_date(const char *s);

#endif
