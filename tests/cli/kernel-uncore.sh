#!/usr/bin/env bash
# Every uncore event of every model of the kernel's pmu-events tree
# ($PMU_SHARED/events/linux-6.12), read here directly from its JSON files.
#
# 1. The catalog: for each model, the set of its non-core events (Intel's
#    CHA, iMC, IIO..., AMD's L3 and data fabric, s390's PAI...) as perf
#    lists them (lower case), each with the PMU its Unit maps to and
#    perf's event string for it, built here as perf's generator builds it
#    (tools/perf/pmu-events/jevents.py: ConfigCode, else EventidCode, else
#    EventCode | ExtSel << 8, then AnyThread, PortMask, CounterMask,
#    EdgeDetect, FCMask, Invert, UMask, NodeType, RdWrMask, EnAllCores,
#    EnAllSlices, SliceId, ThreadMask when not zero, then the Filter
#    text), must equal `pmu list --model M --json`'s uncore entries.
# 2. The encoding: for the units below (jaketown, skylakex and
#    sapphirerapids boxes), a fake sysfs tree holds their PMU instances
#    with the formats the kernel declares for them
#    (arch/x86/events/intel/uncore_snbep.c); each event of those units,
#    named bare, must expand to one event per instance whose config and
#    config1 are perf's event string deposited through those formats.
. "$(dirname "$0")/lib.sh"

TREE=${PMU_SHARED:+$PMU_SHARED/events/linux-6.12}
if [ -z "$TREE" ] || [ ! -d "$TREE" ]; then
	skip "kernel pmu-events uncore events (PMU_SHARED/events/linux-6.12 missing)"
	done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "kernel pmu-events uncore events (python3 missing)"
	done_testing
fi
EVDUMP=$PMU_BUILD/tests/evdump

PYTHONPATH=$(dirname "$0") python3 - "$PMU" "$TREE" "$EVDUMP" "$TMP" >"$TMP/out" 2>&1 <<'PY'
import glob, json, os, subprocess, sys
import kernel_tree

pmu, tree, evdump, tmp = sys.argv[1:5]

# perf's PMU of a vendor file's Unit (jevents.py's table; else uncore_<unit>).
UNITS = {"CBOX": "uncore_cbox", "QPI LL": "uncore_qpi", "SBO": "uncore_sbox",
         "iMPH-U": "uncore_arb", "CPU-M-SF": "cpum_sf",
         "PAI-CRYPTO": "pai_crypto", "PAI-EXT": "pai_ext",
         "UPI LL": "uncore_upi", "L3PMC": "amd_l3", "DFPMC": "amd_df",
         "UMCPMC": "amd_umc"}
CORE = (None, "cpu", "core", "cpu_core", "cpu_atom", "CPU-M-CF")
FIELDS = (("AnyThread", "any"), ("PortMask", "ch_mask"),
          ("CounterMask", "cmask"), ("EdgeDetect", "edge"),
          ("FCMask", "fc_mask"), ("Invert", "inv"), ("UMask", "umask"),
          ("NodeType", "type"), ("RdWrMask", "rdwrmask"),
          ("EnAllCores", "enallcores"), ("EnAllSlices", "enallslices"),
          ("SliceId", "sliceid"), ("ThreadMask", "threadmask"))

def unit_pmu(u):
    if u in UNITS:
        return UNITS[u]
    if u.startswith(("hisi_", "imx", "ali_", "arm_")):
        return u
    return "uncore_" + u.lower()

def num(v):
    return int(str(v).split(",")[0].strip(), 0)

def terms(e):
    if "ConfigCode" in e:
        t = [("config", num(e["ConfigCode"]))]
    elif "EventidCode" in e:
        t = [("eventid", num(e["EventidCode"]))]
    else:
        code = num(e.get("EventCode", "0"))
        if "ExtSel" in e:
            code |= num(e["ExtSel"]) << 8
        t = [("event", code)]
    for key, term in FIELDS:
        if key in e and num(e[key]) != 0:
            t.append((term, num(e[key])))
    for f in filter(None, e.get("Filter", "").split(",")):
        k, v = f.split("=")
        t.append((k, int(v, 0)))
    return t

