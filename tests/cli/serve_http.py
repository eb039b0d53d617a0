#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The serve test's HTTP client (standard library only).

  serve_http.py PORT            every HTTP check (exit 1 on a failure)
  serve_http.py PORT --once     one good scrape
  serve_http.py PORT --value SERIES
                                wait for two readings more, print the
                                value of the sample whose name and labels
                                are SERIES (pmu_event_total{event="x",...})
"""
import http.client
import re
import socket
import sys
import threading
import time

PORT = int(sys.argv[1])


def get(path="/metrics", method="GET", accept=None):
    c = http.client.HTTPConnection("127.0.0.1", PORT, timeout=20)
    headers = {"Accept": accept} if accept else {}
    c.request(method, path, headers=headers)
    r = c.getresponse()
    body = r.read().decode()
    c.close()
    return r.status, r.getheader("Content-Type") or "", body


def samples(body):
    out = {}
    for line in body.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def readings():
    return samples(get()[2])["pmu_readings_total"]


def wait_readings(n):
    start = readings()
    deadline = time.time() + 60
    while readings() < start + n:
        if time.time() > deadline:
            raise SystemExit("no new readings in 60 s")
        time.sleep(0.02)


def fail(msg):
    print("# " + msg)
    sys.exit(1)


def check_all():
    st, ct, body = get()
    if st != 200 or not ct.startswith("text/plain; version=0.0.4"):
        fail("plain scrape: %d %s" % (st, ct))
    if "# EOF" in body:
        fail("Prometheus' format has no # EOF")
    st, ct, body = get(accept="application/openmetrics-text;version=1.0.0,"
                              "text/plain;version=0.0.4;q=0.5,*/*;q=0.1")
    if st != 200 or not ct.startswith("application/openmetrics-text"):
        fail("OpenMetrics scrape: %d %s" % (st, ct))
    if not body.endswith("# EOF\n") or "# UNIT pmu_event_enabled_seconds seconds" not in body:
        fail("OpenMetrics body: no # EOF or # UNIT")
    st, ct, body = get(method="HEAD")
    if st != 200 or body:
        fail("HEAD: %d, %d bytes" % (st, len(body)))
    for method in ("POST", "PUT", "DELETE"):
        st, _, _ = get(method=method)
        if st != 405:
            fail("%s: %d, not 405" % (method, st))
    for path in ("/nothing", "/metrics/x", "/../etc/passwd"):
        st, _, _ = get(path)
        if st != 404:
            fail("%s: %d, not 404" % (path, st))
    st, ct, body = get("/")
    if st != 200 or "/metrics" not in body:
        fail("/: %d" % st)

    # counters only grow, reading after reading
    before = samples(get()[2])
    wait_readings(2)
    after = samples(get()[2])
    for k, v in before.items():
        if k.startswith("pmu_event_total") and after.get(k, -1) < v:
            fail("%s went from %s to %s" % (k, v, after.get(k)))
    tc = [k for k in after if k.startswith('pmu_event_total{event="task-clock"')]
    if not tc or after[tc[0]] <= before[tc[0]]:
        fail("task-clock did not grow: %s" % tc)

    # hostile clients: garbage, a request cut short, a client that
    # leaves before reading the answer, an oversized header
    for raw in (b"\x00\xff garbage\r\n\r\n", b"GET /metrics HTTP/1.1\r\nHost",
                b"GET /metrics HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 100000 +
                b"\r\n\r\n"):
        s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
        try:
            s.sendall(raw)
            s.shutdown(socket.SHUT_WR)
            s.recv(100)
        except OSError:
            pass
        s.close()
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", PORT), timeout=5)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
        s.close()

    # 50 concurrent scrapers, 20 scrapes each: every one answered whole
    errors = []

    def scraper():
        for _ in range(20):
            try:
                st, _, body = get(accept="application/openmetrics-text")
                if st != 200 or not body.endswith("# EOF\n"):
                    errors.append("status %d" % st)
            except Exception as e:  # noqa: BLE001 (any failure counts)
                errors.append(repr(e))
    threads = [threading.Thread(target=scraper) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        fail("%d of 1000 scrapes failed: %s" % (len(errors), errors[:3]))
    n = samples(get()[2])["pmu_scrapes_total"]
    if n < 1000:
        # the figure is the one of the last reading: wait for one
        wait_readings(1)
        n = samples(get()[2])["pmu_scrapes_total"]
    if n < 1000:
        fail("pmu_scrapes_total %s after 1000 scrapes" % n)


if len(sys.argv) > 2 and sys.argv[2] == "--once":
    st, _, body = get()
    sys.exit(0 if st == 200 and "pmu_up 1" in body else 1)
if len(sys.argv) > 3 and sys.argv[2] == "--value":
    wait_readings(2)
    v = samples(get()[2]).get(sys.argv[3])
    if v is None:
        fail("no sample %s" % sys.argv[3])
    print(int(v) if v == int(v) else v)
    sys.exit(0)
check_all()
