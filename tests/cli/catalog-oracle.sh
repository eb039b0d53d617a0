#!/usr/bin/env bash
# perf's syntax around the names of its own event tables, with perf as
# the oracle: for CPU models of perf's built-in tables, the event names
# perf lists, each with perf's modifiers (:u, :pp, :G...), in groups with
# group modifiers and inside cpu/NAME,TERM=VALUE/, must give the
# perf_event_attr perf asks the kernel for.  This machine has no core
# PMU, so perf runs in a private mount namespace where
# /sys/bus/event_source/devices holds this machine's PMUs and a core PMU
# "cpu" with the kernel's format strings, and PERF_CPUID names the model
# (pmu reads PMU_CPUID the same way).  perf stat -vv prints each attr
# before the open fails.
. "$(dirname "$0")/lib.sh"

EVDUMP=$PMU_BUILD/tests/evdump
command -v perf >/dev/null 2>&1 || { echo "1..0 # SKIP perf is not installed"; exit 77; }
[ -x "$EVDUMP" ] || { echo "1..0 # SKIP $EVDUMP not built"; exit 77; }
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "1..0 # SKIP needs root and unshare(1) for perf's private sysfs"
	exit 77
fi
case $(uname -m) in
x86_64) ;;
*) echo "1..0 # SKIP the models compared are x86's (perf reads its tables for the host's architecture)"; exit 77 ;;
esac
if perf stat -x, -e instructions:u true 2>&1 >/dev/null | grep -q '^[0-9]'; then
	echo "1..0 # SKIP this machine has a core PMU: perf would use it, not the model named"
	exit 77
fi

FIELDS="type config config1 config2 exclude_user exclude_kernel exclude_hv
	exclude_guest exclude_host precise_ip pinned exclusive exclude_idle
	sample_period"

# The private sysfs: this machine's PMUs (type, format, events) and a
# core PMU of VENDOR's format strings, as the kernel declares them.
fake_sysfs() { # vendor
	local root=$TMP/sys-$1 d n
	rm -rf "$root"
	mkdir -p "$root/bus/event_source/devices"
	for d in /sys/bus/event_source/devices/*; do
		n=$root/bus/event_source/devices/${d##*/}
		mkdir -p "$n"
		cp "$d/type" "$n/"
		for sub in format events; do
			[ -d "$d/$sub" ] && cp -r "$d/$sub" "$n/" 2>/dev/null
		done
	done
	n=$root/bus/event_source/devices/cpu
	mkdir -p "$n/format"
	echo 4 >"$n/type"
	if [ "$1" = intel ]; then
		printf '%s\n' event=config:0-7 umask=config:8-15 edge=config:18 \
			pc=config:19 any=config:21 inv=config:23 cmask=config:24-31 \
			in_tx=config:32 in_tx_cp=config:33 ldlat=config1:0-15 \
			offcore_rsp=config1:0-63 frontend=config1:0-23
	else
		printf '%s\n' event=config:0-7,32-35 umask=config:8-15 \
			edge=config:18 inv=config:23 cmask=config:24-31
	fi | while IFS== read -r term bits; do echo "$bits" >"$n/format/$term"; done
	echo "$root"
}

# in_ns CPUID SYSFS CMD...: CMD in a private mount namespace whose
# /sys/bus/event_source/devices is SYSFS's, perf reading CPUID's tables
in_ns() {
	local cpuid=$1 root=$2; shift 2
	PERF_CPUID=$cpuid unshare -m sh -c 'mount --bind "$1/bus/event_source/devices" /sys/bus/event_source/devices &&
		shift && exec "$@"' sh "$root" "$@" </dev/null
}

# perf_names CPUID SYSFS: the names of perf's tables that perf lists
perf_names() {
	in_ns "$1" "$2" perf list --raw-dump pmu 2>/dev/null |
		tr ' ' '\n' | grep -E '^[a-z][a-z0-9_]*[._][a-z0-9_.]+$'
}

