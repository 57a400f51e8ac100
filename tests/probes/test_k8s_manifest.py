#!/usr/bin/env python3
"""test_k8s_manifest.py - deploy/kubernetes/probe-indexed-job.yaml is valid YAML, an Indexed Job
as Kubernetes' batch/v1 API defines it (completionMode Indexed, completions = parallelism, pods
that are not restarted), whose pods give sizeup a count equal to the completions
(SIZEUP_CLIENT_COUNT, launcher.h), take their index from the Job controller's annotation, and
whose arguments are a command line `sizeup probe` accepts: run with the index and count of each
pod, $(VAR) expanded as Kubernetes does, against a closed port, it gets past option parsing
(exit 4: the server cannot be reached, never 2: bad command line) and names its share."""
import os
import re
import subprocess
import sys

import yaml

SRC = os.environ.get("SIZEUP_SOURCE_DIR", ".")
BIN = os.environ["SIZEUP_BIN"]
failed = passed = 0


def check(what, cond):
    global failed, passed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL: " + what, file=sys.stderr)


docs = list(yaml.safe_load_all(open(os.path.join(SRC, "deploy/kubernetes/probe-indexed-job.yaml"))))
jobs = [d for d in docs if d and d.get("kind") == "Job"]
check("one Job", len(jobs) == 1)
job = jobs[0]
spec = job["spec"]
check("apiVersion batch/v1", job["apiVersion"] == "batch/v1")
check("completionMode Indexed", spec["completionMode"] == "Indexed")
k = spec["completions"]
check("completions = parallelism (every client at once)", spec["parallelism"] == k and k >= 2)
check("backoffLimit 0", spec["backoffLimit"] == 0)
pod = spec["template"]["spec"]
check("restartPolicy Never", pod["restartPolicy"] == "Never")
check("one container", len(pod["containers"]) == 1)
c = pod["containers"][0]
env = {e["name"]: e for e in c["env"]}
check("SIZEUP_CLIENT_COUNT = completions", env["SIZEUP_CLIENT_COUNT"]["value"] == str(k))
check("JOB_COMPLETION_INDEX from the Job controller's annotation",
      env["JOB_COMPLETION_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"] ==
      "metadata.annotations['batch.kubernetes.io/job-completion-index']")
check("the password from a secret, not the command line",
      "secretKeyRef" in env["MYSQL_PWD"]["valueFrom"] and
      not any("password" in a for a in c["args"]))
mounts = {m["name"]: m["mountPath"] for m in c["volumeMounts"]}
vols = {v["name"]: v for v in pod["volumes"]}
check("the results volume is mounted", set(mounts) <= set(vols))
pvcs = [d for d in docs if d and d.get("kind") == "PersistentVolumeClaim"]
check("the results claim is ReadWriteMany and is the one mounted",
      len(pvcs) == 1 and pvcs[0]["spec"]["accessModes"] == ["ReadWriteMany"] and
      vols["results"]["persistentVolumeClaim"]["claimName"] == pvcs[0]["metadata"]["name"])
args = c["args"]
check("command sizeup probe ... run", c["command"] == ["sizeup"] and args[0] == "probe" and
      args[-1] == "run")
threads = int(args[args.index("--threads") + 1])
check("the level can be split over the clients", threads >= k)
out = args[args.index("--out") + 1]
check("one part file per index", "$(JOB_COMPLETION_INDEX)" in out and
      out.startswith(mounts["results"]))

for index in range(k):
    values = {"JOB_COMPLETION_INDEX": str(index), "SIZEUP_CLIENT_COUNT": str(k),
              "START_AT": env["START_AT"]["value"]}
    argv = [re.sub(r"\$\((\w+)\)", lambda m: values[m.group(1)], a) for a in args]
    # this test's own server, output and limits: a closed port, a scratch file, no waiting
    i = argv.index("--mysql-host")
    argv[i + 1:i + 4] = ["127.0.0.1", "--mysql-port", "1"]
    argv[argv.index("--out") + 1] = "/tmp/sizeup-k8s-test-%d-%d.jsonl" % (os.getpid(), index)
    argv = argv[:-1] + ["--give-up", "0", "--remeasure", "0", "run"]
    e = dict(os.environ, **{n: values[n] for n in ("JOB_COMPLETION_INDEX", "SIZEUP_CLIENT_COUNT")},
             MYSQL_PWD="x")
    for v in ("OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "SLURM_PROCID", "SLURM_NTASKS"):
        e.pop(v, None)
    r = subprocess.run([BIN] + argv, env=e, capture_output=True, text=True, timeout=60)
    check("pod %d: the arguments parse (exit %d: %s)" % (index, r.returncode, r.stderr.strip()),
          r.returncode == 4)
    check("pod %d: client %d of %d" % (index, index + 1, k),
          "client %d of %d: a Kubernetes Indexed Job (JOB_COMPLETION_INDEX=%d, "
          "SIZEUP_CLIENT_COUNT=%d)" % (index + 1, k, index, k) in r.stderr)
    try:
        os.unlink(argv[argv.index("--out") + 1])
    except FileNotFoundError:
        pass

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
