#!/usr/bin/env bash
# The shared library exports exactly what the public headers declare
# with PMU_API, every symbol listed by name in lib/libpmu.map under a
# release node, nothing internal (pmu__*) or stray.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
so="$PMU_BUILD/libpmu.so"
[ -e "$so" ] || { echo "1..0 # SKIP no shared library in $PMU_BUILD"; exit 77; }

# Declared: names of functions in PMU_API declarations (which may
# continue on the following lines), and of variables (PMU_API extern);
# pmu/perfmon.h keeps perfmon2's pfm_ names.
awk '/PMU_API/ { buf = $0; while (buf !~ /[(;]/ && (getline line) > 0)
		buf = buf " " line; print buf }' "$root"/include/pmu/*.h |
	grep -oE '(pmu|pfm)_[a-z0-9_]* *\(|extern [a-z ]*(pmu|pfm)_[a-z0-9_]* *;' |
	grep -oE '(pmu|pfm)_[a-z0-9_]*' | sort -u >"$TMP/declared"
# Listed: the map's global names (no globs).
sed -n '/global:/,/local:/p' "$root/lib/libpmu.map" |
	grep -oE '^[[:space:]]+[A-Za-z_][A-Za-z0-9_*]*;' | tr -d ' \t;' |
	sort >"$TMP/listed"
# Exported: defined dynamic symbols with their version.
nm -D --defined-only "$so" | awk '$2 == "T" || $2 == "D" || $2 == "B" ||
	$2 == "R" { print $3 }' | sort >"$TMP/exported"

check "the headers declare functions" [ -s "$TMP/declared" ]
expect_eq "the map lists no glob" "$(grep -c '\*' "$TMP/listed")" 0
expect_eq "every declared function is listed, nothing else" \
	"$(comm -3 "$TMP/declared" "$TMP/listed" | tr -d '\t' | tr '\n' ' ')" ""
expect_eq "every listed function is exported, nothing else" \
	"$(sed 's/@.*//' "$TMP/exported" | comm -3 - "$TMP/listed" |
	   tr -d '\t' | tr '\n' ' ')" ""
expect_eq "every export carries a release version" \
	"$(grep -vc '@@LIBPMU_[0-9]' "$TMP/exported")" 0
expect_eq "no internal symbol is exported" \
	"$(grep -c '^pmu__' "$TMP/exported")" 0
done_testing
