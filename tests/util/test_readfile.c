/*
 * test_readfile.c - util/readfile.h: a whole file with its size cap and byte order mark, and the
 * first line of a secret file (a password file) without its line end.
 */
#include "check.h"
#include "readfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void put(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_INT_EQ(fwrite(text, 1, len, f), len);
    fclose(f);
}

static void secret(const char *path, const char *text, const char *want)
{
    char *pw = NULL, why[256] = "";
    put(path, text, strlen(text));
    CHECK_INT_EQ(readfile_secret_line(path, &pw, why, sizeof why), 0);
    if (pw)
        CHECK_STR_EQ(pw, want);
    free(pw);
}

int main(void)
{
    char path[] = "/tmp/test-readfile.XXXXXX";
    char *buf = NULL, *pw = (char *)1, why[256] = "";
    size_t len = 0;
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return check_report();
    close(fd);

    /* the first line only, without "\n" or "\r\n"; an empty file or line is "" */
    secret(path, "s3cret\nsecond line\n", "s3cret");
    secret(path, "with space \r\n", "with space ");
    secret(path, "no newline", "no newline");
    secret(path, "", "");
    secret(path, "\nafter an empty line", "");

    /* a missing file: -1, nothing allocated, the path and errno's text named */
    CHECK_INT_EQ(readfile_secret_line("/nonexistent/pw", &pw, why, sizeof why), -1);
    CHECK(pw == NULL);
    CHECK_STR_EQ(why, "cannot read /nonexistent/pw: No such file or directory");

    /* readfile: the byte order mark dropped, the cap named */
    put(path, "\xEF\xBB\xBF{}", 5);
    CHECK_INT_EQ(readfile(path, 100, &buf, &len, why, sizeof why), READFILE_OK);
    CHECK_INT_EQ(len, 2);
    if (buf)
        CHECK_STR_EQ(buf, "{}");
    free(buf);
    put(path, "0123456789", 10);
    CHECK_INT_EQ(readfile(path, 4, &buf, &len, why, sizeof why), READFILE_ETOOBIG);
    CHECK(strstr(why, "larger than the") != NULL);
    unlink(path);
    return check_report();
}
