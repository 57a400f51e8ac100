#!/usr/bin/env python3
"""faults_check.py DIR - the end-of-campaign checks of bench/run-faults.sh (issue 12).

Reads DIR/faults.log (one fault a line: KIND START_NS END_NS DETAIL...; KIND kill9, stop or
killconn, the window in Unix ns), DIR/violations.log (what the script itself found: tables left
after a cleanup, orphan processes) and every results file DIR/*.jsonl and DIR/study-*/results.jsonl,
and checks:
  - every line of every results file is a whole sizeup.point/1 record (parses as a JSON object
    with that schema, and the file ends with a newline);
  - no measured point (a probe replicate, extra.window) that a fault hit is unflagged: it must
    carry stalled, reconnects, interrupted or partial, or be incomplete. A level starts only when
    every connection is ready, which needs the server (its recorded start comes a moment later):
    a kill (kill9, killconn) hits the levels running at it or starting up to 0.1 s after it (the
    restart's logged end comes after the server's own setup, too late to compare with); a freeze
    (stop) the levels running at any moment of it: its window is when the server was surely
    stopped, from kill -STOP's return to just before kill -CONT, stamped without a fork (a level
    cannot start inside it: its connections need the server's answers). A forked `date` after
    the SIGCONT, as the script stamped before, came up to 153 ms late at load average 16-21, and
    a level the thawed server had let in looked frozen;
  - a level record (extra.interval.method replicates) pools only unflagged replicates of its file.
Prints the figures (faults by kind, records, points kept, points flagged, violations) and exits 1
when any violation was found."""
import glob
import json
import os
import sys

BAD = {"stalled", "reconnects", "interrupted", "partial"}
KILL_LEAD_S = 0.1


def flagged(p):
    return bool(p.get("incomplete")) or bool(BAD & set(p.get("flags") or []))


def main():
    d = sys.argv[1]
    faults = []
    for line in open(os.path.join(d, "faults.log")):
        f = line.split()
        if len(f) >= 3:
            faults.append((f[0], int(f[1]) / 1e9, int(f[2]) / 1e9, " ".join(f[3:])))
    violations = []
    vpath = os.path.join(d, "violations.log")
    if os.path.exists(vpath):
        violations += [l.rstrip("\n") for l in open(vpath) if l.strip()]
    files = sorted(glob.glob(os.path.join(d, "*.jsonl")) +
                   glob.glob(os.path.join(d, "study-*", "results.jsonl")))
    n_rec = kept = flag = levels = 0
    overlapped = 0
    for path in files:
        raw = open(path, "rb").read()
        if raw and not raw.endswith(b"\n"):
            violations.append("%s: the last line is not terminated (a torn record)" % path)
        recs = []
        for no, line in enumerate(raw.decode("utf-8", "replace").split("\n"), 1):
            if not line.strip():
                continue
            try:
                p = json.loads(line)
            except ValueError as e:
                violations.append("%s:%d: not a whole record (%s)" % (path, no, e))
                continue
            if not isinstance(p, dict) or p.get("schema") != "sizeup.point/1":
                violations.append("%s:%d: not a sizeup.point/1 record" % (path, no))
                continue
            recs.append((no, p))
        n_rec += len(recs)
        for no, p in recs:
            x = p.get("extra") or {}
            iv = x.get("interval") or {}
            if iv.get("method") == "replicates":
                levels += 1
                continue
            w = x.get("window")
            if (p.get("source") or {}).get("kind") != "probe":
                continue  # an imported published point (a study's other candidate)
            if not w:
                violations.append("%s:%d: a probe record without extra.window" % (path, no))
                continue
            s, e = w["started_unix_s"], w["ended_unix_s"]
            # a level starts once every connection is ready, which needs the server, and its start
            # is taken a moment later (the aggregator's): a kill hits the levels running at it,
            # or starting up to KILL_LEAD_S after it; a freeze the levels running at any moment
            # of its window (stamped while the server was surely stopped)
            hit = [f for f in faults
                   if (f[0] == "stop" and f[1] < e and f[2] > s) or
                   (f[0] != "stop" and s - KILL_LEAD_S < f[1] < e)]
            if flagged(p):
                flag += 1
            else:
                kept += 1
            if hit:
                overlapped += 1
                if not flagged(p):
                    violations.append(
                        "%s:%d: %d threads [%.3f, %.3f] overlaps %s and is not flagged" %
                        (path, no, p["threads"], s, e,
                         ", ".join("%s [%.3f, %.3f] %s" % f for f in hit)))
        # a level record pools only unflagged replicates of the same file
        reps = {(p.get("started_at"), p.get("tps")): p for _, p in recs
                if ((p.get("extra") or {}).get("interval") or {}).get("method") == "within_run"}
        for no, p in recs:
            iv = (p.get("extra") or {}).get("interval") or {}
            if iv.get("method") != "replicates":
                continue
            for e in iv.get("pooled", []):
                r = reps.get((e.get("started_at"), e.get("tps")))
                if r is None:
                    violations.append("%s:%d: pools a replicate not in the file (%s)" %
                                      (path, no, e.get("started_at")))
                elif flagged(r):
                    violations.append("%s:%d: pools a flagged replicate (%s, flags %s)" %
                                      (path, no, e.get("started_at"), r.get("flags")))
    kinds = {}
    for f in faults:
        kinds[f[0]] = kinds.get(f[0], 0) + 1
    print("faults injected: %d (%s)" % (len(faults), ", ".join(
        "%s %d" % (k, kinds[k]) for k in sorted(kinds)) or "none"))
    print("results files: %d, records: %d (%d level records pooling replicates)" %
          (len(files), n_rec, levels))
    print("points measured: %d; kept (unflagged): %d; flagged: %d; hit by a fault: %d" %
          (kept + flag, kept, flag, overlapped))
    print("violations: %d" % len(violations))
    for v in violations:
        print("  VIOLATION: " + v)
    sys.exit(1 if violations else 0)


if __name__ == "__main__":
    main()
