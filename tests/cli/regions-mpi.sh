#!/usr/bin/env bash
# An MPI job under pmu stat --regions (mpirun runs a pmu stat per rank):
# rank 0 prints one report of every rank's regions, gathered by MPI
# itself at MPI_Finalize; the other ranks say where theirs went.  The
# figures are checked against what each rank's kernel counted.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v mpicc >/dev/null && command -v mpirun >/dev/null ||
	{ echo "1..0 # SKIP no MPI here (Debian packages libopenmpi-dev, openmpi-bin)"; exit 77; }
[ -e "$PMU_BUILD/libpmu-mpi.so" ] ||
	{ echo "1..0 # SKIP $PMU_BUILD/libpmu-mpi.so not built"; exit 77; }
# A sanitized libpmu.so in Open MPI's processes: LeakSanitizer's tracer
# now and then crashes at their exit ("Tracer caught signal 11"), in
# Open MPI's threads; leaks are checked by the other region tests.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
# Open MPI runs as root only when told to
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1

mpicc -I"$root/include" -o "$TMP/mpi-regions" \
	"$root/tests/workload/mpi-regions.c" -L"$PMU_BUILD" -l:libpmu.so.0 \
	-Wl,-rpath,"$PMU_BUILD" 2>"$TMP/cc.err"
expect_eq "the MPI program builds with mpicc" "$?" 0

timeout 300 mpirun --oversubscribe -np 4 "$PMU" stat --regions --per-rank \
	-e page-faults -j -- "$TMP/mpi-regions" >"$TMP/o" 2>"$TMP/e"
rc=$?
expect_eq "mpirun -np 4 pmu stat --regions: exit 0" "$rc" 0
[ "$rc" = 0 ] || grep -v '^{' "$TMP/e" | sed 's/^/# /' | head -40
check "one report: rank 0's rows, every rank's figures" python3 - \
	"$TMP/o" "$TMP/e" <<'PY'
import json, re, sys
out = open(sys.argv[1]).read()
err = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
want = {int(r): int(f) for r, f in
        re.findall(r"^rank (\d+) of 4 faults (\d+)$", out, re.M)}
assert sorted(want) == [0, 1, 2, 3], out
spread = [d for d in err if d.get("region") == "work" and "ranks" in d
          and d["event"] == "page-faults"]
assert len(spread) == 1, spread           # one report, not four
s = spread[0]
assert s["ranks"] == 4 and s["calls"] == 4, s
assert abs(s["min"] - min(want.values())) <= 2, (s, want)
assert abs(s["max"] - max(want.values())) <= 2, (s, want)
assert abs(s["sum"] - sum(want.values())) <= 8, (s, want)
assert abs(s["mean"] - sum(want.values()) / 4) <= 2, (s, want)
assert s["max-rank"] == 3 and s["min-rank"] == 0, s
rows = [d for d in err if d.get("region") == "work" and "rank" in d
        and d["event"] == "page-faults"]
assert sorted(d["rank"] for d in rows) == [0, 1, 2, 3], rows
for d in rows:
    assert abs(d["inclusive"] - want[d["rank"]]) <= 2, (d, want)
times = [d for d in err if d.get("region") == "work" and "ranks" in d
         and d["event"] == "time"]
assert len(times) == 1 and times[0]["sum"] > 0, times
PY

timeout 300 mpirun --oversubscribe -np 3 "$PMU" stat --regions \
	-e page-faults -- "$TMP/mpi-regions" >"$TMP/o" 2>"$TMP/e"
rc=$?
expect_eq "text: exit 0" "$rc" 0
[ "$rc" = 0 ] || sed 's/^/# /' "$TMP/e" | head -40
expect_eq "text: one job report" \
	"$(grep -c "Region 'work' (3 calls in 3 threads of 3 ranks)" "$TMP/e")" 1
expect_eq "text: the other ranks say where theirs went" \
	"$(grep -c 'gathered to rank 0' "$TMP/e")" 2
