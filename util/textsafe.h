/*
 * textsafe.h - names that other programs and people read: a terminal (control characters such
 * as ESC ] 0 ; ... BEL retitle it or worse) and Markdown (a '|' breaks a table row, HTML renders
 * in many viewers). Names come into sizeup from points, catalogs, study files and query suites;
 * a name with a control character is refused where it comes in (shown visibly in the error), and
 * every name written into Markdown is escaped here.
 *
 * Thread-safety: pure functions; the caller owns every buffer.
 */
#ifndef SIZEUP_UTIL_TEXTSAFE_H
#define SIZEUP_UTIL_TEXTSAFE_H

#include <stddef.h>

/** The byte offset of the first character of s a terminal may act on: a C0 control
 *  (0x00-0x1f), DEL, a C1 control (U+0080-U+009F, or a lone byte 0x80-0x9f), or a
 *  bidirectional override or isolate (U+202A-U+202E, U+2066-U+2069); -1 when it has none.
 *  NULL gives -1. */
long textsafe_control_at(const char *s);

/** As textsafe_control_at, but tab, line feed and carriage return pass: for free text (a
 *  description, a note), not a name. */
long textsafe_text_control_at(const char *s);

/**
 * s with every such character written as \xNN per byte (and '\' as \\), for messages: into buf (cap
 * bytes, cut with "..." when longer). @return buf.
 */
const char *textsafe_visible(const char *s, char *buf, size_t cap);

/**
 * A one-line message for a terminal built from what the user typed: as textsafe_visible (every
 * control character as \xNN, a typed line feed or tab too: it could fake a line of its own), but
 * '\' stays as it is. Into buf (cap bytes, cut with "..."). @return buf.
 */
const char *textsafe_message(const char *s, char *buf, size_t cap);

/**
 * s as Markdown text safe in a table cell or a list item (CommonMark, GitHub tables): '|' (a
 * cell's end), '`' (code) and '[', ']' (links) escaped with '\'; a '<' that would open an HTML
 * tag (followed by a letter, '/', '!' or '?') as &lt; and an '&' that would start an entity as
 * &amp;, so that no HTML renders; control characters as \xNN; '\' as \\. Emphasis marks
 * ('*', '_') are left: at worst they change the look, never the structure. Into buf (cap bytes,
 * cut with "..." when longer). @return buf.
 */
const char *textsafe_md(const char *s, char *buf, size_t cap);

#endif
