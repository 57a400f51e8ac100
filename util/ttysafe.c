/* ttysafe.c - stderr that never passes a terminal a control sequence (ttysafe.h). */
#define _GNU_SOURCE
#include "ttysafe.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* A lead byte 0xC2 kept from the end of one write: the next decides whether it begins a C1
 * control (C2 80..C2 9F). */
static int pending_c2;

/* Write all of buf to fd 2 (retrying short writes and EINTR). 0, or -1. */
static int put(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(2, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
    char out[1024];
    size_t k = 0;
    (void)cookie;
    for (size_t i = 0; i < size; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (k + 16 > sizeof out) {
            if (put(out, k) != 0)
                return -1;
            k = 0;
        }
        if (pending_c2) {
            pending_c2 = 0;
            if (c >= 0x80 && c <= 0x9f) {
                k += (size_t)snprintf(out + k, sizeof out - k, "\\xc2\\x%02x", c);
                continue;
            }
            out[k++] = (char)0xc2;
        }
        if (c == 0xc2) {
            if (i + 1 < size) {
                unsigned char d = (unsigned char)buf[i + 1];
                if (d >= 0x80 && d <= 0x9f) {
                    k += (size_t)snprintf(out + k, sizeof out - k, "\\xc2\\x%02x", d);
                    i++;
                    continue;
                }
                out[k++] = (char)c;
            } else {
                pending_c2 = 1; /* decided by the next write */
            }
            continue;
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            k += (size_t)snprintf(out + k, sizeof out - k, "\\x%02x", c);
        else
            out[k++] = (char)c;
    }
    if (k && put(out, k) != 0)
        return -1;
    return (ssize_t)size;
}

int ttysafe_stderr(void)
{
    cookie_io_functions_t io = {NULL, filter_write, NULL, NULL};
    FILE *f = fopencookie(NULL, "w", io);
    if (!f)
        return -1;
    setvbuf(f, NULL, _IONBF, 0);
    stderr = f;
    return 0;
}
