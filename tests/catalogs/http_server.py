#!/usr/bin/env python3
"""Local HTTP server for the catalog fetch tests (tests/catalogs/test_fetch.c starts and stops it).

Listens on 127.0.0.1 on an ephemeral port, prints "PORT <n>" on stdout, and serves until it
gets SIGTERM, its stdin closes, or it has been idle for --idle-exit seconds.  Routes:

  /pages/1..3            Azure Retail Prices pages joined by NextPageLink (3 + 3 + 2 items)
  /skip                  Azure pages without NextPageLink: 100, 100, 37 items by $skip
  /ratelimit/<tag>       429 with Retry-After: 1 on the first request, then a JSON body
  /flaky/<tag>           500 on the first two requests, then a JSON body
  /truncated             announces 1000 bytes, sends 100, closes
  /notjson               200 with an HTML body
  /etag/<tag>            ETag "v1"; 304 when If-None-Match is "v1"
  /lastmod/<tag>         Last-Modified; 304 when If-Modified-Since matches
  /redirect              302 to /pages/3
  /redirect-file         302 to file:///etc/passwd (must be refused)
  /slow                  waits 3 s before answering
  /gzip                  gzip-encoded JSON when the client accepts gzip
  /big                   a 2 MiB JSON body
  /drip                  a 256 KiB JSON body sent in 16 KiB pieces over about 3 s
  /late/<tag>            404 on the first two requests, then a JSON body
  /file/<name>           a file from tests/catalogs/fixtures or data/catalogs
  /count/<path>          how many requests <path> has had, and the last conditional headers
"""
import gzip
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

ROOT = os.path.dirname(os.path.abspath(__file__))
FILES = [os.path.join(ROOT, "fixtures"), os.path.join(ROOT, "..", "..", "data", "catalogs")]
counts = {}
conditional = {}
lock = threading.Lock()
last_request = [time.monotonic()]
LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT"


def azure_item(k):
    """One Azure Retail Prices VM item (fields as in docs/reference/catalogs.md section 2c)."""
    return {
        "currencyCode": "USD", "tierMinimumUnits": 0.0, "retailPrice": 0.01 * (k + 1),
        "unitPrice": 0.01 * (k + 1), "armRegionName": "eastus", "location": "US East",
        "effectiveStartDate": "2024-05-01T00:00:00Z", "meterId": "meter-%04d" % k,
        "meterName": "D%d s v5" % (k + 1), "productId": "DZH318Z0BQ4L",
        "skuId": "DZH318Z0BQ4L/00%d" % k, "productName": "Virtual Machines Dsv5 Series",
        "skuName": "D%d s v5" % (k + 1), "serviceName": "Virtual Machines",
        "serviceId": "DZH313Z7MMC8", "serviceFamily": "Compute", "unitOfMeasure": "1 Hour",
        "type": "Consumption", "isPrimaryMeterRegion": True, "armSkuName": "Standard_T%d" % k,
    }


