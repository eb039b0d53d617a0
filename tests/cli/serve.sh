#!/usr/bin/env bash
# pmu serve: the exposition checked by the formats' own parsers
# (promtool for Prometheus' text format, prometheus_client's OpenMetrics
# parser), the HTTP side (negotiation, methods, paths, concurrent
# scrapers, a malformed request, a client that leaves mid-response),
# monotonic counters, process targets against the kernel's own CPU time,
# and every bad option with its error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

# a Python with prometheus_client (Debian's python3-prometheus-client)
PYOM=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null &&
	   "$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
		PYOM=$p
		break
	fi
done

# --- options and their errors ---
run_pmu "$TMP/o" "$TMP/e" serve --help
expect_eq "--help: exit 0" "$RC" 0
expect_match "--help: names the listen option" "$TMP/o" '--listen ADDR:PORT'
expect_match "pmu --help lists serve" <("$PMU" --help 2>&1) '^ +serve '

bad() {   # bad NAME EXIT REGEX ARGS...
	local name=$1 want=$2 re=$3
	shift 3
	run_pmu "$TMP/o" "$TMP/e" serve "$@"
	expect_eq "$name: exit $want" "$RC" "$want"
	expect_match "$name: says why" "$TMP/e" "$re"
}
bad "unknown option" 2 "unknown option '--bogus'" --bogus
bad "a command" 2 "unexpected argument 'ls'" --print ls
bad "--interval 5" 2 "--interval '5'" --print -I 5
bad "--interval x" 2 "--interval 'x'" --print -I x
bad "--threads 0" 2 "--threads '0'" --threads 0
bad "-p and -G" 2 "one of -G, --per-cgroup and -p" -p 1 -G /
bad "-p with --per-cpu" 2 "--per-cpu counts on CPUs" -p 1 -A
bad "-p not a pid" 2 "-p 'abc'" --print -p abc
bad "no such process" 1 "no such process: 2147483646" --print -p 2147483646
bad "an unknown event" 1 "unknown event 'nosuchevent'" --print -e task-clock,nosuchevent
bad "an unknown metric" 1 "no metric or metric group 'nosuchmetric'" --print -M nosuchmetric
bad "--print=xml" 2 "--print='xml'" --print=xml
for l in nohost 1.2.3.4:99999 '[::1' 127.0.0.1:abc 127.0.0.1: 300.1.1.1:80 ':-1'; do
	bad "--listen '$l'" 1 "not HOST:PORT" -l "$l" -e task-clock
done
bad "a cgroup that is not there" 1 "no such cgroup" --print --per-cgroup=/no/such/cgroup.$$

# --- contrib: the scrape configuration and the unit's command line ---
root=$(cd "$here/../.." && pwd)
if command -v promtool >/dev/null; then
	check "contrib/prometheus.yml: promtool check config accepts it" \
		sh -c 'promtool check config "$1" >/dev/null 2>&1' sh \
		"$root/contrib/prometheus.yml"
else
	skip "contrib/prometheus.yml: no promtool (Debian package prometheus)"
fi
# the unit's options, as pmu serve reads them (--print: no listening)
args=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$root/contrib/pmu-serve.service" |
       sed -e 's/^ExecStart=[^ ]* serve//' -e 's/\\$//' | tr -d '\n\t')
# shellcheck disable=SC2086
run_pmu "$TMP/o" "$TMP/e" serve $args --print -I 10
expect_eq "contrib/pmu-serve.service: its options work (exit 0)" "$RC" 0
[ "$RC" = 0 ] || sed 's/^/# /' "$TMP/e"

# --- the exposition ---
run_pmu "$TMP/prom" "$TMP/e" serve --print -I 50 -e task-clock,page-faults,cycles -A
expect_eq "--print: exit 0" "$RC" 0
ncpu=$(getconf _NPROCESSORS_ONLN)
expect_eq "--per-cpu: one task-clock series per CPU" \
	"$(grep -c '^pmu_event_total{event="task-clock",cpu="[0-9]*"} [0-9]' "$TMP/prom")" "$ncpu"
expect_match "the events' unit, support and what they count" "$TMP/prom" \
	'^pmu_event_desc_info\{event="task-clock",unit="ns",supported="true",description="[^"]+"\} 1$'
if command -v promtool >/dev/null; then
	check "promtool check metrics accepts the Prometheus format" \
		promtool check metrics <"$TMP/prom"
else
	skip "promtool: not installed (Debian package prometheus)"
fi
# -C: those CPUs only
run_pmu "$TMP/c" "$TMP/e" serve --print -I 20 -C 0 -A -e task-clock
expect_eq "-C 0 --per-cpu: only CPU 0's series" \
	"$(grep -c '^pmu_event_total{' "$TMP/c")/$(grep -c '^pmu_event_total{event="task-clock",cpu="0"}' "$TMP/c")" "1/1"
