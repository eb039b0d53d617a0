# pmu — GNU Make build.
#   make                 library (static + shared), the pmu tool, libpmu.pc
#   make check           unit, CLI, oracle, fuzz-corpus, valgrind and ASan/UBSan runs,
#                        and the hardware suite in the arm64 guest
#   make check-hw        the hardware suite (tests/hw) on this machine's PMU
#   make check-guest     the hardware suite in the arm64 guest alone
#   make ARCH=arm64      a cross build for arm64 (in build-arm64/)
#   make SANITIZE=1 check   the same suite on the sanitizer build only
#   make bench           benchmarks against perf and PAPI (docs/benchmarks.md)
#   make fuzz            libFuzzer campaigns (clang), not part of check
#   make install PREFIX=/usr/local DESTDIR=

VERSION     := 0.1.0
SOVERSION   := 0
PREFIX      ?= /usr/local
LIBDIR      ?= $(PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DESTDIR     ?=

# ARCH: the machine the build is for.  Another than this host's is a
# cross build with Debian's cross toolchain (CROSS, the tools' prefix)
# against the multiarch libraries of that architecture
# (libdw-dev:arm64...), in its own build directory: make ARCH=arm64.
HOST_ARCH   := $(shell uname -m | sed -e 's/^aarch64$$/arm64/' -e 's/^amd64$$/x86_64/')
ARCH        ?= $(HOST_ARCH)
ifeq ($(filter $(ARCH),x86_64 arm64),)
$(error ARCH=$(ARCH): the builds are x86_64 and arm64)
endif
ifneq ($(ARCH),$(HOST_ARCH))
CROSS_arm64  := aarch64-linux-gnu-
CROSS_x86_64 := x86_64-linux-gnu-
CROSS       ?= $(CROSS_$(ARCH))
CC          := $(CROSS)gcc
LD          := $(CROSS)ld
AR          := $(CROSS)ar
BUILD       ?= build-$(ARCH)
ifeq ($(shell command -v $(CC) 2>/dev/null),)
$(error ARCH=$(ARCH): the cross compiler $(CC) was not found; on Debian: apt-get install gcc-$(patsubst %-,%,$(CROSS)) and the $(ARCH) libraries (scripts/install-deps.sh --arm64))
endif
endif

OPT         ?= -O2
WARN        := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
               -Wno-unused-parameter -Wformat=2 -Wundef
CPPFLAGS    += -D_GNU_SOURCE -Iinclude -Ilib
CFLAGS      ?= $(OPT) -g
CFLAGS      += -std=c11 $(WARN) -fPIC -fvisibility=hidden -pthread
LDLIBS      += -pthread -lm
# Profiles: ELF symbols and DWARF (elfutils), pprof's gzip (zlib).
LDLIBS      += -ldl

ifeq ($(SANITIZE),1)
BUILD       ?= build-san
CFLAGS      += -fsanitize=address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=undefined
LDFLAGS     += -fsanitize=address,undefined
else
BUILD       ?= build
endif

LIB_SRCS    := $(sort $(wildcard lib/*/*.c lib/events/tables/*.c \
               lib/events/tables/kernel/*.c))
TOOL_SRCS   := $(sort $(wildcard tools/pmu/*.c))
TEST_SRCS   := $(sort $(wildcard tests/test-*.c))
EX_SRCS     := $(sort $(wildcard examples/*.c))
FUZZ_SRCS   := $(sort $(wildcard tests/fuzz/fuzz-*.c))
BENCH_SRCS  := $(sort $(wildcard bench/*.c))

LIB_OBJS    := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
TOOL_OBJS   := $(TOOL_SRCS:%.c=$(BUILD)/obj/%.o)
TESTS       := $(TEST_SRCS:tests/%.c=$(BUILD)/tests/%)
EXAMPLES    := $(EX_SRCS:examples/%.c=$(BUILD)/examples/%)
FUZZ_REPLAY := $(FUZZ_SRCS:tests/fuzz/fuzz-%.c=$(BUILD)/fuzz/replay-%)
TEST_HELPERS := $(BUILD)/tests/libinject.so $(BUILD)/tests/spin $(BUILD)/tests/evdump \
                $(BUILD)/tests/metric-eval
TEST_HELPERS += $(BUILD)/tests/workload $(BUILD)/tests/libpmuwork.so $(BUILD)/tests/jit
TEST_HELPERS += $(BUILD)/tests/libnames.so
TEST_HELPERS += $(BUILD)/tests/touch $(BUILD)/tests/regions $(BUILD)/tests/watch
ABI_TEST    := $(BUILD)/tests/test-abi-old

STATIC_LIB  := $(BUILD)/libpmu.a
SHARED_LIB  := $(BUILD)/libpmu.so.$(VERSION)
PMU_BIN     := $(BUILD)/pmu
PC_FILE     := $(BUILD)/libpmu.pc
MARKERS_LIB := $(BUILD)/libpmu-markers.so
# One region report for an MPI job (compat/mpi.c), where MPI is there.
MPI_CFLAGS  := $(shell pkg-config --cflags ompi-c 2>/dev/null || mpicc --showme:compile 2>/dev/null)
MPI_LIBS    := $(shell pkg-config --libs ompi-c 2>/dev/null || mpicc --showme:link 2>/dev/null)
MPI_LIB     := $(if $(MPI_LIBS),$(BUILD)/libpmu-mpi.so)

.PHONY: all check check-build check-noshared check-hw check-guest hw-build bench-build \
	bench fuzz install uninstall clean tables kernel-tables freestanding-check
.DEFAULT_GOAL := all

all: $(STATIC_LIB) $(SHARED_LIB) $(PMU_BIN) $(PC_FILE) $(EXAMPLES) $(MARKERS_LIB) \
	$(MPI_LIB) freestanding-check

# lib/hwmodel and lib/sim must not depend on libc: compile them freestanding,
# link them together relocatably and fail on any undefined symbol.
FS_SRCS     := $(sort $(wildcard lib/hwmodel/*.c lib/sim/*.c))
FS_OBJS     := $(FS_SRCS:%.c=$(BUILD)/freestanding/%.o)
FS_CFLAGS   := -std=c11 $(WARN) $(OPT) -ffreestanding -fno-builtin -nostdlib \
               -fno-stack-protector -Ilib

$(BUILD)/freestanding/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(FS_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/freestanding.o: $(FS_OBJS)
	$(LD) -r -o $@ $^

freestanding-check: $(BUILD)/freestanding.o
	@undef=$$(nm -u $<); if [ -n "$$undef" ]; then \
		echo "freestanding code (lib/hwmodel, lib/sim) uses: $$undef" >&2; \
		exit 1; fi

-include $(FS_OBJS:.o=.d)

include emu/emu.mk

-include $(LIB_OBJS:.o=.d) $(TOOL_OBJS:.o=.d)

# pmu serve's HTTP server, libmicrohttpd, is loaded when it starts: only
# its header is needed to build
MHD_CFLAGS  := $(shell pkg-config --exists libmicrohttpd 2>/dev/null && \
		 echo -DHAVE_MICROHTTPD $$(pkg-config --cflags libmicrohttpd))
$(BUILD)/obj/tools/pmu/serve_http.o: CPPFLAGS += $(MHD_CFLAGS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

$(STATIC_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

$(SHARED_LIB): $(LIB_OBJS) lib/libpmu.map
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,libpmu.so.$(SOVERSION) \
		-Wl,--version-script=lib/libpmu.map -Wl,--no-undefined \
		-o $@ $(LIB_OBJS) $(LDLIBS)
	ln -sf libpmu.so.$(VERSION) $(BUILD)/libpmu.so.$(SOVERSION)
	ln -sf libpmu.so.$(SOVERSION) $(BUILD)/libpmu.so

# The tool links the library statically: one small binary, fast start.
# PAPI's and LIKWID's marker calls as pmu regions (compat/markers.c):
# what pmu stat --regions preloads into a program that makes them.
$(MARKERS_LIB): compat/markers.c include/pmu/region.h $(SHARED_LIB)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -shared -fvisibility=hidden \
		-Wl,--no-undefined -o $@ $< -L$(BUILD) -l:libpmu.so.$(SOVERSION) \
		-Wl,-rpath,'$$ORIGIN:$$ORIGIN/..'

$(BUILD)/libpmu-mpi.so: compat/mpi.c include/pmu/region.h $(SHARED_LIB)
	$(CC) $(CPPFLAGS) $(MPI_CFLAGS) $(CFLAGS) $(LDFLAGS) -shared \
		-fvisibility=hidden -Wl,--no-undefined -o $@ $< \
		-L$(BUILD) -l:libpmu.so.$(SOVERSION) $(MPI_LIBS) \
		-Wl,-rpath,'$$ORIGIN:$$ORIGIN/..'

$(PMU_BIN): $(TOOL_OBJS) $(STATIC_LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(TOOL_OBJS) $(STATIC_LIB) $(LDLIBS)

# The .pc names where the library is installed, so it is written again
# by install with that PREFIX/LIBDIR (never DESTDIR: a staging root is
# not where the files end up).
PC_SED      = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g'

$(PC_FILE): lib/libpmu.pc.in Makefile
	@mkdir -p $(dir $@)
	$(PC_SED) $< > $@

$(BUILD)/examples/%: examples/%.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

# Extra libraries of single tests (oracles that link libpfm4).
TEST_LDLIBS_test-encode-oracle := -lpfm
TEST_LDLIBS_test-vendor-events := -lpfm

# Tests link the static library so they can reach internal (pmu__) seams.
$(BUILD)/tests/test-%: tests/test-%.c $(STATIC_LIB) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) -lcmocka $(TEST_LDLIBS_$(notdir $@)) $(LDLIBS)

# Every public function called with NULL pointers and edge values: the
# calls are generated from the headers (tests/api-probe.py).
API_PROBE   := $(BUILD)/tests/test-api-probe
$(BUILD)/gen/api-probe.c: tests/api-probe.py $(wildcard include/pmu/*.h)
	@mkdir -p $(dir $@)
	python3 tests/api-probe.py $@ $(sort $(wildcard include/pmu/*.h))

$(API_PROBE): $(BUILD)/gen/api-probe.c tests/api-probe.h $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) -lcmocka $(LDLIBS)

# A caller built against an older release's header (tests/abi/pmu-0.h,
# smaller structs) and run against this shared library.
$(ABI_TEST): tests/abi/test-abi-old.c tests/abi/pmu-0.h $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -Itests/abi $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-L$(BUILD) -Wl,-rpath,$(abspath $(BUILD)) -lpmu -lcmocka $(LDLIBS)

$(BUILD)/tests/libinject.so: tests/cli/inject.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -shared -o $@ $< -ldl

# The CLI tests' workload is the same program in every build: a
# sanitizer's own page faults would be counted as the workload's.
$(BUILD)/tests/spin: tests/cli/spin.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out -fsanitize=%,$(CFLAGS)) \
		$(filter-out -fsanitize=%,$(LDFLAGS)) -o $@ $<

$(BUILD)/tests/evdump: tests/cli/evdump.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

$(BUILD)/tests/metric-eval: tests/cli/metric_eval.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

# The profiling tests' workload: known hot spots, one in a shared
# library, frame pointers everywhere (leaves too) and no tail calls, so
# frame-pointer call chains see every caller; never sanitized.
WORK_CFLAGS := -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-optimize-sibling-calls
$(BUILD)/tests/libpmuwork.so: tests/workload/libwork.c tests/workload/work.h
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -fPIC -shared -o $@ $<

# Versioned and mangled names for the symbol reader's tests.
$(BUILD)/tests/libnames.so: tests/workload/libnames.c tests/workload/libnames.map
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fPIC -shared -Wl,--version-script=tests/workload/libnames.map -o $@ $<

$(BUILD)/tests/workload: tests/workload/workload.c tests/workload/work.h $(BUILD)/tests/libpmuwork.so
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -o $@ $< -L$(BUILD)/tests -lpmuwork -Wl,-rpath,'$$ORIGIN'

$(BUILD)/tests/jit: tests/workload/jit.c
	@mkdir -p $(dir $@)
	$(CC) $(WORK_CFLAGS) -o $@ $<

# The sampling tests' workload: fixed addresses (no PIE), never sanitized.
$(BUILD)/tests/touch: tests/workload/touch.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-pie -no-pie -o $@ $<

$(BUILD)/tests/watch: tests/workload/watch.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-pie -no-pie -o $@ $<

# The regions tests' workload: marked regions, linked with the library.
$(BUILD)/tests/regions: tests/workload/regions.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

$(BUILD)/fuzz/replay-%: tests/fuzz/fuzz-%.c tests/fuzz/replay.c $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< tests/fuzz/replay.c $(STATIC_LIB) $(LDLIBS)

# the command lines' targets compile the tool's own sources
$(BUILD)/fuzz/replay-statopts: $(wildcard tools/pmu/*.[ch]) tests/fuzz/argv.h
$(BUILD)/fuzz/replay-recopts: $(wildcard tools/pmu/*.[ch]) tests/fuzz/argv.h

# pmu serve's own parsing and exposition, compiled into its target
$(BUILD)/fuzz/replay-serve: tools/pmu/serve_parse.c tools/pmu/serve_expo.c \
	tools/pmu/serve.h

# The hardware suite (tests/hw): its C tests and its workload, which is
# static (no loader: its instruction count depends on its environment
# only) and never sanitized.
HW_TESTS    := $(patsubst tests/hw/%.c,$(BUILD)/tests/hw/%,$(sort $(wildcard tests/hw/test-*.c)))
HW_HELPERS  := $(BUILD)/tests/hw/hwloop $(BUILD)/tests/hw/hwregion

$(BUILD)/tests/hw/hwloop: tests/hw/hwloop.c tests/hw/hwloop.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-omit-frame-pointer -static -pthread -o $@ $<

# A region around the loop, linked with the library.
$(BUILD)/tests/hw/hwregion: tests/hw/hwregion.c tests/hw/hwloop.h $(STATIC_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) $(LDLIBS)

$(BUILD)/tests/hw/test-%: tests/hw/test-%.c tests/hw/hwloop.h $(STATIC_LIB) $(wildcard tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) $(LDFLAGS) -o $@ $< $(STATIC_LIB) -lcmocka $(LDLIBS)

hw-build: $(PMU_BIN) $(HW_TESTS) $(HW_HELPERS)

check-build: all $(TESTS) $(API_PROBE) $(ABI_TEST) $(TEST_HELPERS) $(FUZZ_REPLAY) hw-build

# Default check: the plain build (unit tests also under valgrind) and the
# ASan/UBSan build; SANITIZE=1 check runs only the sanitizer build.
# The benchmarks are built (not run) too, so that a change of the
# internals they time cannot break `make bench` unseen.
ifeq ($(SANITIZE),1)
check: check-build
	@tests/run-tests.sh --build $(BUILD) --sanitized
else
check: check-build bench-build
	@$(MAKE) --no-print-directory SANITIZE=1 check-build >/dev/null
	@tests/run-tests.sh --build $(BUILD) --valgrind --also build-san --guest
endif

bench-build: all
	@$(MAKE) --no-print-directory -C bench BUILD=$(abspath $(BUILD)) build >/dev/null

# The hardware suite on this machine's own PMU against its own perf (a
# real host; each test says why it skips where the host lacks something).
check-hw: hw-build
	@tests/run-tests.sh --build $(BUILD) --hw-only

# The hardware suite alone, in the arm64 guest (scripts/arm64-guest/).
check-guest:
	@tests/run-tests.sh --guest-only

# The suite as a clone without the shared reference directory runs it
# (plain build, no valgrind): tests that need the directory must skip.
check-noshared: check-build
	@tests/run-tests.sh --build $(BUILD) --no-shared

# Event tables from the installed libpfm4 (committed; not part of all).
TABLE_MODELS := amd64_k7 amd64_k8_revb amd64_k8_revc amd64_k8_revd \
	amd64_k8_reve amd64_k8_revf amd64_k8_revg amd64_fam10h_barcelona \
	amd64_fam17h_zen1 amd64_fam17h_zen2 amd64_fam19h_zen3 \
	amd64_fam19h_zen4 skl icl spr netburst netburst_p perf perf_raw
# EVENTS_DIR: vendor event files (kernel pmu-events layout) giving the
# counter masks libpfm4 does not export.
tables: scripts/gen-events.c scripts/gen-events.py lib/events/catalog.h
	@test -n "$(EVENTS_DIR)" || { echo "make tables EVENTS_DIR=..." >&2; exit 2; }
	@mkdir -p $(BUILD)/gen
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $(BUILD)/gen/gen-events $< -lpfm
	for m in $(TABLE_MODELS); do \
		python3 scripts/gen-events.py $(EVENTS_DIR) $$m > $(BUILD)/gen/$$m.cnt || exit 1; \
	done
	$(BUILD)/gen/gen-events lib/events/tables \
		$(foreach m,$(TABLE_MODELS),$(m):$(BUILD)/gen/$(m).cnt)
	python3 scripts/gen-seed-events.py lib/events/tables
	$(MAKE) --no-print-directory kernel-tables \
		KERNEL_EVENTS_DIR=$(EVENTS_DIR)/linux-6.12

# Tables of every core model of the kernel's pmu-events tree (committed).
# KERNEL_EVENTS_DIR: the tree's arch directories (x86, arm64, ...), read
# by the library's own loader of that layout.
KERNEL_EVENTS_DIR ?=
kernel-tables: scripts/gen-kernel-events.c $(STATIC_LIB)
	@test -n "$(KERNEL_EVENTS_DIR)" || { echo "make kernel-tables KERNEL_EVENTS_DIR=..." >&2; exit 2; }
	@mkdir -p $(BUILD)/gen
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $(BUILD)/gen/gen-kernel-events $< $(STATIC_LIB) $(LDLIBS)
	rm -rf $(BUILD)/gen/kernel && mkdir -p $(BUILD)/gen/kernel
	$(BUILD)/gen/gen-kernel-events $(BUILD)/gen/kernel $(KERNEL_EVENTS_DIR)
	rm -f lib/events/tables/kernel/*.c
	cp $(BUILD)/gen/kernel/*.c lib/events/tables/kernel/

bench: all $(BUILD)/tests/workload
	@$(MAKE) --no-print-directory -C bench BUILD=$(abspath $(BUILD))

fuzz:
	@$(MAKE) --no-print-directory -C tests/fuzz BUILD=$(abspath build-fuzz)

install: all
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR)/pmu \
		$(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(LIBDIR)/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libpmu.so.$(VERSION) $(DESTDIR)$(LIBDIR)/libpmu.so.$(SOVERSION)
	ln -sf libpmu.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libpmu.so
	install -m 644 include/pmu/*.h $(DESTDIR)$(INCLUDEDIR)/pmu/
	$(PC_SED) lib/libpmu.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libpmu.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/libpmu.pc
	install -m 755 $(PMU_BIN) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(LIBDIR)/pmu
	install -m 755 $(MARKERS_LIB) $(MPI_LIB) $(DESTDIR)$(LIBDIR)/pmu/
	install -m 644 compat/pmu_regions.f90 $(DESTDIR)$(INCLUDEDIR)/pmu/
	install -d $(DESTDIR)$(LIBDIR)/pmu/python
	install -m 644 python/pmu_regions.py $(DESTDIR)$(LIBDIR)/pmu/python/
	install -m 644 docs/*.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 docs/*.3 $(DESTDIR)$(MANDIR)/man3/

uninstall:
	rm -rf $(DESTDIR)$(LIBDIR)/pmu/python
	rm -f $(DESTDIR)$(LIBDIR)/pmu/libpmu-markers.so \
	      $(DESTDIR)$(LIBDIR)/pmu/libpmu-mpi.so
	rm -f $(DESTDIR)$(LIBDIR)/libpmu.* $(DESTDIR)$(LIBDIR)/pkgconfig/libpmu.pc \
	      $(DESTDIR)$(BINDIR)/pmu $(DESTDIR)$(MANDIR)/man1/pmu*.1 \
	      $(DESTDIR)$(MANDIR)/man3/libpmu.3
	rm -rf $(DESTDIR)$(INCLUDEDIR)/pmu

clean:
	rm -rf build build-san build-fuzz build-arm64
