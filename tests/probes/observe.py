#!/usr/bin/env python3
"""sizeup observe against a real MariaDB while sysbench 1.0.20 makes a known load (issue 25).

A server of its own (scripts/mariadb-server.sh on the port given), so that nothing else counts
in its counters and it can be restarted and stopped:
  - each of oltp_point_select, oltp_read_only, oltp_read_write, oltp_write_only alone, then
    point_select and read_write at once: the transactions and queries the record counts are
    within 2 % of what sysbench reports for its run (the observation window holds the whole
    run), and the mix gives the workload (or the two in sysbench's proportion); sysbench's
    ignored errors (deadlock victims it retried) count as transactions and queries;
  - read_write deadlocking on 100 rows: every victim counted (Innodb_deadlocks = sysbench's
    ignored errors), transactions within the documented bound of committed + victims;
  - running sessions: 4 connections in SELECT SLEEP give 4 (within 0.5); under a saturating
    server-bound sysbench load the mean is within 1 of the test's own Threads_running samples;
  - observing changes nothing: CHECKSUM TABLE of every table and the server's write, DDL,
    lock and SET counters are the same after; the general log holds only the statements
    probes/observe.h documents;
  - a restart mid-observation: the interval across it is left out, no rate is negative or
    beyond what the load could give;
  - the server going away: exit 4, what was sampled kept; SIGINT: exit 130, kept;
    --until-interrupted: SIGINT ends it with exit 0.
Exit 77 (skipped) when sysbench is not installed.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

BIN = os.environ["SIZEUP_BIN"]
SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
SCRIPT = os.path.join(SRC, "scripts", "mariadb-server.sh")
PORT = int(sys.argv[1]) if len(sys.argv) > 1 else 23197
DIR = sys.argv[2] if len(sys.argv) > 2 else "/tmp/sizeup-observe-test"
SOCK = os.path.join(DIR, "mysqld.sock")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


def server(cmd):
    r = subprocess.run(["bash", SCRIPT, cmd, DIR, str(PORT)], capture_output=True, text=True)
    if r.returncode != 0 and cmd == "start":
        sys.exit("cannot start the test server: " + r.stderr)


def root_sql(sql):
    """Run sql as root over the socket; rows as lists of strings."""
    client = shutil.which("mariadb") or shutil.which("mysql")
    r = subprocess.run([client, "--no-defaults", "-uroot", "--socket=" + SOCK, "-N", "-B", "-e", sql],
                       capture_output=True, text=True, env={k: v for k, v in os.environ.items()
                                                            if k != "MYSQL_PWD"})
    if r.returncode != 0:
        sys.exit("root sql failed: %s: %s" % (sql, r.stderr))
    return [line.split("\t") for line in r.stdout.splitlines()]


def sysbench(workload, *args):
    return subprocess.Popen(["sysbench", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                             "--mysql-port=%d" % PORT, "--mysql-user=sbtest",
                             "--mysql-password=sbtest", "--mysql-db=sbtest", "--tables=1",
                             "--table-size=10000", workload] + list(args) + ["run"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def sb_totals(p, victims=False):
    """sysbench's transactions and queries, each with its ignored errors added: a deadlock's
    victim (error 1213, sysbench restarts the event) is a transaction the server ended, and its
    failing statement one the server counted (Questions) that sysbench counts as an error.
    With victims=True, also the ignored errors alone."""
    out = p.communicate()[0]
    tx = re.search(r"transactions:\s+(\d+)", out)
    q = re.search(r"queries:\s+(\d+)", out)
    ign = re.search(r"ignored errors:\s+(\d+)", out)
    if p.returncode != 0 or not tx or not q or not ign:
        sys.exit("sysbench failed:\n" + out)
    n = int(ign.group(1))
    t = (int(tx.group(1)) + n, int(q.group(1)) + n)
    return t + (n,) if victims else t


def observe(out, *args):
    """Start sizeup observe; return once it has read its first snapshot (its banner)."""
    env = dict(os.environ, MYSQL_PWD="sbtest")
    p = subprocess.Popen([BIN, "observe", "--no-defaults", "--mysql-host=127.0.0.1",
                          "--mysql-port=%d" % PORT, "--mysql-user=sbtest", "--interval=1s",
                          "-o", out] + list(args),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    p.banner = p.stderr.readline()
    return p


def finish(p):
    out, err = p.communicate(timeout=120)
    return p.returncode, out, p.banner + err


def stop(p):
    """SIGINT to an --until-interrupted observation once the load is over and counted."""
    time.sleep(1.5)
    p.send_signal(signal.SIGINT)
    return finish(p)


def record(path):
    with open(path) as f:
        return json.load(f)


def near(a, b, rel):
    return abs(a - b) <= rel * abs(b)


def main():
    if not shutil.which("sysbench"):
        print("skipped: sysbench is not installed (scripts/deps.sh installs it)")
        return 77
    server("stop")
    shutil.rmtree(DIR, ignore_errors=True)
    server("start")
    try:
        run_checks()
    finally:
        server("stop")
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


def run_checks():
    tmp = os.path.join(DIR, "records")
    os.makedirs(tmp, exist_ok=True)
    p = subprocess.run(["sysbench", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                        "--mysql-port=%d" % PORT, "--mysql-user=sbtest", "--mysql-password=sbtest",
                        "--mysql-db=sbtest", "--tables=1", "--table-size=10000", "oltp_read_write",
                        "prepare"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("sysbench prepare failed: " + p.stdout + p.stderr)

    # 1. one workload at a time, at a rate the two cores keep up with
    for workload, rate in (("oltp_point_select", 2000), ("oltp_read_only", 200),
                           ("oltp_read_write", 150), ("oltp_write_only", 500)):
        path = os.path.join(tmp, workload + ".json")
        o = observe(path, "--until-interrupted")
        tx, q = sb_totals(sysbench(workload, "--time=3", "--threads=2", "--rate=%d" % rate))
        rc, out, err = stop(o)
        check(rc == 0, "%s: observe exits 0 (%d: %s)" % (workload, rc, err.strip()[-200:]))
        r = record(path)
        s = r["summary"]
        check(near(s["transactions"], tx, 0.02),
              "%s: %.0f transactions observed, sysbench %d" % (workload, s["transactions"], tx))
        check(near(s["queries"], q, 0.02),
              "%s: %.0f queries observed, sysbench %d" % (workload, s["queries"], q))
        w = r["mix"]["weights"]
        check(w.get(workload, 0) >= 0.98, "%s: mix %s" % (workload, w))
        # every busy interval's own mix gives its transactions too: an interval's edges cut
        # transactions in two, which must not read as a mix of seven workloads (CI once saw a
        # read_write interval at 137 tps read as 1,497)
        off = [(round(iv["tps"]), round(iv["mix_tps"])) for iv in r["intervals"]
               if "excluded" not in iv and iv["tps"] >= 50 and
               not abs(iv["mix_tps"] - iv["tps"]) <= 0.1 * iv["tps"] + 5]
        check(not off, "%s: each interval's mix tps near its tps %s" % (workload, off))
        check(r["tps_rule"] == "status", "%s: the status rule (InnoDB's trx counters are off)"
              % workload)

    # 1a. deadlocks: read_write at 16 threads on 100 rows, a third of its attempts rolled back
    # by InnoDB and retried by sysbench; each victim is counted (Innodb_deadlocks) and ends a
    # transaction. Its partial statements cannot be told from autocommit ones exactly
    # (models/workmix.h): within 25 % above the attempts (before the victims were counted,
    # 1,613 committed + 903 victims read as 16,337)
    path = os.path.join(tmp, "deadlocks.json")
    o = observe(path, "--until-interrupted")
    tx, q, victims = sb_totals(sysbench("oltp_read_write", "--time=3", "--threads=16",
                                        "--table-size=100"), victims=True)
    rc, out, err = stop(o)
    r = record(path)
    s = r["summary"]
    check(s.get("aborted") == victims,
          "deadlocks: %s victims counted, sysbench's ignored errors %d" % (s.get("aborted"), victims))
    check(tx * 0.98 <= s["transactions"] <= tx * 1.25,
          "deadlocks: %.0f transactions observed, sysbench %d (committed + victims)"
          % (s["transactions"], tx))
    check(near(s["queries"], q, 0.02),
          "deadlocks: %.0f queries observed, sysbench %d" % (s["queries"], q))

    # 1b. workloads beyond the four OLTP mixes (the break-it pass: sized 7-29x too low before):
    # oltp_insert with oltp_read_write at once, and select_random_ranges alone
    path = os.path.join(tmp, "insert-rw.json")
    o = observe(path, "--until-interrupted")
    a = sysbench("oltp_insert", "--time=3", "--threads=1", "--rate=300")
    b = sysbench("oltp_read_write", "--time=3", "--threads=1", "--rate=50")
    (tx_a, q_a), (tx_b, q_b) = sb_totals(a), sb_totals(b)
    rc, out, err = stop(o)
    r = record(path)
    check(near(r["summary"]["transactions"], tx_a + tx_b, 0.02),
          "insert + read_write: %.0f transactions observed, sysbench %d + %d"
          % (r["summary"]["transactions"], tx_a, tx_b))
    w = r["mix"]["weights"]
    truth = tx_a / (tx_a + tx_b)
    check(abs(w.get("oltp_insert", 0) - truth) <= 0.02 and
          abs(w.get("oltp_read_write", 0) - (1 - truth)) <= 0.02,
          "insert + read_write: weights %s, sysbench's %.3f / %.3f" % (w, truth, 1 - truth))
    path = os.path.join(tmp, "ranges.json")
    o = observe(path, "--until-interrupted")
    tx, q = sb_totals(sysbench("select_random_ranges", "--time=2", "--threads=1", "--rate=300"))
    rc, out, err = stop(o)
    r = record(path)
    check(near(r["summary"]["transactions"], tx, 0.02) and
          r["mix"]["weights"].get("select_random_ranges", 0) >= 0.98,
          "select_random_ranges: %.0f transactions observed, sysbench %d; mix %s"
          % (r["summary"]["transactions"], tx, r["mix"]["weights"]))

    # 1c. full scans are not point selects: they land in the residual, and rank --require
    # refuses to size sysbench curves for them
    path = os.path.join(tmp, "scans.json")
    o = observe(path, "--until-interrupted")
    client = shutil.which("mariadb") or shutil.which("mysql")
    scan_sql = "SELECT COUNT(*) FROM sbtest1 WHERE c LIKE '%zz%';" * 300
    subprocess.run([client, "--no-defaults", "-h127.0.0.1", "-P%d" % PORT, "-usbtest",
                    "-psbtest", "sbtest", "-e", scan_sql], stdout=subprocess.DEVNULL, check=True)
    rc, out, err = stop(o)
    r = record(path)
    sps = r["summary"]["statements_per_s"]
    check(r["mix"]["residual"] > 0.5 and sps.get("scan_select", 0) > 10 * sps.get("point_select", 0),
          "scans: residual %.2f, statements/s %s" % (r["mix"]["residual"], sps))
    rk = subprocess.run([BIN, "rank", "--require", path, "--points",
                         "data/published/aws-ec2-oltp-ro-c5-c5a-c6g.csv", "--catalog",
                         "data/catalogs/aws-us-east-1.json"], capture_output=True, text=True,
                        cwd=SRC)
    check(rk.returncode == 3 and "unexplained" in rk.stderr and not rk.stdout,
          "scans: rank --require refuses (exit %d): %s" % (rk.returncode, rk.stderr.strip()[-160:]))

    # 1d. an account with nothing but USAGE, no database: one login, a record
    root_sql("DROP USER IF EXISTS usageonly@'127.0.0.1'; "
             "CREATE USER usageonly@'127.0.0.1' IDENTIFIED BY 'u-pass'")
    path = os.path.join(tmp, "usage.json")
    env = dict(os.environ, MYSQL_PWD="u-pass")
    u = subprocess.run([BIN, "observe", "--no-defaults", "--mysql-host=127.0.0.1",
                        "--mysql-port=%d" % PORT, "--mysql-user=usageonly", "--interval=1s",
                        "--duration=2s", "-o", path], capture_output=True, text=True, env=env)
    check(u.returncode == 0 and record(path)["summary"]["intervals"] == 2,
          "USAGE only: exit %d (%s)" % (u.returncode, u.stderr.strip()[-200:]))

    # 1e. a record that cannot be written is said before anything is observed
    t0 = time.time()
    u = subprocess.run([BIN, "observe", "--no-defaults", "--mysql-host=127.0.0.1",
                        "--mysql-port=%d" % PORT, "--duration=60s", "-o",
                        os.path.join(tmp, "no-such-dir", "w.json")], capture_output=True,
                       text=True, env=dict(os.environ, MYSQL_PWD="sbtest"))
    check(u.returncode == 2 and "cannot write" in u.stderr and time.time() - t0 < 10,
          "an unwritable -o: exit %d at once (%s)" % (u.returncode, u.stderr.strip()))

    # 2. point_select and read_write at once: sysbench's proportion
    path = os.path.join(tmp, "mixed.json")
    o = observe(path, "--until-interrupted")
    a = sysbench("oltp_point_select", "--time=3", "--threads=1", "--rate=1500")
    b = sysbench("oltp_read_write", "--time=3", "--threads=1", "--rate=100")
    (tx_a, q_a), (tx_b, q_b) = sb_totals(a), sb_totals(b)
    rc, out, err = stop(o)
    r = record(path)
    s = r["summary"]
    check(near(s["transactions"], tx_a + tx_b, 0.02),
          "mixed: %.0f transactions observed, sysbench %d + %d" % (s["transactions"], tx_a, tx_b))
    check(near(s["queries"], q_a + q_b, 0.02),
          "mixed: %.0f queries observed, sysbench %d + %d" % (s["queries"], q_a, q_b))
    w = r["mix"]["weights"]
    truth = tx_a / (tx_a + tx_b)
    check(abs(w.get("oltp_point_select", 0) - truth) <= 0.02 and
          abs(w.get("oltp_read_write", 0) - (1 - truth)) <= 0.02,
          "mixed: weights %s, sysbench's proportion %.3f / %.3f" % (w, truth, 1 - truth))

    # 3. running sessions. (a) 4 connections each in SELECT SLEEP(6): 4 sessions running the
    # whole time, whatever the machine's load. (b) a saturating, server-bound sysbench load of 4
    # connections: how many of them are inside the server at a moment depends on how much CPU
    # the clients get on this machine, so the observer's mean is compared with the test's own
    # samples of Threads_running over the same window (as root, less its own statement)
    sleepers = [subprocess.Popen([shutil.which("mariadb") or shutil.which("mysql"), "--no-defaults",
                                  "-h127.0.0.1", "-P%d" % PORT, "-usbtest", "-psbtest", "-e",
                                  "SELECT SLEEP(6)"], stdout=subprocess.DEVNULL)
                for _ in range(4)]
    time.sleep(1)
    path = os.path.join(tmp, "sleepers.json")
    rc, out, err = finish(observe(path, "--duration=3s"))
    for p in sleepers:
        p.wait()
    sess = record(path)["summary"]["sessions"]
    check(abs(sess["mean"] - 4) <= 0.5 and sess["samples"] >= 20,
          "4 sessions in SELECT SLEEP: %.2f running on average over %d samples"
          % (sess["mean"], sess["samples"]))
    path = os.path.join(tmp, "saturated.json")
    sb = sysbench("oltp_read_only", "--time=7", "--threads=4", "--range_size=5000",
                  "--simple_ranges=0", "--order_ranges=0", "--distinct_ranges=0", "--sum_ranges=4")
    time.sleep(1.5)
    o = observe(path, "--duration=4s")
    mine = []
    t_end = time.time() + 4
    while time.time() < t_end:
        v = root_sql("SHOW GLOBAL STATUS LIKE 'Threads_running'")
        mine.append(int(v[0][1]) - 1)
        time.sleep(0.1)
    rc, out, err = finish(o)
    sb_totals(sb)
    sess = record(path)["summary"]["sessions"]
    ref = sum(mine) / len(mine)
    check(abs(sess["mean"] - ref) <= 1,
          "saturated: %.2f sessions running on average, %.2f by the test's own %d samples "
          "(4 connections)" % (sess["mean"], ref, len(mine)))

    # 4. observing changes nothing
    tables = root_sql("SELECT CONCAT('`', TABLE_SCHEMA, '`.`', TABLE_NAME, '`') FROM "
                      "information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA "
                      "NOT IN ('information_schema', 'performance_schema', 'sys')")
    names = ", ".join(t[0] for t in tables)
    counters = ("'Com_insert', 'Com_update', 'Com_delete', 'Com_replace', 'Com_insert_select', "
                "'Com_create_table', 'Com_create_db', 'Com_drop_table', 'Com_alter_table', "
                "'Com_set_option', 'Com_lock_tables', 'Com_flush', 'Com_truncate', "
                "'Com_create_index', 'Com_commit', 'Com_begin', 'Handler_write', "
                "'Handler_update', 'Handler_delete'")
    before_sum = root_sql("CHECKSUM TABLE " + names)
    before = root_sql("SHOW GLOBAL STATUS WHERE Variable_name IN (%s)" % counters)
    log = os.path.join(DIR, "general.log")
    root_sql("SET GLOBAL general_log_file = '%s'; SET GLOBAL general_log = ON" % log)
    path = os.path.join(tmp, "idle.json")
    rc, out, err = finish(observe(path, "--duration=3s"))
    root_sql("SET GLOBAL general_log = OFF")
    after = root_sql("SHOW GLOBAL STATUS WHERE Variable_name IN (%s)" % counters)
    after_sum = root_sql("CHECKSUM TABLE " + names)
    check(rc == 0, "idle: observe exits 0")
    check(before_sum == after_sum, "idle: CHECKSUM TABLE of %d tables unchanged" % len(tables))
    # the root client's own SET statements are Com_set_option: compare all but that, then it
    changed = [(b[0], b[1], a[1]) for b, a in zip(before, after) if b != a
               and b[0] != "Com_set_option"]
    check(not changed, "idle: write, DDL, lock and commit counters unchanged %s" % changed)
    with open(log) as f:
        lines = f.read().splitlines()
    ids = set()
    for line in lines:
        m = re.search(r"\s(\d+) Connect\s+sbtest@", line)
        if m:
            ids.add(m.group(1))
    allowed = [r"^SHOW GLOBAL STATUS$", r"^SHOW GLOBAL STATUS LIKE 'Threads_running'$",
               r"^SHOW GLOBAL VARIABLES WHERE Variable_name IN \(",
               r"^SELECT NAME, COUNT FROM information_schema\.INNODB_METRICS WHERE ",
               r"^SELECT TABLE_SCHEMA, SUM\(DATA_LENGTH \+ INDEX_LENGTH\), COUNT\(\*\) FROM "
               r"information_schema\.TABLES "]
    seen, bad = 0, []
    for line in lines:
        m = re.search(r"\s(\d+) (Query|Init DB|Execute|Prepare|Field List|Refresh|Shutdown)\s+(.*)$",
                      line)
        if m and m.group(1) in ids:
            seen += 1
            if m.group(2) != "Query" or not any(re.search(a, m.group(3)) for a in allowed):
                bad.append(m.group(2) + " " + m.group(3))
    check(ids and seen > 10, "idle: the general log has the observer's %d statements" % seen)
    check(not bad, "idle: only the documented statements were sent %s" % bad[:3])

    # 5. a restart mid-observation: left out, no negative or impossible rate
    path = os.path.join(tmp, "restart.json")
    o = observe(path, "--duration=14s")
    time.sleep(0.5)
    sb = sysbench("oltp_point_select", "--time=3", "--threads=1", "--rate=1000")
    sb_totals(sb)
    server("stop")
    server("start")
    rc, out, err = finish(o)
    check(rc == 0, "restart: observe exits 0 (%d: %s)" % (rc, err.strip()[-300:]))
    r = record(path)
    left = [iv for iv in r["intervals"] if "excluded" in iv]
    counted = [iv for iv in r["intervals"] if "excluded" not in iv]
    check(any("restarted" in iv["excluded"] for iv in left),
          "restart: the interval across the restart is left out %s"
          % [iv["excluded"] for iv in left])
    check(counted and all(0 <= iv["tps"] <= 1500 and 0 <= iv["qps"] <= 1600 for iv in counted),
          "restart: every counted rate within what a 1000 tps load gives %s"
          % [(round(iv["tps"]), round(iv["qps"])) for iv in counted])

    # 6. SIGINT keeps what was sampled (exit 130); --until-interrupted ends on it (exit 0)
    path = os.path.join(tmp, "sigint.json")
    o = observe(path, "--duration=60s")
    time.sleep(3.5)
    o.send_signal(signal.SIGINT)
    rc, out, err = finish(o)
    r = record(path)
    check(rc == 130 and r["ended"] == "interrupted" and not r["complete"] and
          r["summary"]["intervals"] >= 2,
          "SIGINT: exit %d, ended %s, %d intervals kept" % (rc, r["ended"],
                                                          r["summary"]["intervals"]))
    path = os.path.join(tmp, "until.json")
    o = observe(path, "--until-interrupted")
    time.sleep(2.5)
    o.send_signal(signal.SIGINT)
    rc, out, err = finish(o)
    r = record(path)
    check(rc == 0 and r["complete"] and r["summary"]["intervals"] >= 1,
          "--until-interrupted: SIGINT ends it, exit %d, complete %s" % (rc, r["complete"]))

    # 6b. SIGINT while waiting for a lost server, with --until-interrupted: the end asked for
    path = os.path.join(tmp, "until-lost.json")
    o = observe(path, "--until-interrupted", "--give-up=60s")
    time.sleep(2.5)
    server("stop")
    time.sleep(2)
    o.send_signal(signal.SIGINT)
    rc, out, err = finish(o)
    r = record(path)
    check(rc == 0 and r["complete"] and r["ended"] == "interrupted",
          "SIGINT while the server is away, --until-interrupted: exit %d, complete %s, ended %s"
          % (rc, r["complete"], r["ended"]))
    server("start")

    # 7. the server going away: exit 4, what was sampled is kept
    path = os.path.join(tmp, "gone.json")
    o = observe(path, "--duration=60s", "--give-up=2s")
    time.sleep(3.5)
    server("stop")
    rc, out, err = finish(o)
    r = record(path)
    check(rc == 4, "gone: exit %d (4: the server could not be reached)" % rc)
    check(r["ended"] == "server gone" and not r["complete"] and r["summary"]["intervals"] >= 2,
          "gone: ended '%s', %d intervals kept" % (r["ended"], r["summary"]["intervals"]))


if __name__ == "__main__":
    sys.exit(main())
