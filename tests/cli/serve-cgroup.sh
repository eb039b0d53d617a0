#!/usr/bin/env bash
# pmu serve --per-cgroup, with a real Prometheus server scraping it:
# cgroups created after the start appear, removed ones disappear (from
# the exposition and from Prometheus' instant queries); a cgroup's
# task-clock, as Prometheus stored it, agrees with pmu stat -G over the
# same work and with the kernel's CPU time of its one process (5%); out
# of file descriptors the exporter says so in pmu_up and a log line and
# keeps serving what it has.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/serve_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)

[ "$(id -u)" = 0 ] || { echo "1..0 # SKIP needs root (makes cgroups)"; exit 77; }
# the hierarchy perf counts by: v1 with perf_event, else cgroup2
mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break
	     if ($(i+1) == "cgroup" && $(i+3) ~ /perf_event/) { print $5; exit } }' \
	/proc/self/mountinfo)
[ -n "$mnt" ] || mnt=$(awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break
			      if ($(i+1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
[ -n "$mnt" ] && [ -w "$mnt" ] ||
	{ echo "1..0 # SKIP no writable cgroup hierarchy perf counts by"; exit 77; }
"$PMU" stat -a -e task-clock -G / -- true >/dev/null 2>&1 ||
	{ echo "1..0 # SKIP the kernel counts no cgroup events here (pmu stat -G / fails)"; exit 77; }

top=pmu-serve-test.$$
cg=$mnt/$top
mkdir "$cg" || { echo "1..0 # SKIP cannot make a cgroup under $mnt"; exit 77; }
cleanup() {
	[ -n "${PID:-}" ] && kill -TERM $PID 2>/dev/null
	[ -n "${PROM:-}" ] && kill $PROM 2>/dev/null
	[ -n "${busy:-}" ] && kill $busy 2>/dev/null
	wait 2>/dev/null
	for d in $(find "$cg" -depth -type d 2>/dev/null); do rmdir "$d" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT

# wait_for WHAT CMD...: until CMD succeeds (at most 60 s)
wait_for() {
	local what=$1
	shift
	for _ in $(seq 1 600); do
		"$@" && { ok "$what"; return 0; }
		sleep 0.1
	done
	not_ok "$what"
	return 1
}
has_series() { scrape | grep -q "^pmu_event_total{event=\"task-clock\",cgroup=\"$1\"}"; }
lacks_series() { ! has_series "$1"; }

start_serve --per-cgroup=/$top -I 100 -e task-clock || {
	not_ok "pmu serve --per-cgroup started"; sed 's/^/# /' "$TMP/serve.err"; done_testing; }
ok "pmu serve --per-cgroup started"

# Prometheus, when there is one, scraping every second
PROM=
if command -v prometheus >/dev/null; then
	pport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	cat >"$TMP/prom.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: pmu
    static_configs:
      - targets: ['127.0.0.1:$PORT']
EOF
	prometheus --config.file="$TMP/prom.yml" --storage.tsdb.path="$TMP/tsdb" \
		--web.listen-address=127.0.0.1:$pport >"$TMP/prom.log" 2>&1 &
	PROM=$!
fi
# query EXPR: Prometheus' instant query, one "labels value" line a series
query() { python3 - "$pport" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request as u
url = "http://127.0.0.1:%s/api/v1/query?query=%s" % (sys.argv[1], urllib.parse.quote(sys.argv[2]))
d = json.load(u.urlopen(url, timeout=20))
assert d["status"] == "success", d
for r in d["data"]["result"]:
    print(json.dumps(r["metric"], sort_keys=True), r["value"][1])
PY
}

wait_for "the subtree's own cgroup is a target" has_series "/$top"
mkdir "$cg/a" "$cg/b"
wait_for "cgroups made after the start appear" has_series "/$top/a"
check "... both of them" has_series "/$top/b"

# Prometheus scrapes before the work starts: its samples hold the
# counts' rise
if [ -n "$PROM" ]; then
	up() { query "up" | grep -q ' 1$'; }
	wait_for "Prometheus scrapes pmu serve (up == 1)" up
	seen() { [ -n "$(query "pmu_event_total{cgroup=\"/$top/a\"}")" ]; }
	wait_for "... and has cgroup a's series before the work" seen
else
	skip "Prometheus: not installed (Debian package prometheus)"
	skip "Prometheus: not installed (Debian package prometheus)"
fi

# one process in a: joins, waits, burns CPU, sleeps (exec: same pid)
mkfifo "$TMP/go"
sh -c 'echo $$ >"$1/cgroup.procs" && read x <"$2"; i=0
	while [ $i -lt 500000 ]; do i=$((i+1)); done; exec sleep 120' sh "$cg/a" "$TMP/go" &
busy=$!
# pmu stat -G over the same work, started before it
"$PMU" stat -a -e task-clock -G /$top/a -x, -o "$TMP/stat" -- \
	sh -c 'while [ "$(cut -d" " -f2 /proc/$1/stat)" != "(sleep)" ]; do sleep 0.05; done' \
	sh $busy &
stat_pid=$!
# counting from its command's exec: go once that command runs
for _ in $(seq 1 1200); do
	pgrep -P $stat_pid -x sh >/dev/null && break
	sleep 0.05
done
echo go >"$TMP/go"
wait $stat_pid
proc_ns=$(cpu_ns $busy)
stat_ns=$(awk -F, '$3 == "task-clock" || $3 ~ /^task-clock/ { printf "%d", $1 * 1e6 }' "$TMP/stat")
# two readings after the work: the exporter's figure is final
python3 "$here/serve_http.py" "$PORT" --value "pmu_readings_total" >/dev/null
serve_ns=$(scrape | awk -v s="pmu_event_total{event=\"task-clock\",cgroup=\"/$top/a\"}" '$1 == s { print $2 }')
parent_ns=$(scrape | awk -v s="pmu_event_total{event=\"task-clock\",cgroup=\"/$top\"}" '$1 == s { print $2 }')
diag "task-clock of the cgroup: pmu serve $serve_ns, pmu stat -G $stat_ns, /proc $proc_ns ns"
within() { awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN { if (a <= 0 || b <= 0) exit 1
	d = a / b - 1; if (d < 0) d = -d; exit d > 0.05 }'; }
check "the cgroup's task-clock: within 5% of pmu stat -G's" within "$serve_ns" "$stat_ns"
check "... and near the scheduler's CPU time of its process" near_cpu "$serve_ns" "$proc_ns"
check "the parent cgroup's count holds its child's" \
	awk -v p="${parent_ns:-0}" -v c="${serve_ns:-0}" 'BEGIN { exit !(c > 0 && p >= c) }'

if [ -n "$PROM" ]; then
	stored() {   # what Prometheus holds is the exporter's figure
		local v
		v=$(query "max_over_time(pmu_event_total{event=\"task-clock\",cgroup=\"/$top/a\"}[5m])" |
		    awk '{ print $NF }')
		within "$v" "$stat_ns"
	}
	wait_for "Prometheus' stored task-clock of the cgroup: within 5% of pmu stat -G's" stored
	rated() { query "rate(pmu_event_total{event=\"task-clock\",cgroup=\"/$top/a\"}[1m])" |
		  awk '{ exit !($NF > 0) }'; }
	wait_for "rate() over the work is positive" rated
	check "pmu_up is 1 in Prometheus" sh -c "$(declare -f query); pport=$pport; query pmu_up | grep -q ' 1\$'"
else
	for _ in 1 2 3; do skip "Prometheus: not installed (Debian package prometheus)"; done
fi

# the process gone and its cgroup removed: its series go
kill $busy
wait $busy 2>/dev/null
busy=
rmdir "$cg/a"
wait_for "a removed cgroup disappears" lacks_series "/$top/a"
check "... the other stays" has_series "/$top/b"
if [ -n "$PROM" ]; then
	gone() { [ -z "$(query "pmu_event_total{cgroup=\"/$top/a\"}")" ]; }
	wait_for "... and from Prometheus' instant queries (stale)" gone
	still() { [ -n "$(query "pmu_event_total{cgroup=\"/$top/b\"}")" ]; }
	check "... where the other stays" still
else
	skip "Prometheus: not installed"
	skip "Prometheus: not installed"
fi

# -G: the cgroups named, one target each
"$PMU" serve --print -I 20 -G /$top,/$top/b -e task-clock >"$TMP/g" 2>"$TMP/e"
expect_eq "-G: exit 0" "$?" 0
expect_eq "-G: one series per cgroup named" \
	"$(grep -cE "^pmu_event_total\{event=\"task-clock\",cgroup=\"/$top(/b)?\"\}" "$TMP/g")" 2
"$PMU" serve --print -I 20 -G /$top/nosuch -e task-clock >"$TMP/g" 2>"$TMP/e"
expect_eq "-G: a cgroup that is not there: exit 1" "$?" 1
expect_match "-G: ... names it" "$TMP/e" "$top/nosuch"

# churn: cgroups made and removed while the exporter rescans every 10 ms:
# a cgroup gone between the walk and the open is not an error
kill -TERM $PID
wait $PID
start_serve --per-cgroup=/$top -I 10 -e task-clock
for i in $(seq 1 300); do mkdir "$cg/c$i" && rmdir "$cg/c$i"; done
check "churn: no error counted, pmu_up 1" \
	sh -c "$(declare -f scrape); PORT=$PORT; scrape | grep -q '^pmu_errors_total 0\$' &&
	       scrape | grep -q '^pmu_up 1\$'"
kill -TERM $PID
wait $PID
expect_eq "churn: the exporter ends cleanly" "$?" 0

# out of file descriptors: 40 cgroups, room for a few: a log line,
# pmu_up 0, errors counted, and the cgroups it could open still served.
# Three limits, so that the descriptors run out at every step of a
# cgroup's opening (each takes one to three), whatever this shell left
# open: the lookup of the hierarchy, the cgroup's directory, its events.
for i in $(seq 1 40); do mkdir "$cg/f$i"; done
for lim in 48 49 50; do
	(ulimit -n $lim; exec "$PMU" serve -l 127.0.0.1:0 --per-cgroup=/$top -I 50 -e task-clock) \
		2>"$TMP/serve.err" &
	PID=$!
	PORT=
	for _ in $(seq 1 400); do
		PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err" 2>/dev/null)
		[ -n "$PORT" ] && break
		sleep 0.05
	done
	if [ -n "$PORT" ]; then
		python3 "$here/serve_http.py" "$PORT" --value pmu_readings_total >/dev/null
		scrape >"$TMP/m"
		expect_match "EMFILE ($lim): pmu_up 0" "$TMP/m" '^pmu_up 0$'
		expect_match "EMFILE ($lim): errors counted" "$TMP/m" '^pmu_errors_total [1-9]'
		expect_match "EMFILE ($lim): some cgroups still served" "$TMP/m" "cgroup=\"/$top/f"
		expect_match "EMFILE ($lim): a log line names it" "$TMP/serve.err" \
			'cgroup /'"$top"'/f[0-9]+: .*([Tt]oo many open files|file descriptors)'
	else
		# so few descriptors that even the start failed: it must say why
		expect_match "EMFILE ($lim) at the start: says why" "$TMP/serve.err" \
			'([Tt]oo many open files|file descriptors)'
		skip "EMFILE ($lim): served nothing to check"
		skip "EMFILE ($lim): served nothing to check"
		skip "EMFILE ($lim): served nothing to check"
	fi
	kill -TERM $PID 2>/dev/null
	wait $PID 2>/dev/null
	PID=
done
done_testing
