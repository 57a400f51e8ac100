/*
 * ttysafe.h - stderr that never passes a terminal a control sequence. Messages quote what came
 * in (a file name, an option's value, a name from a table); one holding ESC [ ... or ESC ] 0 ;
 * ... BEL would retitle the terminal, move its cursor or worse (issue 27.5). Once installed,
 * every byte written to stderr passes through a filter that writes a C0 control other than tab,
 * line feed and carriage return, DEL, and a C1 control encoded in UTF-8 (U+0080-U+009F, CSI among
 * them) as \xNN (per byte); everything else, multibyte characters included, passes unchanged.
 * sizeup writes no control sequence of its own to stderr (its live progress uses only CR).
 *
 * Thread-safety: install once, before other threads start; writes are as stdio's.
 */
#ifndef SIZEUP_UTIL_TTYSAFE_H
#define SIZEUP_UTIL_TTYSAFE_H

/**
 * Replace stderr with the filtered stream (unbuffered, as stderr is), writing to file
 * descriptor 2. @return 0, or -1 when the stream cannot be made (stderr is left as it was).
 */
int ttysafe_stderr(void);

#endif
