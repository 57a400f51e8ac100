/* textsafe.c - names safe for terminals and Markdown (textsafe.h). */
#include "textsafe.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

long textsafe_control_at(const char *s)
{
    for (long i = 0; s && s[i]; i++)
        if (is_control((unsigned char)s[i]))
            return i;
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
        char t[8];
        if (is_control(*p))
            snprintf(t, sizeof t, "\\x%02x", *p);
        else if (*p == '\\')
            snprintf(t, sizeof t, "\\\\");
        else if (md && strchr("|`[]", *p))
            snprintf(t, sizeof t, "\\%c", *p);
        else if (md && *p == '<' && (isalpha(p[1]) || (p[1] && strchr("/!?", p[1]))))
            snprintf(t, sizeof t, "&lt;"); /* would open an HTML tag (CommonMark 6.6) */
        else if (md && *p == '&' && (isalpha(p[1]) || p[1] == '#'))
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
