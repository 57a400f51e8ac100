#!/usr/bin/env python3
"""arch.py - sizeup's architecture as the code has it: the folder-to-folder include graph, each
library's link line, and (with --check) the dependency rule of docs/architecture.md:

    util     -> nothing of the project        (libc; jansson for jsonread)
    records  -> util
    models   -> nothing of the project        (GSL)
    catalogs -> util
    probes   -> records, util                 (the only library that links libmariadb)
    advisor  -> records, models, catalogs, util; inside it, by concern, one way:
                curve <- plan, rank <- decide <- present, study
    drive    -> advisor, probes, records, models, catalogs, util   (talks to servers and disks:
                probe_drive, probe_curve, probe_tables, study_probe, study_clients,
                observe_drive, disk_drive; each returns enum drive_status, never exits)
    cli      -> everything                    (options, output, exit codes; no server or disk
                talk: tests/arch/test_cli_calls.sh checks its calls into probes with nm)
    <mysql.h> only in probes/*.c; no include circle between modules (a module is a .c/.h pair)
    a header whose functions are defined in more than one .c names each of those files (a
    section marker "---- FILE.c" or its opening comment), so a reader finds where each lives

Usage: scripts/arch.py [--check [--known TEXT]...] [ROOT]
  ROOT        the source tree (default: this script's ..)
  --known T   a broken rule whose text holds T is reported as known, not as a failure; a
              --known that matches nothing fails (the break is gone: drop the --known)
Exit status: 0; 1 when --check finds a broken rule (each is printed); 2 bad usage.
"""
import os
import re
import sys

import known_breaks  # scripts/known_breaks.py, beside this script

