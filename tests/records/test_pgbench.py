#!/usr/bin/env python3
"""sizeup import on real pgbench output, made now against the throwaway PostgreSQL of the CTest
fixture `postgres` (scripts/postgres-server.sh), checked against pgbench's own printed numbers:

- a TPC-B run with --progress and -r (stdout and stderr together, as a terminal shows them):
  clients, pgbench threads, transactions, failures, tps, latency average and stddev, initial
  connection time, one series entry per progress line with its tps and latency, one statement
  per -r line with its latency and command;
- a client sweep (1 and 4 clients x 30 transactions) logged into one file: two points;
- a -l run of 3 clients on 3 threads: the log files (`pgbench_log.*`, one per thread) give one
  point whose transactions are pgbench's "actually processed", whose client count is 3, whose
  mean latency is pgbench's "latency average" (to its printed 3 decimals and the logs' whole
  microseconds), and whose p50/p95/p99 are within 1/256 of the nearest-rank percentiles of the
  logged latencies computed here.
"""
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

BIN = os.environ["SIZEUP_BIN"]
if "SIZEUP_PG_ENV" in os.environ:  # the variables postgres-server.sh wrote
    for line in open(os.environ["SIZEUP_PG_ENV"]):
        k, _, v = line.strip().partition("=")
        os.environ.setdefault(k, v)
PG = ["-h", os.environ["SIZEUP_PG_HOST"], "-p", os.environ["SIZEUP_PG_PORT"],
      "-U", os.environ["SIZEUP_PG_USER"]]
DB = os.environ["SIZEUP_PG_DB"]
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures += 1


def pgbench(args, cwd):
    r = subprocess.run(["pgbench"] + PG + args + [DB], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        print(r.stdout)
        raise SystemExit("pgbench %s failed" % " ".join(args))
    return r.stdout


def imported(paths, *extra):
    r = subprocess.run([BIN, "import"] + list(extra) + paths, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    return r.returncode, [json.loads(l) for l in r.stdout.splitlines()], r.stderr


def printed(text, pattern, conv=float):
    m = re.search(pattern, text, re.M)
    return conv(m.group(1)) if m else None


def near(a, b, tol):
    return a is not None and b is not None and abs(a - b) <= tol


def summary_case(tmp):
    out = pgbench(["-c", "2", "-j", "2", "-T", "2", "-P", "1", "-r"], tmp)
    path = os.path.join(tmp, "tpcb.txt")
    open(path, "w").write(out)
    rc, pts, err = imported([path])
    check(rc == 0 and len(pts) == 1, "TPC-B run: one point, exit 0 (%s)" % err.strip())
    if len(pts) != 1:
        return
    p = pts[0]
    check(p["workload"] == "pgbench_tpcb", "workload pgbench_tpcb")
    check(p["threads"] == printed(out, r"^number of clients: (\d+)", int), "clients")
    check(p["extra"]["pgbench_threads"] == printed(out, r"^number of threads: (\d+)", int),
          "pgbench threads")
    check(p["transactions"] == printed(out, r"^number of transactions actually processed: (\d+)",
                                       int), "transactions %d" % p["transactions"])
    check(p["errors"] == printed(out, r"^number of failed transactions: (\d+)", int), "failures")
    check(near(p["tps"], printed(out, r"^tps = ([\d.]+) \(without"), 1e-9), "tps %s" % p["tps"])
    check(near(p["latency_ms"]["avg"], printed(out, r"^latency average = ([\d.]+) ms"), 1e-12),
          "latency average")
    check(near(p["extra"]["latency_stddev_ms"], printed(out, r"^latency stddev = ([\d.]+) ms"),
               1e-12), "latency stddev")
    check(near(p["extra"]["initial_connection_ms"],
               printed(out, r"^initial connection time = ([\d.]+) ms"), 1e-12),
          "initial connection time")
    prog = re.findall(r"^progress: ([\d.]+) s, ([\d.]+) tps, lat ([\d.]+) ms", out, re.M)
    series = p.get("series", [])
    check(len(prog) >= 1 and len(series) == len(prog),
          "one series entry per progress line (%d, %d)" % (len(series), len(prog)))
    check(all(near(s["t"], float(t), 1e-9) and near(s["tps"], float(x), 1e-9) and
              near(s["lat_ms"], float(l), 1e-12) for s, (t, x, l) in zip(series, prog)),
          "series = progress lines (t, tps, lat)")
    stmts = re.findall(r"^\s+([\d.]+)\s+(\d+)\s+(\S.*)$", out.split("statement latencies")[1],
                       re.M)
    got = p["extra"].get("statements", [])
    check(len(stmts) == 11 and len(got) == len(stmts), "one statement per -r line (%d)" % len(got))
    check(all(near(g["latency_ms"], float(a), 1e-12) and g["failures"] == int(f) and
              g["command"] == c for g, (a, f, c) in zip(got, stmts)),
          "statement latencies, failures and commands")


def sweep_case(tmp):
    path = os.path.join(tmp, "sweep.txt")
    with open(path, "w") as f:
        for c in ("1", "4"):
            f.write("$ pgbench -c %s -t 30\n" % c)
            f.write(pgbench(["-c", c, "-j", c, "-t", "30"], tmp))
    rc, pts, err = imported([path])
    check(rc == 0 and [p["threads"] for p in pts] == [1, 4], "sweep: two points, 1 and 4 clients")
    check([p["transactions"] for p in pts] == [30, 120], "sweep: 30 and 120 transactions")


def log_case(tmp):
    d = os.path.join(tmp, "logrun")
    os.mkdir(d)
    out = pgbench(["-c", "3", "-j", "3", "-T", "2", "-P", "1", "-l"], d)
    files = sorted(glob.glob(os.path.join(d, "pgbench_log.*")))
    check(len(files) == 3, "pgbench -j 3 wrote 3 log files")
    rc, pts, err = imported(files)
    check(rc == 0 and len(pts) == 1, "the log files give one point (%s)" % err.strip())
    check(err.count("read with its main file") == 2, "the two thread files are said to be read "
          "with the main one")
    if len(pts) != 1:
        return
    p = pts[0]
    lat = []
    for f in files:
        for line in open(f):
            fields = line.split()
            if len(fields) >= 6 and fields[2].isdigit():
                lat.append(int(fields[2]))
    lat.sort()
    n = len(lat)
    processed = printed(out, r"^number of transactions actually processed: (\d+)", int)
    check(n == processed and p["transactions"] == processed,
          "transactions %d = logged %d = pgbench's %s" % (p["transactions"], n, processed))
    check(p["threads"] == 3, "3 clients")
    check(near(p["latency_ms"]["avg"], sum(lat) / n / 1000, 1e-9), "mean of the logged latencies")
    check(near(p["latency_ms"]["avg"], printed(out, r"^latency average = ([\d.]+) ms"), 0.0015),
          "mean %.4f = pgbench's latency average" % p["latency_ms"]["avg"])
    for q in (50, 95, 99):
        exact = lat[math.ceil(q / 100 * n) - 1] / 1000
        check(abs(p["latency_ms"]["p%d" % q] - exact) <= exact / 256,
              "p%d %.4f within 1/256 of the nearest rank %.4f" % (q, p["latency_ms"]["p%d" % q],
                                                                  exact))
    check(sum(b[1] for b in p["histogram"]["buckets"]) == n, "every latency in the histogram")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pgbench"] + PG + ["-i", "-s", "1", "-q", DB], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        summary_case(tmp)
        sweep_case(tmp)
        log_case(tmp)
    print("%d failed" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
