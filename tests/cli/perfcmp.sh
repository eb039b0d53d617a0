# Helpers for tests that run perf stat and pmu stat on the same command
# line and compare what they print.  Sourced after lib.sh (not a test:
# not executable).  Values differ from run to run; what is compared is
# the structure: rows, their order, the columns and the words in them.

# both ARGS...: `perf stat ARGS` and `pmu stat ARGS`; output (stderr, or
# -o's file) in $TMP/perf and $TMP/pmu, exit codes in PERF_RC, PMU_RC.
both() {
	perf stat "$@" >"$TMP/perf.out" 2>"$TMP/perf"
	PERF_RC=$?
	"$PMU" stat "$@" >"$TMP/pmu.out" 2>"$TMP/pmu"
	PMU_RC=$?
}

# A number, or perf's spelled-out rates, as one word.
_norm='
	{
		gsub(/[KMG]\/sec/, "/sec")
		gsub(/-?[0-9][0-9.,]*(e[-+][0-9]+)?/, "N")
	}'

# csv_shape FILE [SEP]: every -x line with its numbers replaced by N.
csv_shape() {
	awk -F"${2:-,}" "$_norm"'{ print }' "$1"
}

# text_shape FILE: every line's length and its words, numbers as N; the
# lengths are perf's field widths, which do not depend on the values.
text_shape() {
	awk '{ n = length($0) }'"$_norm"'{ gsub(/ +/, " "); print n ":" $0 }' "$1"
}

# text_shape_cgroup FILE: text_shape without the "  (xx.xx%)" after a
# cgroup's event: a CPU switching between cgroups stops the event for a
# moment, so whether its running time falls short of its enabled time
# is the kernel's timing (perf prints the share then too).
text_shape_cgroup() {
	sed -E 's/  \([0-9]+\.[0-9]+%\)$//' "$1" >"$1.nopct"
	text_shape "$1.nopct"
}

# text_words FILE: the words of every line only (for lines whose width
# depends on the values, e.g. -B's separators).
text_words() {
	awk "$_norm"'{ gsub(/ +/, " "); sub(/^ /, ""); sub(/ $/, ""); print }' "$1"
}

# first_lines N FILE: the shape of the first N lines (the header and the
# first interval: how many intervals fit in a run depends on the load).
first_lines() {
	head -n "$1" "$2" >"$2.head"
	text_shape "$2.head"
}
first2() { first_lines 2 "$1"; }

# json_shape FILE: per line, the keys in order and the string values
# that are not numbers (event names, units, aggregation ids).
json_shape() {
	python3 -c '
import json, re, sys
num = re.compile(r"^-?[0-9.]+$")
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        print("<blank>"); continue
    o = json.loads(line)
    # perf 6.1 names the unit of a metric it never found "(null)";
    # later perf, and pmu, leave the metric out
    if o.get("metric-unit") == "(null)":
        del o["metric-unit"]
        o.pop("metric-value", None)
    out = []
    for k, v in o.items():
        if isinstance(v, str) and not num.match(v):
            v = re.sub(r"[KMG]/sec", "/sec", v)
            out.append("%s=%s" % (k, v))
        else:
            out.append(k)
    print(" ".join(out))
' "$1"
}

# same_output NAME SHAPE-FUNCTION: pmu's and perf's output have the same
# shape; on a difference both are shown.
same_output() {
	local name=$1 how=$2
	"$how" "$TMP/perf" >"$TMP/perf.shape" 2>&1
	"$how" "$TMP/pmu" >"$TMP/pmu.shape" 2>&1
	if cmp -s "$TMP/perf.shape" "$TMP/pmu.shape"; then
		ok "$name"
	else
		not_ok "$name"
		diff "$TMP/perf.shape" "$TMP/pmu.shape" | sed 's/^/# /' | head -30
		sed 's/^/# perf |/; s/$/|/' "$TMP/perf" | head -30
		sed 's/^/# pmu  |/; s/$/|/' "$TMP/pmu" | head -30
	fi
}

# same_rc NAME: both exited alike (perf's usage errors are 129, pmu's 2).
same_rc() {
	local p=$PERF_RC
	[ "$p" = 129 ] && p=2
	expect_eq "$1" "$PMU_RC" "$p"
}
