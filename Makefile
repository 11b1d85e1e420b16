# SPDX-License-Identifier: GPL-2.0
#
# rtla sched-latency: build the patched PREEMPT_RT kernel and rtla, boot them
# in a VM, measure, test. `make help` lists the targets.

TOP       := $(abspath .)
BUILD     := $(TOP)/build
KSRC      ?=
FRAGMENTS := $(TOP)/config/vm.config $(TOP)/config/sched-latency.config
# make kernel's own: what only the mainline series has (the keyed hooks)
MAINLINE_FRAGMENTS := $(FRAGMENTS) $(TOP)/config/mainline.config

# Two series of one tracer. Mainline is the series upstream takes, on a
# Linux 7.x pinned to a Debian package of trixie-backports (which keeps
# a package's older versions beside its newest, where sid keeps only its
# current one): build/linux, whose rtla is the rtla of every test. The
# 6.12 LTS backport is what a distribution's kernel-rt on 6.12 applies:
# build/linux-6.12, from the linux-source-6.12 package of the machine's
# own suite. KSRC= replaces the mainline source by a tree of one's own.
MAINLINE_PKG   := linux-source-7.3
MAINLINE_VER   := 7.3.4-1~bpo13+1
MAINLINE_SUITE := trixie-backports
LTS            := 6.12
LTS_TARBALL    := /usr/src/linux-source-$(LTS).tar.xz

# Debian's own 6.12 kernel-rt, the backport's test kernel (make kernel-rt):
# linux-source-6.12, the debian/patches-rt of the same Debian version and
# its rt flavour's config. One version for the three: bookworm-backports'
# 6.12.95-1~bpo12+1, the newest 6.12 whose source package (debian.tar.xz)
# is still fetchable (the security suites' and trixie's are not).
RT_PKG_VER  := 6.12.95-1~bpo12+1
RT_SUITE    := bookworm-backports
RT_SRC      := $(BUILD)/src-rt
RT_TREE     := $(BUILD)/linux-$(LTS)-rt
RT_MODULES  := $(RT_TREE)/modules-install
RT_CONFIG   := $(RT_SRC)/config/root/usr/src/linux-config-$(LTS)/config.amd64_rt_amd64.xz
RT_FRAGMENTS := $(FRAGMENTS) $(TOP)/config/rt.config
# The series' patches resolved by hand on patches-rt (kernel-src-rt.sh)
RT_RESOLUTIONS := $(TOP)/kernel-rt

# Debian 12's kernel-rt, the 6.1 backport's kernel (make kernel-distro):
# linux-source-6.1, the debian/patches-rt (6.1-rt64) of the same Debian
# version and its rt flavour's config: bookworm's 6.1.176-1, the newest
# 6.1 whose source package (debian.tar.xz) the mirror still serves (the
# security suite's 6.1.192 is not). The RT patch set's own lazy preemption,
# the design openEuler's 6.6-rt ships too.
DISTRO          := 6.1
DISTRO_PKG_VER  := 6.1.176-1
DISTRO_SUITE    := bookworm
DISTRO_SRC      := $(BUILD)/src-$(DISTRO)
DISTRO_TREE     := $(BUILD)/linux-$(DISTRO)-rt
DISTRO_PATCHES  := $(TOP)/kernel-patches/$(DISTRO)
DISTRO_MODULES  := $(DISTRO_TREE)/modules-install
DISTRO_CONFIG   := $(DISTRO_SRC)/config/root/usr/src/linux-config-$(DISTRO)/config.amd64_rt_amd64.xz
DISTRO_FRAGMENTS := $(FRAGMENTS) $(TOP)/config/rt-$(DISTRO).config

KTREE       := $(BUILD)/linux
PATCHES     := $(TOP)/kernel-patches
LTS_TREE    := $(BUILD)/linux-$(LTS)
LTS_PATCHES := $(TOP)/kernel-patches/$(LTS)
LTS_MODULES := $(LTS_TREE)/modules-install
RTLA_DIR  := $(KTREE)/tools/tracing/rtla
RTLA      := $(RTLA_DIR)/rtla
UNTRACED  := $(BUILD)/linux-untraced
# The debug kernels of make test-debug, one per config/debug-*.config:
# build/linux-debug-FLAVOUR, its modules in FLAVOUR/modules-install
DEBUG_FLAVOURS := locking memory
JOBS      ?= $(shell echo $$(( $$(nproc) + 1 )))

# The compiler cache lives outside build/, so `make clean` keeps it warm.
export CCACHE_DIR     ?= $(HOME)/.cache/sched-latency/ccache
export CCACHE_BASEDIR := $(KTREE)
export CCACHE_MAXSIZE ?= 5G
KMAKE := $(MAKE) -C $(KTREE) ARCH=x86_64 CC="ccache gcc" LOCALVERSION= -j$(JOBS)
LTS_KMAKE := CCACHE_BASEDIR=$(LTS_TREE) $(MAKE) -C $(LTS_TREE) ARCH=x86_64 \
	CC="ccache gcc" LOCALVERSION= -j$(JOBS)
