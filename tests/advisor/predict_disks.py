#!/usr/bin/env python3
"""sizeup predict --disk (advisor/rank/diskpred.h, docs/predict.md "Other disks") on the published
IDC-versus-cloud table, checked against what the test computes itself from the table:
  - the demands: CPU = cpu_peak_pct / 100 x 4 vCPUs / tps and I/Os = iops_avg / tps at
    idc-nvme's best level (16 threads);
  - every predicted tps equals this file's own mean-value analysis (exact MVA, Seidmann's
    multi-server split; Lazowska et al. 1984 ch. 6), written independently of models/mva.c;
  - against the measured cloud disks (profiles: the table's largest iops_max, the latency from
    each disk's 1-thread level): median |error| <= 15 % from 2 to 128 threads, the measured tps
    inside the stated interval at every level, the disk named as binding at 128 threads;
  - a catalog disk type at a size takes its IOPS from the vendor rule (Huawei EVS Extreme SSD:
    1800 + 50 x 500 = 26800 IOPS at 500 GiB);
  - bad input is refused with what to do and nothing predicted.
Run: predict_disks.py SIZEUP (from the project root)."""
import csv, json, statistics, subprocess, sys

sizeup = sys.argv[1]
table = "data/published/rds-idc-vs-cloud-4c16g.csv"
rows = [r for r in csv.DictReader(l for l in open(table) if not l.startswith("#"))]
by = {}
for r in rows:
    by.setdefault(r["target"], {})[int(r["threads"])] = r
fails = 0
def check(what, cond):
    global fails
    print(("ok   " if cond else "FAIL ") + what)
    fails += not cond

def mva(stations, n_max):  # [(demand_s, servers)]; servers 0 = delay, >= 1 (not whole: Seidmann)
    q = [0.0] * len(stations)
    xs = []
    for n in range(1, n_max + 1):
        rq = [(d / c) * (1 + q[i]) if c else 0.0 for i, (d, c) in enumerate(stations)]
        dd = [d if c == 0 else d * (c - 1) / c for d, c in stations]
        x = n / (sum(rq) + sum(dd))
        xs.append(x)
        q = [x * v for v in rq]
    return xs

base = by["idc-nvme"][16]
tps16 = float(base["tps"])
cpu = float(base["cpu_peak_pct"]) / 100 * 4 / tps16
ios = float(base["iops_avg"]) / tps16
s_nvme = float("%.6f" % (1e3 * (1 / float(by["idc-nvme"][1]["tps"]) - cpu) / ios)) / 1e3
levels = [1, 2, 4, 16, 32, 64, 128]
disks = {}
for t in ("cloud-local-ssd", "cloud-essd", "cloud-ssd"):
    lim = max(float(r["iops_max"]) for r in by[t].values())
    s = (1 / float(by[t][1]["tps"]) - cpu) / ios
    disks[t] = (lim, float("%.6f" % (1e3 * s)) / 1e3)  # as the command line gives it
args = [sizeup, "predict", "--points", table, "--from", "idc-nvme", "--probed-disk",
        "nvme=82500@%.6fms" % (1e3 * s_nvme), "--threads", ",".join(map(str, levels))]
for t, (lim, s) in disks.items():
    args += ["--disk", "%s=%.0f@%.6fms" % (t, lim, 1e3 * s)]
r = subprocess.run(args + ["--json"], capture_output=True, text=True)
check(f"predict --disk exit 0 ({r.returncode}: {r.stderr.strip()[:300]})", r.returncode == 0)
pts = [json.loads(l) for l in r.stdout.splitlines() if l.strip()]
check(f"{len(pts)} records = 3 disks x 7 levels", len(pts) == 21)
errs = []
for p in pts:
    t, n = p["target"], p["threads"]
    lim, s = disks[t]
    z = p["extra"]["prediction"]["delay_ms"] / 1e3
    check(f"{t} {n}: the delay {1e3 * z:.4f} ms is ~0 (idc-nvme's 1 thread: CPU + I/Os)",
          z < 1e-4)
    cm = p["extra"]["prediction"]["cpu_ms"] / 1e3
    check(f"{t} {n}: the CPU time modelled {1e3 * cm:.4f} ms >= the table's {1e3 * cpu:.4f} ms",
          cm >= cpu - 1e-12)
    # a raised CPU time is the one with which idc-nvme's own disk gives its measured 16 threads
    got16 = mva([(cm, 4), (ios * s_nvme, 82500 * s_nvme), (z, 0)], 16)[15]
    check(f"{t} {n}: on nvme the model gives {got16:.1f} <= 1.02 x the measured {tps16}",
          got16 <= 1.02 * tps16 and (cm == cpu or abs(got16 / tps16 - 1) < 1e-3))
    want = mva([(cm, 4), (ios * s, lim * s), (z, 0)], 128)[n - 1]
    check(f"{t} {n}: never above the disk's ceiling {lim / ios:.0f}", p["tps"] <= lim / ios + 1e-6)
    check(f"{t} {n}: {p['tps']:.1f} = the test's MVA {want:.1f}", abs(p["tps"] / want - 1) < 1e-6)
    check(f"{t} {n}: basis predicted from idc-nvme",
          p.get("basis") == "predicted" and p.get("predicted_from") == ["idc-nvme"])
    meas = float(by[t][n]["tps"])
    check(f"{t} {n}: measured {meas} inside [{p['tps'] - p['ci95_tps']:.0f}, "
          f"{p['tps'] + p['ci95_tps']:.0f}]", abs(meas - p["tps"]) <= p["ci95_tps"])
    if n > 1:
        errs.append(abs(p["tps"] / meas - 1))
    if n == 128:
        check(f"{t} 128: the disk binds", p["extra"]["prediction"]["binds"] == "disk")
