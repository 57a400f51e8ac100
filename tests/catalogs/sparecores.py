#!/usr/bin/env python3
"""sizeup catalog convert --from sparecores (issue 26.1): a database made here with the tables and
columns of the Spare Cores schema (SpareCores/sc-crawler src/sc_crawler/table_bases.py and
table_fields.py at 021afb03bb35; enums stored by name, as SQLAlchemy stores them), with rows whose
right conversion is known from the rows themselves:
  - ecs.g8i.xlarge: on-demand 0.35 in zone a and 0.33 in zone b of cn-hangzhou -> 0.33, "the
    lowest of 2 zones"; spot 0.08; a reserved row (no term in the schema) left out; 4 vCPUs,
    16,384 MiB = 16 GiB, 3.2 GHz, "Intel Xeon Platinum 8475B"; its newest observed_at is the
    catalog's as_of;
  - ecs.c8i.large: on-demand only; ecs.g8i.4xlarge: priced in another region only (not written);
    an inactive server (not written); a Windows price (not the OS asked);
  - storage cloud_essd PL1 at 0.1 USD per GB-month -> ESSD PL1's rule, 0.1 x 2^30 / 10^9 per
    GiB-month; cloud_efficiency (no rule known) -> a note, not a disk;
and a database lacking a column, a file that is not a database, an unknown region."""
import json
import os
import sqlite3
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
fails = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fails.append(what)