RT_KMAKE := CCACHE_BASEDIR=$(RT_TREE) $(MAKE) -C $(RT_TREE) ARCH=x86_64 \
	CC="ccache gcc" LOCALVERSION= -j$(JOBS)
DISTRO_KMAKE := CCACHE_BASEDIR=$(DISTRO_TREE) $(MAKE) -C $(DISTRO_TREE) ARCH=x86_64 \
	CC="ccache gcc" LOCALVERSION= -j$(JOBS)

# Debian packages the targets need (the VM runs the host's binaries).
DEB_PACKAGES := build-essential bc bison flex libelf-dev libssl-dev ccache \
	cpio rsync kmod file xz-utils pkg-config git qemu-system-x86 \
	busybox-static udev rt-tests stress-ng trace-cmd linux-perf libtracefs-dev \
	libtraceevent-dev libcap-dev libnuma-dev check python3 python3-docutils python3-ply python3-git \
	librsvg2-bin gdb \
	gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu \
	linux-source-$(LTS)

.PHONY: help deps check-mutants kernel-src kernel-src-reset kernel-config kernel patches soak \
	kernel-src-lts kernel-config-lts kernel-lts patches-lts test-lts test-rtla \
	kernel-src-rt kernel-config-rt kernel-rt test-rt \
	kernel-src-distro kernel-config-distro kernel-distro test-distro patches-distro \
	rtla rtla-pristine dist bisect-build bisect-build-mainline bisect-build-lts \
	bisect-build-arm64 check test run \
	bench bench-vm kernel-untraced \
	kernel-debug test-debug clean \
	deps-arm64 cross-src kernel-arm64 arm64-root rtla-arm64 test-arm64

help:
	@echo "make run         build everything, boot, measure under cyclictest, print"
	@echo "make test        check + both kernels + rtla + every VM test on mainline,"
	@echo "                 the tests/lts/ subset on Debian's $(LTS) kernel-rt (TAP; two VMs at a time)"
	@echo "make test-lts    every VM test on the plain $(LTS) kernel"
	@echo "make test-rt     the tests/lts/ subset and rtla's selftests on Debian's $(LTS) kernel-rt"
	@echo "make test-rtla   rtla's own tests, and 7.3's with and without the series, compared"
	@echo "make check       fast host-only tests (half a minute)"
	@echo "make check-mutants  the mutants those tests must catch (about 45 s)"
	@echo "make kernel-src  build/linux: pristine $(MAINLINE_PKG) + kernel-patches/ (KSRC=tree)"
	@echo "make patches     export build/linux's commits to kernel-patches/"
	@echo "make kernel      configure and build the guest kernel (mainline)"
	@echo "make kernel-lts  the same for the $(LTS) backport: build/linux-$(LTS), kernel-patches/$(LTS)"
	@echo "make patches-lts export build/linux-$(LTS)'s commits to kernel-patches/$(LTS)"
	@echo "make kernel-rt   Debian's $(LTS) kernel-rt ($(RT_PKG_VER): patches-rt, rt config)"
	@echo "                 with kernel-patches/$(LTS): build/linux-$(LTS)-rt"
	@echo "make kernel-distro  Debian 12's $(DISTRO) kernel-rt ($(DISTRO_PKG_VER)) with kernel-patches/$(DISTRO)"
	@echo "make test-distro the tests/lts/ subset and the lazy test on it"
	@echo "make rtla        build mainline's rtla with tools/tracing/rtla/ of this repo"
	@echo "make dist        both series in build/dist/mainline (kernel + rtla), build/dist/6.12"
	@echo "make bisect-build  build both series patch by patch (slow)"
	@echo "                 (ARCH=arm64: the mainline series for arm64)"
	@echo "make cross-build  compile the mainline series for arm64, riscv, powerpc64le"
	@echo "make test-arm64  the mainline series on arm64: kernel, Debian arm64 root, rtla,"
	@echo "                 and a subset of the VM tests in qemu's virt machine"
	@echo "make bench       benchmarks (host)"
	@echo "make soak        the ground-truth property test on 100 M seeds"
	@echo "make bench-vm    the tracer's cost in the VM"
	@echo "make kernel-untraced  the same kernel without the toggle tracepoints"
	@echo "make kernel-debug  the same kernel twice more, with lockdep (-locking) and KASAN (-memory)"
	@echo "make test-debug  kernel-debug + rtla, then the stress test and the VM tests on both"
	@echo "                 (make test-debug-locking, test-debug-memory: one of them)"
	@echo "make clean       remove build/ (the ccache stays)"

