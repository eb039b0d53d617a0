#!/usr/bin/env bash
# Checks that dependencies in lib/ point down the layers (DEVELOPERS.md):
#
#   lib/hwmodel, lib/sim include nothing from util, events, drivers,
#                        session or tools (they are freestanding)
#   lib/util             includes nothing from events, drivers, session,
#                        and of the public headers only error.h and
#                        host.h (version.c: pmu.h, pmu_version's own)
#   lib/drivers          includes no events/, session/ or profile/ header
#   lib/perfmon          (perfmon2's engine) includes no session, stat,
#                        events or profile header; of lib/drivers only
#                        driver.h and pfm_hw.h, of lib/sim only pebs.h;
#                        nothing below it includes it
#   lib/session          includes of lib/drivers only the interfaces
#                        (driver.h, pfm_hw.h, perf_ring.h), of lib/sim
#                        only the PEBS record layout (pebs.h); compares
#                        no driver's name ("perf", "sim", "emu"): it asks
#                        for a capability (lib/stat and lib/profile
#                        neither)
#   lib/profile          includes nothing of lib/drivers or lib/sim: it
#                        opens and reads events through sessions
#   lib/proto            (the emulator's protocol, a wire format both
#                        sides include) includes only lib/hwmodel
#   lib/stat             (the counting engine) includes only public
#                        headers and lib/util: a client of the session
#                        API; nothing below it includes it or
#                        <pmu/stat.h>
#   lib/region           (region markers and their reports) includes
#                        only public headers and lib/util, as lib/stat;
#                        nothing below it includes it or <pmu/region.h>
#   lib/util, lib/events, lib/session
#                        include no profile/ header: profiles (perf.data,
#                        symbols, reports) sit above the sessions
#   lib/events           includes no session/ header and, of lib/drivers,
#                        only the interface (driver.h: the event object
#                        it produces for every driver); calls none of
#                        perf_event_open, syscall(), ioctl(), mmap(): it
#                        never touches counting descriptors
#   lib/ (all of it)     names /proc/cpuinfo only in lib/util/cpuid.c, the
#                        host identity
#   lib/events modules   no include cycle between modules, a module being
#                        a file's name up to its first '_' or '.'
#                        (encode_x86.c -> encode; tables/* -> tables)
#   lib/session, lib/perfmon, lib/events/jsondir*.c
#                        (--objects) no cycle of calls between two files:
#                        each folder's bottom file (session_base.c,
#                        pfm_core.c, jsondir_base.c) says the order
#
# With --objects BUILD it also reads the symbol tables of BUILD/obj/lib/
# events/*.o and fails on a cycle in which modules call which: a shared
# header can hide a call from the include graph, nm cannot; and those of
# every lib/ object there, failing on a global symbol without the
# library's prefix (pmu_, pmu__, pfm_).
#
# usage: scripts/check-layers.sh [--root DIR] [--objects BUILD] [--graph]
# Prints one "file:line: what" per violation (and each cycle with the
# includes or calls that make it) and exits 1 if there is any.  --graph
# also prints the lib/events module graph, one "module -> module" a line.
set -u

root=$(cd "$(dirname "$0")/.." && pwd)
objects=
graph=0
while [ $# -gt 0 ]; do
	case "$1" in
	--root) root=$2; shift 2 ;;
	--objects) objects=$2; shift 2 ;;
	--graph) graph=1; shift ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "check-layers: unknown option '$1'" >&2; exit 2 ;;
	esac
done
cd "$root" || exit 2

