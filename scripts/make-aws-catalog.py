#!/usr/bin/env python3
"""Generate data/catalogs/aws-us-east-1.json from the dated AWS price snapshots in data/prices/.

    scripts/make-aws-catalog.py [--check]     (run from the repository root)

Inputs (dated copies of public tables, so this runs from a clean clone; data/prices/README.md
names their origin):

  data/prices/aws_ec2_us-east-1_ondemand_linux.csv  SpareCores sc-data, us-east-1 Linux
                                                    on-demand, observed 2024-02-21
  data/prices/aws_ec2_vantage_export_2023-10.csv    Vantage (instances.vantage.sh) export committed
                                                    to Boavizta/boaviztapi 2023-10-10: on-demand
                                                    and the reserved rate of the site's default
                                                    term (yrTerm1Standard.noUpfront)
  data/prices/aws-ec2-instances-2021.csv            Percona-Lab-results 2021_10_arm_cpu_comparison:
                                                    family, processor, clock and on-demand price
                                                    of the instances of the published AWS table

Every instance of the three files becomes one instance (id "aws:us-east-1:NAME") with its
on-demand price from the newest snapshot that lists it (and, where the Vantage export lists
it, its 1-year standard no-upfront reserved rate), its family, processor and clock where a file
gives them, and one instance-only configuration whose id is the instance name ("c5.large"), so
points whose target is an instance name join it directly.

The snapshots must agree where they overlap (vCPU, memory, on-demand price): a disagreement
stops the script with the instance named, rather than picking one silently.

--check: do not write; exit 1 when the file on disk differs from what would be written.
"""

import csv
import json
import sys

PRICES = "data/prices"
OUT = "data/catalogs/aws-us-east-1.json"
AS_OF = "2026-12-01"  # the date this catalog was assembled from the snapshots

SPARECORES = {
    "file": PRICES + "/aws_ec2_us-east-1_ondemand_linux.csv",
    "as_of": "2024-02-21",
}
VANTAGE = {"file": PRICES + "/aws_ec2_vantage_export_2023-10.csv", "as_of": "2023-10-10"}
PERCONA = {"file": PRICES + "/aws-ec2-instances-2021.csv", "as_of": "2021-10-18"}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(line for line in f if not line.startswith("#")))


def fail(msg):
    sys.stderr.write("make-aws-catalog: " + msg + "\n")
    sys.exit(1)


def same(a, b, tol):
    return abs(a - b) <= tol


def size_order(name):
    """Sort key: family, then size (vCPU filled in later), then name."""
    return name.split(".")[0]


