/* textsafe.c - names safe for terminals and Markdown (textsafe.h). */
#include "textsafe.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* The length of a character at p that a terminal may act on beyond printing it, else 0: a C0
 * control or DEL; a C1 control, as UTF-8 (U+0080-U+009F: C2 80-9F) or as a lone byte 80-9F
 * (CSI is 0x9B to an 8-bit terminal); a bidirectional override or isolate (U+202A-U+202E:
 * E2 80 AA-AE, U+2066-U+2069: E2 81 A6-A9), which reorders what follows on the line. */
static size_t hazard(const unsigned char *p)
{
    if (is_control(p[0]))
        return 1;
    if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F)
        return 2;
    if (p[0] == 0xE2 && p[1] == 0x80 && p[2] >= 0xAA && p[2] <= 0xAE)
        return 3;
    if (p[0] == 0xE2 && p[1] == 0x81 && p[2] >= 0xA6 && p[2] <= 0xA9)
        return 3;
    if (p[0] >= 0x80 && p[0] <= 0x9F)
        return 1; /* a byte that is no part of a valid sequence here (a lead byte is C2-F4) */
    return 0;
}

/* Bytes of the UTF-8 sequence at p (1 for ASCII or a byte that starts none). */
static size_t seq_len(const unsigned char *p)
{
    size_t n = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 1;
    for (size_t k = 1; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 1;
    return n;
}

long textsafe_control_at(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (long i = 0; s && p[i];) {
        if (hazard(p + i))
            return i;
        i += (long)seq_len(p + i);
    }
    return -1;
}

long textsafe_text_control_at(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (long i = 0; s && p[i];) {
        if (hazard(p + i) && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return i;
        i += (long)seq_len(p + i);
    }
    return -1;
}

/* Append text t to buf at *len, or cut with "..." when it does not fit. @return 0, -1 full. */
static int put(char *buf, size_t cap, size_t *len, const char *t)
{
    size_t k = strlen(t);
    if (*len + k + 4 > cap) {
        if (*len + 4 <= cap)
            memcpy(buf + *len, "...", 4);
        else if (cap >= 4)
            memcpy(buf + cap - 4, "...", 4);
        return -1;
    }
    memcpy(buf + *len, t, k + 1);
    *len += k;
    return 0;
}

static const char *render(const char *s, char *buf, size_t cap, int md)
{
    size_t len = 0;
    if (!cap)
        return buf;
    buf[0] = '\0';
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        char t[16];
        size_t h = hazard(p), n = h ? 0 : seq_len(p);
        if (h) {
            size_t k = 0;
            for (size_t j = 0; j < h; j++)
                k += (size_t)snprintf(t + k, sizeof t - k, "\\x%02x", p[j]);
            p += h - 1;
        } else if (n > 1) {
            memcpy(t, p, n); /* a printable multibyte character, whole */
            t[n] = '\0';
            p += n - 1;
        } else if (is_control(*p))
            snprintf(t, sizeof t, "\\x%02x", *p);
        else if (*p == '\\' && md != 2)
            snprintf(t, sizeof t, "\\\\");
        else if (md == 1 && strchr("|`[]", *p))
            snprintf(t, sizeof t, "\\%c", *p);
        else if (md == 1 && *p == '<' && (isalpha(p[1]) || (p[1] && strchr("/!?", p[1]))))
            snprintf(t, sizeof t, "&lt;"); /* would open an HTML tag (CommonMark 6.6) */
        else if (md == 1 && *p == '&' && (isalpha(p[1]) || p[1] == '#'))
            snprintf(t, sizeof t, "&amp;"); /* would start an entity */
        else
            snprintf(t, sizeof t, "%c", *p);
        if (put(buf, cap, &len, t))
            break;
    }
    return buf;
}

const char *textsafe_visible(const char *s, char *buf, size_t cap)
{
    return render(s, buf, cap, 0);
}

const char *textsafe_md(const char *s, char *buf, size_t cap)
{
    return render(s, buf, cap, 1);
}

const char *textsafe_message(const char *s, char *buf, size_t cap)
{
    return render(s, buf, cap, 2);
}