def make(path):
    db = sqlite3.connect(path)
    cols = {
        "vendor": "vendor_id TEXT, name TEXT, status TEXT, observed_at TEXT",
        "region": "vendor_id TEXT, region_id TEXT, name TEXT, api_reference TEXT, "
                  "display_name TEXT, country_id TEXT, status TEXT, observed_at TEXT",
        "server": "vendor_id TEXT, server_id TEXT, name TEXT, api_reference TEXT, "
                  "display_name TEXT, description TEXT, family TEXT, vcpus INTEGER, "
                  "cpu_allocation TEXT, cpu_speed REAL, cpu_manufacturer TEXT, cpu_family TEXT, "
                  "cpu_model TEXT, memory_amount INTEGER, storage_size INTEGER, status TEXT, "
                  "observed_at TEXT",
        "server_price": "vendor_id TEXT, region_id TEXT, zone_id TEXT, server_id TEXT, "
                        "operating_system TEXT, allocation TEXT, unit TEXT, price REAL, "
                        "price_upfront REAL, price_tiered TEXT, currency TEXT, status TEXT, "
                        "observed_at TEXT",
        "storage": "vendor_id TEXT, storage_id TEXT, name TEXT, description TEXT, "
                   "storage_type TEXT, max_iops INTEGER, max_throughput INTEGER, "
                   "min_size INTEGER, max_size INTEGER, status TEXT, observed_at TEXT",
        "storage_price": "vendor_id TEXT, region_id TEXT, storage_id TEXT, unit TEXT, "
                         "price REAL, price_upfront REAL, price_tiered TEXT, currency TEXT, "
                         "status TEXT, observed_at TEXT",
    }
    for t, c in cols.items():
        db.execute("CREATE TABLE %s (%s)" % (t, c))
    db.execute("INSERT INTO vendor VALUES ('alicloud', 'Alibaba Cloud', 'ACTIVE', '2025-06-01')")
    for r in ("cn-hangzhou", "eu-central-1"):
        db.execute("INSERT INTO region VALUES ('alicloud', ?, ?, ?, ?, 'CN', 'ACTIVE', "
                   "'2025-06-01')", (r, r, r, r))
    s = ("INSERT INTO server (vendor_id, server_id, name, api_reference, display_name, "
         "description, family, vcpus, cpu_speed, cpu_manufacturer, cpu_family, cpu_model, "
         "memory_amount, status, observed_at) VALUES "
         "('alicloud', ?, ?, ?, ?, 'desc', ?, ?, ?, ?, ?, ?, ?, ?, '2025-06-01 10:00:00')")
    db.execute(s, ("ecs.g8i.xlarge", "ecs.g8i.xlarge", "ecs.g8i.xlarge", "g8i.xlarge", "ecs.g8i",
                   4, 3.2, "Intel", "Xeon Platinum", "8475B", 16384, "ACTIVE"))
    db.execute(s, ("ecs.c8i.large", "ecs.c8i.large", "ecs.c8i.large", "c8i.large", "ecs.c8i",
                   2, 3.2, "Intel", "Xeon Platinum", "8475B", 4096, "ACTIVE"))
    db.execute(s, ("ecs.g8i.4xlarge", "ecs.g8i.4xlarge", "ecs.g8i.4xlarge", "g8i.4xlarge",
                   "ecs.g8i", 16, 3.2, "Intel", "Xeon Platinum", "8475B", 65536, "ACTIVE"))
    db.execute(s, ("ecs.old.large", "ecs.old.large", "ecs.old.large", "old.large", "ecs.old",
                   2, 2.5, "Intel", "Xeon", "E5", 4096, "INACTIVE"))
    p = ("INSERT INTO server_price (vendor_id, region_id, zone_id, server_id, operating_system, "
         "allocation, unit, price, currency, status, observed_at) VALUES "
         "('alicloud', ?, ?, ?, ?, ?, 'HOUR', ?, 'USD', 'ACTIVE', ?)")
    for row in (("cn-hangzhou", "cn-hangzhou-a", "ecs.g8i.xlarge", "Linux", "ONDEMAND", 0.35,
                 "2025-07-02 08:00:00"),
                ("cn-hangzhou", "cn-hangzhou-b", "ecs.g8i.xlarge", "Linux", "ONDEMAND", 0.33,
                 "2025-07-03 09:30:00"),
                ("cn-hangzhou", "cn-hangzhou-a", "ecs.g8i.xlarge", "Linux", "SPOT", 0.08,
                 "2025-07-01 00:00:00"),
                ("cn-hangzhou", "cn-hangzhou-a", "ecs.g8i.xlarge", "Linux", "RESERVED", 0.2,
                 "2025-07-01 00:00:00"),
                ("cn-hangzhou", "cn-hangzhou-a", "ecs.g8i.xlarge", "Windows", "ONDEMAND", 0.5,
                 "2025-07-01 00:00:00"),
                ("cn-hangzhou", "cn-hangzhou-a", "ecs.c8i.large", "Linux", "ONDEMAND", 0.09,
                 "2025-06-20 00:00:00"),
                ("cn-hangzhou", "cn-hangzhou-a", "ecs.old.large", "Linux", "ONDEMAND", 0.05,
                 "2025-06-20 00:00:00"),
                ("eu-central-1", "eu-central-1-a", "ecs.g8i.4xlarge", "Linux", "ONDEMAND", 1.4,
                 "2025-06-20 00:00:00")):
        db.execute(p, row)
    st = ("INSERT INTO storage (vendor_id, storage_id, name, storage_type, max_iops, min_size, "
          "max_size, status) VALUES ('alicloud', ?, ?, 'NETWORK', ?, ?, ?, 'ACTIVE')")
    db.execute(st, ("cloud_essd-PL1", "ESSD PL1", 50000, 20, 32768))
    db.execute(st, ("cloud_efficiency", "Ultra Disk", 5000, 20, 32768))
    sp = ("INSERT INTO storage_price (vendor_id, region_id, storage_id, unit, price, currency, "
          "status, observed_at) VALUES ('alicloud', 'cn-hangzhou', ?, 'GB_MONTH', ?, 'USD', "
          "'ACTIVE', '2025-07-01 00:00:00')")
    db.execute(sp, ("cloud_essd-PL1", 0.1))
    db.execute(sp, ("cloud_efficiency", 0.05))
    db.commit()
    db.close()


def convert(db, out, *extra):
    return subprocess.run([BIN, "catalog", "convert", "--from", "sparecores", db, "-o", out]
                          + list(extra), capture_output=True, text=True)


