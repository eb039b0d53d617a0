#!/usr/bin/env bash
# scripts/check-layers.sh: the tree keeps its layers, and the check fails,
# naming file and line, on each kind of violation planted in a small tree.
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$root/scripts/check-layers.sh

"$CHECK" --root "$root" --objects "$PMU_BUILD" >"$TMP/out" 2>&1
expect_eq "this tree keeps its layers" "$?" 0
sed 's/^/# /' "$TMP/out"

# plant TREE FILE TEXT: write FILE (with its directories) under TREE.
plant() { mkdir -p "$(dirname "$1/$2")"; printf '%s\n' "$3" >"$1/$2"; }

# A clean tree: the layers each include only what is below them.
clean=$TMP/clean
plant "$clean" lib/hwmodel/desc.h '/* model */'
plant "$clean" lib/hwmodel/models.c '#include "hwmodel/desc.h"'
plant "$clean" lib/sim/sim.c '#include "hwmodel/desc.h"
#include "sim/sim.h"'
plant "$clean" lib/sim/sim.h '/* sim */'
plant "$clean" lib/util/error.h '/* util */'
plant "$clean" lib/events/catalog.h '#include "util/error.h"'
plant "$clean" lib/events/catalog.c '#include "events/catalog.h"
/* the encoder never calls mmap() nor ioctl(fd, ...) */
static const char *why = "no syscall(2) here";'
plant "$clean" lib/events/encode_x86.c '#include "events/catalog.h"
#include "events/encode.h"'
plant "$clean" lib/events/encode.h '#include "events/catalog.h"'
plant "$clean" lib/drivers/perf.c '#include "util/error.h"
#include <pmu/event.h>'
plant "$clean" lib/drivers/driver.h '/* the interface and the event object */'
plant "$clean" lib/events/evlist.h '#include "drivers/driver.h"'
plant "$clean" lib/session/session.c '#include "events/catalog.h"
#include "drivers/driver.h"
#include "drivers/perf_ring.h"
#include "sim/pebs.h"
/* not the "perf" driver: strcmp(name, "perf") in a comment */
static const char *msg = "the perf driver";
static int cg(const struct pmu__driver_ops *o) { return o->caps & 1; }'
plant "$clean" lib/proto/emu.h '#include "hwmodel/desc.h"'
plant "$clean" lib/profile/record.c '#include "session/session.h"
#include "proto/emu.h"'
"$CHECK" --root "$clean" >"$TMP/out" 2>&1
expect_eq "a clean tree passes (comments and strings do not count)" "$?" 0
sed 's/^/# /' "$TMP/out"

# planted NAME FILE TEXT REGEX: the clean tree plus FILE fails, and the
# report matches REGEX.
planted() {
	local name=$1 file=$2 text=$3 re=$4 tree=$TMP/t$TAP_N
	rm -rf "$tree"; cp -r "$clean" "$tree"
	plant "$tree" "$file" "$text"
	"$CHECK" --root "$tree" >"$TMP/out" 2>&1
	expect_eq "$name: fails" "$?" 1
	expect_match "$name: reported" "$TMP/out" "$re"
}

planted "model includes util" lib/hwmodel/check.c '#include "hwmodel/desc.h"
#include "util/error.h"' '^lib/hwmodel/check\.c:2: includes lib/util/error\.h'
planted "model includes util through <>" lib/hwmodel/fs.c '#include <util/file.h>' \
	'^lib/hwmodel/fs\.c:1: includes lib/util/file\.h'
planted "sim includes the tool" lib/sim/run.c '#include "../../tools/pmu/cmd.h"' \
	'^lib/sim/run\.c:1: includes tools/pmu/cmd\.h'
planted "sim includes events" lib/sim/ev.c '#include "events/catalog.h"' \
	'^lib/sim/ev\.c:1: includes lib/events/catalog\.h'
planted "util includes events" lib/util/host.c '#include "util/error.h"
#include "events/catalog.h"' '^lib/util/host\.c:2: includes lib/events/catalog\.h'
planted "driver includes a session header" lib/drivers/sim.c '#include "session/session.h"' \
	'^lib/drivers/sim\.c:1: includes lib/session/session\.h'
planted "driver includes an events header" lib/drivers/hw.c '#include "events/catalog.h"' \
	'^lib/drivers/hw\.c:1: includes lib/events/catalog\.h'
planted "driver includes a profile header" lib/drivers/ring.c '#include "profile/perfdata.h"' \
	'^lib/drivers/ring\.c:1: includes lib/profile/perfdata\.h'
planted "session includes a profile header" lib/session/s.c '#include <profile/report.h>' \
	'^lib/session/s\.c:1: includes lib/profile/report\.h'