def page(items, next_link):
    return {"BillingCurrency": "USD", "CustomerEntityId": "Default",
            "CustomerEntityType": "Retail", "Items": items, "NextPageLink": next_link,
            "Count": len(items)}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):
        pass

    def send_json(self, obj, status=200, headers=None):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def send_status(self, status, headers=None, body=b""):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body:
            self.wfile.write(body)

    def do_GET(self):
        last_request[0] = time.monotonic()
        url = urlparse(self.path)
        path = url.path
        with lock:
            n = counts.get(path, 0) + 1
            counts[path] = n
            conditional[path] = {"if_none_match": self.headers.get("If-None-Match"),
                                 "if_modified_since": self.headers.get("If-Modified-Since")}
        base = "http://127.0.0.1:%d" % self.server.server_address[1]
        if path.startswith("/count/"):
            target = "/" + path[len("/count/"):]
            with lock:
                self.send_json({"count": counts.get(target, 0),
                                "conditional": conditional.get(target, {})})
        elif path.startswith("/pages/"):
            k = int(path.rsplit("/", 1)[1])
            sizes = {1: (0, 3), 2: (3, 3), 3: (6, 2)}
            start, size = sizes[k]
            nxt = base + "/pages/%d" % (k + 1) if k < 3 else None
            self.send_json(page([azure_item(i) for i in range(start, start + size)], nxt))
        elif path == "/skip":
            skip = int(parse_qs(url.query).get("$skip", ["0"])[0])
            size = 100 if skip < 200 else (37 if skip == 200 else 0)
            self.send_json(page([azure_item(i) for i in range(skip, skip + size)], ""))
        elif path.startswith("/ratelimit/"):
            if n == 1:
                self.send_status(429, {"Retry-After": "1"})
            else:
                self.send_json({"ok": True, "attempt": n})
        elif path.startswith("/flaky/"):
            if n <= 2:
                self.send_status(500, body=b"internal error")
            else:
                self.send_json({"ok": True, "attempt": n})
        elif path == "/truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"Items": [' + b'1, ' * 30 + b'1')
            self.wfile.flush()
            self.close_connection = True
        elif path == "/notjson":
            self.send_status(200, {"Content-Type": "text/html"},
                             b"<html><body>Service unavailable</body></html>\n")
        elif path.startswith("/etag/"):
            if self.headers.get("If-None-Match") == '"v1"':
                self.send_status(304, {"ETag": '"v1"'})
            else:
                self.send_json({"version": 1, "path": path}, headers={"ETag": '"v1"'})
        elif path.startswith("/lastmod/"):
            if self.headers.get("If-Modified-Since") == LAST_MODIFIED:
                self.send_status(304, {"Last-Modified": LAST_MODIFIED})
            else:
                self.send_json({"version": 2}, headers={"Last-Modified": LAST_MODIFIED})
        elif path == "/redirect":
            self.send_status(302, {"Location": "/pages/3"})
        elif path == "/redirect-file":
            self.send_status(302, {"Location": "file:///etc/passwd"})
        elif path == "/slow":
            time.sleep(3)
            self.send_json({"slow": True})
        elif path == "/gzip":
            body = json.dumps({"compressed": True, "pad": "x" * 1000}).encode()
            if "gzip" in (self.headers.get("Accept-Encoding") or ""):
                z = gzip.compress(body)
                self.send_status(200, {"Content-Type": "application/json",
                                       "Content-Encoding": "gzip"}, z)
            else:
                self.send_status(200, {"Content-Type": "application/json"}, body)
        elif path == "/drip":
            body = b'["' + b"x" * (256 * 1024 - 4) + b'"]'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for i in range(0, len(body), 16384):
                self.wfile.write(body[i:i + 16384])
                self.wfile.flush()
                time.sleep(0.2)
        elif path.startswith("/late/"):
            if n <= 2:
                self.send_status(404)
            else:
                self.send_json({"ok": True, "attempt": n})
        elif path == "/big":
            self.send_status(200, {"Content-Type": "application/json"},
                             b'["' + b"x" * (2 << 20) + b'"]')
        elif path.startswith("/file/"):
            name = os.path.basename(path)
            for d in FILES:
                f = os.path.join(d, name)
                if os.path.isfile(f):
                    with open(f, "rb") as fh:
                        self.send_status(200, {"Content-Type": "application/json"}, fh.read())
                    return
            self.send_status(404)
        else:
            self.send_status(404)


def main():
    idle = 120.0
    if len(sys.argv) == 3 and sys.argv[1] == "--idle-exit":
        idle = float(sys.argv[2])
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    signal.signal(signal.SIGTERM, lambda *a: os._exit(0))

    def watchdog():
        while True:
            time.sleep(0.5)
            if time.monotonic() - last_request[0] > idle:
                os._exit(0)

    def stdin_closed():
        sys.stdin.read()
        os._exit(0)

    threading.Thread(target=watchdog, daemon=True).start()
    threading.Thread(target=stdin_closed, daemon=True).start()
    print("PORT %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