expect_match "text: the spread's columns" "$TMP/e" \
	'sum +min +mean +max +rank of max'

# one process, no mpirun: a job of one rank
"$PMU" stat --regions -e page-faults -j -- "$TMP/mpi-regions" \
	>"$TMP/o" 2>"$TMP/e"
expect_eq "singleton: exit 0" "$?" 0
expect_match "singleton: a job of one rank" "$TMP/e" \
	'"region" : "work", "ranks" : 1'

# Fortran: MPI_FINALIZE (Open MPI's Fortran bindings call PMPI_Finalize
# past the C MPI_Finalize), with `use mpi` and `use mpi_f08`; rank R
# enters "work" R + 1 times; "after" comes after MPI_Finalize and is
# each rank's own
fortran_job() {   # fortran_job NAME [-DF08]
	(cd "$TMP" && mpif90 -cpp ${2:-} -o "$TMP/$1" "$root/compat/pmu_regions.f90" \
		"$root/tests/workload/mpi-regions.f90" -L"$PMU_BUILD" \
		-l:libpmu.so.0 -Wl,-rpath,"$PMU_BUILD" >"$TMP/cc.err" 2>&1)
	expect_eq "$1: builds with mpif90" "$?" 0
	timeout 300 mpirun --oversubscribe -np 3 "$PMU" stat --regions \
		--per-rank -e page-faults -j -- "$TMP/$1" >"$TMP/o" 2>"$TMP/e"
	rc=$?
	expect_eq "$1: mpirun -np 3: exit 0" "$rc" 0
	[ "$rc" = 0 ] || grep -v '^{' "$TMP/e" | sed 's/^/# /' | head -40
	check "$1: one job report, each rank's calls; 'after' each rank's own" \
		python3 - "$TMP/e" <<'PY'
import json, sys
err = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
spread = [d for d in err if d.get("region") == "work" and "ranks" in d
          and d["event"] == "time"]
assert len(spread) == 1, spread
assert spread[0]["ranks"] == 3 and spread[0]["calls"] == 6, spread
rows = {d["rank"]: d["calls"] for d in err if d.get("region") == "work"
        and "rank" in d and d["event"] == "time"}
assert rows == {0: 1, 1: 2, 2: 3}, rows
# the job's report never has "after": each rank prints its own thread's
# row, once per rank, one call each
assert not [d for d in err if d.get("region") == "after" and
            ("ranks" in d or "rank" in d)], err
after = [d for d in err if d.get("region") == "after"
         and d["event"] == "time"]
assert len(after) == 3 and all(d["calls"] == 1 and "thread" in d
                               for d in after), after
assert len({d["pid"] for d in after}) == 3, after
PY
}
if command -v mpif90 >/dev/null && command -v gfortran >/dev/null; then
	fortran_job mpi-f90
	fortran_job mpi-f08 -DF08
	# text: the ranks' own regions after MPI_Finalize, under a heading
	timeout 300 mpirun --oversubscribe -np 2 "$PMU" stat --regions \
		-e page-faults -- "$TMP/mpi-f90" >"$TMP/o" 2>"$TMP/e"
	expect_eq "text, Fortran: exit 0" "$?" 0
	expect_eq "text, Fortran: each rank's regions after MPI_Finalize" \
		"$(grep -c 'Regions of rank [01] after MPI_Finalize' "$TMP/e")" 2
	expect_eq "text, Fortran: 'after' once per rank, not in the job's" \
		"$(grep -c "Region 'after' (1 call in 1 thread)" "$TMP/e")" 2
else
	for i in 1 2 3 4 5 6 7 8; do
		skip "Fortran MPI: needs mpif90 and gfortran (Debian packages libopenmpi-dev, gfortran)"
	done
fi

run_pmu "$TMP/o" "$TMP/e" stat --per-rank -- true
expect_eq "--per-rank without --regions: exit 2" "$RC" 2
expect_match "--per-rank without --regions: says so" "$TMP/e" \
	"give --regions too"
done_testing