LIBS = ["util", "records", "probes", "models", "catalogs", "advisor", "drive", "cli"]
ADVISOR = ["curve", "plan", "rank", "decide", "present", "study"]
OTHERS = ["fuzz", "bench"]
# Folder -> folders it may include from (each advisor/ sub-folder counts as its own folder).
BELOW_ADVISOR = {"records", "models", "catalogs", "util"}
ALL_ADVISOR = {"advisor/" + d for d in ADVISOR}
ALLOWED = {
    "util": set(),
    "records": {"util"},
    "models": set(),
    "catalogs": {"util"},
    "probes": {"records", "util"},
    "advisor/curve": BELOW_ADVISOR,
    "advisor/plan": BELOW_ADVISOR | {"advisor/curve"},
    "advisor/rank": BELOW_ADVISOR | {"advisor/curve"},
    "advisor/decide": BELOW_ADVISOR | {"advisor/curve", "advisor/rank"},
    "advisor/present": BELOW_ADVISOR | {"advisor/curve", "advisor/rank", "advisor/decide"},
    "advisor/study": BELOW_ADVISOR | {"advisor/curve", "advisor/rank", "advisor/decide"},
    "drive": BELOW_ADVISOR | ALL_ADVISOR | {"probes"},
    "cli": BELOW_ADVISOR | ALL_ADVISOR | {"probes", "drive"},
}
# CMake target -> project targets it may link.
LINK_ALLOWED = {
    "sizeup_util": set(),
    "sizeup_records": {"sizeup_util"},
    "sizeup_models": set(),
    "sizeup_catalogs": {"sizeup_util"},
    "sizeup_probes": {"sizeup_records", "sizeup_util"},
    "sizeup_advisor": {"sizeup_records", "sizeup_models", "sizeup_catalogs", "sizeup_util"},
    "sizeup_drive": {"sizeup_advisor", "sizeup_probes", "sizeup_records", "sizeup_models",
                     "sizeup_catalogs", "sizeup_util"},
    "sizeup_cli": {"sizeup_drive", "sizeup_advisor", "sizeup_probes", "sizeup_records",
                   "sizeup_models", "sizeup_catalogs", "sizeup_util"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def folder_of(rel):
    parts = rel.split("/")
    if parts[0] == "advisor" and len(parts) > 2:
        return "advisor/" + parts[1]
    return parts[0]


def sources(root):
    out = []
    for top in LIBS + OTHERS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return sorted(out)


DECL = re.compile(r"^[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\(", re.M)
DEFN = re.compile(r"^(?!static\b)[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*\([^;{]*?\)\s*\{",
                  re.M)


def fronted_files(root, files):
    """Headers that declare functions of several .c files without naming each of them."""
    defined = {}
    for f in files:
        if f.endswith(".c") and folder_of(f) not in OTHERS:
            text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
            for name in DEFN.findall(text):
                defined.setdefault(name, set()).add(f)
    out = []
    for h in files:
        if not h.endswith(".h") or folder_of(h) in OTHERS:
            continue
        text = open(os.path.join(root, h), encoding="utf-8", errors="replace").read()
        where = set()
        for name in set(DECL.findall(text)):
            where |= defined.get(name, set())
        unnamed = sorted(c for c in where if c != h[:-2] + ".c" and
                         not re.search(r"\b%s\b" % re.escape(os.path.basename(c)), text))
        if unnamed:
            out.append("%s declares functions of %s without naming it (a '---- FILE.c' marker)" %
                       (h, ", ".join(unnamed)))
    return out


def main(argv):
    check, known, args, i = False, [], [], 0
    while i < len(argv):
        if argv[i] == "--check":
            check = True
        elif argv[i] == "--known" and i + 1 < len(argv):
            known.append(argv[i + 1])
            i += 1
        else:
            args.append(argv[i])
        i += 1
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: scripts/arch.py [--check [--known TEXT]...] [ROOT]", file=sys.stderr)
        return 2
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    files = sources(root)
    by_name = {}
    for f in files:
        if f.endswith(".h") and folder_of(f) not in OTHERS:
            by_name.setdefault(os.path.basename(f), []).append(f)
    broken = []
    for name, paths in sorted(by_name.items()):
        if len(paths) > 1:
            broken.append("header name %s is used twice: %s" % (name, ", ".join(paths)))

    broken += fronted_files(root, files)

    edges = {}      # (from folder, to folder) -> count
    modedges = {}   # module -> set of modules
    for f in files:
        text = open(os.path.join(root, f), encoding="utf-8", errors="replace").read()
        here = folder_of(f)
        mod = f[:-2]
        for kind, inc in INCLUDE.findall(text):
            if kind == "<":
                if inc in ("mysql.h", "mysql/mysql.h") and not (
                        here == "probes" and f.endswith(".c")):
                    broken.append("%s includes <%s>: only probes/*.c may" % (f, inc))
                continue
            same = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if same in files:
                target = same
            elif len(by_name.get(os.path.basename(inc), [])) == 1:
                target = by_name[os.path.basename(inc)][0]
            else:
                continue  # a test helper or a generated header: not part of the graph
            there = folder_of(target)
            if there != here:
                edges[(here, there)] = edges.get((here, there), 0) + 1
                if here in ALLOWED and there not in ALLOWED[here]:
                    broken.append("%s includes %s: %s may not depend on %s" %
                                  (f, target, here, there))
            if target[:-2] != mod:
                modedges.setdefault(mod, set()).add(target[:-2])

    print("Include graph (folder -> folder: includes)")
    for here in LIBS[:5] + sorted(ALL_ADVISOR, key=lambda f: ADVISOR.index(f[8:])) + [
            "drive", "cli"] + OTHERS:
        outs = ["%s (%d)" % (t, n) for (h, t), n in sorted(edges.items()) if h == here]
        print("  %-12s -> %s" % (here, ", ".join(outs) if outs else "nothing of the project"))

    print("\nLink lines (CMake target_link_libraries)")
    links = {}
    for top in LIBS:
        cm = os.path.join(root, top, "CMakeLists.txt")
        if not os.path.exists(cm):
            continue
        text = open(cm, encoding="utf-8").read()
        for target, body in re.findall(r"target_link_libraries\(\s*(\S+)\s+(.*?)\)", text, re.S):
            words = [w for w in body.split() if w not in ("PUBLIC", "PRIVATE", "INTERFACE")]
            links.setdefault(target, []).extend(words)
    for target in sorted(links):
        print("  %-16s %s" % (target, " ".join(links[target])))
        project = {w for w in links[target] if w.startswith("sizeup_")}
        if target in LINK_ALLOWED:
            for w in sorted(project - LINK_ALLOWED[target]):
                broken.append("%s links %s" % (target, w))
            if target != "sizeup_probes" and any("MARIADB" in w for w in links[target]):
                broken.append("%s links libmariadb: only sizeup_probes may" % target)

    # include circles between modules (Tarjan's strongly connected components)
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(modedges.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(modedges):
        if v not in index:
            strong(v)
    print("\nInclude circles between modules: %d" % len(sccs))
    for comp in sccs:
        print("  " + " <-> ".join(comp))
        broken.append("include circle: " + " <-> ".join(comp))

    if check:
        return known_breaks.report("Rules", broken, known)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