# install_missing PACKAGES - a recipe that installs what is missing of the
# Debian PACKAGES (we run as root), naming the target that asked
define install_missing
	@missing=; for p in $(1); do \
		dpkg-query -W -f='$${db:Status-Abbrev}' $$p 2>/dev/null | \
			grep -q '^ii' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "$@: installing$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $$missing \
			>/dev/null || exit 1; \
	fi
endef

# deps - install what is missing of DEB_PACKAGES
deps:
	$(call install_missing,$(DEB_PACKAGES))

kernel-src: deps
	@src="$(KSRC)"; \
	if [ -z "$$src" ] && [ ! -d $(KTREE)/.git ]; then \
		src=$$($(TOP)/scripts/fetch-source.sh $(MAINLINE_PKG) $(MAINLINE_VER) \
			$(MAINLINE_SUITE) $(BUILD)/src) || exit 1; \
	fi; \
	$(TOP)/scripts/kernel-src.sh $(KTREE) $(PATCHES) "$$src"

kernel-src-lts: deps
	@$(TOP)/scripts/kernel-src.sh $(LTS_TREE) $(LTS_PATCHES) $(LTS_TARBALL)

# kernel-src-rt - build/linux-6.12-rt: linux-source-6.12, Debian's
# patches-rt and kernel-patches/6.12, each with git am -3
kernel-src-rt: deps
	@if [ ! -d $(RT_TREE)/.git ]; then \
		tarball=$$($(TOP)/scripts/fetch-source.sh linux-source-$(LTS) $(RT_PKG_VER) \
			$(RT_SUITE) $(RT_SRC)/source) && \
		debian=$$($(TOP)/scripts/fetch-source.sh -s linux $(RT_PKG_VER) \
			$(RT_SUITE) $(RT_SRC)/debian) || exit 1; \
	fi; \
	$(TOP)/scripts/kernel-src-rt.sh $(RT_TREE) "$$tarball" "$$debian" $(LTS_PATCHES) \
		$(RT_RESOLUTIONS)

# kernel-src-distro - build/linux-6.1-rt: linux-source-6.1, Debian's
# patches-rt and kernel-patches/6.1, each with git am -3
kernel-src-distro: deps
	@if [ ! -d $(DISTRO_TREE)/.git ]; then \
		tarball=$$($(TOP)/scripts/fetch-source.sh linux-source-$(DISTRO) $(DISTRO_PKG_VER) \
			$(DISTRO_SUITE) $(DISTRO_SRC)/source) && \
		debian=$$($(TOP)/scripts/fetch-source.sh -s linux $(DISTRO_PKG_VER) \
			$(DISTRO_SUITE) $(DISTRO_SRC)/debian) || exit 1; \
	fi; \
	$(TOP)/scripts/kernel-src-rt.sh $(DISTRO_TREE) "$$tarball" "$$debian" $(DISTRO_PATCHES)

kernel-src-reset:
	rm -rf $(KTREE)
	@$(MAKE) --no-print-directory kernel-src

$(BUILD)/kernel-config.stamp: $(MAINLINE_FRAGMENTS) $(TOP)/scripts/kernel-config.sh | kernel-src
	@$(TOP)/scripts/kernel-config.sh $(KTREE) $(MAINLINE_FRAGMENTS)
	@touch $@

$(BUILD)/kernel-config-lts.stamp: $(FRAGMENTS) $(TOP)/scripts/kernel-config.sh | kernel-src-lts
	@$(TOP)/scripts/kernel-config.sh $(LTS_TREE) $(FRAGMENTS)
	@touch $@

$(RT_CONFIG):
	@$(TOP)/scripts/fetch-source.sh linux-config-$(LTS) $(RT_PKG_VER) $(RT_SUITE) \
		$(RT_SRC)/config usr/src/linux-config-$(LTS)/config.amd64_rt_amd64.xz >/dev/null

# Debian's rt flavour config without its modules (-M), then the fragments
$(BUILD)/kernel-config-rt.stamp: $(RT_FRAGMENTS) $(TOP)/scripts/kernel-config.sh $(RT_CONFIG) | kernel-src-rt
	@$(TOP)/scripts/kernel-config.sh -b $(RT_CONFIG) -M $(RT_TREE) $(RT_FRAGMENTS)
	@touch $@

kernel-config: kernel-src $(BUILD)/kernel-config.stamp

kernel-config-lts: kernel-src-lts $(BUILD)/kernel-config-lts.stamp

kernel-config-rt: kernel-src-rt $(BUILD)/kernel-config-rt.stamp

$(DISTRO_CONFIG):
	@$(TOP)/scripts/fetch-source.sh linux-config-$(DISTRO) $(DISTRO_PKG_VER) $(DISTRO_SUITE) \
		$(DISTRO_SRC)/config usr/src/linux-config-$(DISTRO)/config.amd64_rt_amd64.xz >/dev/null