planted "events include a driver header" lib/events/ibs.c '#include "drivers/perf.h"' \
	'^lib/events/ibs\.c:1: includes lib/drivers/perf\.h'
planted "events open a counter" lib/events/probe.c 'int probe(void)
{
	return syscall (298, 0, 0, -1, 0, 0);
}' '^lib/events/probe\.c:3: calls syscall'
planted "events map a buffer" lib/events/ring.c 'void *p = mmap(0, 4096, 3, 1, fd, 0);' \
	'^lib/events/ring\.c:1: calls mmap'
planted "events call perf_event_open" lib/events/open.c 'long r = perf_event_open(&a, 0, -1, -1, 0);' \
	'^lib/events/open\.c:1: calls perf_event_open'
planted "a second reader of /proc/cpuinfo" lib/events/detect.c '/* not from /proc/cpuinfo: a comment */
FILE *f = fopen("/proc/cpuinfo", "r");' '^lib/events/detect\.c:2: reads /proc/cpuinfo'
planted "session includes the counting engine" lib/session/agg.c '#include <pmu/stat.h>' \
	'^lib/session/agg\.c:1: includes include/pmu/stat\.h: the counting engine sits above'
planted "events include the counting engine's files" lib/events/x.c '#include "stat/aggr.h"' \
	'^lib/events/x\.c:1: includes lib/stat/aggr\.h'
planted "counting engine includes a session internal" lib/stat/aggr.c '#include <pmu/stat.h>
#include "session/session.h"' \
	'^lib/stat/aggr\.c:2: includes lib/session/session\.h: the counting engine is a client'
planted "util implements a higher layer's API" lib/util/scale.c '#include <pmu/error.h>
#include <pmu/session.h>' '^lib/util/scale\.c:2: includes include/pmu/session\.h: lib/util implements no API'
planted "session reaches into the simulator" lib/session/sets_reg.c '#include "sim/xscale.h"' \
	'^lib/session/sets_reg\.c:1: includes lib/sim/xscale\.h: a session never reaches into the simulator'
planted "session includes a driver's internals" lib/session/simple.c '#include "drivers/sim_api.h"' \
	'^lib/session/simple\.c:1: includes lib/drivers/sim_api\.h: a session knows drivers by their interfaces'
planted "session compares a driver's name" lib/session/cg.c 'static int cg(const char *n)
{
	return !strcmp(n, "perf");
}' '^lib/session/cg\.c:3: compares a driver.s name'
planted "profile compares a driver's name" lib/profile/rec.c 'int on_emu = strncmp(d->ops->name, "emu", 3) == 0;' \
	'^lib/profile/rec\.c:1: compares a driver.s name'
planted "profile includes a driver's internals" lib/profile/rec.c '#include "drivers/driver.h"
#include "drivers/perf.h"' '^lib/profile/rec\.c:2: includes lib/drivers/perf\.h: profiles reach drivers through'
planted "profile includes the driver interface" lib/profile/rec.c '#include "session/session.h"
#include "drivers/driver.h"' '^lib/profile/rec\.c:2: includes lib/drivers/driver\.h: profiles reach drivers through sessions'
planted "protocol header includes util" lib/proto/emu.h '#include "hwmodel/desc.h"
#include <util/error.h>' '^lib/proto/emu\.h:2: includes lib/util/error\.h: a protocol header is freestanding'
planted "region markers include a session internal" lib/region/region.c '#include "session/session.h"' \
	'^lib/region/region\.c:1: includes lib/session/session\.h: region markers are a client'
planted "a session includes the region API" lib/session/reg.c '#include <pmu/region.h>' \
	'^lib/session/reg\.c:1: includes include/pmu/region\.h: region markers sit above'
planted "profile reaches into the simulator" lib/profile/rec.c '#include "sim/pebs.h"' \
	'^lib/profile/rec\.c:1: includes lib/sim/pebs\.h: profiles never reach'
planted "perfmon2's engine includes a session" lib/perfmon/pfm_ctx.c '#include "session/session.h"' \
	'^lib/perfmon/pfm_ctx\.c:1: includes lib/session/session\.h: perfmon2.s engine is below the sessions'
planted "a driver includes perfmon2's engine" lib/drivers/sim_pfm.c '#include "perfmon/pfm.h"' \
	'^lib/drivers/sim_pfm\.c:1: includes lib/perfmon/pfm\.h: perfmon2.s engine sits above'
planted "include cycle between modules" lib/events/catalog_seed.c '#include "events/encode.h"' \
	'include cycle: catalog -> encode -> catalog'
