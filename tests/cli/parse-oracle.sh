#!/usr/bin/env bash
# Oracle for the event-list parser: perf itself.  `perf stat -vv` prints the
# perf_event_attr it asks the kernel for (even when the open then fails),
# so for each event the fields pmu's parser fills must equal perf's.
. "$(dirname "$0")/lib.sh"

EVDUMP=$PMU_BUILD/tests/evdump
if ! command -v perf >/dev/null 2>&1; then
	echo "# perf is not installed"; exit 77
fi
if [ ! -x "$EVDUMP" ]; then
	echo "# $EVDUMP not built"; exit 77
fi

FIELDS="type config config1 config2 exclude_user exclude_kernel exclude_hv
	exclude_guest exclude_host precise_ip pinned"

# perf_fields EVENT: "field=value ..." from the first attr perf prints;
# perf leaves out fields that are zero.
perf_fields() {
	perf stat -vv -e "$1" true 2>&1 | awk -v fields="$FIELDS" '
		/^perf_event_attr:/ { inside = 1; seen = 1; next }
		inside && /^-+$/ { exit }
		# perf names union members together: "{ bp_addr, config1 }"
		inside && /^ *\{/ {
			k = $0; sub(/^ *\{ */, "", k); sub(/ *\}.*/, "", k)
			val = $0; sub(/.*\} */, "", val)
			if (k ~ /config1/) k = "config1"
			else if (k ~ /config2/) k = "config2"
			v[k] = val; next
		}
		inside { v[$1] = $2 }
		END {
			if (!seen) exit 1
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++)
				printf "%s=%s%s", f[i], (f[i] in v) ? v[f[i]] : "0", i < n ? " " : "\n"
		}'
}

# pmu_fields EVENT: the same fields from the parser's dump.
pmu_fields() {
	"$EVDUMP" "$1" 2>"$TMP/err" | head -1 | tr ' ' '\n' | awk -v fields="$FIELDS" -F= '
		{ v[$1] = $2; seen = 1 }
		END {
			if (!seen) exit 1
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++)
				printf "%s=%s%s", f[i], v[f[i]], i < n ? " " : "\n"
		}'
}

events=(
	task-clock cpu-clock page-faults faults context-switches cs
	cpu-migrations minor-faults major-faults alignment-faults
	emulation-faults dummy
	cycles instructions cache-references cache-misses branches
	branch-misses bus-cycles ref-cycles stalled-cycles-frontend
	L1-dcache-loads L1-dcache-load-misses L1-dcache-stores LLC-loads
	LLC-load-misses dTLB-load-misses iTLB-load-misses branch-load-misses
	L1-icache-load-misses node-loads
	r01c2 cycles:u cycles:k instructions:uk cs:h cycles:pp cycles:D
	task-clock:u L1-dcache-load-misses:k
	sched:sched_switch sched:sched_switch:k msr/tsc/ msr/tsc/u
	msr/event=0x1/
	cycles:G cycles:H cycles:GH cycles:HG cycles:uG task-clock:H cs:G
	sched:sched_switch:G msr/tsc/H {cycles,cs}:G {cycles,cs}:uH
	cycles:h cycles:kh cycles:hu cycles:S cycles:I cycles:pk
	cycles:Gu cycles:uG cycles:kG cycles:pH {cycles,cs}:k {cycles:k,cs}:u
	{cycles,cs}:D {cycles:k}:D {cycles:G}:u {cycles:G}:H {cycles:u}:G
)

for ev in "${events[@]}"; do
	if ! want=$(perf_fields "$ev"); then
		skip "$ev: perf cannot use it on this machine"
		continue
	fi
	if ! got=$(pmu_fields "$ev"); then
		not_ok "$ev: pmu rejects it"
		diag "$(cat "$TMP/err")"
		continue
	fi
	expect_eq "$ev matches perf" "$got" "$want"
done

# pmu encode reads strings with the parser pmu stat -e uses: whatever
# perf (and pmu stat) take, pmu encode answers with perf's attr.
encode_fields() {
	"$PMU" encode --json "$1" 2>"$TMP/err" | python3 -c '
import json, sys
fields = sys.argv[1].split()
d = json.loads(sys.stdin.readline())
p = d["perf"]
p["pinned"] = 0
print(" ".join("%s=%s" % (f, int(p[f], 16) if str(p[f]).startswith("0x") else p[f]) for f in fields))
' "$FIELDS"
}
for ev in msr/tsc/ tsc smi r01c2 sched:sched_switch sched:sched_switch:k \
	cycles:u page-faults:uk duration_time 'cs:G'; do
	if ! want=$(perf_fields "$ev"); then
		skip "encode $ev: perf cannot use it on this machine"
		continue
	fi
	# perf prints config in hex and the rest in decimal
	want=$(python3 -c 'import sys
print(" ".join("%s=%d" % (k, int(v, 0)) for k, v in (f.split("=") for f in sys.argv[1].split())))' "$want")
	if ! got=$(encode_fields "$ev"); then
		not_ok "encode $ev: pmu encode rejects what pmu stat takes"
		diag "$(cat "$TMP/err")"
		continue
	fi
	expect_eq "encode $ev: perf's attr" "$got" "$want"
done
done_testing
