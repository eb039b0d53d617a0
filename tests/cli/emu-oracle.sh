#!/usr/bin/env bash
# pmu stat --emulate against cachegrind, the oracle: the same programs
# (tests/emu/), the same cache geometry, the same environment (pmu's
# emulator and cachegrind in one VALGRIND_LIB directory, env -i), and
# the model events the emulation maps to cachegrind's counts:
#   Ir                fam10h RETIRED_INSTRUCTIONS
#   LLmr = ILmr+DLmr  fam10h INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM +
#                     DATA_CACHE_REFILLS_FROM_SYSTEM:EXCLUSIVE
#   DLmw              fam10h DATA_CACHE_REFILLS_FROM_SYSTEM:MODIFIED
#   D1mr, D1mw        p5 DATA_READ_MISS, DATA_WRITE_MISS
#   I1mr, Dr, Dw      p5 CODE_CACHE_MISS, DATA_READ, DATA_WRITE
#   Bc, Bi            p4 retired_branch_type:CONDITIONAL, and :INDIRECT
#                     less :RETURN (P4's INDIRECT takes returns too)
# Exact, but for two documented differences:
#  - forkexec: its child runs 4 instructions (one a conditional branch)
#    between fork and execve, which cachegrind drops with the child's
#    image and pmu counts as perf would (tests/emu/forkexec.c);
#  - threads: the order in which Valgrind hands its lock between the
#    threads is the kernel's, so the data caches see the threads'
#    accesses in an order that varies run to run (cachegrind's own
#    D1mr/D1mw/DLmr/DLmw spread is about 0.1%): those are compared within
#    0.5%, its data reads and writes and conditional branches within
#    0.05%, its instructions within 0.01% and its indirect branches
#    within 2% (below), every other count exactly.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/emu-lib.sh"
require_emu

D=$(emu_dir)
GEOM="32768,8,64 32768,8,64 8388608,16,64"
set -- $GEOM
CG_GEOM="--I1=$1 --D1=$2 --LL=$3"
PMU_GEOM="--emulate-opt I1=$1 --emulate-opt D1=$2 --emulate-opt LL=$3"
RUN=$TMP/run
mkdir -p "$RUN"
ENV=(env -i PATH=/usr/bin:/bin PMU_EMU_DIR="$D")

# pmu_run NAME MODEL EVENTS CMD...: counts into $TMP/NAME.counts
pmu_run() {
	local name=$1 model=$2 ev=$3; shift 3
	(cd "$RUN" && "${ENV[@]}" "$PMU" stat --emulate-model "$model" \
		$PMU_GEOM -x, -o "$TMP/$name.csv" -e "$ev" -- "$@" \
		>"$TMP/$name.out" 2>"$TMP/$name.err")
	pmu_counts "$TMP/$name.csv" >"$TMP/$name.counts"
}

cg_run() { # NAME CMD...: totals into $TMP/NAME.cg
	local name=$1; shift
	(cd "$RUN" && "${ENV[@]}" VALGRIND_LIB="$D" valgrind -q \
		--tool=cachegrind --branch-sim=yes $CG_GEOM \
		--trace-children=yes --cachegrind-out-file="$TMP/$name.cgo.%p" \
		"$@" >"$TMP/$name.cgout" 2>"$TMP/$name.cgerr")
	cg_totals "$TMP/$name.cgo" >"$TMP/$name.cg"
}

# near A B PCT: |A - B| <= PCT% of B
near() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'; }

compare() { # workload quantity pmu-value cachegrind-value [pct]
	local w=$1 q=$2 got=$3 want=$4 pct=${5:-}
	if [ -n "$pct" ]; then
		if [ "$got" != none ] && [ "$want" != none ] && near "$got" "$want" "$pct"; then
			ok "$w: $q $got within $pct% of cachegrind's $want"
		else
			not_ok "$w: $q $got within $pct% of cachegrind's $want"
		fi
	else
		expect_eq "$w: $q equals cachegrind's" "$got" "$want"
	fi
}

