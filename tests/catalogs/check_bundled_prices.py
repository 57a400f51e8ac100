#!/usr/bin/env python3
"""The bundled catalogs' prices against their sources (run from the repository root):

- data/catalogs/aws-us-east-1.json is what scripts/make-aws-catalog.py writes from data/prices/;
- its prices equal the snapshot CSVs (read here independently of the script): on-demand from
  the newest snapshot listing the instance, reserved-1y from the Vantage export;
- every AWS instance of the other bundled catalogs that aws-us-east-1.json lists carries the
  same prices, and none of them is an estimate;
- every Alibaba and Huawei instance price, every exchange rate and every on-premises capital,
  energy and rack figure is marked estimate (with the note the loader requires).
"""
import csv
import glob
import json
import subprocess
import sys

failed = 0


def check(cond, msg):
    global failed
    if not cond:
        failed += 1
        print("FAIL: " + msg)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


r = subprocess.run([sys.executable, "scripts/make-aws-catalog.py", "--check"],
                   capture_output=True, text=True)
check(r.returncode == 0, "make-aws-catalog.py --check: " + r.stderr.strip())

od, res = {}, {}
for row in rows("data/prices/aws-ec2-instances-2021.csv"):
    od[row["instance"]] = float(row["on_demand_usd_per_hour"])
for row in rows("data/prices/aws_ec2_vantage_export_2023-10.csv"):
    od[row["instance"]] = float(row["ondemand_price"])
    res[row["instance"]] = float(row["linux_reserved_price_ui_default"])
for row in rows("data/prices/aws_ec2_us-east-1_ondemand_linux.csv"):
    od[row["instance"]] = float(row["price"])

aws = json.load(open("data/catalogs/aws-us-east-1.json"))
check(len(aws["instances"]) == len(od), "aws-us-east-1.json has %d instances, the snapshots %d"
      % (len(aws["instances"]), len(od)))
by_name = {}
for i in aws["instances"]:
    by_name[i["name"]] = i
    p = {x["pricing"]: x for x in i["prices"]}
    check(abs(p["on-demand"]["amount"] - od[i["name"]]) < 1e-9, i["name"] + " on-demand")
    check(not p["on-demand"].get("estimate"), i["name"] + " on-demand marked estimate")
    if i["name"] in res:
        check(abs(p["reserved-1y"]["amount"] - res[i["name"]]) < 1e-9, i["name"] + " reserved-1y")
    check(i["vcpu"] > 0, i["name"] + " vcpu")
ids = {c["id"] for c in aws["configs"]}
check(ids == set(od), "one configuration per instance, id = the instance name")

for path in sorted(glob.glob("data/catalogs/*.json")):
    if path.endswith("aws-us-east-1.json"):
        continue
    d = json.load(open(path))
    for code, rate in d.get("rates", {}).items():
        check(rate.get("estimate") is True, "%s: rate %s not marked estimate" % (path, code))
    for i in d.get("instances", []):
        if i["provider"] == "aws" and i.get("name") in by_name:
            want = {x["pricing"]: x["amount"] for x in by_name[i["name"]]["prices"]}
            have = {x["pricing"]: x["amount"] for x in i["prices"]}
            check(want == have, "%s: %s prices %s, aws-us-east-1.json %s" % (path, i["id"], have, want))
            check(not any(x.get("estimate") for x in i["prices"]), "%s: %s estimate" % (path, i["id"]))
        if i["provider"] in ("alibaba", "huawei"):
            for x in i["prices"]:
                check(x.get("estimate") is True, "%s: %s %s not marked estimate" % (path, i["id"], x["pricing"]))
    for s in d.get("servers", []):
        for key in ("capital", "energy_per_kwh", "rack_per_month"):
            if key in s:
                check(s[key].get("estimate") is True, "%s: %s %s not marked estimate" % (path, s["id"], key))

print("%s" % ("ok" if not failed else "%d failed" % failed))
sys.exit(1 if failed else 0)