# perf_attrs CPUID SYSFS EVENT...: "field=value ..." per attr perf
# prints, in order; fails when perf refuses the list.
perf_attrs() {
	local cpuid=$1 root=$2; shift 2
	local args=() e
	for e in "$@"; do args+=(-e "$e"); done
	in_ns "$cpuid" "$root" perf stat -vv "${args[@]}" true >"$TMP/perf.out" 2>&1 || :
	grep -q '^perf_event_attr:' "$TMP/perf.out" || return 1
	grep -q 'event syntax error\|Run .perf list. for a list\|invalid or unsupported event' "$TMP/perf.out" && return 1
	awk -v fields="$FIELDS" '
		function out(  n, f, i) {
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++)
				printf "%s=%s%s", f[i], (f[i] in v) ? v[f[i]] : "0", i < n ? " " : "\n"
			delete v
		}
		/^perf_event_attr:/ { inside = 1; next }
		inside && /^-+$/ { inside = 0; out(); next }
		# perf names union members together: "{ bp_addr, config1 }"
		inside && /^ *\{/ {
			k = $0; sub(/^ *\{ */, "", k); sub(/ *\}.*/, "", k)
			val = $0; sub(/.*\} */, "", val)
			if (k ~ /config1/) k = "config1"
			else if (k ~ /config2/) k = "config2"
			else if (k ~ /sample_period/) k = "sample_period"
			v[k] = val; next
		}
		inside { v[$1] = $2 }
	' "$TMP/perf.out"
}

# pmu_attrs CPUID SYSFS EVENT...: the same fields from pmu's parser.
pmu_attrs() {
	local cpuid=$1 root=$2; shift 2
	PMU_CPUID=$cpuid "$EVDUMP" --sysfs "$root" --host names "$@" 2>"$TMP/pmu.err" |
		tr ' ' '\n' | awk -v fields="$FIELDS" -F= '
		$1 == "name" && seen { out() }
		{ v[$1] = $2; seen = 1 }
		function out(  n, f, i) {
			n = split(fields, f, " ")
			for (i = 1; i <= n; i++)
				printf "%s=%s%s", f[i], v[f[i]], i < n ? " " : "\n"
			delete v
		}
		END { if (seen) out() }'
	[ -s "$TMP/pmu.err" ] && return 1
	return 0
}

# forms NAME NAME2 VENDOR: the command lines perf users type around a
# name of perf's tables.
forms() {
	local n=$1 n2=$2 m
	echo "$n"
	for m in u k h uk ku e I p pp ppp P G H GH D S W b upp kG uH Gu pk kh hu uW; do
		echo "$n:$m"
	done
	echo "{$n,$n2}:G"; echo "{$n,$n2}:u"; echo "{$n}:k"; echo "{$n:u,$n2}:k"
	echo "{$n,$n2}:D"; echo "{$n:k}:u"
	echo "cpu/$n/"; echo "cpu/$n/u"; echo "cpu/$n/pp"; echo "cpu/$n,cmask=3/"
	echo "cpu/$n,inv/"; echo "cpu/$n,edge/"; echo "cpu/$n,umask=0x2/"
	echo "cpu/$n,config=0x10000/"; echo "cpu/$n,period=1000/"
	echo "cpu/$n,name=named/"
	if [ "$3" = intel ]; then
		echo "cpu/$n,ldlat=20/"; echo "cpu/$n,any/"; echo "cpu/$n,in_tx=1/"
	fi
}