def main():
    check = "--check" in sys.argv[1:]
    inst = {}  # name -> dict of facts and prices

    def get(name):
        return inst.setdefault(name, {"name": name, "prices": {}})

    for r in rows(SPARECORES["file"]):
        if r["region"] != "us-east-1" or r["os"] != "Linux" or r["pricing"] != "ONDEMAND":
            fail("%s: unexpected row %r" % (SPARECORES["file"], r))
        if r["currency"] != "USD" or r["unit"] != "HOUR":
            fail("%s: %s: price not in USD per hour" % (SPARECORES["file"], r["instance"]))
        i = get(r["instance"])
        i["vcpu"] = int(r["vcpu"])
        i["memory_gib"] = int(r["memory_mib"]) / 1024.0
        i["prices"]["on-demand"] = (
            float(r["price"]),
            "Spare Cores %s %s @%s (table server_price, observed %s), us-east-1 Linux on-demand"
            % (r["source_repo"], r["source_path"].split(" ")[0], r["source_commit"][:12],
               r["observed_at"][:19]),
            SPARECORES["as_of"],
        )

    for r in rows(VANTAGE["file"]):
        if r["currency"] != "USD" or r["unit"] != "hour" or r["os"] != "Linux":
            fail("%s: %s: not a Linux price in USD per hour" % (VANTAGE["file"], r["instance"]))
        i = get(r["instance"])
        vcpu = int(r["vcpu"])
        mem = float(r["memory"].replace(" GiB", ""))
        od = float(r["ondemand_price"])
        if "vcpu" in i and (i["vcpu"] != vcpu or not same(i["memory_gib"], mem, 1e-9)):
            fail("%s: %s: vCPU/memory %d/%g differ from Spare Cores' %d/%g"
                 % (VANTAGE["file"], r["instance"], vcpu, mem, i["vcpu"], i["memory_gib"]))
        if "on-demand" in i["prices"] and not same(i["prices"]["on-demand"][0], od, 5e-5):
            fail("%s: %s: on-demand %g differs from Spare Cores' %g"
                 % (VANTAGE["file"], r["instance"], od, i["prices"]["on-demand"][0]))
        src = ("Vantage instances.vantage.sh export (%s %s @%s, committed 2023-10-10), us-east-1 Linux"
               % (r["source_repo"], r["source_path"].split(" ")[0], r["source_commit"][:12]))
        i.setdefault("vcpu", vcpu)
        i.setdefault("memory_gib", mem)
        if "on-demand" in i["prices"]:
            i["od_agree"] = i.get("od_agree", []) + ["the Vantage export of 2023-10-10"]
        else:
            i["prices"]["on-demand"] = (od, src + " on-demand", VANTAGE["as_of"])
        i["prices"]["reserved-1y"] = (
            float(r["linux_reserved_price_ui_default"]),
            src + ", column linux_reserved_price_ui_default",
            VANTAGE["as_of"],
        )

    for r in rows(PERCONA["file"]):
        i = get(r["instance"])
        vcpu = int(r["vcpu"])
        mem = float(r["memory_gib"])
        od = float(r["on_demand_usd_per_hour"])
        if "vcpu" in i and (i["vcpu"] != vcpu or not same(i["memory_gib"], mem, 1e-9)):
            fail("%s: %s: vCPU/memory %d/%g differ from the newer snapshots' %d/%g"
                 % (PERCONA["file"], r["instance"], vcpu, mem, i["vcpu"], i["memory_gib"]))
        if "on-demand" in i["prices"] and not same(i["prices"]["on-demand"][0], od, 5e-5):
            fail("%s: %s: on-demand %g differs from the newer snapshots' %g"
                 % (PERCONA["file"], r["instance"], od, i["prices"]["on-demand"][0]))
        i.setdefault("vcpu", vcpu)
        i.setdefault("memory_gib", mem)
        i["family"] = r["family"]
        i["processor"] = r["processor"]
        if r["clock_ghz"]:
            i["clock_ghz"] = float(r["clock_ghz"])
        i["facts"] = "family, processor and clock: Percona-Lab-results (aws-ec2-instances-2021.csv)"
        if "on-demand" in i["prices"]:
            i["od_agree"] = i.get("od_agree", []) + ["Percona's 2021 table"]
        else:
            i["prices"]["on-demand"] = (
                od,
                "Percona-Lab-results/2021_10_arm_cpu_comparison_m6 test_scripts/analysis/"
                "oltp_test_result.csv @a6decfe1a57b (price_usd / linux_on_demand_cost columns), "
                "via data/prices/aws-ec2-instances-2021.csv",
                PERCONA["as_of"],
            )
            i["od_note"] = (
                "the file does not name the region; where it overlaps the us-east-1 snapshots "
                "(19 instances) its prices equal theirs; as_of is the date of the runs"
            )

    instances, configs = [], []
    for name in sorted(inst, key=lambda n: (size_order(n), inst[n]["vcpu"], n)):
        i = inst[name]
        fam = i.get("family", name.split(".")[0])
        o = {
            "id": "aws:us-east-1:" + name,
            "provider": "aws",
            "region": "us-east-1",
            "name": name,
            "family": fam,
        }
        if "processor" in i:
            o["processor"] = i["processor"]
        if "clock_ghz" in i:
            o["clock_ghz"] = i["clock_ghz"]
        o["vcpu"] = i["vcpu"]
        o["memory_gib"] = i["memory_gib"]
        if "facts" in i:
            o["description"] = i["facts"]
        prices = []
        for pricing in ("on-demand", "reserved-1y"):
            if pricing not in i["prices"]:
                continue
            amount, src, as_of = i["prices"][pricing]
            p = {"pricing": pricing, "unit": "hour", "amount": amount, "currency": "USD",
                 "source": src, "as_of": as_of}
            notes = []
            if pricing == "on-demand" and i.get("od_agree"):
                notes.append("the same figure in " + " and ".join(i["od_agree"]))
            if pricing == "on-demand" and i.get("od_note"):
                notes.append(i["od_note"])
            if pricing == "reserved-1y":
                notes.append("1-year Standard, no upfront: the reserved term instances.vantage.sh "
                             "shows by default (yrTerm1Standard.noUpfront), effective hourly rate")
            if notes:
                p["note"] = "; ".join(notes)
            prices.append(p)
        o["prices"] = prices
        instances.append(o)
        configs.append({"id": name, "instance": o["id"],
                        "description": "%s alone (%d vCPU, %g GiB), no storage priced"
                        % (name, i["vcpu"], i["memory_gib"])})

    doc = {
        "schema": "sizeup.catalog/1",
        "name": "aws-us-east-1",
        "description": (
            "Every EC2 instance of the dated price snapshots in data/prices/ (Spare Cores "
            "2024-02-21, Vantage export 2023-10-10, Percona 2021) with its real us-east-1 Linux "
            "on-demand price (and the 1-year no-upfront reserved rate where the Vantage export "
            "gives it), family, processor and clock where known, and one instance-only "
            "configuration per instance whose id is the instance name. Generated by "
            "scripts/make-aws-catalog.py; do not edit by hand."),
        "currency": "USD",
        "as_of": AS_OF,
        "notes": [
            "as_of of a price is the date of its snapshot; the catalog's as_of is when it was "
            "assembled.",
            "Instance ids are aws:us-east-1:NAME so that this catalog loads together with "
            "published.json and batch.json; configuration ids are the instance names.",
        ],
        "instances": instances,
        "configs": configs,
    }
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    if check:
        try:
            with open(OUT) as f:
                old = f.read()
        except OSError:
            old = None
        if old != text:
            fail("%s is not what scripts/make-aws-catalog.py writes; run it" % OUT)
        print("%s: up to date (%d instances)" % (OUT, len(instances)))
        return
    with open(OUT + ".tmp", "w") as f:
        f.write(text)
    import os
    os.replace(OUT + ".tmp", OUT)
    print("%s: %d instances, %d configurations" % (OUT, len(instances), len(configs)))


if __name__ == "__main__":
    main()