$(BUILD)/kernel-config-distro.stamp: $(DISTRO_FRAGMENTS) $(TOP)/scripts/kernel-config.sh $(DISTRO_CONFIG) | kernel-src-distro
	@$(TOP)/scripts/kernel-config.sh -b $(DISTRO_CONFIG) -M $(DISTRO_TREE) $(DISTRO_FRAGMENTS)
	@touch $@

kernel-config-distro: kernel-src-distro $(BUILD)/kernel-config-distro.stamp

kernel: kernel-config
	@mkdir -p $(CCACHE_DIR)
	@echo "kernel: building bzImage and modules (ccache in $(CCACHE_DIR))"
	@$(KMAKE) -s bzImage modules
	@rm -rf $(BUILD)/modules
	@$(KMAKE) -s INSTALL_MOD_PATH=$(BUILD)/modules modules_install >/dev/null
	@echo "kernel: $(KTREE)/arch/x86/boot/bzImage $$($(KMAKE) -s kernelrelease)"

# build_tree TREE,KMAKE,MODULES - the recipe of a kernel of build/ other
# than mainline's: bzImage and modules, the modules installed in MODULES
define build_tree
	@mkdir -p $(CCACHE_DIR)
	@echo "$@: building bzImage and modules in $(1)"
	@$(2) -s bzImage modules
	@rm -rf $(3)
	@$(2) -s INSTALL_MOD_PATH=$(3) modules_install >/dev/null
	@echo "$@: $(1)/arch/x86/boot/bzImage $$($(2) -s kernelrelease)"
endef

kernel-lts: kernel-config-lts
	$(call build_tree,$(LTS_TREE),$(LTS_KMAKE),$(LTS_MODULES))

kernel-rt: kernel-config-rt
	$(call build_tree,$(RT_TREE),$(RT_KMAKE),$(RT_MODULES))

kernel-distro: kernel-config-distro
	$(call build_tree,$(DISTRO_TREE),$(DISTRO_KMAKE),$(DISTRO_MODULES))

# patches - the commits on top of build/linux's base, as kernel-patches/,
# with its cover-letter.txt as the cover letter (patches-lts: the backport's)
patches:
	@$(TOP)/scripts/export-patches.sh $(KTREE) $(PATCHES)

patches-lts:
	@$(TOP)/scripts/export-patches.sh $(LTS_TREE) $(LTS_PATCHES)

# patches-distro - the 6.1 backport, on top of patches-rt (tag rt)
patches-distro:
	@$(TOP)/scripts/export-patches.sh $(DISTRO_TREE) $(DISTRO_PATCHES) rt

# dist - both series, for a mailing list or a distro: build/dist/mainline
# (the kernel patches and rtla sched-latency's) and build/dist/6.12 (the
# backport), each checked with git am on its pristine tree
dist: kernel-src kernel-src-lts
	@$(TOP)/scripts/dist.sh $(KTREE) $(PATCHES) $(BUILD)/dist/mainline
	@$(TOP)/scripts/dist.sh $(LTS_TREE) $(LTS_PATCHES) $(BUILD)/dist/$(LTS)

# bisect-build - every patch of both dist series builds on its own; FROM=N
# builds from patch N on (the ones before are applied, not built);
# bisect-build-mainline, bisect-build-lts: one series. ARCH=arm64 (or
# bisect-build-arm64): the mainline series' kernel patches for arm64
# (scripts/bisect-build.sh says what is compiled). ARCH is read here
# only: every kernel make of this file names its own.
ifeq ($(ARCH),arm64)
bisect-build: bisect-build-arm64
else
bisect-build: bisect-build-mainline bisect-build-lts
endif

# cross-build - the mainline series compiled for other architectures with
# Debian's cross compilers: each one's defconfig with the series'
# fragments, then kernel/ and arch/ARCH/ (scripts/cross-build.sh says why
# not a whole vmlinux), in build/cross-ARCH from a worktree of build/linux
# at its HEAD; CROSS_ARCHES= picks them
CROSS_ARCHES ?= arm64 riscv powerpc
CROSS_SRC    := $(BUILD)/cross-src

cross-build: deps cross-src
	@for arch in $(CROSS_ARCHES); do \
		$(TOP)/scripts/cross-build.sh $(CROSS_SRC) $(BUILD)/cross-$$arch $$arch || exit 1; \
	done

bisect-build-mainline: dist kernel-config
	@$(TOP)/scripts/bisect-build.sh $(KTREE) $(BUILD)/dist/mainline $(BUILD)/bisect $(FROM)

