#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Counter-mask facts from vendor event files (kernel pmu-events JSON).

    gen-events.py EVENTS_DIR MODEL > counters.txt

libpfm4 does not export which counters an event may use, so the table
generator (gen-events.c) takes them from here.  Output, sorted and stable:

    counters N fixed F
    EVSEL UMASK CMASK INV EDGE ANY CNTMSK

one line per distinct encoding; CNTMSK bit n = generic counter n, bit 32+n
= fixed counter n.  Vendor files name fixed counters by pseudo encodings
(event 0x00, umask n+1); the architectural events that those counters count
(Intel SDM: instructions retired 0xc0, unhalted core cycles 0x3c) are given
the fixed bit too, since that is how the same event is asked for from a
programmable counter.  Only facts are read; descriptions are ignored.
"""
import glob
import json
import os
import sys

DIRS = {
    "skl": "intel/SKL",
    "icl": "intel/ICL",
    "spr": "intel/SPR",
}

# Fixed counter n -> (event select, umask) of its architectural event.
FIXED_ARCH = {0: (0xC0, 0x00), 1: (0x3C, 0x00)}


def num(s, default=0):
    if s is None or s == "" or s == "null":
        return default
    return int(str(s).split(",")[0].strip(), 0)


def counter_mask(text):
    text = (text or "").strip()
    if text.startswith("Fixed counter"):
        return 1 << (32 + int(text.split()[-1]))
    mask = 0
    for part in text.split(","):
        part = part.strip()
        if part.isdigit():
            mask |= 1 << int(part)
    return mask


def rows(directory):
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        if path.endswith("_metrics.json"):
            continue
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        events = data.get("Events", []) if isinstance(data, dict) else data
        for ev in events:
            if "EventCode" in ev and "Counter" in ev:
                yield ev


def collect(directory):
    masks = {}
    generic = fixed = 0
    for ev in rows(directory):
        mask = counter_mask(ev.get("Counter"))
        if not mask:
            continue
        key = (num(ev["EventCode"]), num(ev.get("UMask")),
               num(ev.get("CounterMask")), num(ev.get("Invert")),
               num(ev.get("EdgeDetect")), num(ev.get("AnyThread")))
        keys = [key]
        if mask >> 32:
            n = (mask >> 32).bit_length() - 1
            fixed = max(fixed, n + 1)
            if key[0] == 0 and n in FIXED_ARCH:
                keys.append(FIXED_ARCH[n] + key[2:])
        else:
            generic = max(generic, mask.bit_length())
        for k in keys:
            masks[k] = masks.get(k, 0) | mask
    return generic, fixed, masks


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: gen-events.py EVENTS_DIR MODEL\n")
        return 2
    sub = DIRS.get(sys.argv[2])
    if sub is None:
        return 0  # no vendor counter facts for this model
    directory = os.path.join(sys.argv[1], sub)
    if not os.path.isdir(directory):
        sys.stderr.write("gen-events.py: no directory %s\n" % directory)
        return 1
    generic, fixed, masks = collect(directory)
    print("counters %d fixed %d" % (generic, fixed))
    for k in sorted(masks):
        print("%#04x %#04x %d %d %d %d %#x" % (k + (masks[k],)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