# -M: a metric of this machine's model, a gauge per CPU (NaN where its
# events are not counted, as here without a PMU)
metric=$("$PMU" list --metrics 2>/dev/null | awk 'NF && $1 !~ /^\[/ { print $1; exit }')
if [ -n "$metric" ]; then
	run_pmu "$TMP/m" "$TMP/e" serve --print -I 20 -A -M "$metric"
	expect_eq "-M $metric: exit 0" "$RC" 0
	expect_eq "-M $metric: one gauge per CPU" \
		"$(grep -cE "^pmu_metric\{metric=\"$metric\",cpu=\"[0-9]+\"(,unit=\"[^\"]*\")?\} ([0-9.e+-]+|NaN)\$" "$TMP/m")" "$ncpu"
	expect_match "-M: the metric's events are counted too" "$TMP/m" '^pmu_event_desc_info'
else
	skip "-M: this machine's model has no metrics"
	skip "-M: this machine's model has no metrics"
	skip "-M: this machine's model has no metrics"
fi
run_pmu "$TMP/om" "$TMP/e" serve --print=openmetrics -I 50 -e task-clock,page-faults -M nosuchmetric
expect_eq "an unknown metric with --print=openmetrics: exit 1" "$RC" 1
run_pmu "$TMP/om" "$TMP/e" serve --print=openmetrics -I 50 -e task-clock,page-faults
expect_eq "--print=openmetrics: exit 0" "$RC" 0
expect_eq "OpenMetrics ends with # EOF" "$(tail -1 "$TMP/om")" "# EOF"
if [ -n "$PYOM" ]; then
	check "prometheus_client's OpenMetrics parser reads it: families, units, samples" \
		"$PYOM" - "$TMP/om" <<'PY'
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
ev = fams["pmu_event"]
assert ev.type == "counter", ev.type
names = {s.labels["event"] for s in ev.samples if s.name == "pmu_event_total"}
assert names == {"task-clock", "page-faults"}, names
assert fams["pmu_event_enabled_seconds"].unit == "seconds"
assert fams["pmu_event_desc"].type == "info"
assert fams["pmu_up"].samples[0].value == 1
tc = [s.value for s in ev.samples if s.labels["event"] == "task-clock"]
assert tc and tc[0] > 0, tc
PY
else
	skip "OpenMetrics parser: no prometheus_client (Debian package python3-prometheus-client)"
fi

# --- HTTP ---

if start_serve -I 50 -e task-clock,page-faults,context-switches; then
	ok "serve: listening on a port of the system's choice"
	check "HTTP: negotiation, paths, methods, monotonic counters, 50 concurrent scrapers, hostile clients" \
		python3 "$here/serve_http.py" "$PORT"
	check "still answering after all that" \
		python3 "$here/serve_http.py" "$PORT" --once
	stop_serve
	expect_eq "SIGTERM: exit 0" "$STOP_RC" 0
else
	not_ok "serve: listening on a port of the system's choice"
	sed 's/^/# /' "$TMP/serve.err"
fi

# the port taken: a clear error
if start_serve -e task-clock; then
	run_pmu "$TMP/o" "$TMP/e" serve -l 127.0.0.1:$PORT -e task-clock
	expect_eq "a port in use: exit 1" "$RC" 1
	expect_match "a port in use: says so" "$TMP/e" "cannot listen on 127.0.0.1:$PORT"
	stop_serve
fi

# --- a process target against the kernel's own CPU time ---
# a process that waits on a fifo, is counted from then on, burns CPU,
# then sleeps (an exec: same pid, no more CPU): its task-clock equals
# the CPU time the scheduler gives it (serve_lib.sh's near_cpu)
mkfifo "$TMP/go"
sh -c 'read x <"$1"; i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done; exec sleep 60' \
	sh "$TMP/go" &
busy=$!
if start_serve -I 50 -p $busy -e task-clock; then
	echo go >"$TMP/go"
	for _ in $(seq 1 1200); do   # until it sleeps (at most 60 s)
		[ "$(awk '{ print $2 }' /proc/$busy/stat)" = "(sleep)" ] && break
		sleep 0.05
	done
	proc_ns=$(cpu_ns $busy)
	tc=$(python3 "$here/serve_http.py" "$PORT" --value \
		"pmu_event_total{event=\"task-clock\",pid=\"$busy\"}")
	stop_serve
	diag "task-clock $tc ns, the scheduler's $proc_ns ns"
	check "-p: task-clock near the process's CPU time as the scheduler sums it" \
		near_cpu "${tc:-0}" "${proc_ns:-0}"
else
	not_ok "-p: pmu serve started"
	sed 's/^/# /' "$TMP/serve.err"
	echo go >"$TMP/go"
fi
kill $busy 2>/dev/null
wait $busy 2>/dev/null
done_testing