# model CPUID VENDOR: EVENTS events of perf's table for the model (every
# k-th name; CATALOG_ORACLE_EVENTS=all for every one), each in every
# form: perf's attrs and pmu's, form by form.
EVENTS=${CATALOG_ORACLE_EVENTS:-12}
DIAGS=${CATALOG_ORACLE_DIAGS:-25}      # differences shown per model
[ "$EVENTS" = all ] && EVENTS=1000000
total=0 agree=0
model() {
	local cpuid=$1 vendor=$2 root names n i=0 k bad=0 all=0 f
	local -a list=() pick=() fl=() gl=()
	root=$(fake_sysfs "$vendor")
	perf_names "$cpuid" "$root" >"$TMP/names"
	mapfile -t list <"$TMP/names"
	if [ ${#list[@]} -lt 2 ]; then
		not_ok "$cpuid: perf lists no events of its tables"; return
	fi
	# every k-th name, spread over the table
	k=$(( ${#list[@]} / EVENTS )); [ "$k" -ge 1 ] || k=1
	for ((i = 0; i < ${#list[@]} && ${#pick[@]} < EVENTS; i += k)); do pick+=("${list[$i]}"); done
	for ((i = 0; i < ${#pick[@]}; i++)); do
		n=${pick[$i]}
		mapfile -t fl < <(forms "$n" "${pick[$(( (i + 1) % ${#pick[@]} ))]}" "$vendor" | grep -v '^{')
		mapfile -t gl < <(forms "$n" "${pick[$(( (i + 1) % ${#pick[@]} ))]}" "$vendor" | grep '^{')
		# one perf run for all the single forms of a name when perf
		# takes them all, else one a form; a group alone (perf stops
		# at a leader it cannot open: the leader's attr is compared)
		if perf_attrs "$cpuid" "$root" "${fl[@]}" >"$TMP/want" &&
		   pmu_attrs "$cpuid" "$root" "${fl[@]}" >"$TMP/got" &&
		   cmp -s "$TMP/want" "$TMP/got"; then
			all=$((all + ${#fl[@]}))
			fl=()
		fi
		for f in "${fl[@]}" "${gl[@]}"; do
			all=$((all + 1))
			if ! perf_attrs "$cpuid" "$root" "$f" >"$TMP/want"; then
				if pmu_attrs "$cpuid" "$root" "$f" >/dev/null; then
					bad=$((bad + 1))
					[ $bad -le $DIAGS ] && diag "$cpuid $f: perf refuses it ($(grep -m1 -iE 'error|invalid|unknown' "$TMP/perf.out")), pmu takes it"
				fi
				continue
			fi
			if ! pmu_attrs "$cpuid" "$root" "$f" >"$TMP/got"; then
				bad=$((bad + 1))
				[ $bad -le $DIAGS ] && diag "$cpuid $f: pmu refuses it: $(head -1 "$TMP/pmu.err")"
				continue
			fi
			if ! head -n "$(wc -l <"$TMP/want")" "$TMP/got" | cmp -s - "$TMP/want"; then
				bad=$((bad + 1))
				if [ $bad -le $DIAGS ]; then
					diag "$cpuid $f:"
					diag "  perf $(head -1 "$TMP/want")"
					diag "  pmu  $(head -1 "$TMP/got")"
				fi
			fi
		done
	done
	total=$((total + all)); agree=$((agree + all - bad))
	expect_eq "$cpuid ($vendor, ${#pick[@]} of perf's ${#list[@]} names): forms where pmu and perf differ, of $all" "$bad" 0
}

# models of perf 6.1's tables that the kernel's newer tables map the
# same way: Haswell, Skylake, Skylake-SP, Ice Lake, Sapphire Rapids,
# Zen 1, 2 and 3.  (perf 6.1 has no Zen 4 table: it reads a Zen 4 as a
# Zen 3, where pmu reads the Zen 4 table.)
for m in GenuineIntel-6-3C-3:intel GenuineIntel-6-5E-3:intel GenuineIntel-6-55-4:intel \
	 GenuineIntel-6-7E-5:intel GenuineIntel-6-8F-8:intel \
	 AuthenticAMD-23-1-2:amd AuthenticAMD-23-31-0:amd AuthenticAMD-25-21-0:amd; do
	# CATALOG_ORACLE_MODELS="CPUID..." compares those alone
	case " ${CATALOG_ORACLE_MODELS:-${m%%:*}} " in *" ${m%%:*} "*) ;; *) continue ;; esac
	model "${m%%:*}" "${m##*:}"
done
# A hybrid part (Alder Lake): its two core PMUs, cpu_core and cpu_atom,
# each with its own type.  A name both core types know opens on both, a
# name one knows on that one; perf retries a refused open with other
# settings, so its first attr of each PMU is the one compared, as a set.
hybrid() { # cpuid
	local cpuid=$1 root d n bad=0 all=0 f
	local -a list=() pick=()
	root=$(fake_sysfs intel)
	d=$root/bus/event_source/devices
	mv "$d/cpu" "$d/cpu_core"
	cp -r "$d/cpu_core" "$d/cpu_atom"
	echo 8 >"$d/cpu_atom/type"
	echo 0-1 >"$d/cpu_core/cpus"
	echo 2-3 >"$d/cpu_atom/cpus"
	perf_names "$cpuid" "$root" | sort -u >"$TMP/names"
	mapfile -t list <"$TMP/names"
	k=$(( ${#list[@]} / EVENTS )); [ "$k" -ge 1 ] || k=1
	for ((i = 0; i < ${#list[@]} && ${#pick[@]} < EVENTS; i += k)); do pick+=("${list[$i]}"); done
	local keys="type config config1 exclude_user exclude_kernel exclude_hv exclude_guest precise_ip"
	for n in "${pick[@]}"; do
		for f in "$n" "$n:u" "$n:k" "$n:pp"; do
			all=$((all + 1))
			in_ns "$cpuid" "$root" perf stat -vv -e "$f" true >"$TMP/perf.out" 2>&1
			awk -v keys="$keys" '
				function out(  n, f, i, line) {
					if (v["type"] in seen) { delete v; return }
					seen[v["type"]] = 1
					n = split(keys, f, " ")
					for (i = 1; i <= n; i++)
						line = line sprintf("%s=%s ", f[i], (f[i] in v) ? v[f[i]] : "0")
					print line; delete v
				}
				/^perf_event_attr:/ { inside = 1; next }
				inside && /^-+$/ { inside = 0; out(); next }
				inside && /^ *\{/ { if ($0 ~ /config1/) v["config1"] = $NF; next }
				inside { v[$1] = $2 }' "$TMP/perf.out" | sort >"$TMP/want"
			PMU_CPUID=$cpuid "$EVDUMP" --sysfs "$root" --host names "$f" 2>"$TMP/pmu.err" |
				tr ' ' '\n' | awk -v keys="$keys" -F= '
				function out(  n, f, i, line) {
					n = split(keys, f, " ")
					for (i = 1; i <= n; i++)
						line = line sprintf("%s=%s ", f[i], v[f[i]])
					print line; delete v
				}
				$1 == "name" && seen { out() }
				{ v[$1] = $2; seen = 1 }
				END { if (seen) out() }' | sort >"$TMP/got"
			if [ ! -s "$TMP/want" ] || ! cmp -s "$TMP/want" "$TMP/got"; then
				bad=$((bad + 1))
				if [ $bad -le $DIAGS ]; then
					diag "$cpuid $f:"
					diag "  perf $(tr '\n' '|' <"$TMP/want")"
					diag "  pmu  $(tr '\n' '|' <"$TMP/got") $(head -1 "$TMP/pmu.err")"
				fi
			fi
		done
	done
	total=$((total + all)); agree=$((agree + all - bad))
	expect_eq "$cpuid (hybrid, ${#pick[@]} of perf's ${#list[@]} names): forms where pmu and perf differ, of $all" "$bad" 0
}
case " ${CATALOG_ORACLE_MODELS:-GenuineIntel-6-97-2} " in
*" GenuineIntel-6-97-2 "*) hybrid GenuineIntel-6-97-2 ;;
esac

diag "forms compared: $total, the same in both: $agree"
done_testing
