#!/usr/bin/env python3
"""run-scaleout.py - issue 18's load-generator goals, side by side with sysbench 1.0.20 on one
server, in one run, as ratios.

  bench/run-scaleout.py [--sizeup BIN] [--port N] [--time S] [--rounds R] [--big N]
                        [--split N] [--only small,big,split]

Starts its own throwaway MariaDB (scripts/mariadb-server.sh, datadir /tmp/scaleout-bench) on
127.0.0.1:PORT (default 23076) with max_connections raised to BIG + 100, prepares 4 tables x
10000 rows with `sizeup probe prepare`, then per round (the order of the tools alternates from round to
round):

  small  oltp_point_select at 4 connections: sizeup (default --workers) and sysbench --threads 4
         goal: sizeup tps >= 1.10 x sysbench, client CPU per transaction <= 0.5 x
  big    oltp_point_select at BIG (default 2000) connections: sizeup --workers 2 and sysbench
         --threads BIG; goal: sizeup runs, reports, and uses less client CPU per transaction
  split  oltp_point_select at SPLIT (default 8) connections: one sizeup client, and two sizeup
         clients (--client 0/2, 1/2, one --start-at) merged by `sizeup merge`
         goal: tps within 5 %, merged p95 within the histogram's resolution of the single's

Client CPU is each tool's user + system time (wait4's rusage of the process; both clients for
the split). Each round's figures go to stderr, the means and ratios to stdout, with the machine's
load (/proc/loadavg, and the share of its CPUs busy during the runs from /proc/stat).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_busy():
    """(busy, total) jiffies of all CPUs, /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def run(cmd, env=None):
    """Run cmd; (stdout, stderr, cpu_s, wall_s)."""
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    out, err = p.communicate()
    return out, err, p.returncode, time.time() - t0


def run_timed(cmds, env=None):
    """Start every command at once; return [(stdout, stderr, rc, cpu_s)] with wait4's rusage."""
    procs = []
    for c in cmds:
        fo = tempfile.TemporaryFile(mode="w+")
        fe = tempfile.TemporaryFile(mode="w+")
        procs.append((subprocess.Popen(c, stdout=fo, stderr=fe, env=env), fo, fe))
    res = []
    for p, fo, fe in procs:
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        res.append((fo.read(), fe.read(), p.returncode, ru.ru_utime + ru.ru_stime))
        fo.close()
        fe.close()
    return res


def sysbench_figures(out):
    tx = re.search(r"^\s+transactions:\s+(\d+)\s+\(([\d.]+) per sec", out, re.M)
    p95 = re.search(r"95th percentile:\s+([\d.]+)", out)
    if not tx:
        raise RuntimeError("sysbench printed no summary:\n" + out[-2000:])
    return {"tx": int(tx.group(1)), "tps": float(tx.group(2)),
            "p95": float(p95.group(1)) if p95 else float("nan")}


