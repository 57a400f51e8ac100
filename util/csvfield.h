/*
 * csvfield.h - one text field of a CSV file that spreadsheets and other programs read safely.
 *
 * RFC 4180 section 2: a field holding a comma, a double quote, CR or LF is enclosed in double
 * quotes, and a double quote inside it is written twice. OWASP's CSV-injection rule ("CSV
 * Injection", owasp.org): a cell that begins with =, +, -, @, a tab or a CR is read as a
 * formula by Excel, LibreOffice and Google Sheets; such a field is written with a leading
 * apostrophe and quoted, so it reads back as the text it was (with the apostrophe). Numbers that
 * sizeup writes itself (a negative figure) are not text fields and are not passed here.
 *
 * Thread-safety: pure functions.
 */
#ifndef SIZEUP_UTIL_CSVFIELD_H
#define SIZEUP_UTIL_CSVFIELD_H

#include <stdio.h>

/** 1 when a spreadsheet would read a cell beginning with s[0] as a formula, else 0. */
int csv_is_formula_start(const char *s);

/**
 * Write s (NULL: an empty field) to f as one CSV field, quoted and neutralised as above; no
 * separator before or after.
 */
void csv_write_field(FILE *f, const char *s);

#endif
