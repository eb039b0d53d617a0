# Helpers of the pmu serve tests (sourced, after lib.sh).

# start_serve ARGS...: pmu serve on a port the system picks; sets $PID
# and $PORT (from its "listening on" line); 1 when it did not start
start_serve() {
	"$PMU" serve -l 127.0.0.1:0 "$@" 2>"$TMP/serve.err" &
	PID=$!
	PORT=
	for _ in $(seq 1 400); do
		PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\),.*/\1/p' "$TMP/serve.err" 2>/dev/null)
		[ -n "$PORT" ] && return 0
		kill -0 $PID 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}

# stop_serve: SIGTERM, its exit status in $STOP_RC
stop_serve() {
	kill -TERM $PID 2>/dev/null
	wait $PID
	STOP_RC=$?
}

# scrape: GET /metrics of the pmu serve on $PORT
scrape() {
	python3 -c 'import sys, urllib.request as u
sys.stdout.write(u.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=20).read().decode())' "$PORT"
}

# cpu_ns PID: the CPU time the kernel gives the process, in ns: the
# scheduler's own sum (/proc/PID/schedstat), else utime + stime in ticks
cpu_ns() {
	if [ -r /proc/$1/schedstat ]; then
		awk '{ print $1 }' /proc/$1/schedstat
	else
		awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($14 + $15) / hz * 1e9 }' /proc/$1/stat
	fi
}

# near_cpu COUNT CPU: a task-clock COUNT against the scheduler's CPU time
# of the same work: not below it by more than 1%, above it by at most
# 10% (task-clock runs on the clock while the task is on the CPU,
# interrupts included; the scheduler's sum leaves their time out, which
# under load is several percent)
near_cpu() {
	awk -v a="${1:-0}" -v b="${2:-0}" 'BEGIN {
		if (a <= 0 || b <= 0) exit 1
		exit !(a >= 0.99 * b && a <= 1.10 * b) }'
}
