#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Scrape load on an exporter: N concurrent scrapers for S seconds.

  serve-load.py URL PID SECONDS SCRAPERS

Prints one line of figures: scrapes, failed, the exporter's CPU seconds
over the load (from /proc/PID/stat), its resident memory once the load
has run a fifth of its time (warm: its threads and buffers in use), at
the end and at its peak after the warm reading (kB), and the series
per scrape.
"""
import sys
import threading
import time
import urllib.request

url, pid, seconds, nscrapers = sys.argv[1], int(sys.argv[2]), \
    float(sys.argv[3]), int(sys.argv[4])
hz = 100


def cpu():
    with open("/proc/%d/stat" % pid) as f:
        v = f.read().rsplit(")", 1)[1].split()
    return (int(v[11]) + int(v[12])) / hz


def rss():
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


ok = failed = 0
series = 0
lock = threading.Lock()
end = time.time() + seconds


def scraper():
    global ok, failed, series
    while time.time() < end:
        try:
            body = urllib.request.urlopen(url, timeout=10).read().decode()
            n = sum(1 for line in body.splitlines()
                    if line and not line.startswith("#"))
            with lock:
                ok += 1
                series = n
        except Exception:  # noqa: BLE001 (every failure counts)
            with lock:
                failed += 1


cpu0 = cpu()
threads = [threading.Thread(target=scraper) for _ in range(nscrapers)]
for t in threads:
    t.start()
time.sleep(seconds / 5)
rss0 = peak = rss()
while time.time() < end:
    time.sleep(0.5)
    peak = max(peak, rss())
for t in threads:
    t.join()
print("scrapes %d failed %d cpu %.3f rss0 %d rss1 %d peak %d series %d"
      % (ok, failed, cpu() - cpu0, rss0, rss(), peak, series))
