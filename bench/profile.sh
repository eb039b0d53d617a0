#!/usr/bin/env bash
# Profiling benchmarks against perf, in the same run (docs/benchmarks.md):
#   1. recording: slowdown of a CPU-bound workload under `record -F 4000
#      -g` (pmu vs perf), and the recorder's peak RSS;
#   2. `report --stdio` on a ~100 MB perf.data written by perf: wall
#      time and peak RSS;
#   3. `script`: samples per second on the same file;
#   4. source lines and inlined frames on a C++ program built -O2 -g:
#      `report --sort srcline` (perf: --inline) and `script` with srcline.
# Prints markdown table rows.  Environment: BIG_MB (size of the big
# file, default 100), SRCLINE_TIMEOUT (seconds perf may take, 900).
#   bench/profile.sh BUILD
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
big_mb=${BIG_MB:-100}
limit=${SRCLINE_TIMEOUT:-900}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/pmu" "$tmp/pmu"
pmu=$tmp/pmu
work=$build/tests/workload
[ -x "$work" ] || { echo "profile.sh: build the test workload first (make check-build)" >&2; exit 1; }

# wall seconds and peak RSS (kB) of a command: "SECONDS KB"
measure() {
	/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || true
	tail -1 "$tmp/t"
}
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }'; }
row() { # name pmu peer ratio goal met
	echo "| $1 | $2 | $3 | $4 | $5 | $6 |"
}
meets() { awk -v r="$1" -v g="$2" 'BEGIN { print (r <= g ? "yes" : "no") }'; }

# 1. recording overhead: alternate bare / perf / pmu, 5 runs each
for i in 1 2 3 4 5; do
	measure "$work" 1 | awk '{ print $1 }' >>"$tmp/bare"
	measure perf record -q -F 4000 -g -e cpu-clock -o "$tmp/p.data" -- "$work" 1 >>"$tmp/perf.rec"
	measure "$pmu" record -q -F 4000 -g -o "$tmp/m.data" -- "$work" 1 >>"$tmp/pmu.rec"
done
bare=$(median <"$tmp/bare")
pw=$(awk '{ print $1 }' "$tmp/perf.rec" | median)
mw=$(awk '{ print $1 }' "$tmp/pmu.rec" | median)
prss=$(awk '{ print $2 }' "$tmp/perf.rec" | median)
mrss=$(awk '{ print $2 }' "$tmp/pmu.rec" | median)
ps=$(ratio "$pw" "$bare"); ms=$(ratio "$mw" "$bare")
r=$(ratio "$ms" "$ps")
row "record -F 4000 -g: slowdown of the workload (${bare}s bare)" "${ms}x" "${ps}x" "$r" "<= 1" "$(meets "$r" 1)"
r=$(ratio "$mrss" "$prss")
row "record: peak RSS (kB)" "$mrss" "$prss" "$r" "<= 0.5" "$(meets "$r" 0.5)"

# 2. a big file written by perf: both CPUs busy, frame-pointer chains
scale=$(( big_mb / 4 + 1 ))
perf record -q -F 20000 -g -e cpu-clock -o "$tmp/big.data" -- \
	sh -c "\"$work\" $scale & \"$work\" $scale; wait" >/dev/null 2>&1
size=$(( $(stat -c %s "$tmp/big.data") / 1048576 ))
# warm the page cache and both tools' files once
perf report -i "$tmp/big.data" --stdio >/dev/null 2>&1 || true
"$pmu" report -i "$tmp/big.data" --stdio >/dev/null 2>&1 || true
for i in 1 2 3; do
	measure perf report -i "$tmp/big.data" --stdio >>"$tmp/perf.rep"
	measure "$pmu" report -i "$tmp/big.data" --stdio >>"$tmp/pmu.rep"
done
pw=$(awk '{ print $1 }' "$tmp/perf.rep" | median); mw=$(awk '{ print $1 }' "$tmp/pmu.rep" | median)
r=$(ratio "$mw" "$pw")
row "report --stdio, ${size} MB perf.data (s)" "$mw" "$pw" "$r" "<= 0.5" "$(meets "$r" 0.5)"
prss=$(awk '{ print $2 }' "$tmp/perf.rep" | median); mrss=$(awk '{ print $2 }' "$tmp/pmu.rep" | median)
r=$(ratio "$mrss" "$prss")
row "report --stdio, ${size} MB: peak RSS (kB)" "$mrss" "$prss" "$r" "<= 0.5" "$(meets "$r" 0.5)"

# 3. script throughput on the same file
n=$(perf script -i "$tmp/big.data" -F tid 2>/dev/null | wc -l)
for i in 1 2 3; do
	measure perf script -i "$tmp/big.data" >>"$tmp/perf.scr"
	measure "$pmu" script -i "$tmp/big.data" >>"$tmp/pmu.scr"
done
pw=$(awk '{ print $1 }' "$tmp/perf.scr" | median); mw=$(awk '{ print $1 }' "$tmp/pmu.scr" | median)
r=$(ratio "$pw" "$mw")
row "script: samples/s ($n samples)" "$(awk -v n="$n" -v t="$mw" 'BEGIN { printf "%.0f", n / t }')" \
	"$(awk -v n="$n" -v t="$pw" 'BEGIN { printf "%.0f", n / t }')" "$r (speedup)" ">= 2" \
	"$(awk -v r="$r" 'BEGIN { print (r >= 2 ? "yes" : "no") }')"

# 4. source lines and inlined frames, C++ -O2 -g
g++ -O2 -g -fno-omit-frame-pointer -o "$tmp/cxx" "$here/cxx-work.cpp"
perf record -q -F 4000 -g -e cpu-clock -o "$tmp/cxx.data" -- "$tmp/cxx" 1500 >/dev/null 2>&1
srcline_pair() { # name "perf args" "pmu args"
	local name=$1 pa=$2 ma=$3 pt mt r
	/usr/bin/time -f '%e' -o "$tmp/pt" timeout "$limit" perf $pa >/dev/null 2>&1 || true
	pt=$(tail -1 "$tmp/pt")
	/usr/bin/time -f '%e' -o "$tmp/mt" "$pmu" $ma >/dev/null 2>&1 || true
	mt=$(tail -1 "$tmp/mt")
	r=$(ratio "$pt" "$mt")
	awk -v p="$pt" -v l="$limit" 'BEGIN { exit !(p + 1 >= l) }' && r=">= $r (perf stopped at ${limit}s)"
	row "$name (s)" "$mt" "$pt" "$r (speedup)" ">= 10" \
		"$(awk -v r="${r#>= }" 'BEGIN { split(r, a, " "); print (a[1] >= 10 ? "yes" : "no") }')"
}
srcline_pair "report --sort srcline, inlined frames, C++ -O2 -g" \
	"report -i $tmp/cxx.data --stdio --sort srcline --inline" \
	"report -i $tmp/cxx.data --stdio --sort srcline"
srcline_pair "script with srcline, C++ -O2 -g" \
	"script -i $tmp/cxx.data -F comm,tid,time,ip,sym,srcline --inline" \
	"script -i $tmp/cxx.data -F comm,tid,time,ip,sym,srcline"
