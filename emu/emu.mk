# The emulated PMU's Valgrind tool (emu/), included by the Makefile.
#
# Built out of tree against the installed valgrind: its headers and the
# static libcoregrind/libvex it ships (Debian: the valgrind package), found
# through valgrind.pc.  Without them the tool is skipped with a message and
# 'pmu stat --emulate' says what to install.  The tool links lib/hwmodel and
# lib/sim as the freestanding check builds them ($(BUILD)/freestanding.o).
#
# $(BUILD)/emu/ holds the tool and a link to valgrind's preload library:
# it is the VALGRIND_LIB that pmu gives valgrind.

VG_PKG      := $(shell pkg-config --exists valgrind 2>/dev/null && echo yes)
ifeq ($(VG_PKG),yes)
VG_PREFIX   := $(shell pkg-config --variable=prefix valgrind)
VG_INCDIR   := $(shell pkg-config --variable=includedir valgrind)
VG_LIBDIR   := $(shell pkg-config --variable=libdir valgrind)/valgrind
VG_PLATFORM := $(shell pkg-config --variable=platform valgrind)
VG_LOADADDR := $(shell pkg-config --variable=valt_load_address valgrind)
endif
VG_LIBS     := $(VG_LIBDIR)/libcoregrind-amd64-linux.a \
               $(VG_LIBDIR)/libvex-amd64-linux.a
VG_PRELOAD  := $(firstword $(wildcard \
	$(VG_PREFIX)/libexec/valgrind/vgpreload_core-amd64-linux.so \
	$(VG_PREFIX)/lib/valgrind/vgpreload_core-amd64-linux.so \
	$(VG_LIBDIR)/vgpreload_core-amd64-linux.so))
# The tool runs on the machine valgrind was built for: never in a cross
# build of another architecture.
EMU_OK      := $(and $(filter x86_64,$(ARCH)),$(filter $(ARCH),$(HOST_ARCH)),\
	$(filter amd64-linux,$(VG_PLATFORM)),$(VG_PRELOAD),\
	$(wildcard $(VG_LIBDIR)/libcoregrind-amd64-linux.a),\
	$(wildcard $(VG_LIBDIR)/libvex-amd64-linux.a))

EMU_DIR     := $(BUILD)/emu
EMU_TOOL    := $(EMU_DIR)/pmu-amd64-linux
EMU_SRCS    := $(sort $(wildcard emu/*.c))
EMU_OBJS    := $(EMU_SRCS:%.c=$(BUILD)/emu-obj/%.o)
# Valgrind's own flags for a tool on amd64-linux; no sanitizer can run
# under Valgrind's core, so none is used whatever SANITIZE says.
EMU_CFLAGS  := -std=gnu11 -O2 -g -m64 -fno-strict-aliasing -fno-builtin \
               -fno-stack-protector -fomit-frame-pointer -fno-pie \
               -Wall -Wextra -Wno-unused-parameter -Wshadow \
               -Wmissing-prototypes -Wstrict-prototypes \
               -DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 \
               -DVGPV_amd64_linux_vanilla=1 -I$(VG_INCDIR) -Ilib

.PHONY: emu install-emu uninstall-emu
all: emu

ifneq ($(EMU_OK),)
emu: $(EMU_TOOL) $(EMU_DIR)/vgpreload_core-amd64-linux.so

$(BUILD)/emu-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(EMU_CFLAGS) -MMD -MP -c -o $@ $<

-include $(EMU_OBJS:.o=.d)

$(EMU_TOOL): $(EMU_OBJS) $(BUILD)/freestanding.o $(VG_LIBS)
	@mkdir -p $(dir $@)
	$(CC) -m64 -static -nodefaultlibs -nostartfiles -no-pie -u _start \
		-Wl,--build-id=none -Wl,-Ttext-segment=$(VG_LOADADDR) \
		-o $@ $(EMU_OBJS) $(BUILD)/freestanding.o $(VG_LIBS) -lgcc \
		$(wildcard $(VG_LIBDIR)/libgcc-sup-amd64-linux.a)

$(EMU_DIR)/vgpreload_core-amd64-linux.so:
	@mkdir -p $(dir $@)
	ln -sf $(VG_PRELOAD) $@

install-emu: emu
	install -d $(DESTDIR)$(LIBDIR)/pmu
	install -m 755 $(EMU_TOOL) $(DESTDIR)$(LIBDIR)/pmu/
	ln -sf $(VG_PRELOAD) $(DESTDIR)$(LIBDIR)/pmu/
else ifneq ($(ARCH),x86_64)
emu:
	@echo "emu: not built: the emulated PMU is an x86-64 Valgrind tool;" \
	      "'pmu stat --emulate' is not available on $(ARCH)" >&2

install-emu:
else
emu:
	@echo "emu: not built: valgrind's headers and static libraries" \
	      "(libcoregrind-amd64-linux.a, libvex-amd64-linux.a, through" \
	      "valgrind.pc) were not found; install valgrind (Debian:" \
	      "apt-get install valgrind) for 'pmu stat --emulate'" >&2

install-emu:
endif

install: install-emu

uninstall: uninstall-emu
uninstall-emu:
	rm -rf $(DESTDIR)$(LIBDIR)/pmu

# Where the library looks for the tool once installed.
$(BUILD)/obj/lib/drivers/emu_find.o: CPPFLAGS += -DPMU_EMU_LIBDIR='"$(LIBDIR)/pmu"'

# Programs the emulator's tests run (tests/emu/): plain -O2, never a
# sanitizer, since they run under Valgrind's core.
EMU_WORKLOADS := $(patsubst tests/emu/%.c,$(BUILD)/tests/emu/%,$(sort $(wildcard tests/emu/*.c)))

$(BUILD)/tests/emu/%: tests/emu/%.c include/pmu/emu.h
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -std=gnu11 -O2 -g -pthread -Iinclude -o $@ $<

check-build: $(EMU_WORKLOADS)
