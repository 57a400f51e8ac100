#!/usr/bin/env python3
"""README.md's shown commands, and docs/commands.md's and docs/examples.md's, print what they show: every indented block that starts with
"$ sizeup ..." (continued with a trailing backslash, optionally piped to "| head -N" or
"| tail -N") is run from
the project root and its stdout compared, line by line, with the lines that follow it in the
block (up to the next blank line followed by prose, or the next "$ " line)."""
import os
import shlex
import subprocess
import sys

BIN = os.environ["SIZEUP_BIN"]
# README's outputs are of 2026-12-06 (util/today.h): the age of a price does not depend on the
# day the suite runs
os.environ["SOURCE_DATE_EPOCH"] = "1796515200"
SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
fails = examples = 0
# README's examples, and those it moved to docs/ (a command and what it prints, alike)
lines = []
for page in ("README.md", "docs/commands.md", "docs/examples.md"):
    lines += open(os.path.join(SRC, page), encoding="utf-8").read().split("\n") + [""]
i = 0
while i < len(lines):
    if not lines[i].startswith("    $ sizeup "):
        i += 1
        continue
    cmd = lines[i][6:]
    while cmd.endswith("\\"):
        i += 1
        cmd = cmd[:-1].rstrip() + " " + lines[i].strip()
    i += 1
    want = []
    while i < len(lines) and lines[i].startswith("    ") and not lines[i].startswith("    $ "):
        want.append(lines[i][4:])
        i += 1
    head = tail = None
    if "|" in cmd:
        cmd, pipe = cmd.split("|", 1)
        p = shlex.split(pipe)
        if p[:1] not in (["head"], ["tail"]) or len(p) != 2 or not p[1].startswith("-"):
            print("skip (pipe):", cmd, "|", pipe)
            continue
        if p[0] == "head":
            head = int(p[1][1:])
        else:
            tail = int(p[1][1:])
    args = shlex.split(cmd)[1:]
    out = subprocess.run([BIN] + args, capture_output=True, text=True, cwd=SRC)
    got = out.stdout.rstrip("\n").split("\n")
    if head is not None:
        got = got[:head]
    if tail is not None:
        got = got[-tail:]
    examples += 1
    if got != want:
        fails += 1
        print("FAIL: README `%s` prints:" % cmd.strip())
        for g, w in zip(got + [""] * len(want), want + [""] * len(got)):
            if g != w:
                print("  got  %r\n  want %r" % (g, w))
                break
    else:
        print("ok   %s" % cmd.strip())
print("%d examples, %d failed" % (examples, fails))
sys.exit(1 if fails or examples == 0 else 0)