bisect-build-lts: dist kernel-config-lts
	@$(TOP)/scripts/bisect-build.sh $(LTS_TREE) $(BUILD)/dist/$(LTS) $(BUILD)/bisect-$(LTS) $(FROM)

# rtla - the mainline tree's rtla with this repo's tools/tracing/rtla/
# (sources and tests) laid over it; the one rtla of every test, on both
# kernels. An rtla without sched-latency is a build error, told by what
# `rtla sched-latency --help` prints: rtla exits 129 on --help and on an
# unknown command alike.
rtla: kernel-src
	@cd $(TOP) && find tools/tracing/rtla -type f | while read -r f; do \
		mkdir -p $(KTREE)/$$(dirname $$f) && cp -a $$f $(KTREE)/$$f; \
		grep -qxF "/$$f" $(KTREE)/.git/info/exclude || \
			echo "/$$f" >> $(KTREE)/.git/info/exclude; \
	done
	@$(MAKE) -s -C $(RTLA_DIR) >/dev/null
	@$(RTLA) sched-latency --help 2>&1 | grep -q "usage: rtla sched-latency" || \
		{ echo "rtla: $(RTLA) was built without sched-latency" >&2; exit 1; }
	@echo "rtla: $(RTLA)"

HOST_TESTS = $(wildcard tests/unit/*.t tests/host/*.t)
VM_TESTS   = $(wildcard tests/vm/*.t)

# check is the quick pass, about half a minute on two cores: the host tests
# but the mutants, on fewer seeds than make test: the ground truth on 30 000
# sequences of each profile (make test: 1 000 000), the reference
# interpreter on 50 000 (200 000), the fast path on 30 000 (100 000). Two
# lanes: the parser's tests, which share build/unit, one after another; the
# rtla and driver tests, which share rtla's tree, beside them.
# check-mutants is the teeth of those tests, the mutants on 20 000 seeds
# each (make test: 100 000), about 45 s of two CPUs: the last mutant is
# caught at seed 18 296. The tests run make themselves (tests/unit):
# MAKEFLAGS= keeps this make's flags and jobserver (whose descriptors a
# recipe that is not $(MAKE) does not inherit) out of theirs.
CHECK_PARSER = $(filter tests/unit/%,$(filter-out tests/unit/mutants.t,$(HOST_TESTS)))

check: deps
	MAKEFLAGS= LP_TRUTH_SEEDS=$${LP_TRUTH_SEEDS:-30000} \
	LP_RANDOM_SEEDS=$${LP_RANDOM_SEEDS:-50000} \
	LP_FAST_SEEDS=$${LP_FAST_SEEDS:-30000} tests/run-phases -j2 \
		--seq $(CHECK_PARSER) \
		--seq $(filter-out $(CHECK_PARSER) tests/unit/mutants.t,$(HOST_TESTS))

check-mutants: deps
	MAKEFLAGS= LP_MUTANT_SEEDS=$${LP_MUTANT_SEEDS:-20000} \
		tests/run-phases --seq tests/unit/mutants.t

# tests/lts/: the VM tests make test runs on the 6.12 backport too, in
# Debian's kernel-rt (make kernel-rt), with mainline's rtla: lazy
# preemption among them (test-lts runs every VM test on plain 6.12)
LTS_TESTS  = $(wildcard tests/lts/*.t)

# The VM tests that take longest start first, in this order, so that the
# two VMs at a time end together (each took 74 to 294 s beside another
# in .ci/run on the evening of 2026-12-07; the rest take 7 to 65 s)
VM_TESTS_LONG := tests/vm/latency_parser_start.t tests/vm/ftracetest.t \
	tests/vm/latency_parser_bound.t tests/vm/rtla_sched_latency.t \
	tests/vm/rtla_verdict.t tests/vm/rtla_conventions.t \
	tests/vm/rtla_selftests.t \
	tests/vm/latency_parser_lazy.t tests/lts/latency_parser_lazy.t \
	tests/vm/rtla_sched_latency_long.t
VM_TESTS_ORDERED = $(foreach t,$(VM_TESTS_LONG),$(filter $(t),$(VM_TESTS) $(LTS_TESTS))) \
	$(filter-out $(VM_TESTS_LONG),$(VM_TESTS) $(LTS_TESTS))

# Both kernels at once, mainline and Debian's 6.12 kernel-rt with the
# backport: one tree's unpacking and first commits, minutes of one CPU,
# run beside the other's compile; and plain 6.12's tree, unpacked, not
# built, for dist's git am and the patch checks. Then one TAP run, so
# that its summary closes the output, in two phases (tests/run-phases):
# - the host tests and patch checks, two at a time: mutants.t, then
#   checkpatch.t (minutes of CPU each), beside the others, which share
#   build/unit and rtla's tree and run one after another;
# - the VM tests, two VMs at a time.
# --timer gives each test's wall time, what to look at when the run nears
# CI's limit.
test: deps
	@$(MAKE) --no-print-directory -j3 kernel kernel-rt kernel-src-lts
	@$(MAKE) --no-print-directory rtla dist
	MAKEFLAGS= tests/run-phases -j2 --par tests/unit/mutants.t \
		--seq $(filter-out tests/unit/mutants.t,$(HOST_TESTS)) \
		$(filter-out tests/patches/checkpatch.t,$(wildcard tests/patches/*.t)) \
		--par tests/patches/checkpatch.t \
		--then --par $(VM_TESTS_ORDERED)

# rtla-pristine - the mainline tree's rtla without the series (its commit
# base), in a worktree of its own, with its unit tests
rtla-pristine: kernel-src
	@$(TOP)/scripts/rtla-pristine.sh $(KTREE) $(BUILD)/rtla-pristine

# test-rtla - rtla's own tests: sched-latency.t in the VM, and 7.3's own
# tests of the other tools (osnoise.t, timerlat.t, hwnoise.t in the VM, the
# unit tests on the host) with the pristine rtla and with the patched one,
# on the same kernel, their results compared test by test (tests/rtla/):
# the series' shared code changes nothing for timerlat and osnoise. make
# test runs sched-latency.t and the unit tests.
test-rtla: deps kernel rtla rtla-pristine
	prove -v tests/vm/rtla_selftests.t tests/rtla/*.t

test-lts: deps kernel-lts rtla
	KERNEL=$(LTS_TREE)/arch/x86/boot/bzImage MODULES=$(LTS_MODULES) prove $(VM_TESTS)

# test-rt - make test's VM tests of Debian's kernel-rt with the backport
# (tests/lts/, which lts.sh boots there), lazy preemption among them, and
# rtla's selftests there; two VMs at a time. make test leaves the
# selftests to mainline: they drive rtla through the tracer's files, which
# the backport adds byte for byte (series.t), and take 7 min of a VM on
# the kernel-rt.
RT_TESTS = $(LTS_TESTS) tests/vm/rtla_selftests.t

test-rt: deps kernel-rt rtla
	KERNEL=$(RT_TREE)/arch/x86/boot/bzImage MODULES=$(RT_MODULES) tests/run-phases -j2 --par $(RT_TESTS)

# test-distro - Debian 12's kernel-rt (6.1-rt) with the 6.1 backport: the
# same tests as test-rt, the exact windows in icount and the lazy
# preemption of the RT patch set's older design among them. Not
# latency_parser_remote.t: 6.1 does not bring up a second vCPU under
# qemu's instruction counter (it stops after "x86: Booting SMP
# configuration"), and in TCG's own time one round in 40 is not remote.
# Not part of make test: its kernel is one more cold build.
DISTRO_TESTS = $(patsubst tests/lts/%,tests/vm/%,$(RT_TESTS))

test-distro: deps kernel-distro rtla
	KERNEL=$(DISTRO_TREE)/arch/x86/boot/bzImage MODULES=$(DISTRO_MODULES) \
		tests/run-phases -j2 --par $(DISTRO_TESTS)

# On one vCPU in qemu's instruction time (VM_ICOUNT=0): TCG's own jitter
# would turn every interrupt into milliseconds and every interference
# characterization but two into "unbounded"
run: deps kernel rtla
	@VM_ICOUNT=0 tests/vm/run -c 1 -t 900 -- bash scripts/measure.sh

bench: deps
	@$(MAKE) -s -C tests/unit bench

# soak - the ground-truth property test on 100 M seeds (SEEDS=, JOBS=);
# make test runs 1 M of them
soak: deps kernel-src
	@$(TOP)/scripts/soak.sh

# bench-vm - the tracer's cost in the VM, against its alternatives: in
# instructions executed (qemu's instruction counter, deterministic): the
# toggle-heavy load's throughput, cyclictest beside it (on one vCPU), and
# the always-on price (medians of three boots of each kernel: cyclictest's
# average moves between boots); then the throughput in wall-clock time
# under TCG (what every instruction costs, noisy)
bench-vm: deps kernel kernel-untraced
	@rm -rf $(BUILD)/bench/empty_probes && mkdir -p $(BUILD)/bench
	@cp -r tests/bench/empty_probes $(BUILD)/bench/
	@$(KMAKE) -s M=$(BUILD)/bench/empty_probes modules
	@VM_ICOUNT=0 tests/bench/tracer_cost.sh -s 2 -r 1 -t
	@VM_ICOUNT=0 tests/bench/tracer_cost.sh -s 2 -r 1 -l -C 1
	@VM_ICOUNT=0 tests/bench/always_on.sh $(UNTRACED)/arch/x86/boot/bzImage -s 2 -r 1
	@tests/bench/tracer_cost.sh -t

# kernel-untraced - the kernel of `make kernel` without the tracer and the
# toggle tracepoints it selects: bench-vm's always-on row compares the two
kernel-untraced: kernel-src
	@$(TOP)/scripts/kernel-untraced.sh $(KTREE) $(UNTRACED) $(FRAGMENTS)
	@mkdir -p $(CCACHE_DIR)
	@CCACHE_BASEDIR=$(UNTRACED) $(MAKE) -C $(UNTRACED) ARCH=x86_64 \
		CC="ccache gcc" LOCALVERSION= -j$(JOBS) -s bzImage

# kernel-debug-FLAVOUR - the kernel of `make kernel` plus
# config/debug-FLAVOUR.config, in a worktree of its own, with its modules
# installed beside it: locking (lockdep, RCU lockdep, atomic sleep,
# preempt-count checks) and memory (KASAN, debug objects). Not while
# build/linux is mid-rebase: the worktree would take a HEAD of the rebase.
kernel-debug: $(addprefix kernel-debug-,$(DEBUG_FLAVOURS))

kernel-debug-%: kernel-src
	@if [ -d $(KTREE)/.git/rebase-merge ] || [ -d $(KTREE)/.git/rebase-apply ]; then \
		echo "kernel-debug: $(KTREE) is mid-rebase, try again when it is done" >&2; \
		exit 1; \
	fi
	@test -f $(TOP)/config/debug-$*.config || \
		{ echo "kernel-debug: no config/debug-$*.config" >&2; exit 1; }
	@$(TOP)/scripts/kernel-debug.sh $(KTREE) $(BUILD)/linux-debug-$* $(FRAGMENTS) \
		$(TOP)/config/debug-$*.config
	@mkdir -p $(CCACHE_DIR)
	@echo "kernel-debug-$*: building bzImage and modules in $(BUILD)/linux-debug-$*"
	@CCACHE_BASEDIR=$(BUILD)/linux-debug-$* $(MAKE) -C $(BUILD)/linux-debug-$* ARCH=x86_64 \
		CC="ccache gcc" LOCALVERSION= -j$(JOBS) -s bzImage modules
	@rm -rf $(BUILD)/linux-debug-$*/modules-install
	@CCACHE_BASEDIR=$(BUILD)/linux-debug-$* $(MAKE) -C $(BUILD)/linux-debug-$* ARCH=x86_64 \
		CC="ccache gcc" LOCALVERSION= -s \
		INSTALL_MOD_PATH=$(BUILD)/linux-debug-$*/modules-install modules_install >/dev/null
	@echo "kernel-debug-$*: $(BUILD)/linux-debug-$*/arch/x86/boot/bzImage"

# test-debug - the stress test of tests/debug/ and the VM tests on each
# debug kernel (test-debug-FLAVOUR: on one): every test ends with
# dmesg_clean, so any lockdep, RCU, KASAN, atomic-sleep or debug-objects
# report fails it. A debug kernel is slower under TCG: VM_TIMEOUT_SCALE
# stretches every test's hard limit (and ftracetest's per group).
# Left out: the two tests that assert values in deterministic time
# (VM_ICOUNT=0: one instruction is one ns), calibrated on the production
# kernel. On a debug kernel lockdep and KASAN add thousands of
# instructions where the tracer cannot see them by design: lockdep's
# hardirqs_off before the irq_disable tracepoint and its hardirqs_on after
# irq_enable (both with IRQs really off), and the entry code of every
# interrupt around the IRQ tracepoints. They are not a bug of the tracer.
# - latency_parser_exact.t: preemptirq_delay_test windows within 5 us of
#   their length (a 7 ms preempt-off window holds 7 ticks, each with its
#   untimed entry and exit), an idle tick's IRQ under 100 us.
# - latency_parser_bound.t: the bound against cyclictest's latency, in the
#   same clock: every irq-off window of a debug kernel is longer than
#   the tracer can measure, so the comparison says nothing about it.
# Everything behavioural still runs, with the same assertions.
# Two kernels, because under TCG the checkers' costs multiply: one kernel
# with all of them took over 1800 s for latency_parser_events.t and made
# the stress test's instances at 5 per 280 to 590 s; the locking kernel
# alone runs them in 155 s and 254 s for all 100. Two VMs at a time, one
# per core.
DEBUG_EXCLUDED = tests/vm/latency_parser_exact.t tests/vm/latency_parser_bound.t
DEBUG_TESTS    = $(wildcard tests/debug/*.t) \
		 $(filter-out $(DEBUG_EXCLUDED),$(VM_TESTS))

test-debug: $(addprefix test-debug-,$(DEBUG_FLAVOURS))

test-debug-%: deps kernel-debug-% rtla
	KERNEL=$(BUILD)/linux-debug-$*/arch/x86/boot/bzImage \
		MODULES=$(BUILD)/linux-debug-$*/modules-install \
		VM_TIMEOUT_SCALE=$${VM_TIMEOUT_SCALE:-5} \
		FTRACETEST_GROUPS="$${FTRACETEST_GROUPS:-tracer instances}" \
		tests/run-phases -j2 --par $(DEBUG_TESTS)

# test-arm64 - the mainline series on arm64, in qemu's virt machine (TCG):
# - kernel-arm64: build/arm64/linux, an output directory of the worktree
#   make cross-build compiles (build/cross-src, build/linux at its HEAD),
#   from arm64's defconfig without its modules and SoC platforms, plus
#   the fragments of make kernel and config/arm64.config (kernel-config.sh
#   -a arm64); its modules installed in build/arm64/modules;
# - arm64-root: build/arm64/root, Debian's arm64 packages of this machine's
#   suite (debootstrap's first stage, unpacked, not configured), the
#   guest's root file system: cyclictest, stress-ng, python3, kmod;
# - rtla-arm64: build/linux's rtla (make rtla's sources) cross-built against
#   that root's libtracefs, in build/arm64/rtla;
# then the VM tests of ARM64_TESTS (tests/vm/run's VM_ARCH=arm64), two VMs
# at a time. Not part of make test: its kernel is one more cold build.
ARM64          := $(BUILD)/arm64
ARM64_FRAGMENTS := $(MAINLINE_FRAGMENTS) $(TOP)/config/arm64.config
ARM64_KMAKE    := CCACHE_BASEDIR=$(CROSS_SRC) $(MAKE) -C $(CROSS_SRC) O=$(ARM64)/linux \
	ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="ccache aarch64-linux-gnu-gcc" \
	LOCALVERSION= -j$(JOBS)
ARM64_DEB_PACKAGES := debootstrap qemu-system-arm
ARM64_TESTS    := tests/vm/smoke.t tests/vm/latency_parser_kunit.t \
	tests/vm/latency_parser_files.t tests/vm/latency_parser_instances.t \
	tests/vm/latency_parser_events.t tests/vm/latency_parser_oracle.t \
	tests/vm/latency_parser_irq.t tests/vm/latency_parser_exact.t \
	tests/vm/latency_parser_bound.t tests/vm/rtla_sched_latency.t \
	tests/vm/toggle_hooks.t tests/vm/latency_parser_quick.t $(wildcard tests/arm64/*.t)

deps-arm64: deps
	$(call install_missing,$(ARM64_DEB_PACKAGES))

cross-src: kernel-src
	@[ -d $(CROSS_SRC) ] || git -C $(KTREE) worktree add -q --detach $(CROSS_SRC) HEAD
	@git -C $(CROSS_SRC) checkout -q --detach $$(git -C $(KTREE) rev-parse HEAD)

$(ARM64)/kernel-config.stamp: $(ARM64_FRAGMENTS) $(TOP)/scripts/kernel-config.sh | cross-src
	@$(TOP)/scripts/kernel-config.sh -a arm64 -O $(ARM64)/linux $(CROSS_SRC) $(ARM64_FRAGMENTS)
	@touch $@

kernel-arm64: deps-arm64 cross-src $(ARM64)/kernel-config.stamp
	@mkdir -p $(CCACHE_DIR)
	@echo "kernel-arm64: building Image and modules in $(ARM64)/linux"
	@$(ARM64_KMAKE) -s Image modules
	@rm -rf $(ARM64)/modules
	@$(ARM64_KMAKE) -s INSTALL_MOD_PATH=$(ARM64)/modules modules_install >/dev/null
	@echo "kernel-arm64: $(ARM64)/linux/arch/arm64/boot/Image $$($(ARM64_KMAKE) -s kernelrelease)"

arm64-root: deps-arm64
	@$(TOP)/scripts/arm64-root.sh $(ARM64)/root $(TOP)

rtla-arm64: rtla arm64-root
	@$(TOP)/scripts/rtla-arm64.sh $(KTREE) $(ARM64)/root $(ARM64)/rtla

# bisect-build-arm64 - the mainline series patch by patch for arm64 (make
# bisect-build ARCH=arm64), with make kernel-arm64's config
bisect-build-arm64: deps-arm64 dist $(ARM64)/kernel-config.stamp
	@KARCH=arm64 KCONFIG=$(ARM64)/linux/.config $(TOP)/scripts/bisect-build.sh \
		$(KTREE) $(BUILD)/dist/mainline $(BUILD)/bisect-arm64 $(FROM)

test-arm64: kernel-arm64 rtla-arm64
	VM_ARCH=arm64 RTLA=$(ARM64)/rtla/rtla tests/run-phases -j2 --par $(ARM64_TESTS)

clean:
	rm -rf $(BUILD)