def parse_terms(s):
    out = []
    for f in s.split(","):
        k, v = f.split("=")
        out.append((k, int(v, 0)))
    return out

def uncore_records(arch, sub):
    want = {}
    for path in sorted(glob.glob(os.path.join(tree, arch, sub, "*.json"))):
        data = json.load(open(path))
        if not isinstance(data, list):
            continue
        for e in data:
            if ("MetricName" in e or "MetricExpr" in e or
                    "EventName" not in e or e.get("Unit") in CORE):
                continue
            name = e["EventName"].lower()
            if name not in want:          # the first record stands
                want[name] = (unit_pmu(e["Unit"]), terms(e), e)
    return want

bad = total = 0
expected = {}
for arch, _, sub in kernel_tree.core_models(tree):
    model = sub.split("/")[-1]
    want = uncore_records(arch, sub)
    expected[model] = want
    out = subprocess.run([pmu, "list", "--model", model, "--json"],
                         capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        j = json.loads(line)
        if "pmu" in j:
            got[j["event"]] = (j["pmu"], parse_terms(j["terms"]))
    for name in sorted(set(want) | set(got)):
        total += 1
        if name not in got:
            bad += 1
            print("%s: %s missing" % (model, name))
        elif name not in want:
            bad += 1
            print("%s: %s listed but not in the tree" % (model, name))
        elif got[name] != want[name][:2]:
            bad += 1
            print("%s: %s is %s, the tree's %s" % (model, name, got[name],
                                                  want[name][:2]))
print("catalog: %d uncore events of the kernel's tree, %d differ" % (total, bad))
cat_bad = bad

# -- 2: through the kernel's sysfs formats --
SNBEP = {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18",
         "inv": "config:23", "thresh": "config:24-31"}
CBOX = dict(SNBEP, tid_en="config:19", filter_tid="config1:0-4",
            filter_nid="config1:10-17", filter_state="config1:18-22",
            filter_opc="config1:23-31")
SPR_CHA = {"event": "config:0-7", "umask": "config:8-15,32-63",
           "tid_en": "config:16", "edge": "config:18", "inv": "config:23",
           "thresh": "config:24-31", "filter_tid": "config1:0-9"}
SNR_IIO = {"event": "config:0-7", "umask": "config:8-15", "edge": "config:18",
           "inv": "config:23", "thresh": "config:24-35",
           "ch_mask": "config:36-47", "fc_mask": "config:48-50"}
# Skylake-SP (skx_* format groups)
SKX_CHA = dict(SNBEP, tid_en="config:19", filter_tid="config1:0-8",
               filter_state="config1:17-26", filter_rem="config1:32",
               filter_loc="config1:33", filter_all_op="config1:35",
               filter_nm="config1:36", filter_not_nm="config1:37",
               filter_opc0="config1:41-50", filter_opc1="config1:51-60",
               filter_nc="config1:62", filter_isoc="config1:63")
SKX_IIO = dict(SNBEP, thresh="config:24-35", ch_mask="config:36-43",
               fc_mask="config:44-46")
SKX_UPI = dict(SNBEP, umask="config:8-15,32-43,45-55")
SKX_PCU = dict(SNBEP, occ_invert="config:30", occ_edge_det="config:31",
               filter_band0="config1:0-7", filter_band1="config1:8-15",
               filter_band2="config1:16-23", filter_band3="config1:24-31")
CASES = [("jaketown", "uncore_cbox", CBOX, 8), ("jaketown", "uncore_imc", SNBEP, 4),
         ("sapphirerapids", "uncore_cha", SPR_CHA, 3),
         ("sapphirerapids", "uncore_iio", SNR_IIO, 2),
         ("skylakex", "uncore_cha", SKX_CHA, 2), ("skylakex", "uncore_iio", SKX_IIO, 2),
         ("skylakex", "uncore_upi", SKX_UPI, 2), ("skylakex", "uncore_pcu", SKX_PCU, 1)]
CASES += [("skylakex", u, SNBEP, 2) for u in
          ("uncore_imc", "uncore_irp", "uncore_m2m", "uncore_m3upi")]

def deposit(fmt, val, attr):
    field, bits = fmt.split(":")
    for part in bits.split(","):
        lo, hi = (part.split("-") + [part])[:2]
        lo, hi = int(lo), int(hi)
        width = hi - lo + 1
        attr[field] |= (val & ((1 << width) - 1)) << lo
        val >>= width
    if val:
        raise ValueError("does not fit %s" % fmt)

bad = enc_total = refused = 0
for model, upmu, fmt, ninst in CASES:
    root = os.path.join(tmp, "sys-" + model + "-" + upmu)
    types = {}
    for i in range(ninst):
        d = os.path.join(root, "bus/event_source/devices", "%s_%d" % (upmu, i))
        os.makedirs(os.path.join(d, "format"))
        types[40 + 3 * i] = i
        open(os.path.join(d, "type"), "w").write("%d\n" % (40 + 3 * i))
        for k, v in fmt.items():
            open(os.path.join(d, "format", k), "w").write(v + "\n")
    names = sorted(n for n, w in expected[model].items() if w[0] == upmu)
    if not names:
        bad += 1
        print("%s: no %s events to check" % (model, upmu))
        continue
    want = {}
    for n in names:
        attr = {"config": 0, "config1": 0, "config2": 0}
        try:
            for term, val in expected[model][n][1]:
                if term in ("config", "config1", "config2"):
                    attr[term] = val  # perf's terms of every PMU
                    continue
                if term not in fmt:
                    raise ValueError("no term " + term)
                deposit(fmt[term], val, attr)
            want[n] = [(n, 40 + 3 * i, attr["config"], attr["config1"])
                       for i in range(ninst)]
        except ValueError:
            want[n] = None          # a value wider than its term: refused
    def dump(args):
        r = subprocess.run([evdump, "--sysfs", root, "--core-model", model] + args,
                           capture_output=True, text=True)
        have = []
        for l in r.stdout.splitlines():
            if l.startswith("name="):
                f = dict(x.split("=", 1) for x in l.split())
                have.append((f["name"], int(f["type"]), int(f["config"], 16),
                             int(f["config1"], 16)))
        return r, have
    # the ones that should encode, a batch at a time: all as wanted, or
    # each on its own below
    ok = [n for n in names if want[n] is not None]
    batched = set()
    for k in range(0, len(ok), 300):
        chunk = ok[k:k + 300]
        r, have = dump(chunk)
        if r.returncode == 0 and have == [w for n in chunk for w in want[n]]:
            batched.update(chunk)
    for n in names:
        enc_total += 1
        if n in batched:
            continue
        r, have = dump([n])
        if want[n] is None:
            refused += 1
            if r.returncode == 0 or "error:" not in r.stderr:
                bad += 1
                print("%s: %s accepted, but a term does not fit %s's formats"
                      % (model, n, upmu))
        elif r.returncode != 0 or have != want[n]:
            bad += 1
            print("%s: %s: %s want %s" % (model, n, have or r.stderr.strip()[:200],
                                          want[n]))
print("encoding: %d events through the kernel's formats (%d with a value "
      "wider than its term's bits: refused), %d differ" % (enc_total, refused, bad))
sys.exit(1 if cat_bad or bad or enc_total - refused < 500 else 0)
PY
rc=$?
tail -30 "$TMP/out" | sed 's/^/# /'
expect_eq "every uncore event of the kernel's tree is listed as perf builds it and encodes through the kernel's formats" "$rc" 0

# Descriptions are read at run time from the vendor files (--events-dir):
# the record's PublicDescription, as the file has it.
want=$(python3 - "$TREE" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1] + "/x86/skylakex/uncore-memory.json")):
    if e.get("EventName") == "UNC_M_CAS_COUNT.RD":
        print(e.get("PublicDescription") or e["BriefDescription"])
PY
)
"$PMU" list --model skylakex --json --events-dir "$TREE" unc_m_cas_count.rd >"$TMP/desc" 2>&1
got=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline()).get("vendor_desc", ""))' "$TMP/desc")
expect_eq "an uncore event's description comes from the vendor file at run time" "$got" "$want"
"$PMU" list --model skylakex --json unc_m_cas_count.rd >"$TMP/nodesc" 2>&1
expect_no_match "without --events-dir no description is shown (none is built in)" "$TMP/nodesc" vendor_desc
done_testing
