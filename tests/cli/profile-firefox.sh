#!/usr/bin/env bash
# The Firefox Profiler export, loaded by the profiler's own code (the
# oracle in ../shared/reference/oracles/firefox-profiler, run by node): a
# recording of four threads must give every thread a track the UI shows,
# each thread pmu's own sample count, and call trees whose roots hold
# the samples pmu script puts under them.
. "$(dirname "$0")/lib.sh"
if [ -z "${PMU_SHARED:-}" ]; then
	echo "# skipped: no shared reference directory (the Firefox Profiler oracle lives in ../shared)"
	exit 77
fi
FF=$(cd "$PMU_SHARED" && pwd)/reference/oracles/firefox-profiler
SPIN=$PMU_BUILD/tests/spin
if [ ! -f "$FF/profile-query.js" ]; then
	echo "# skipped: the Firefox Profiler oracle is not here ($FF)"
	exit 77
fi
command -v node >/dev/null || { echo "# skipped: no node (Debian's nodejs) to run the oracle"; exit 77; }

run_pmu "$TMP/o" "$TMP/e" record -q -g -o "$TMP/t.data" -- "$SPIN" threads 3 400
expect_eq "record of 4 threads: exit 0" "$RC" 0
run_pmu "$TMP/o" "$TMP/e" report -i "$TMP/t.data" --firefox "$TMP/t.json"
expect_eq "report --firefox: exit 0" "$RC" 0

# the oracle: threads, tracks, per-thread sample counts and the roots of
# the inverted call tree (the functions samples are in)
cat >"$TMP/q.js" <<'EOF'
globalThis.self = globalThis;
const mod = require(process.argv[2] + '/profile-query.js');
const PQ = (mod.default || mod).ProfileQuerier;
(async () => {
  const p = await PQ.load(process.argv[3]);
  const info = await p.profileInfo(true);
  for (const pr of info.processes)
    for (const t of pr.threads) {
      const td = await p.threadSamplesTopDown(t.threadHandle);
      const bu = await p.threadSamplesBottomUp(t.threadHandle);
      const leaves = bu.invertedCallTree.children
        .map(c => c.name + '=' + c.totalSamples).sort().join(' ');
      console.log('thread', t.tid, td.regularCallTree.totalSamples, leaves);
    }
})().catch(e => { console.log('ERROR', e.stack); process.exit(1); });
EOF
(cd "$FF" && node tracks-check.js "$TMP/t.json") >"$TMP/tracks.txt" 2>&1
node "$TMP/q.js" "$FF" "$TMP/t.json" >"$TMP/q.txt" 2>&1
expect_eq "the oracle loads the export" "$?/$(grep -c ERROR "$TMP/q.txt")" 0/0

# every thread has a track: the process's (its main thread) or one of
# its own under it
check "every thread has a track in the UI" python3 - "$TMP/tracks.txt" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
threads = re.search(r'^threads (.*)$', t, re.M).group(1).split()
g = json.loads(re.search(r'^global tracks (.*)$', t, re.M).group(1))
l = json.loads(re.search(r'^local tracks (.*)$', t, re.M).group(1))
shown = {x['mainThreadIndex'] for x in g if x.get('mainThreadIndex') is not None}
for _, tracks in l:
    shown |= {x['threadIndex'] for x in tracks if x['type'] == 'thread'}
print(len(threads), 'threads', sorted(shown), 'shown')
assert len(threads) >= 4 and shown == set(range(len(threads))), t
PY