for w in loops calls sort strings threads forkexec; do
	prog=$WORK/$w
	cg_run "$w" "$prog"
	pmu_run "$w.a" fam10h "RETIRED_INSTRUCTIONS,INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM,DATA_CACHE_REFILLS_FROM_SYSTEM:EXCLUSIVE,DATA_CACHE_REFILLS_FROM_SYSTEM:MODIFIED" "$prog"
	pmu_run "$w.b" p5 "DATA_READ_MISS,DATA_WRITE_MISS" "$prog"
	pmu_run "$w.c" p5 "CODE_CACHE_MISS,DATA_READ" "$prog"
	pmu_run "$w.d" p5 "DATA_WRITE" "$prog"
	pmu_run "$w.e" p4 "retired_branch_type:CONDITIONAL,retired_branch_type:INDIRECT" "$prog"
	pmu_run "$w.f" p4 "retired_branch_type:RETURN" "$prog"
	cg=$TMP/$w.cg
	check "$w: cachegrind ran" [ -s "$cg" ]
	extra_ir=0 extra_bc=0 tol=
	if [ $w = forkexec ]; then extra_ir=4 extra_bc=1; fi
	if [ $w = threads ]; then tol=0.5; fi
	# threads: which thread finds the lock taken (and runs the C
	# library's waiting path) is the scheduler's, the same for both
	# tools' runs only on an idle machine: on a loaded one a run read
	# 50 of 2,769,922 instructions and 9 of 271,509 conditional branches
	# more than cachegrind's; 0.01% and 0.05% for that workload only
	itol= btol=
	if [ $w = threads ]; then itol=0.01 btol=0.05; fi
	ir=$(value RETIRED_INSTRUCTIONS "$TMP/$w.a.counts")
	compare $w Ir "$ir" $(( $(value Ir "$cg") + extra_ir )) $itol
	ilmr=$(value INSTRUCTION_CACHE_REFILLS_FROM_SYSTEM "$TMP/$w.a.counts")
	dlmr=$(value DATA_CACHE_REFILLS_FROM_SYSTEM:EXCLUSIVE "$TMP/$w.a.counts")
	compare $w LLmr $((ilmr + dlmr)) $(( $(value ILmr "$cg") + $(value DLmr "$cg") )) $tol
	compare $w DLmw "$(value DATA_CACHE_REFILLS_FROM_SYSTEM:MODIFIED "$TMP/$w.a.counts")" "$(value DLmw "$cg")" $tol
	compare $w D1mr "$(value DATA_READ_MISS "$TMP/$w.b.counts")" "$(value D1mr "$cg")" $tol
	compare $w D1mw "$(value DATA_WRITE_MISS "$TMP/$w.b.counts")" "$(value D1mw "$cg")" $tol
	compare $w I1mr "$(value CODE_CACHE_MISS "$TMP/$w.c.counts")" "$(value I1mr "$cg")"
	# threads: the data reads and writes are separate runs of the
	# program, and one ASan run on a loaded machine read 12 of 228,485
	# fewer than cachegrind's run (the threads' interleaving is the
	# kernel's; C-library paths such as a lock found free or taken read
	# differently): 0.05% for that workload only, exact for the others
	dtol=
	if [ $w = threads ]; then dtol=0.05; fi
	compare $w Dr "$(value DATA_READ "$TMP/$w.c.counts")" "$(value Dr "$cg")" $dtol
	compare $w Dw "$(value DATA_WRITE "$TMP/$w.d.counts")" "$(value Dw "$cg")" $dtol
	bc=$(value retired_branch_type:CONDITIONAL "$TMP/$w.e.counts")
	compare $w Bc "$bc" $(( $(value Bc "$cg") + extra_bc )) $btol
	ind=$(value retired_branch_type:INDIRECT "$TMP/$w.e.counts")
	ret=$(value retired_branch_type:RETURN "$TMP/$w.f.counts")
	# threads: whether pthread_join finds a thread finished or waits
	# for it depends on Valgrind's scheduling, and the waiting path of
	# the C library takes a few more indirect branches (seen: 375 vs
	# 378 between runs): a small band for that workload only
	bitol=
	if [ $w = threads ]; then bitol=2; fi
	compare $w Bi $((ind - ret)) "$(value Bi "$cg")" $bitol
	# the program ran, under both, with the same output
	check "$w: same output under pmu and cachegrind" cmp -s "$TMP/$w.a.out" "$TMP/$w.cgout"
done

# Without the shared directory pmu's program sees one variable more than
# cachegrind's (VALGRIND_LIB, which valgrind needs to find pmu's tool):
# the work of the dynamic loader and the C library's start-up grows by a
# few hundred instructions, a fixed cost within 0.001% of a run of 170
# million instructions.
(cd "$RUN" && valgrind -q --tool=cachegrind --cache-sim=no \
	--cachegrind-out-file="$TMP/plain.cgo.1" "$WORK/loops" 1000 >/dev/null 2>&1)
cg_totals "$TMP/plain.cgo" >"$TMP/plain.cg"
(cd "$RUN" && "$PMU" stat --emulate -x, -o "$TMP/plain.csv" -e instructions \
	-- "$WORK/loops" 1000 >/dev/null 2>&1)
pmu_counts "$TMP/plain.csv" >"$TMP/plain.counts"
compare "loops 1000, pmu's own environment" Ir \
	"$(value instructions "$TMP/plain.counts")" "$(value Ir "$TMP/plain.cg")" 0.001

done_testing
