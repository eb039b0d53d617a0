#!/usr/bin/env bash
# Inlined functions against binutils' addr2line -i, the oracle: a C++
# program whose hot loop is inlined three levels deep (eval and
# accumulate into integrate<T>, into run<T>, into main) is recorded, and
# for every sampled address of it pmu's chain of frames (the inlined
# functions, innermost first, then the function they are in) must have
# addr2line's levels, source lines and (past the innermost, whose name
# addr2line takes from the symbol table) names.
. "$(dirname "$0")/lib.sh"
SRC=$(dirname "$0")/../workload/inlines.cpp
command -v g++ >/dev/null || { echo "1..0 # SKIP no g++"; exit 77; }
command -v addr2line >/dev/null || { echo "1..0 # SKIP no addr2line (binutils)"; exit 77; }
[ "$(uname -m)" = x86_64 ] || [ "$(uname -m)" = aarch64 ] ||
	{ echo "1..0 # SKIP not a machine pmu unwinds"; exit 77; }
# fixed addresses: the sampled ip is the file's address
g++ -O2 -g -no-pie -fno-omit-frame-pointer -o "$TMP/inl" "$SRC" ||
	{ echo "1..0 # SKIP g++ cannot build $SRC"; exit 77; }

run_pmu "$TMP/o" "$TMP/e" record -q -g -o "$TMP/inl.data" -- "$TMP/inl" 100
expect_eq "record the C++ program: exit 0" "$RC" 0
run_pmu "$TMP/s.txt" "$TMP/e" script -i "$TMP/inl.data" -F ip,sym,srcline --inline
expect_eq "script --inline: exit 0" "$RC" 0

check "every sampled address: addr2line -i's chain" python3 - "$TMP/s.txt" "$TMP/inl" <<'PY'
import os, re, subprocess, sys
text, binary = open(sys.argv[1]).read(), sys.argv[2]
FRAME = re.compile(r'^\t +([0-9a-f]+) (.*?)( \(inlined\))?$')
chains = {}
for block in text.split('\n\n'):
    lines = [l for l in block.split('\n') if l.startswith('\t')]
    frames, i = [], 0
    while i < len(lines):
        m = FRAME.match(lines[i])
        i += 1
        if not m:
            continue
        src = None
        if i < len(lines) and not FRAME.match(lines[i]):
            src = lines[i].strip()
            i += 1
        frames.append((int(m.group(1), 16), m.group(2), src))
    if not frames:
        continue
    ip = frames[0][0]
    if not 0x400000 <= ip < 0x800000:      # the program's own text
        continue
    chains.setdefault(ip, [(n, s) for a, n, s in frames if a == ip])
bad, n = 0, 0
for ip, mine in sorted(chains.items()):
    out = subprocess.run(['addr2line', '-f', '-i', '-C', '-e', binary, hex(ip)],
                         capture_output=True, text=True).stdout.split('\n')
    want = [(out[k], out[k + 1]) for k in range(0, len(out) - 1, 2)]
    n += 1
    def line(s):
        return None if not s or s.startswith('??') else \
            os.path.basename(s.split(' ')[0])
    ok = len(mine) == len(want) and all(
        line(ms) == line(ws) for (_, ms), (_, ws) in zip(mine, want)) and all(
        mn == re.sub(r'\(.*$', '', wn) for (mn, _), (wn, _) in
        list(zip(mine, want))[1:])
    if not ok:
        bad += 1
        if bad <= 5:
            print('%#x pmu %s addr2line %s' % (ip, mine, want))
print('%d addresses, %d differ' % (n, bad))
sys.exit(1 if bad or n < 5 else 0)
PY
# and the deepest chain of the program is there, names and lines
expect_match "the three levels of inlining under main" "$TMP/s.txt" 'integrate<double> \(inlined\)'
expect_match "run<double> inlined into main" "$TMP/s.txt" 'run<double> \(inlined\)'

done_testing