def point_figures(path):
    with open(path) as f:
        lines = [l for l in f if l.strip()]
    if len(lines) != 1:
        raise RuntimeError("%s: %d records, expected 1" % (path, len(lines)))
    p = json.loads(lines[0])
    return {"tx": p["transactions"], "tps": p["tps"], "p95": p["latency_ms"]["p95"],
            "flags": p.get("flags", []), "record": p}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizeup", default=os.path.join(HERE, "build/sizeup"))
    ap.add_argument("--port", type=int, default=23076)
    ap.add_argument("--time", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--big", type=int, default=2000)
    ap.add_argument("--split", type=int, default=8)
    ap.add_argument("--only", default="small,big,split")
    a = ap.parse_args()
    parts = a.only.split(",")
    d = "/tmp/scaleout-bench"
    srv = os.path.join(HERE, "scripts/mariadb-server.sh")
    subprocess.run([srv, "start", d, str(a.port)], check=True, stdout=subprocess.DEVNULL)
    tmp = tempfile.mkdtemp(prefix="scaleout-bench.")
    try:
        subprocess.run(["mariadb", "--no-defaults", "-S", d + "/mysqld.sock", "-uroot", "-e",
                        "SET GLOBAL max_connections = %d" % (a.big + 100)], check=True)
        env = dict(os.environ, MYSQL_PWD="sbtest")
        sb = ["sysbench", "--mysql-host=127.0.0.1", "--mysql-port=%d" % a.port,
              "--mysql-user=sbtest", "--mysql-password=sbtest", "--mysql-db=sbtest",
              "--tables=4", "--table-size=10000"]
        sz = [a.sizeup, "probe", "--mysql-host", "127.0.0.1", "--mysql-port", str(a.port),
              "--mysql-user", "sbtest", "--mysql-db", "sbtest", "--tables", "4",
              "--table-size", "10000", "--workload", "oltp_point_select"]
        subprocess.run(sb + ["oltp_point_select", "cleanup"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        # sizeup prepares (it runs only on tables it created, with their comment; sysbench
        # reads them all the same)
        subprocess.run(sz + ["--threads", "4", "prepare"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        sums = {}
        loads = []
        busy0 = cpu_busy()

        def add(key, fig, cpu):
            s = sums.setdefault(key, {"tps": 0.0, "p95": 0.0, "tx": 0, "cpu": 0.0, "n": 0})
            s["tps"] += fig["tps"]
            s["p95"] += fig["p95"]
            s["tx"] += fig["tx"]
            s["cpu"] += cpu
            s["n"] += 1

        def one_sysbench(key, threads, r):
            (out, err, rc, cpu), = run_timed(
                [sb + ["oltp_point_select", "--threads=%d" % threads, "--time=%d" % a.time,
                       "run"]], env)
            if rc != 0:
                raise RuntimeError("sysbench exited %d: %s" % (rc, err[-2000:]))
            fig = sysbench_figures(out)
            add(key, fig, cpu)
            print("  round %d %-14s tps %10.1f p95 %7.3f ms tx %9d cpu %6.2f s" %
                  (r, key, fig["tps"], fig["p95"], fig["tx"], cpu), file=sys.stderr)

        def one_sizeup(key, threads, r, extra=(), attempt=1):
            out_path = os.path.join(tmp, "%s-%d-%d.jsonl" % (key, r, attempt))
            (out, err, rc, cpu), = run_timed(
                [sz + ["--threads", str(threads), "--time", str(a.time), "--out", out_path,
                       "--remeasure", "0"] + list(extra) + ["run"]], env)
            fig = point_figures(out_path)
            bad = set(fig["flags"]) & {"stalled", "reconnects", "partial", "interrupted"}
            if bad and attempt < 3:
                # a level the server stalled (a loaded host) does not count: measured again
                print("  round %d %-14s flagged %s: measured again" % (r, key, ",".join(bad)),
                      file=sys.stderr)
                return one_sizeup(key, threads, r, extra, attempt + 1)
            if rc != 0:
                raise RuntimeError("sizeup exited %d: %s" % (rc, err[-2000:]))
            add(key, fig, cpu)
            warn = [l for l in err.splitlines() if "warning" in l]
            print("  round %d %-14s tps %10.1f p95 %7.3f ms tx %9d cpu %6.2f s%s" %
                  (r, key, fig["tps"], fig["p95"], fig["tx"], cpu,
                   (" | " + warn[0]) if warn else ""), file=sys.stderr)
            return fig

        def split_sizeup(key, threads, r):
            part = os.path.join(tmp, "%s-%d.parts.jsonl" % (key, r))
            merged = os.path.join(tmp, "%s-%d.jsonl" % (key, r))
            at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 3))
            res = run_timed(
                [sz + ["--threads", str(threads), "--time", str(a.time), "--out", part,
                       "--client", "%d/2" % i, "--start-at", at, "run"] for i in (0, 1)], env)
            for out, err, rc, cpu in res:
                if rc != 0:
                    raise RuntimeError("sizeup part exited %d: %s" % (rc, err[-2000:]))
            out, err, rc, _ = run([a.sizeup, "merge", part, "-o", merged])
            if rc != 0:
                raise RuntimeError("sizeup merge exited %d: %s" % (rc, err))
            fig = point_figures(merged)
            cpu = sum(x[3] for x in res)
            add(key, fig, cpu)
            m = fig["record"]["extra"]["merge"]
            print("  round %d %-14s tps %10.1f p95 %7.3f ms tx %9d cpu %6.2f s (start skew "
                  "%.4f s, end skew %.4f s)%s" %
                  (r, key, fig["tps"], fig["p95"], fig["tx"], cpu, m["start_skew_s"],
                   m["end_skew_s"], (" | " + err.strip()) if err.strip() else ""),
                  file=sys.stderr)

        for r in range(1, a.rounds + 1):
            loads.append(os.getloadavg()[0])
            flip = r % 2 == 0
            if "small" in parts:
                steps = [lambda: one_sysbench("sysbench-4", 4, r),
                         lambda: one_sizeup("sizeup-4", 4, r)]
                for s in (steps[::-1] if flip else steps):
                    s()
            if "big" in parts:
                steps = [lambda: one_sysbench("sysbench-%d" % a.big, a.big, r),
                         lambda: one_sizeup("sizeup-%d" % a.big, a.big, r, ["--workers", "2"])]
                for s in (steps[::-1] if flip else steps):
                    s()
            if "split" in parts:
                steps = [lambda: one_sizeup("one-%d" % a.split, a.split, r),
                         lambda: split_sizeup("two-%d" % a.split, a.split, r)]
                for s in (steps[::-1] if flip else steps):
                    s()
            loads.append(os.getloadavg()[0])
        busy1 = cpu_busy()

        def mean(k, f):
            s = sums[k]
            return s[f] / s["n"]

        def cpu_per_k(k):
            return 1000 * sums[k]["cpu"] / sums[k]["tx"]

        print("%-22s %10s %10s %8s %10s %10s %8s" %
              ("comparison", "tps A", "tps B", "A/B", "cpu/1k A", "cpu/1k B", "A/B"))

        def row(name, ka, kb):
            print("%-22s %10.1f %10.1f %8.3f %10.4f %10.4f %8.3f" %
                  (name, mean(ka, "tps"), mean(kb, "tps"), mean(ka, "tps") / mean(kb, "tps"),
                   cpu_per_k(ka), cpu_per_k(kb), cpu_per_k(ka) / cpu_per_k(kb)))
            print("%-22s p95 A %.4f ms, p95 B %.4f ms, A/B %.4f" %
                  ("", mean(ka, "p95"), mean(kb, "p95"), mean(ka, "p95") / mean(kb, "p95")))

        if "small" in parts:
            row("sizeup/sysbench 4", "sizeup-4", "sysbench-4")
        if "big" in parts:
            row("sizeup/sysbench %d" % a.big, "sizeup-%d" % a.big, "sysbench-%d" % a.big)
        if "split" in parts:
            row("2 merged/1 client %d" % a.split, "two-%d" % a.split, "one-%d" % a.split)
        db, dt = busy1[0] - busy0[0], busy1[1] - busy0[1]
        print("(means of %d alternating rounds of %d s; machine: %d CPUs, 1-min load %s during "
              "the rounds, CPUs %.0f %% busy overall including this benchmark)" %
              (a.rounds, a.time, os.cpu_count(), " ".join("%.2f" % x for x in loads),
               100.0 * db / dt if dt else 0))
    finally:
        subprocess.run([srv, "stop", d], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
