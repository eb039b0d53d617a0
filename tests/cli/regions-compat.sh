#!/usr/bin/env bash
# Programs marked for other tools run under pmu stat --regions
# unchanged: LIKWID's own marker examples (C and Fortran, built against
# Debian's likwid headers and library), a program built against
# Debian's papi.h and libpapi, and pmu's own Fortran module.  Each tool
# that is missing skips its part, saying which package brings it.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
[ -e "$PMU_BUILD/libpmu-markers.so" ] ||
	{ echo "1..0 # SKIP $PMU_BUILD/libpmu-markers.so not built"; exit 77; }
command -v cc >/dev/null || { echo "1..0 # SKIP no C compiler"; exit 77; }
# libpmu-markers.so is preloaded into programs that are not sanitized
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export OMP_NUM_THREADS=2

# LIKWID's examples sleep 2 s at each step: a sleep() that returns at
# once keeps them unchanged and quick
printf 'unsigned int sleep(unsigned int s) { (void)s; return 0; }\n' \
	>"$TMP/fastsleep.c"
cc -shared -fPIC -o "$TMP/fastsleep.so" "$TMP/fastsleep.c"

# field FILE REGION EVENT KEY [all|thread]: the total's figure (or the
# number of per-thread rows with "rows")
field() {
	python3 - "$@" <<'EOF'
import json, sys
path, region, event, key = sys.argv[1:5]
rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.startswith("{")]
rows = [r for r in rows if r.get("region") == region and r["event"] == event]
if key == "rows":
    print(sum("thread" in r for r in rows))
else:
    tot = [r for r in rows if "thread" not in r]
    v = tot[0][key] if tot else ""
    print(int(v) if isinstance(v, float) and v == int(v) else v)
EOF
}

ex=/usr/share/likwid/examples
if [ -r "$ex/C-markerAPI.c" ] && [ -r /usr/include/likwid-marker.h ]; then
	cc -fopenmp -DLIKWID_PERFMON -o "$TMP/cmarker" "$ex/C-markerAPI.c" \
		-llikwid 2>"$TMP/cc.err"
	expect_eq "LIKWID C example: builds against likwid-marker.h" "$?" 0
	LD_PRELOAD=$TMP/fastsleep.so "$PMU" stat --regions -e task-clock \
		-j -o "$TMP/j" -- "$TMP/cmarker" >"$TMP/o" 2>"$TMP/e"
	expect_eq "LIKWID C example: exit 0" "$?" 0
	expect_eq "LIKWID C example: region 'example', 10 calls in each of 2 threads" \
		"$(field "$TMP/j" example task-clock calls)/$(field "$TMP/j" example task-clock rows)" \
		"20/2"
	expect_no_match "LIKWID C example: LIKWID itself did not run" "$TMP/e" \
		"likwid|LIKWID"
else
	skip "LIKWID C example: not installed (Debian package likwid)"
	skip "LIKWID C example: not installed (Debian package likwid)"
	skip "LIKWID C example: not installed (Debian package likwid)"
	skip "LIKWID C example: not installed (Debian package likwid)"
fi

if [ -r "$ex/F-markerAPI.F90" ] && [ -r /usr/include/likwid.mod ] &&
	command -v gfortran >/dev/null; then
	gfortran -fopenmp -cpp -DLIKWID_PERFMON -I/usr/include \
		-o "$TMP/fmarker" "$ex/F-markerAPI.F90" -llikwid 2>"$TMP/cc.err"
	expect_eq "LIKWID Fortran example: builds with its module" "$?" 0
	LD_PRELOAD=$TMP/fastsleep.so "$PMU" stat --regions -e task-clock \
		-j -o "$TMP/j" -- "$TMP/fmarker" >"$TMP/o" 2>"$TMP/e"
	expect_eq "LIKWID Fortran example: exit 0" "$?" 0
	expect_eq "LIKWID Fortran example: region 'example' in each of 2 threads" \
		"$(field "$TMP/j" example task-clock calls)/$(field "$TMP/j" example task-clock rows)" \
		"2/2"
else
	skip "LIKWID Fortran example: needs likwid and gfortran"
	skip "LIKWID Fortran example: needs likwid and gfortran"
	skip "LIKWID Fortran example: needs likwid and gfortran"
fi

if [ -r /usr/include/papi.h ]; then
	cc -o "$TMP/papi-hl" "$root/tests/workload/papi-hl.c" -lpapi \
		2>"$TMP/cc.err"
	expect_eq "PAPI program: builds against papi.h" "$?" 0
	(cd "$TMP" && "$PMU" stat --regions -e task-clock,page-faults -j \
		-o "$TMP/j" -- "$TMP/papi-hl" 7 >"$TMP/o" 2>"$TMP/e")
	expect_eq "PAPI program: exit 0" "$?" 0
	expect_match "PAPI program: every PAPI_hl call succeeded" "$TMP/o" \
		'^done 7$'
	expect_eq "PAPI program: region 'computation', 7 calls" \
		"$(field "$TMP/j" computation task-clock calls)" 7
	expect_eq "PAPI program: region 'io', 1 call" \
		"$(field "$TMP/j" io page-faults calls)" 1
	check "PAPI program: its loop's time counted" python3 -c "
