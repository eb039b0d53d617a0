#!/usr/bin/env bash
# pmu serve under load, beside Prometheus' node_exporter and its perf
# collector: 50 concurrent scrapers for SERVE_SECONDS (default 60) each;
# failed scrapes, whether memory stays flat, and the exporter's CPU time
# per scrape and per counter (an event on a CPU).  Rows of run.sh's table.
#   bench/serve.sh PMU
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pmu=$1
secs=${SERVE_SECONDS:-60}
scrapers=50
tmp=$(mktemp -d)
trap 'kill $spid $npid 2>/dev/null; rm -rf "$tmp"' EXIT
spid= npid=
ncpu=$(nproc)
events=task-clock,cpu-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,alignment-faults

# the serve tests' start_serve (on a port the system picks)
PMU=$pmu TMP=$tmp
. "$here/../tests/cli/serve_lib.sh"
start_serve -a -A -e $events ||
	{ echo "serve.sh: pmu serve did not start: $(cat "$tmp/serve.err")" >&2; exit 1; }
spid=$PID
read -r _ s_ok _ s_fail _ s_cpu _ s_rss0 _ s_rss1 _ s_peak _ s_series < <(
	python3 "$here/serve-load.py" "http://127.0.0.1:$PORT/metrics" $spid "$secs" $scrapers)
kill $spid; wait $spid 2>/dev/null; spid=
s_counters=$((8 * ncpu))

ne=$(command -v prometheus-node-exporter || command -v node_exporter || true)
if [ -n "$ne" ]; then
	nport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	"$ne" --collector.disable-defaults --collector.perf \
		--web.listen-address=127.0.0.1:$nport >"$tmp/ne.log" 2>&1 &
	npid=$!
	for _ in $(seq 1 100); do
		python3 -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$nport/metrics', timeout=1)" 2>/dev/null && break
		sleep 0.1
	done
	read -r _ n_ok _ n_fail _ n_cpu _ n_rss0 _ n_rss1 _ n_peak _ n_series < <(
		python3 "$here/serve-load.py" "http://127.0.0.1:$nport/metrics" $npid "$secs" $scrapers)
	n_counters=$(python3 -c "import urllib.request as u
b = u.urlopen('http://127.0.0.1:$nport/metrics').read().decode()
print(sum(1 for l in b.splitlines() if l.startswith('node_perf_')))")
	kill $npid; wait $npid 2>/dev/null; npid=
fi

awk -v ok="$s_ok" -v fail="$s_fail" -v secs="$secs" -v n=$scrapers 'BEGIN {
	printf "| pmu serve, 8 events per CPU, %d scrapers for %d s: failed scrapes | %d of %d | goal 0 | - | 0 | %s |\n",
	       n, secs, fail, ok + fail, fail == 0 ? "yes" : "no" }'
awk -v a="$s_rss0" -v b="$s_rss1" -v p="$s_peak" 'BEGIN {
	printf "| same, resident memory: peak / warm (a fifth into the load) | %d kB / %d kB (%d at the end) | - | %.3f | <= 1.10 | %s |\n",
	       p, a, b, p / a, p / a <= 1.10 ? "yes" : "no" }'
awk -v c="$s_cpu" -v ok="$s_ok" -v k="$s_counters" 'BEGIN {
	printf "| same, CPU per scrape; per scrape and counter | %.1f us; %.2f us | - | - | - | - |\n",
	       c / ok * 1e6, c / ok / k * 1e6 }'
if [ -n "$ne" ]; then
	awk -v sc="$s_cpu" -v sok="$s_ok" -v sk="$s_counters" -v nc="$n_cpu" \
	    -v nok="$n_ok" -v nk="$n_counters" -v nf="$n_fail" 'BEGIN {
		s = sc / sok / sk; m = nc / nok / nk
		printf "| exporter CPU per scrape and counter: pmu serve / node_exporter --collector.perf (%d counters, %d of %d scrapes failed) | %.2f us | %.2f us | %.3f | <= 1.00 | %s |\n",
		       nk, nf, nok + nf, s * 1e6, m * 1e6, s / m, s <= m ? "yes" : "no" }'
	awk -v s="$s_peak" -v m="$n_peak" 'BEGIN {
		printf "| exporter peak resident memory: pmu serve / node_exporter | %d kB | %d kB | %.3f | - | - |\n",
		       s, m, s / m }'
fi
