/*
 * test_append.c - util/append.h: a record is appended whole or not at all.
 *
 * A file size limit (RLIMIT_FSIZE, with SIGXFSZ ignored) makes write(2) stop part way exactly as a
 * full disk does: the first write that crosses the limit writes what fits and the next one fails
 * with EFBIG. Records of known lengths are appended until one fails; the file must then hold
 * the records that fitted, whole, and its length must be their sum. Then the limit is raised and
 * the next append continues on a fresh line.
 */
#include "append.h"
#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static off_t file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Write text to path (replaced). */
static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

/* The last line of a JSON Lines file before --resume (append_cut_torn). */
static void cut_torn(void)
{
    char path[] = "/tmp/sizeup-torn-XXXXXX", torn[64], msg[1024], buf[256];
    int fd = mkstemp(path);
    FILE *f;
    close(fd);
    snprintf(torn, sizeof torn, "%s.torn", path);
    unlink(torn);
    put(path, "{\"a\":1}\n{\"b\":2}\n");
    CHECK_INT_EQ(append_cut_torn(path, msg, sizeof msg), 0); /* whole: nothing */
    CHECK_STR_EQ(msg, "");
    put(path, "{\"a\":1}\n{\"b\":2}"); /* a whole object without its newline */
    CHECK_INT_EQ(append_cut_torn(path, msg, sizeof msg), 1);
    CHECK_INT_EQ(file_size(path), 16);
    f = fopen(path, "r");
    CHECK(f && fgets(buf, sizeof buf, f) && strcmp(buf, "{\"a\":1}\n") == 0); /* untouched */
    if (f)
        fclose(f);
    put(path, "{\"a\":1}\n{\"b\":"); /* torn */
    CHECK_INT_EQ(append_cut_torn(path, msg, sizeof msg), 2);
    CHECK_INT_EQ(file_size(path), 8);
    CHECK(strstr(msg, "torn record (5 bytes") != NULL);
    f = fopen(torn, "r");
    CHECK(f && fgets(buf, sizeof buf, f) && strcmp(buf, "{\"b\":\n") == 0);
    if (f)
        fclose(f);
    put(path, "{\"b\":"); /* a file of one torn line: cut to empty */
    CHECK_INT_EQ(append_cut_torn(path, msg, sizeof msg), 2);
    CHECK_INT_EQ(file_size(path), 0);
    CHECK_INT_EQ(append_cut_torn(path, msg, sizeof msg), 0); /* empty: nothing */
    unlink(path);
    unlink(torn);
}

int main(void)
{
    char path[] = "/tmp/test-append.XXXXXX";
    char rec[700];
    struct rlimit old, lim;
    int fd = mkstemp(path), ok = 0, failed_errno = 0;
    size_t n_ok = 0;
    FILE *f;
    CHECK(fd >= 0);
    if (fd < 0)
        return check_report();
    close(fd);
    signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &old);
    /* a 600-byte record: "{"i":N,"pad":"xxx..."}\n" */
    memset(rec, 'x', sizeof rec);
    memcpy(rec, "{\"i\":0,\"pad\":\"", 14);
    memcpy(rec + 597, "\"}\n", 3);

    /* O_APPEND through a stdio stream, as the probe's --out: 2,000 bytes allowed = 3 records
     * and a third of a fourth */
    f = fopen(path, "a");
    CHECK(f != NULL);
    lim = old;
    lim.rlim_cur = 2000;
    CHECK_INT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
    for (int i = 0; i < 10 && f; i++) {
        rec[5] = (char)('0' + i);
        if (append_whole_stream(f, rec, 600) != 0) {
            failed_errno = errno;
            break;
        }
        n_ok++;
    }
    CHECK_INT_EQ(n_ok, 3);
    CHECK_INT_EQ(failed_errno, EFBIG);
    CHECK_INT_EQ(file_size(path), 1800); /* the fourth record's 200 bytes were taken back */
    /* room again: the next record continues the file on a fresh line */
    CHECK_INT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
    rec[5] = '9';
    ok = f && append_whole_stream(f, rec, 600) == 0;
    CHECK(ok);
    if (f)
        fclose(f);
    CHECK_INT_EQ(file_size(path), 2400);
    {
        FILE *r = fopen(path, "r");
        char line[1024];
        int lines = 0, whole = 0;
        while (r && fgets(line, sizeof line, r)) {
            lines++;
            whole += strlen(line) == 600 && line[0] == '{' && line[598] == '}';
        }
        if (r)
            fclose(r);
        CHECK_INT_EQ(lines, 4);
        CHECK_INT_EQ(whole, 4);
    }

    /* a file written sequentially without O_APPEND (a replace-whole temporary) */
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0);
    lim.rlim_cur = 1000;
    CHECK_INT_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
    CHECK_INT_EQ(append_whole(fd, rec, 600), 0);
    CHECK_INT_EQ(append_whole(fd, rec, 600), -1);
    CHECK_INT_EQ(errno, EFBIG);
    CHECK_INT_EQ(file_size(path), 600);
    CHECK_INT_EQ((long)lseek(fd, 0, SEEK_CUR), 600); /* the next write lands after record 1 */
    CHECK_INT_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
    CHECK_INT_EQ(append_whole(fd, rec, 600), 0);
    CHECK_INT_EQ(file_size(path), 1200);
    close(fd);

    /* not a regular file: written all the same */
    fd = open("/dev/null", O_WRONLY);
    CHECK_INT_EQ(append_whole(fd, rec, 600), 0);
    close(fd);
    unlink(path);
    cut_torn();
    return check_report();
}
