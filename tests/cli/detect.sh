#!/usr/bin/env bash
# Detection through the kernel's mapfiles ($PMU_SHARED/events/linux-6.12):
# for every core row of every architecture's mapfile, CPU identifiers in
# perf's form are generated from the row's pattern, and the model pmu
# picks for each ($PMU_CPUID stands for the host's identifier, as
# PERF_CPUID does for perf) must be the directory of the first row that
# matches it by perf's rules, computed here with Python's re: the whole
# identifier (on x86 without its stepping when the pattern does not
# have exactly three dashes, as perf counts them),
# arm64 MIDR values compared without variant and revision.  Every row
# must be reached by at least one of its identifiers.
. "$(dirname "$0")/lib.sh"

TREE=${PMU_SHARED:+$PMU_SHARED/events/linux-6.12}
if [ -z "$TREE" ] || [ ! -d "$TREE" ]; then
	skip "mapfile detection (PMU_SHARED/events/linux-6.12 missing)"
	done_testing
fi
if ! command -v python3 >/dev/null 2>&1; then
	skip "mapfile detection (python3 missing)"
	done_testing
fi

# This machine's CPU on the day the work was asked for, and others.
for pair in AuthenticAMD-26-2:amdzen5 AuthenticAMD-26-2-0:amdzen5 \
	    AuthenticAMD-25-11-1:amdzen4 AuthenticAMD-25-21-0:amdzen3 \
	    GenuineIntel-6-A7-1:rocketlake GenuineIntel-6-55-4:skylakex \
	    GenuineIntel-6-55-7:cascadelakex 0x00000000410fd0c1:neoverse-n1 \
	    0x004e1202:power9; do
	id=${pair%%:*} want=${pair#*:}
	got=$(PMU_CPUID=$id "$PMU" list --models --json |
	      sed -n 's/^{"model": "\([^"]*\)".*"host": true.*/\1/p')
	expect_eq "$id is $want" "$got" "$want"
done

python3 - "$PMU" "$TREE" >"$TMP/out" 2>&1 <<'PY'
import itertools, os, re, subprocess, sys

pmu, tree = sys.argv[1], sys.argv[2]
ARCHS = ["x86", "arm64", "powerpc", "s390", "riscv"]

def rows(arch):
    out = []
    for line in open(os.path.join(tree, arch, "mapfile.csv")):
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("Family-model"):
            continue
        f = line.split(",")
        if len(f) >= 4 and f[3] == "core":
            out.append((f[0], f[2].split("/")[-1]))
    return out

def py_re(p):
    return p.replace("[[:xdigit:]]", "[0-9A-Fa-f]")

# Identifiers a pattern stands for: each alternative, each class member
# of small classes, one and two repeats, '.' as a few characters.
def expand(p):
    outs = [""]
    i = 0
    def alts(p, i):
        depth, j, start, parts = 0, i, i, []
        while True:
            c = p[j]
            if c == "\\":
                j += 2
                continue
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    parts.append(p[start:j])
                    return parts, j + 1
                depth -= 1
            elif c == "|" and depth == 0:
                parts.append(p[start:j])
                start = j + 1
            j += 1
    while i < len(p):
        c = p[i]
        if c in "^$":
            i += 1
            continue
        if c == "(":
            parts, i = alts(p, i + 1)
            choices = sum((expand(x) for x in parts), [])
        elif c == "[":
            if p.startswith("[[:xdigit:]]", i):
                choices, i = ["0", "7", "A", "f"], i + 12
            else:
                j = p.index("]", i + 1)
                body, i = p[i + 1:j], j + 1
                chars = []
                k = 0
                while k < len(body):
                    if k + 2 < len(body) and body[k + 1] == "-":
                        chars += [chr(x) for x in range(ord(body[k]), ord(body[k + 2]) + 1)]
                        k += 3
                    else:
                        chars.append(body[k])
                        k += 1
                choices = chars
        elif c == "\\":
            choices, i = [p[i + 1]], i + 2
        elif c == ".":
            choices, i = [",", "A", "1"], i + 1
        else:
            choices, i = [c], i + 1
        if i < len(p) and p[i] in "+*":
            star = p[i] == "*"
            i += 1
            rep = [x for x in choices] + [x + y for x in choices[:2] for y in choices[:2]]
            choices = ([""] if star else []) + rep
        elif i < len(p) and p[i] == "{":
            j = p.index("}", i)
            n = int(p[i + 1:j])
            i = j + 1
            choices = [x * n for x in choices[:3]]
        outs = [o + x for o in outs for x in choices]
        if len(outs) > 400:
            outs = outs[:: max(1, len(outs) // 400)]
    return outs

def ids_of(arch, pat):
    if arch == "arm64":
        v = int(pat, 16)
        return ["0x%016x" % v, "0x%016x" % (v | 0x100003)]
    out = expand(pat)
    if arch == "x86" and pat.count("-") != 3:
        out = out + [x + "-3" for x in out]
    return out

def matches(arch, pat, ident):
    if arch == "arm64":
        mask = 0xf0000f
        want, have = int(pat, 16), int(ident, 16)
        if want & ~mask != have & ~mask:
            return False
        if not want & mask:
            return True
        if have & 0xf00000 != want & 0xf00000:
            return have & 0xf00000 > want & 0xf00000
        return have & 0xf >= want & 0xf
    target = ident
    # perf tells a full pattern by its dashes: exactly three
    if arch == "x86" and ident.count("-") == 3 and pat.count("-") != 3:
        target = ident.rsplit("-", 1)[0]
    return re.fullmatch(py_re(pat), target) is not None

def pmu_model(ident):
    env = dict(os.environ, PMU_CPUID=ident)
    out = subprocess.run([pmu, "list", "--models", "--json"], env=env,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        if '"host": true' in line:
            return re.search(r'"model": "([^"]*)"', line).group(1)
    return None

bad = checked = 0
for arch in ARCHS:
    rs = rows(arch)
    for k, (pat, name) in enumerate(rs):
        reached = False
        for ident in sorted(set(ids_of(arch, pat)))[:24]:
            want = next((n for p, n in rs if matches(arch, p, ident)), None)
            got = pmu_model(ident)
            checked += 1
            reached |= want == name
            if got != want:
                bad += 1
                print("MISMATCH %s %s: pmu %s, perf's rule %s" % (arch, ident, got, want))
        if not reached:
            bad += 1
            print("UNREACHED %s row %d %s -> %s" % (arch, k + 1, pat, name))
print("checked %d identifiers, %d wrong" % (checked, bad))
sys.exit(1 if bad else 0)
PY
rc=$?
sed 's/^/# /' "$TMP/out" | tail -25
expect_eq "every mapfile row's identifiers detect as perf detects them" "$rc" 0
done_testing
