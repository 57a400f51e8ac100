#!/usr/bin/env python3
"""sizes.py - sizeup's size limits (issue 29): no source file over 800 lines and no function
over 120 lines, over the *.c and *.h files of util records models catalogs probes advisor drive
cli fuzz bench (the folders that exist).

A file's size is its number of lines. A function is a top-level definition: its signature
starts at column 0 and its body opens with a `{` alone at column 0 (our clang-format style,
LLVM with BreakBeforeBraces: Linux) or at the end of the signature's last line, and closes
with a `}` at column 0. A function's size is its body's lines, the `{` line to the `}` line.
A struct, union or enum definition (no `(`) or an initializer (`= {`, closed by `};`) is not
a function.

Usage: scripts/sizes.py [--check [--known TEXT]...] [--all] [ROOT]
  ROOT        the source tree (default: this script's ..)
  --all       also list the largest files and functions within the limits
  --known T   a broken limit whose text holds T is reported as known, not as a failure; a
              --known that matches nothing fails (the break is gone: drop the --known)
A break reads "FILE: file has N lines (limit 800)" or "FILE: NAME() has N lines at line L
(limit 120)", so --known "advisor/rank/rank.c: file" or --known "advisor/rank/rank.c: rank_run()".
Exit status: 0; 1 when --check finds a broken limit (each is printed); 2 bad usage.
"""
import os
import re
import sys

import known_breaks  # scripts/known_breaks.py, beside this script

FOLDERS = ["util", "records", "models", "catalogs", "probes", "advisor", "drive", "cli", "fuzz",
           "bench"]
FILE_LIMIT = 800
FUNC_LIMIT = 120
NAME = re.compile(r"([A-Za-z_]\w*)\s*\(")
NOT_FUNC = re.compile(r"^(typedef\b|#)|=")


def sources(root):
    out = []
    for top in FOLDERS:
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return sorted(out)


def functions(lines):
    """(name, first line of the signature, body lines) of each function in lines (1-based)."""
    out = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\n")
        opens = None
        if line.rstrip() == "{" and i > 0:
            start = i - 1
            while start > 0 and (lines[start][:1] in (" ", "\t")):
                start -= 1  # the signature's continuation lines are indented
            sig = " ".join(l.strip() for l in lines[start:i])
            if lines[start][:1] not in ("", "\n", "}", "{", "/", "#") and "(" in sig \
                    and not NOT_FUNC.search(sig.split("(")[0]):
                opens = (start, sig)
        elif line[:1] not in ("", " ", "\t", "}", "{", "/", "#", "*") and line.endswith(") {") \
                and "(" in line and not NOT_FUNC.search(line.split("(")[0]):
            opens = (i, line)
        if opens is None:
            i += 1
            continue
        start, sig = opens
        m = NAME.search(sig)
        end = i + 1
        while end < len(lines) and not re.match(r"^}\s*$", lines[end]):
            end += 1
        if end >= len(lines):
            break  # not closed at column 0: not the style we measure
        out.append((m.group(1) if m else "?", start + 1, end - i + 1))
        i = end + 1
    return out


def main(argv):
    check, show_all, known, args, i = False, False, [], [], 0
    while i < len(argv):
        if argv[i] == "--check":
            check = True
        elif argv[i] == "--all":
            show_all = True
        elif argv[i] == "--known" and i + 1 < len(argv):
            known.append(argv[i + 1])
            i += 1
        else:
            args.append(argv[i])
        i += 1
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: scripts/sizes.py [--check [--known TEXT]...] [--all] [ROOT]",
              file=sys.stderr)
        return 2
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    broken, files, funcs = [], [], []
    for f in sources(root):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            lines = fh.readlines()
        files.append((len(lines), f))
        if len(lines) > FILE_LIMIT:
            broken.append("%s: file has %d lines (limit %d)" % (f, len(lines), FILE_LIMIT))
        for name, at, n in functions(lines):
            funcs.append((n, f, name, at))
            if n > FUNC_LIMIT:
                broken.append("%s: %s() has %d lines at line %d (limit %d)" %
                              (f, name, n, at, FUNC_LIMIT))

    print("Sizes: %d files, %d functions; limits %d lines a file, %d a function" %
          (len(files), len(funcs), FILE_LIMIT, FUNC_LIMIT))
    if show_all:
        print("\nLargest files")
        for n, f in sorted(files, key=lambda x: (-x[0], x[1]))[:20]:
            print("  %5d  %s" % (n, f))
        print("\nLargest functions")
        for n, f, name, at in sorted(funcs, key=lambda x: (-x[0], x[1], x[3]))[:30]:
            print("  %5d  %s:%d %s()" % (n, f, at, name))
    rc = known_breaks.report("Limits", broken, known)
    return rc if check else 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