med = statistics.median(errs)
check(f"median |error| {100 * med:.1f} % <= 15 % over {len(errs)} levels", med <= 0.15)

# the text output names each disk's ceiling: IOPS / I/Os per transaction
r = subprocess.run(args, capture_output=True, text=True)
lim = disks["cloud-essd"][0]
check("text: essd's ceiling", f"disk-bound: {lim:.0f} IOPS / {ios:.1f} I/Os per transaction = "
      f"{lim / ios:.0f} tps" in r.stdout)

# a catalog disk type at a size: IOPS from the type's rule
r = subprocess.run([sizeup, "predict", "--points", table, "--from", "idc-nvme", "--probed-disk",
                    "nvme=82500@0.076ms", "--disk", "pl=huawei-evs-essd:500@0.5ms", "--threads",
                    "128", "--json"], capture_output=True, text=True)
p = json.loads(r.stdout.splitlines()[0]) if r.returncode == 0 and r.stdout else {}
check("huawei-evs-essd at 500 GiB: 26800 IOPS from the rule",
      p.get("extra", {}).get("prediction", {}).get("disk", {}).get("iops") == 1800 + 50 * 500)

def refused(extra, code, text):
    r = subprocess.run([sizeup, "predict", "--points", table] + extra, capture_output=True,
                       text=True)
    check(f"refused ({code}, '{text}'): {' '.join(extra)[:80]}",
          r.returncode == code and text in r.stderr and r.stdout == "")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "essd=22653"],
        2, "has no latency")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk",
         "x=huawei-evs-essd:5@0.5ms"], 2, "x=huawei-evs-essd:5@0.5ms")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk",
         "x=no-such-disk:500@0.5ms"], 2, "no disk type 'no-such-disk'")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "x=-5@1ms"], 2,
        "is not a number")
refused(["--from", "idc-nvme", "--disk", "x=1000@1ms"], 2, "--probed-disk")
refused(["--probed-disk", "nvme=82500@0.076ms", "--disk", "x=1000@1ms"], 2, "--from")
refused(["--from", "nobody", "--vcpus", "4", "--probed-disk", "nvme=82500@0.076ms", "--disk",
         "x=1000@1ms"], 1, "no measured point of target 'nobody' counts (the points have: "
        "idc-nvme / oltp_legacy")
# figures that contradict the points: the utilisation law at idc-nvme's 16 threads
# (a table's CPU comes from cpu_peak_pct x vCPUs, so only a probe's own CPU time can contradict
# the vCPUs: a point of 3,000 tps at 1 ms of server CPU a transaction kept 3 CPUs busy)
import tempfile, os
fd, probe = tempfile.mkstemp(suffix=".jsonl")
with os.fdopen(fd, "w") as f:
    for n, x in ((1, 1000.0), (4, 3000.0)):
        f.write(json.dumps({"schema": "sizeup.point/1", "target": "p", "workload": "w",
                            "threads": n, "tps": x, "server": {"ios_per_tx": 1.0,
                            "cpu_s_per_tx": 0.001}, "source": {"kind": "probe"}}) + "\n")
r = subprocess.run([sizeup, "predict", "--points", probe, "--from", "p", "--vcpus", "2",
                    "--probed-disk", "d=100000@0.1ms", "--disk", "x=1000@1ms"],
                   capture_output=True, text=True)
check(f"3 CPUs busy on 2 vCPUs refused ({r.returncode}: {r.stderr.strip()[:120]})",
      r.returncode == 2 and "3.00 CPUs busy, more than the 2 vCPUs given" in r.stderr
      and r.stdout == "")
r = subprocess.run([sizeup, "predict", "--points", probe, "--from", "p", "--vcpus", "4",
                    "--probed-disk", "d=100000@0.1ms", "--disk", "x=1000@1ms"],
                   capture_output=True, text=True)
check(f"on 4 vCPUs it is modelled ({r.returncode})", r.returncode == 0)
os.unlink(probe)
refused(["--from", "idc-nvme", "--probed-disk", "nvme=10000@0.076ms", "--disk", "x=1000@1ms"],
        2, "more than the 10000 of the disk it was measured on (nvme)")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk",
         "idc-nvme=1000@1ms"], 2, "named like the measured target")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "x=1000@1ms",
         "--disk", "x=2000@1ms"], 2, "--disk x given twice")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "x=1000@1"],
        2, "is not a latency with its unit")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "x=@/dev/zero"],
        3, "not a regular file")
refused(["--from", "idc-nvme", "--probed-disk", "nvme=82500@0.076ms", "--disk", "x=1000@1ms",
         "--threads", "200000"], 2, "more than --disk models")
# a curve with no I/O figures (the seekdb table has no iops columns)
r = subprocess.run([sizeup, "predict", "--points", "data/published/seekdb-4c8g-1c2g.csv",
                    "--from", "seekdb-4c8g", "--workload", "oltp_read_write", "--vcpus", "4",
                    "--probed-disk", "n=1000@1ms", "--disk", "x=1000@1ms"],
                   capture_output=True, text=True)
check(f"no server block: exit 1 and what to do ({r.stderr.strip()[:160]})",
      r.returncode == 1 and "no I/Os per transaction" in r.stderr and r.stdout == "")
sys.exit(1 if fails else 0)
