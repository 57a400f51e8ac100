/* test_textsafe.c - util/textsafe.h against strings written out by hand: the terminal title
 * sequence of issue 27.5 (ESC ] 0 ; pwn BEL), a Markdown row breaker and HTML, and the cut. */
#include "check.h"
#include "textsafe.h"

#include <string.h>

int main(void)
{
    char buf[128];
    CHECK_INT_EQ(textsafe_control_at("plain-name_1.large"), -1);
    CHECK_INT_EQ(textsafe_control_at("a\x1b]0;pwn\x07"
                                     "b"),
                 1);
    CHECK_INT_EQ(textsafe_control_at("tab\there"), 3);
    CHECK_INT_EQ(textsafe_control_at("del\x7f"), 3);
    CHECK_INT_EQ(textsafe_control_at(NULL), -1);
    CHECK_STR_EQ(textsafe_visible("a\x1b]0;pwn\x07"
                                  "b",
                                  buf, sizeof buf),
                 "a\\x1b]0;pwn\\x07b");
    CHECK_STR_EQ(textsafe_visible("back\\slash", buf, sizeof buf), "back\\\\slash");
    /* a message keeps its backslashes; an escape, a typed line feed and a tab are shown */
    CHECK_STR_EQ(textsafe_message("x: 'a\x1b[2J'\n\tTry\\", buf, sizeof buf),
                 "x: 'a\\x1b[2J'\\x0a\\x09Try\\");
    CHECK_STR_EQ(textsafe_message("cr\rbell\a", buf, sizeof buf), "cr\\x0dbell\\x07");
    CHECK_STR_EQ(textsafe_md("a|b", buf, sizeof buf), "a\\|b");
    CHECK_STR_EQ(textsafe_md("<script>alert(1)</script>", buf, sizeof buf),
                 "&lt;script>alert(1)&lt;/script>");
    CHECK_STR_EQ(textsafe_md("<img src=x onerror=alert(1)>", buf, sizeof buf),
                 "&lt;img src=x onerror=alert(1)>");
    /* a link, code and an entity are neutralised; "<=" and emphasis marks stay as they are */
    CHECK_STR_EQ(textsafe_md("[l](javascript:x) `c` &amp; p95 <= 50 ms, a_b*c", buf, sizeof buf),
                 "\\[l\\](javascript:x) \\`c\\` &amp;amp; p95 <= 50 ms, a_b*c");
    CHECK_STR_EQ(textsafe_md("c5.large", buf, sizeof buf), "c5.large");
    /* C1 controls (UTF-8 and a lone byte) and bidirectional overrides reach terminals too;
     * a printable multibyte character is kept whole */
    CHECK_INT_EQ(textsafe_control_at("a\xc2\x9b"
                                     "2J"),
                 1);
    CHECK_INT_EQ(textsafe_control_at("a\x9b"
                                     "2J"),
                 1);
    CHECK_INT_EQ(textsafe_control_at("abc\xe2\x80\xae"
                                     "txt.exe"),
                 3);
    CHECK_INT_EQ(textsafe_control_at("x\xe2\x81\xa7y"), 1);
    CHECK_INT_EQ(textsafe_control_at("caf\xc3\xa9 \xe2\x82\xac 5"), -1);
    CHECK_STR_EQ(textsafe_visible("a\xe2\x80\xae"
                                  "b",
                                  buf, sizeof buf),
                 "a\\xe2\\x80\\xaeb");
    CHECK_STR_EQ(textsafe_visible("caf\xc3\xa9", buf, sizeof buf), "caf\xc3\xa9");
    CHECK_INT_EQ(textsafe_text_control_at("line 1\nline 2\ttab"), -1);
    CHECK_INT_EQ(textsafe_text_control_at("bell\a"), 4);
    /* cut: 8 bytes hold 4 characters and "..." */
    CHECK_STR_EQ(textsafe_visible("abcdefghij", buf, 8), "abcd...");
    CHECK(strlen(textsafe_md("||||||||||", buf, 8)) < 8);
    return check_report();
}