import sys; sys.exit(not float('$(field "$TMP/j" computation task-clock inclusive)') > 0)"
	check "PAPI program: PAPI itself wrote nothing" \
		test ! -e "$TMP/papi_hl_output"
else
	skip "PAPI program: papi.h not installed (Debian package libpapi-dev)"
fi

if command -v gfortran >/dev/null; then
	(cd "$TMP" && gfortran -o "$TMP/rf90" "$root/compat/pmu_regions.f90" \
		"$root/tests/workload/regions.f90" -L"$PMU_BUILD" \
		-l:libpmu.so.0 -Wl,-rpath,"$PMU_BUILD" 2>"$TMP/cc.err")
	expect_eq "pmu's Fortran module: builds with gfortran" "$?" 0
	"$PMU" stat --regions -e task-clock -j -o "$TMP/j" -- "$TMP/rf90" \
		>"$TMP/o" 2>"$TMP/e"
	expect_eq "pmu's Fortran module: exit 0" "$?" 0
	expect_eq "pmu's Fortran module: 'outer' twice" \
		"$(field "$TMP/j" outer task-clock calls)" 2
	expect_eq "pmu's Fortran module: 'inner' twice (trailing blanks dropped)" \
		"$(field "$TMP/j" inner task-clock calls)" 2
	expect_match "pmu's Fortran module: a mismatch returns -22 in ierr" \
		"$TMP/o" '^mismatch -22$'
	expect_match "pmu's Fortran module: active under pmu" "$TMP/o" '^active T$'
	expect_match "pmu's Fortran module: the mismatch reported" "$TMP/e" \
		"end of region 'b' while 'a'"
	"$TMP/rf90" >"$TMP/o" 2>&1
	expect_match "pmu's Fortran module: inactive outside pmu" "$TMP/o" \
		'^active F$'
else
	skip "pmu's Fortran module: no gfortran (Debian package gfortran)"
fi

# C++: a region for a scope's lifetime, ended by a return or a throw
if command -v c++ >/dev/null; then
	c++ -I"$root/include" -o "$TMP/rcpp" "$root/tests/workload/regions.cpp" \
		-L"$PMU_BUILD" -l:libpmu.so.0 -Wl,-rpath,"$PMU_BUILD" 2>"$TMP/cc.err"
	expect_eq "C++ scope: builds" "$?" 0
	"$PMU" stat --regions -e task-clock -j -o "$TMP/j" -- "$TMP/rcpp" \
		>"$TMP/o" 2>"$TMP/e"
	expect_eq "C++ scope: exit 0" "$?" 0
	expect_eq "C++ scope: 'work' 3 times (a return, a throw)" \
		"$(field "$TMP/j" work task-clock calls)" 3
	expect_eq "C++ scope: 'outer' once" "$(field "$TMP/j" outer task-clock calls)" 1
	expect_no_match "C++ scope: every region ended in order" "$TMP/e" \
		"end of region|open at exit"
else
	skip "C++ scope: no C++ compiler"
fi

# the Python module (ctypes over libpmu)
if command -v python3 >/dev/null; then
	PYTHONPATH=$root/python PMU_LIBPMU=$PMU_BUILD/libpmu.so.0 \
		"$PMU" stat --regions -e task-clock -j -o "$TMP/j" -- \
		python3 "$root/tests/workload/regions.py" >"$TMP/o" 2>"$TMP/e"
	expect_eq "Python module: exit 0" "$?" 0
	expect_eq "Python module: 'outer' once" \
		"$(field "$TMP/j" outer task-clock calls)" 1
	expect_eq "Python module: the decorated function's 7 calls" \
		"$(field "$TMP/j" step task-clock calls)" 7
	expect_eq "Python module: 'thread-work' 3 times in each of 2 threads" \
		"$(field "$TMP/j" thread-work task-clock calls)/$(field "$TMP/j" thread-work task-clock rows)" \
		"6/2"
	expect_match "Python module: an end of nothing raises, errno 22" \
		"$TMP/o" '^error 22$'
	expect_match "Python module: active under pmu" "$TMP/o" '^active True$'
	PYTHONPATH=$root/python PMU_LIBPMU=$PMU_BUILD/libpmu.so.0 \
		python3 "$root/tests/workload/regions.py" >"$TMP/o" 2>&1
	expect_match "Python module: inactive outside pmu" "$TMP/o" \
		'^active False$'
else
	skip "Python module: no python3"
fi

# a program that calls no other tool's markers gets no preload
"$PMU" stat --regions -e task-clock -- env >"$TMP/o" 2>"$TMP/e"
expect_no_match "no preload into a program without such markers" "$TMP/o" \
	"libpmu-markers"

done_testing