# One "INC file line path" or "CALL file line name" per include or
# forbidden call, comments and string literals left out.
scan() {
	awk '
	FNR == 1 { incomment = 0 }
	{
		code = ""; keep = ""; line = $0; n = length(line)
		for (i = 1; i <= n; i++) {
			c = substr(line, i, 1); d = substr(line, i, 2)
			if (incomment) {
				if (d == "*/") { incomment = 0; i++ }
				continue
			}
			if (d == "/*") { incomment = 1; i++; continue }
			if (d == "//") break
			if (c == "\"" || c == "\047") {
				q = c; keep = keep c; code = code " "
				for (i++; i <= n; i++) {
					c = substr(line, i, 1); keep = keep c
					if (c == "\\") { i++; keep = keep substr(line, i, 1); continue }
					if (c == q) break
				}
				continue
			}
			code = code c; keep = keep c
		}
		if (match(keep, /^[ \t]*#[ \t]*include[ \t]*"[^"]+"/)) {
			p = substr(keep, RSTART, RLENGTH); sub(/^[^"]*"/, "", p); sub(/"$/, "", p)
			print "INC", FILENAME, FNR, p
		} else if (match(keep, /^[ \t]*#[ \t]*include[ \t]*<(hwmodel|sim|proto|region|util|events|drivers|perfmon|session|stat|profile|tools|pmu)\/[^>]+>/)) {
			# <...> reaches lib/ too, through -Ilib
			p = substr(keep, RSTART, RLENGTH); sub(/^[^<]*</, "", p); sub(/>$/, "", p)
			print "INC", FILENAME, FNR, p
		}
		if (index(keep, "/proc/cpuinfo"))
			print "CPUINFO", FILENAME, FNR, "/proc/cpuinfo"
		if (FILENAME ~ /^lib\/(session|stat|profile)\// &&
		    match(keep, /str(n)?(case)?cmp[ \t]*\([^;]*"(perf|sim|emu)"/))
			print "DRVNAME", FILENAME, FNR, "-"
		if (FILENAME !~ /^lib\/events\//)
			next
		s = code
		while (match(s, /(^|[^A-Za-z0-9_])(perf_event_open|syscall[ \t]*\(|ioctl[ \t]*\(|mmap[ \t]*\()/)) {
			w = substr(s, RSTART, RLENGTH); sub(/^[^A-Za-z]/, "", w); sub(/[ \t]*\($/, "", w)
			print "CALL", FILENAME, FNR, w
			s = substr(s, RSTART + RLENGTH)
		}
	}' "$@"
}

# Where an include points: the lib/ directory name (model, sim, util,
# events, drivers, session...), "tools", "pmu" (public) or "?" plus the
# resolved path.  Paths without a directory are beside the includer.
# Reads "INC file line path", prints "file line dir resolved".
resolve() {
	awk '
	function norm(p,   n, a, out, i, k) {
		n = split(p, a, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (a[i] == "." || a[i] == "") continue
			if (a[i] == ".." && k > 0) { k--; continue }
			out[++k] = a[i]
		}
		p = ""
		for (i = 1; i <= k; i++) p = p (i > 1 ? "/" : "") out[i]
		return p
	}
	{
		file = $2; path = $4; dir = file; sub(/\/[^\/]*$/, "", dir)
		if (path ~ /^\.\.?\// || path !~ /\//)
			r = norm(dir "/" path)
		else if (path ~ /^(tools|lib|include)\//)
			r = norm(path)
		else if (path ~ /^pmu\//)
			r = "include/" path
		else
			r = norm("lib/" path)
		if (r ~ /^lib\/[^\/]+\//) { top = r; sub(/^lib\//, "", top); sub(/\/.*/, "", top) }
		else if (r ~ /^tools\//) top = "tools"
		else if (r ~ /^include\/pmu\//) top = "pmu"
		else top = "?"
		print file, $3, top, r
	}'
}

# Module of a lib/events path: its name up to the first '_' or '.';
# everything under tables/ is one module.
module_of() { # path
	local p=${1#lib/events/}
	case "$p" in
	tables/*) echo tables ;;
	*) p=${p##*/}; p=${p%%.*}; echo "${p%%_*}" ;;
	esac
}

# Reads "EDGE from to witness" lines and prints every elementary cycle
# found by a depth-first search (one per back edge), with the witness of
# each edge; exits 1 if there is one.
find_cycles() { # label
	awk -v label="$1" '
	$1 == "EDGE" && $2 != $3 {
		key = $2 SUBSEP $3
		if (!(key in wit)) {
			w = $0; sub(/^EDGE [^ ]+ [^ ]+ /, "", w)
			wit[key] = w; adj[$2] = adj[$2] " " $3
		}
		nodes[$2] = 1; nodes[$3] = 1
	}
	function dfs(u,   n, a, i, v, k, s) {
		color[u] = 1; stack[++depth] = u
		n = split(adj[u], a, " ")
		for (i = 1; i <= n; i++) {
			v = a[i]
			if (color[v] == 1) {
				for (k = depth; stack[k] != v; k--) ;
				s = ""
				for (; k <= depth; k++) s = s stack[k] " -> "
				printf "%s cycle: %s%s\n", label, s, v
				for (k = depth; stack[k] != v; k--) ;
				for (; k < depth; k++)
					printf "    %s -> %s: %s\n", stack[k], stack[k + 1], wit[stack[k], stack[k + 1]]
				printf "    %s -> %s: %s\n", u, v, wit[u, v]
				found = 1
			} else if (!color[v]) {
				dfs(v)
			}
		}
		depth--; color[u] = 2
	}
	END {
		# sorted start order, so the report does not depend on awk hashing
		m = 0
		for (x in nodes) order[++m] = x
		for (i = 2; i <= m; i++)
			for (j = i; j > 1 && order[j - 1] > order[j]; j--) {
				t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
			}
		for (i = 1; i <= m; i++)
			if (!color[order[i]]) dfs(order[i])
		exit found
	}'
}

fail=0
files=$(find lib -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "check-layers: no sources under $root/lib" >&2; exit 2; }
# shellcheck disable=SC2086
scanned=$(scan $files)

violation() { echo "$1:$2: $3"; fail=1; }

while read -r file line top target; do
	case "$file:$top" in
	lib/hwmodel/*:util|lib/hwmodel/*:events|lib/hwmodel/*:drivers|\
	lib/hwmodel/*:session|lib/hwmodel/*:tools|\
	lib/sim/*:util|lib/sim/*:events|lib/sim/*:drivers|\
	lib/sim/*:session|lib/sim/*:tools)
		violation "$file" "$line" "includes $target: lib/hwmodel and lib/sim are freestanding and include only each other" ;;
	lib/util/*:events|lib/util/*:drivers|lib/util/*:session)
		violation "$file" "$line" "includes $target: lib/util is below the event, driver and session layers" ;;
	lib/util/*:pmu)
		# the API of util's own level; the umbrella header only for
		# pmu_version's declaration
		case "$target" in
		include/pmu/error.h|include/pmu/host.h) ;;
		include/pmu/pmu.h) [ "$file" = lib/util/version.c ] ||
			violation "$file" "$line" "includes $target: lib/util implements no API of a higher layer" ;;
		*) violation "$file" "$line" "includes $target: lib/util implements no API of a higher layer" ;;
		esac ;;
	lib/drivers/*:events|lib/drivers/*:session)
		violation "$file" "$line" "includes $target: a driver never parses event names nor knows sessions" ;;
	lib/util/*:profile|lib/drivers/*:profile|lib/events/*:profile|\
	lib/session/*:profile|lib/hwmodel/*:profile|lib/sim/*:profile)
		violation "$file" "$line" "includes $target: profiles sit above the sessions; nothing below includes them" ;;
	lib/events/*:drivers)
		[ "$target" = lib/drivers/driver.h ] ||
		violation "$file" "$line" "includes $target: the event layer knows drivers by their interface (drivers/driver.h) only" ;;
	lib/events/*:session)
		violation "$file" "$line" "includes $target: the event layer is below the sessions" ;;
	lib/session/*:drivers)
		# the interface, the register view perfmon2 runs on, the
		# sample ring the interface's map_buffer hands out
		case "$target" in
		lib/drivers/driver.h|lib/drivers/pfm_hw.h|lib/drivers/perf_ring.h) ;;
		*) violation "$file" "$line" "includes $target: a session knows drivers by their interfaces (drivers/driver.h) only" ;;
		esac ;;
	lib/profile/*:drivers)
		violation "$file" "$line" "includes $target: profiles reach drivers through sessions only" ;;
	lib/proto/*:hwmodel) ;;
	lib/proto/*:*)
		violation "$file" "$line" "includes $target: a protocol header is freestanding (lib/hwmodel only): the emulator includes it too" ;;
	lib/profile/*:sim)
		violation "$file" "$line" "includes $target: profiles never reach into the simulator" ;;
	lib/session/*:sim)
		# the P4 PEBS record layout, which perfmon2's format reads
		[ "$target" = lib/sim/pebs.h ] ||
		violation "$file" "$line" "includes $target: a session never reaches into the simulator" ;;
	lib/perfmon/*:session|lib/perfmon/*:stat|lib/perfmon/*:events|\
	lib/perfmon/*:profile)
		violation "$file" "$line" "includes $target: perfmon2's engine is below the sessions" ;;
	lib/perfmon/*:drivers)
		case "$target" in
		lib/drivers/driver.h|lib/drivers/pfm_hw.h) ;;
		*) violation "$file" "$line" "includes $target: perfmon2's engine knows drivers by their interfaces (driver.h, pfm_hw.h) only" ;;
		esac ;;
	lib/perfmon/*:sim)
		[ "$target" = lib/sim/pebs.h ] ||
		violation "$file" "$line" "includes $target: perfmon2's engine never reaches into the simulator" ;;
	lib/util/*:perfmon|lib/hwmodel/*:perfmon|lib/sim/*:perfmon|\
	lib/drivers/*:perfmon|lib/events/*:perfmon)
		violation "$file" "$line" "includes $target: perfmon2's engine sits above the drivers and events" ;;
	lib/stat/*:perfmon)
		violation "$file" "$line" "includes $target: the counting engine is a client of the public session API" ;;
	lib/stat/*:drivers|lib/stat/*:sim|lib/stat/*:session|\
	lib/stat/*:events|lib/stat/*:hwmodel)
		violation "$file" "$line" "includes $target: the counting engine is a client of the public session API" ;;
	lib/region/*:drivers|lib/region/*:sim|lib/region/*:session|\
	lib/region/*:events|lib/region/*:hwmodel|lib/region/*:perfmon|\
	lib/region/*:stat|lib/region/*:profile)
		violation "$file" "$line" "includes $target: region markers are a client of the public session API" ;;
	lib/util/*:region|lib/hwmodel/*:region|lib/sim/*:region|\
	lib/drivers/*:region|lib/events/*:region|lib/session/*:region|\
	lib/perfmon/*:region|lib/stat/*:region|lib/profile/*:region)
		violation "$file" "$line" "includes $target: region markers sit above the sessions" ;;
	lib/util/*:stat|lib/hwmodel/*:stat|lib/sim/*:stat|lib/drivers/*:stat|\
	lib/events/*:stat|lib/session/*:stat)
		violation "$file" "$line" "includes $target: the counting engine sits above the sessions" ;;
	lib/util/*:pmu|lib/hwmodel/*:pmu|lib/sim/*:pmu|lib/drivers/*:pmu|\
	lib/events/*:pmu|lib/session/*:pmu)
		[ "$target" = include/pmu/stat.h ] &&
		violation "$file" "$line" "includes $target: the counting engine sits above the sessions"
		[ "$target" = include/pmu/region.h ] &&
		violation "$file" "$line" "includes $target: region markers sit above the sessions" ;;
	esac
done < <(echo "$scanned" | awk '$1 == "INC"' | resolve)

while read -r _ file line name; do
	violation "$file" "$line" "calls $name: the event layer never touches counting file descriptors"
done < <(echo "$scanned" | awk '$1 == "CALL"')

while read -r _ file line _; do
	violation "$file" "$line" "compares a driver's name: ask the driver for a capability (PMU__DRV_*, or the operation itself)"
done < <(echo "$scanned" | awk '$1 == "DRVNAME"')

while read -r _ file line _; do
	violation "$file" "$line" "reads /proc/cpuinfo: the host identity (lib/util/cpuid.c) is its only reader"
done < <(echo "$scanned" | awk '$1 == "CPUINFO" && $2 != "lib/util/cpuid.c"')

edges=$(echo "$scanned" | awk '$1 == "INC" && $2 ~ /^lib\/events\//' | resolve |
	while read -r file line top target; do
		[ "$top" = events ] || continue
		echo "EDGE $(module_of "$file") $(module_of "$target") $file:$line"
	done)
echo "$edges" | find_cycles "lib/events include" || fail=1
print_graph() { # label
	[ "$graph" = 1 ] && awk -v l="$1" '$1 == "EDGE" && $2 != $3 { print l ": " $2 " -> " $3 }' | sort -u
}
echo "$edges" | print_graph include

if [ -n "$objects" ]; then
	# objects of the sources there are now (a build tree keeps the
	# objects of deleted files)
	objs=$(for f in $files; do
		case "$f" in lib/events/*.c) echo "$objects/obj/${f%.c}.o" ;; esac
	done)
	for o in $objs; do
		[ -f "$o" ] && continue
		echo "check-layers: $o is missing: build first" >&2
		exit 2
	done
	calls=$(for o in $objs; do
		rel=${o#"$objects"/obj/}
		nm -A "$o" | awk -v m="$(module_of "$rel")" -v f="$rel" '
			$2 == "U" { print "U", m, f, $3 }
			NF == 3 && $2 ~ /^[TDRBVW]$/ { print "D", m, f, $3 }'
	done | awk '
		$1 == "D" { def[$4] = $2; deffile[$4] = $3; next }
		{ use[++n] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				if (u[4] in def)
					print "EDGE", u[2], def[u[4]], u[3] " calls " u[4] " of " deffile[u[4]]
			}
		}')
	echo "$calls" | find_cycles "lib/events call" || fail=1
	echo "$calls" | print_graph call

	# files that call each other one way only (their folder's bottom
	# file says the order): no cycle of calls between two of them
	oneway=$(for f in $files; do
		case "$f" in
		lib/session/*.c|lib/perfmon/*.c|lib/events/jsondir*.c) echo "$f" ;;
		esac
	done)
	for f in $oneway; do
		[ -f "$objects/obj/${f%.c}.o" ] && continue
		echo "check-layers: $objects/obj/${f%.c}.o is missing: build first" >&2
		exit 2
	done
	fcalls=$(for f in $oneway; do
		o=$objects/obj/${f%.c}.o
		nm -A "$o" | awk -v f="$f" '
			$2 == "U" { print "U", f, $3 }
			NF == 3 && $2 ~ /^[TDRBVW]$/ { print "D", f, $3 }'
	done | awk '
		function group(f) { return f ~ /jsondir/ ? "jsondir" : f }
		function dir(f) { sub(/\/[^\/]*$/, "", f); return f }
		$1 == "D" { def[$3] = $2; next }
		{ use[++n] = $0 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				if (!(u[3] in def)) continue
				a = u[2]; b = def[u[3]]
				if (dir(a) != dir(b)) continue
				if ((a ~ /jsondir/) != (b ~ /jsondir/)) continue
				print "EDGE", a, b, a " calls " u[3] " of " b
			}
		}')
	echo "$fcalls" | find_cycles "file call" || fail=1

	# every global symbol of the library carries its prefix: pmu_ (the
	# API), pmu__ (internal), pfm_ (perfmon2's API)
	for f in $files; do
		case "$f" in *.c) o=$objects/obj/${f%.c}.o; [ -f "$o" ] && echo "$o" ;; esac
	done | while read -r o; do
		nm "$o" | awk -v f="${o#"$objects"/obj/}" '
			# (names beginning "__" belong to the toolchain:
			# the __odr_asan.X of a sanitizer build, for one)
			NF == 3 && $2 ~ /^[TDRBVWC]$/ && $3 !~ /^(pmu_|pfm_|__)/ {
				print f ": defines global " $3 ": prefix it pmu__ (or make it static)"
			}'
	done | grep . && fail=1
fi

exit $fail