planted "include cycle names its includes" lib/events/catalog_mods.c '#include "events/encode.h"' \
	'catalog -> encode: lib/events/catalog_mods\.c:1'

# A call cycle hidden from the include graph (each file declares what it
# calls) shows in the objects' symbol tables.
if command -v cc >/dev/null && command -v nm >/dev/null; then
	tree=$TMP/calls; rm -rf "$tree"; cp -r "$clean" "$tree"
	plant "$tree" lib/events/detect.c 'const char *pmu__catalog_name(void);
const char *pmu__detect(void) { return pmu__catalog_name(); }'
	plant "$tree" lib/events/catalog.c 'const char *pmu__detect(void);
const char *pmu__catalog_name(void) { return pmu__detect(); }'
	# (the clean session.c, compiled, is the object of a one-way folder)
	plant "$tree" lib/session/session.c 'int pmu__session_one(void) { return 1; }'
	for f in lib/events/catalog.c lib/events/detect.c lib/events/encode_x86.c \
		 lib/session/session.c; do
		mkdir -p "$tree/build/obj/$(dirname "$f")"
		cc -c -I"$tree/lib" -o "$tree/build/obj/${f%.c}.o" "$tree/$f"
	done
	"$CHECK" --root "$tree" >"$TMP/out" 2>&1
	expect_eq "call cycle: the include graph alone passes" "$?" 0
	"$CHECK" --root "$tree" --objects "$tree/build" >"$TMP/out" 2>&1
	expect_eq "call cycle: fails with --objects" "$?" 1
	expect_match "call cycle: reported with the call" "$TMP/out" \
		'call cycle: catalog -> detect -> catalog'
	expect_match "call cycle: names the symbol" "$TMP/out" \
		'lib/events/catalog\.o calls pmu__detect of lib/events/detect\.o'

	# a global without the library's prefix, in any layer
	tree=$TMP/prefix; rm -rf "$tree"; cp -r "$clean" "$tree"
	plant "$tree" lib/profile/pd.c 'int pd_open(void) { return 0; }
static int pd_local(void) { return 1; }
int pmu__pd_next(void) { return pd_local(); }'
	plant "$tree" lib/session/session.c 'int pmu__session_one(void) { return 1; }'
	for f in lib/events/catalog.c lib/events/encode_x86.c lib/profile/pd.c \
		 lib/session/session.c; do
		mkdir -p "$tree/build/obj/$(dirname "$f")"
		cc -c -I"$tree/lib" -o "$tree/build/obj/${f%.c}.o" "$tree/$f"
	done
	"$CHECK" --root "$tree" --objects "$tree/build" >"$TMP/out" 2>&1
	expect_eq "unprefixed global: fails with --objects" "$?" 1
	expect_match "unprefixed global: names the object and symbol" "$TMP/out" \
		'^lib/profile/pd\.o: defines global pd_open'
	check "unprefixed global: static and prefixed ones pass" \
		test "$(grep -c 'pd_local\|pmu__pd_next' "$TMP/out")" = 0

	# two files of a one-way folder that call each other; a call
	# between folders does not count
	tree=$TMP/filecycle; rm -rf "$tree"; cp -r "$clean" "$tree"
	plant "$tree" lib/session/session.c 'int pmu__sets_get(void);
int pmu__session_one(void) { return pmu__sets_get(); }'
	plant "$tree" lib/session/sets.c 'int pmu__session_one(void);
int pmu__sets_get(void) { return pmu__session_one(); }'
	plant "$tree" lib/perfmon/pfm_core.c 'int pmu__session_one(void);
int pmu__pfm_lock(void) { return pmu__session_one(); }'
	for f in lib/events/catalog.c lib/events/encode_x86.c \
		 lib/session/session.c lib/session/sets.c lib/perfmon/pfm_core.c; do
		mkdir -p "$tree/build/obj/$(dirname "$f")"
		cc -c -I"$tree/lib" -o "$tree/build/obj/${f%.c}.o" "$tree/$f"
	done
	"$CHECK" --root "$tree" --objects "$tree/build" >"$TMP/out" 2>&1
	expect_eq "file call cycle: fails with --objects" "$?" 1
	expect_match "file call cycle: reported with the call" "$TMP/out" \
		'lib/session/sets\.c calls pmu__session_one of lib/session/session\.c'
	check "file call cycle: a call from another folder is no cycle" \
		test "$(grep -c 'pfm_core' "$TMP/out")" = 0
	rm "$tree/build/obj/lib/session/sets.o"
	"$CHECK" --root "$tree" --objects "$tree/build" >"$TMP/out" 2>&1
	expect_eq "file call cycle: a missing object is an error" "$?" 2
else
	skip "call cycle: no cc or nm"
fi

done_testing