with tempfile.TemporaryDirectory() as d:
    db, out = os.path.join(d, "sc.db"), os.path.join(d, "ali.json")
    make(db)
    r = convert(db, out, "--vendor", "alicloud", "--region", "cn-hangzhou")
    check(r.returncode == 0, "convert exits 0 (%d: %s)" % (r.returncode, r.stderr.strip()))
    cat = json.load(open(out)) if os.path.exists(out) else {}
    inst = {i["name"]: i for i in cat.get("instances", [])}
    check(sorted(inst) == ["ecs.c8i.large", "ecs.g8i.xlarge"],
          "the region's active priced servers only (%s)" % sorted(inst))
    g = inst.get("ecs.g8i.xlarge", {})
    pr = {p["pricing"]: p for p in g.get("prices", [])}
    check(g.get("id") == "alibaba:cn-hangzhou:ecs.g8i.xlarge" and g.get("provider") == "alibaba",
          "id and provider (%s, %s)" % (g.get("id"), g.get("provider")))
    check(g.get("vcpu") == 4 and g.get("memory_gib") == 16 and g.get("clock_ghz") == 3.2 and
          g.get("processor") == "Intel Xeon Platinum 8475B" and g.get("family") == "ecs.g8i",
          "vCPUs, memory, clock, processor and family as the rows give them")
    check(sorted(pr) == ["on-demand", "spot"], "on-demand and spot, no reserved (%s)" % sorted(pr))
    od = pr.get("on-demand", {})
    check(od.get("amount") == 0.33 and od.get("unit") == "hour" and od.get("currency") == "USD"
          and od.get("as_of") == "2025-07-03" and "lowest of 2 zones" in od.get("note", "")
          and "CC BY-SA 4.0" in od.get("source", ""),
          "on-demand: the lower zone's 0.33, its date, the licence in its source (%s)" % od)
    check(pr.get("spot", {}).get("amount") == 0.08, "spot 0.08")
    check(cat.get("as_of") == "2025-07-03", "the catalog's as_of: the newest observation")
    disks = {x["id"]: x for x in cat.get("disks", [])}
    pl1 = disks.get("alibaba:cn-hangzhou:essd-pl1", {})
    check(abs(pl1.get("prices", {}).get("per_gib_month", {}).get("amount", 0) -
              0.1 * 2 ** 30 / 1e9) < 1e-12 and pl1.get("iops", {}).get("per_gib") == 50,
          "ESSD PL1: its rule, 0.1 per GB-month as %.6f per GiB-month" % (0.1 * 2 ** 30 / 1e9))
    check(len(disks) == 1 and any("cloud_efficiency" in n and "no performance rule" in n
                                  for n in cat.get("notes", [])),
          "a priced storage without a known rule: a note, not a disk")
    r = subprocess.run([BIN, "catalog", "check", out], capture_output=True, text=True)
    check(r.returncode == 0, "the converted catalog passes catalog check")
    r = subprocess.run([BIN, "catalog", "list", "--catalog", out], capture_output=True, text=True)
    check(r.returncode == 0 and "alibaba:cn-hangzhou:ecs.g8i.xlarge" in r.stdout,
          "catalog list reads it: a configuration per instance")
    r = subprocess.run([BIN, "catalog", "cost", "alibaba:cn-hangzhou:ecs.g8i.xlarge", "--catalog",
                        out], capture_output=True, text=True)
    check(r.returncode == 0 and "0.33" in r.stdout,
          "catalog cost prices the instance's configuration at its 0.33/h (%s)" % r.stderr.strip())
    # the licence carried into the catalog and printed by catalog cost (issue 26.2)
    check(cat.get("licence") == "CC BY-SA 4.0", "the catalog's licence (%s)" % cat.get("licence"))
    check("\nlicence of %s: CC BY-SA 4.0\n" % out in r.stdout,
          "catalog cost prints the catalog's licence:\n%s" % r.stdout)

    # hostile rows (a break-it pass found each): a NULL price in one zone beside a good one; a
    # monthly price cheaper per hour than an hourly one; another currency; an undated price; a
    # duplicate api_reference; a storage price of NULL -> the good rows convert, the others are
    # left out, nothing is made up
    odd = os.path.join(d, "odd.db")
    make(odd)
    c = sqlite3.connect(odd)
    ins = ("INSERT INTO server_price (vendor_id, region_id, zone_id, server_id, operating_system, "
           "allocation, unit, price, currency, status, observed_at) VALUES "
           "('alicloud', 'cn-hangzhou', ?, ?, 'Linux', 'ONDEMAND', ?, ?, ?, 'ACTIVE', ?)")
    c.execute(ins, ("cn-hangzhou-c", "ecs.g8i.xlarge", "HOUR", None, "USD", "2025-07-04"))
    c.execute(ins, ("cn-hangzhou-d", "ecs.c8i.large", "MONTH", 50.0, "USD", "2025-07-04"))
    c.execute(ins, ("cn-hangzhou-e", "ecs.c8i.large", "HOUR", 0.01, "CNY", "2025-07-04"))
    c.execute(ins, ("cn-hangzhou-f", "ecs.c8i.large", "HOUR", 0.02, "USD", None))
    c.execute("INSERT INTO server (vendor_id, server_id, name, api_reference, vcpus, memory_amount,"
              " status) VALUES ('alicloud', 'dup', 'dup', 'ecs.g8i.xlarge', 4, 16384, 'ACTIVE')")
    c.execute(ins, ("cn-hangzhou-a", "dup", "HOUR", 0.2, "USD", "2025-07-04"))
    c.execute("UPDATE storage_price SET price = NULL WHERE storage_id = 'cloud_essd-PL1'")
    c.commit()
    c.close()
    r = convert(odd, out, "--vendor", "alicloud", "--region", "cn-hangzhou")
    cat = json.load(open(out)) if r.returncode == 0 else {}
    inst = {i["name"]: i for i in cat.get("instances", [])}
    c8 = {p["pricing"]: p for p in inst.get("ecs.c8i.large", {}).get("prices", [])}
    check(r.returncode == 0 and len(inst) == 2,
          "hostile rows: converted, two instances, the duplicate api_reference once (%d, %s)"
          % (r.returncode, r.stderr.strip()[:200]))
    check(c8.get("on-demand", {}).get("amount") == 50.0 and c8["on-demand"].get("unit") == "month",
          "the cheaper per hour wins across units: 50/month (0.068/h) over 0.09/h (%s)" % c8)
    check(cat.get("currency") == "USD" and all(p["currency"] == "USD" for i in inst.values()
                                               for p in i["prices"]),
          "another currency's row left out, the catalog in one currency")
    check(not cat.get("disks") and any("cloud_essd-PL1" in n and "no price" in n
                                       for n in cat.get("notes", [])),
          "a storage price of NULL: a note, no free disk")
    r = subprocess.run([BIN, "catalog", "check", out], capture_output=True, text=True)
    check(r.returncode == 0, "and the result passes catalog check")

    r = convert(db, out, "--vendor", "alicloud", "--region", "mars-1")
    check(r.returncode == 3 and "vendor 'alicloud' has no region 'mars-1'" in r.stderr and
          "cn-hangzhou, eu-central-1" in r.stderr, "an unknown region: exit 3, the regions named")
    r = convert(db, out, "--region", "cn-hangzhou")
    check(r.returncode == 2 and "needs --vendor" in r.stderr, "no --vendor: exit 2")
    bad = os.path.join(d, "bad.db")
    make(bad)
    c = sqlite3.connect(bad)
    c.execute("ALTER TABLE server_price DROP COLUMN allocation")  # SQLite 3.35+
    c.commit()
    c.close()
    r = convert(bad, out, "--vendor", "alicloud", "--region", "cn-hangzhou")
    check(r.returncode == 3 and "table server_price has no column 'allocation'" in r.stderr,
          "a column missing: exit 3 naming it (%s)" % r.stderr.strip())
    notdb = os.path.join(d, "not.db")
    open(notdb, "w").write("this is not a database\n" * 100)
    r = convert(notdb, out, "--vendor", "alicloud", "--region", "cn-hangzhou")
    check(r.returncode == 3 and "not an SQLite database" in r.stderr, "a file that is no database")

print("%d failure(s)" % len(fails))
sys.exit(1 if fails else 0)