# pmu's count of samples per thread, and of each function they are in
# (the innermost, inlined ones included, as the profiler's frames are)
run_pmu "$TMP/s.txt" "$TMP/s.err" script -i "$TMP/t.data" -F tid,sym --inline
expect_eq "pmu script --inline: exit 0" "$RC" 0
# a sample is a line that is not a frame (frames start with a tab; the
# tid is right-aligned, so a sample's line may start with spaces)
nsamples() { awk 'NF && !/^\t/ { n++ } END { print n + 0 }' "$1"; }
check "pmu script --inline: samples ($(nsamples "$TMP/s.txt"))" test -s "$TMP/s.txt"
check "each thread: pmu's samples, and its functions' pmu's" python3 - "$TMP/s.txt" "$TMP/q.txt" <<'PY'
import re, sys, collections
count, roots = collections.Counter(), collections.defaultdict(collections.Counter)
for block in open(sys.argv[1]).read().split('\n\n'):
    lines = [l for l in block.split('\n') if l.strip()]
    if not lines:
        continue
    tid = int(lines[0].split()[0])
    count[tid] += 1
    frames = [re.sub(r' \(inlined\)$', '', l.strip()) for l in lines[1:]]
    if frames:
        roots[tid][frames[0]] += 1
bad = nthreads = 0
for line in open(sys.argv[2]):
    m = re.match(r'thread (\d+) (\d+) ?(.*)$', line.rstrip('\n'))
    if not m:
        continue
    tid, total = int(m.group(1)), int(m.group(2))
    nthreads += 1
    ff = dict(r.rsplit('=', 1) for r in m.group(3).split()) if m.group(3) else {}
    if total != count[tid]:
        print('thread', tid, 'oracle', total, 'pmu', count[tid]); bad += 1
    for name, n in roots[tid].items():
        if name.startswith('[unknown]') or name.startswith('0x'):
            continue
        if int(ff.get(name, -1)) != n:
            print('thread', tid, 'function', name, 'oracle', ff.get(name), 'pmu', n); bad += 1
print('bad', bad, 'threads', nthreads)
sys.exit(1 if bad or nthreads < 4 else 0)
PY

# pmu script's text, as the profiler imports perf script's: every
# sample, in every thread
"$PMU" script -i "$TMP/t.data" >"$TMP/t.script" 2>/dev/null
node "$TMP/q.js" "$FF" "$TMP/t.script" >"$TMP/qs.txt" 2>&1
total=$(awk '$1 == "thread" { s += $3 } END { print s + 0 }' "$TMP/qs.txt")
expect_eq "the profiler's perf-script importer reads every sample of pmu script" \
	"$total" "$(nsamples "$TMP/s.txt")"

# each thread carries its own share of the tables, not a copy of all:
# every stack is a sample's or a prefix of one, every frame a stack's
check "each thread's tables hold only what its samples use" python3 - "$TMP/t.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d['threads']:
    st = t['stackTable']
    used = set()
    for s in t['samples']['stack']:
        while s is not None and s not in used:
            used.add(s)
            s = st['prefix'][s]
    frames = {st['frame'][i] for i in range(st['length'])}
    assert len(used) == st['length'], (t['tid'], len(used), st['length'])
    assert len(frames) == t['frameTable']['length'], t['tid']
    assert all(p is None or p >= 0 for p in st['prefix']), 'root prefix'
print('ok')
PY
# the sampling interval (4000 Hz: 0.25 ms), not the mean gap
check "meta.interval is the sampling interval" python3 -c '
import json, sys
assert abs(json.load(open(sys.argv[1]))["meta"]["interval"] - 0.25) < 1e-9' "$TMP/t.json"
# the program and its libraries, for symbols and the assembly view
check "libs: the program's, with its build-id" python3 - "$TMP/t.json" "$SPIN" <<'PY'
import json, os, subprocess, sys
d = json.load(open(sys.argv[1]))
bid = subprocess.run(['readelf', '-n', sys.argv[2]], capture_output=True,
                     text=True).stdout.split('Build ID: ')[1].split()[0]
libs = [l for l in d['libs'] if l['path'] == os.path.realpath(sys.argv[2])]
assert libs and libs[0]['codeId'] == bid and len(libs[0]['breakpadId']) == 33, d['libs']
PY

done_testing
