# SPDX-License-Identifier: GPL-2.0
#
# dlqos: build the patched 6.12.y kernel out of tree, boot it in QEMU and
# run the tests.  Everything generated goes under build/.
#
#   make run        build, boot, show the idle states, governor and limit
#   make test       build, boot, run every KUnit suite and kselftest
#   make boot       build, boot to an interactive shell
#   make kernel     unpack, patch, overlay and build the kernel only
#   make initramfs  selftests, test module, busybox, rt-tests
#   make bench      benchmarks: energy and deadline misses per workload,
#                   idle table and policy (table and plot), enqueue hook
#                   and admission cost (=y vs =n), two cpuset partitions
#                   (limits per CPU); results in build/bench/
#   make series     the patch series with cover letter in build/series,
#                   checked with checkpatch --strict and kernel-doc
#   make series-check  build the kernel after each patch of the series,
#                   W=1, sparse and htmldocs of the touched parts
#   make patch KDIR=/path/to/linux  apply the series to a 6.12.y tree
#   make deps       install what is missing with apt
#   make clean      remove build/
#
# Variables (make test SMP=4 ICOUNT=0 ...):
#   ARCH         x86_64 (default) or arm64: an arm64 kernel cross-built with
#                gcc-aarch64-linux-gnu (Kconfig.arm64.fragment, build/obj-arm64)
#                booted on qemu-system-aarch64 -M virt with a device tree that
#                adds PSCI idle states (rig/virt-idle-states.dtsi), so that
#                the cpuidle-psci driver, not the test driver, provides the
#                states; QEMU does not emulate their exit latency, so the
#                tests that need it skip
#   ARM64_IDLE   arm64's idle driver: psci (default, as above) or test:
#                QEMU's own device tree, no platform idle driver, and the
#                test driver's states with their exit latency, as on x86
#   SMP          number of guest CPUs (default 2)
#   DEBUG        1: kernel with lockdep, DEBUG_ATOMIC_SLEEP, KASAN, UBSAN,
#                KMEMLEAK and DEBUG_OBJECTS (Kconfig.debug.fragment), built
#                in build/obj-debug; kmemleak is scanned after the tests
#   RT           1: PREEMPT_RT kernel (Kconfig.rt.fragment), built in
#                build/obj-rt; with DEBUG=1 both, in build/obj-debug-rt
#   ICOUNT       1 (default): guest time derived from the instruction count
#                (-icount shift=$(ICOUNT_SHIFT),sleep=off), so exit
#                latencies and deadline misses are deterministic; 0: plain
#                TCG, guest time follows the noisy host (timing tests skip)
#   ICOUNT_SHIFT one guest instruction takes 2^ICOUNT_SHIFT ns (default 1)
#   IDLE_TABLE   idle states of the test cpuidle driver: spr, juno, or a
#                custom table "name:exit_us:residency_us:power_mw,..."
#   GOVERNOR     cpuidle governor selected at boot (default: dlqos)
#   TESTS        make test runs only these kselftests, e.g.
#                TESTS="churn_test limit_test" (default: all)
#   CHURN_SEED   random seed of churn_test (default: the guest's clock),
#                to replay a run whose log printed its seed
#   LOGLEVEL     guest console loglevel (default 5; 7 shows hung-task and
#                sysrq stacks on the console)
#   MEM          guest memory (default 512M)
#   TIMEOUT      seconds before a guest run is declared hung (default 1500,
#                5000 with DEBUG=1); make test then logs where each vCPU is
#   JOBS         parallel build jobs (default: number of host CPUs)
#   BENCH_TABLES idle tables of the energy benchmark (default: spr juno);
#                one guest per table, run in parallel
#   BENCH_SECONDS guest seconds per energy benchmark cell (default 2)
#   BENCH_WORKLOADS, BENCH_POLICIES  only these workloads / policies of
#                the energy benchmark, e.g. BENCH_POLICIES="dlqos dlqos-rule1"
#                (default: all; names in tools/testing/selftests/dlqos/
#                bench_energy.sh); BENCH_POLICIES applies to
#                bench-partition too

ARCH		?= x86_64
SMP		?= 2
DEBUG		?= 0
RT		?= 0
ICOUNT		?= 1
ARM64_IDLE	?= psci
ICOUNT_SHIFT	?= 1
IDLE_TABLE	?= spr
LOGLEVEL	?= 5
GOVERNOR	?= dlqos
MEM		?= 512M
TIMEOUT		?= $(if $(filter 1,$(DEBUG)),5000,1500)
JOBS		?= $(shell nproc)
BENCH_TABLES	?= spr juno
BENCH_SECONDS	?= 2

BUILD		:= build
KVER		:= 6.12
KTAR		:= /usr/src/linux-source-$(KVER).tar.xz
KSRC		:= $(abspath $(BUILD)/linux)

# Per architecture: kernel image, fragments, toolchain, QEMU, console.  The
# arm64 build's files carry an -arm64 suffix (build/obj-arm64, ...).
ifeq ($(ARCH),x86_64)
ASUFFIX		:=
KIMAGE		:= arch/x86/boot/bzImage
ARCH_FRAGMENT	:=
CROSS_COMPILE	:=
QEMU_SYSTEM	:= qemu-system-x86_64 -cpu max
CONSOLE		:= ttyS0
else ifeq ($(ARCH),arm64)
ASUFFIX		:= -arm64
KIMAGE		:= arch/arm64/boot/Image
ARCH_FRAGMENT	:= Kconfig.arm64.fragment
CROSS_COMPILE	:= aarch64-linux-gnu-
# The virt machine's device tree, with PSCI idle states added; with
# ARM64_IDLE=test, QEMU's own (no idle states: the test driver's instead).
ifeq ($(ARM64_IDLE),psci)
DTB		:= $(BUILD)/virt-$(SMP)cpu.dtb
else ifneq ($(ARM64_IDLE),test)
$(error ARM64_IDLE=$(ARM64_IDLE): psci or test)
endif
VIRT_CPU	:= cortex-a57
QEMU_SYSTEM	:= qemu-system-aarch64 -M virt $(if $(DTB),-dtb $(DTB)) \
		   -cpu $(VIRT_CPU)
CONSOLE		:= ttyAMA0
else
$(error ARCH=$(ARCH): x86_64 or arm64)
endif

# DEBUG=1 and RT=1 build other kernels, each in its own tree.
on		= $(filter 1,$($(1)))
KOBJ		:= $(abspath $(BUILD)/obj$(ASUFFIX)$(if $(call on,DEBUG),-debug)$(if $(call on,RT),-rt))
FRAGMENTS	:= Kconfig.fragment $(ARCH_FRAGMENT) \
		   $(if $(call on,DEBUG),Kconfig.debug.fragment) \
		   $(if $(call on,RT),Kconfig.rt.fragment)
IMAGE		:= $(KOBJ)/$(KIMAGE)
INITRAMFS	:= $(BUILD)/initramfs$(ASUFFIX).cpio
ROOTFS		:= $(abspath $(BUILD)/rootfs$(ASUFFIX))
# One console log per kernel, so that runs of different kernels can overlap.
KSUFFIX		:= $(ASUFFIX)$(if $(call on,DEBUG),-debug)$(if $(call on,RT),-rt)
TEST_LOG	:= $(BUILD)/test$(KSUFFIX).log
RUN_LOG		:= $(BUILD)/run$(KSUFFIX).log
SELFTESTS	:= tools/testing/selftests/dlqos
RIG		:= $(SELFTESTS)/rig
TESTMOD		:= $(SELFTESTS)/test_cpuidle

# The project's own files, laid over the unpacked kernel tree.
OVERLAY		:= kernel drivers include Documentation tools
# patches/series: the order of the patches, and which project files each
# one adds (make series).
PATCHES		:= $(addprefix patches/,$(shell awk '/^[^ \t\#]/ && $$1 != "exclude" \
		     { print $$1 }' patches/series))

# Paths relative to the checkout, so a fresh clone elsewhere hits ccache.
export CCACHE_BASEDIR := $(CURDIR)

# $(call kmake,OBJDIR): kbuild in one output tree.
kmake		= $(MAKE) -C $(KSRC) O=$(1) ARCH=$(ARCH) \
		   $(if $(CROSS_COMPILE),CROSS_COMPILE=$(CROSS_COMPILE)) \
		   CC="ccache $(CROSS_COMPILE)gcc" HOSTCC="ccache gcc" -j$(JOBS)
KMAKE		:= $(call kmake,$(KOBJ))

DEPS		:= linux-source-6.12 qemu-system-x86 busybox-static rt-tests \
		   ccache bc flex bison libelf-dev libssl-dev cpio kmod rsync \
		   xz-utils gcc make libgmp-dev dwarves python3 gnuplot-nox
# ARCH=arm64: the cross compiler, QEMU, dtc, and the arm64 libraries the
# selftests link with (Debian multiarch: dpkg --add-architecture arm64).
# busybox-static and rt-tests cannot be installed for two architectures at
# once: their arm64 packages are downloaded and unpacked under build/.
ARM64_DEPS	:= gcc-aarch64-linux-gnu qemu-system-arm device-tree-compiler \
		   libc6-dev:arm64 libgmp-dev:arm64 libnuma1:arm64
ARM64_DEBS	:= busybox-static rt-tests
ARM64_ROOT	:= $(BUILD)/debs-arm64/root

# log_buf_len: the dmesg dump after the tests must hold the whole run (the
# phases of allowed lateness are marked at notice level, off the console);
# tinyconfig's 128 KiB lost the first minutes of every run.
QEMU_APPEND	= console=$(CONSOLE) panic=-1 loglevel=$(LOGLEVEL) log_buf_len=4M \
		   rig.mode=$(MODE) rig.idle_table=$(IDLE_TABLE) rig.icount=$(ICOUNT) \
		   rig.debug=$(DEBUG) rig.rt=$(RT) \
		   $(if $(TESTS),rig.tests=$(subst $(space),$(,),$(strip $(TESTS)))) \
		   $(if $(CHURN_SEED),rig.churn_seed=$(CHURN_SEED)) \
		   $(if $(GOVERNOR),cpuidle.governor=$(GOVERNOR))
, := ,
space := $() $()
QEMU		:= $(QEMU_SYSTEM) -nographic -no-reboot -nic none \
		   -smp $(SMP) -m $(MEM) -kernel $(IMAGE) -initrd $(INITRAMFS) \
		   $(if $(filter 1,$(ICOUNT)),-icount shift=$(ICOUNT_SHIFT)$(,)sleep=off)

.PHONY: all deps kernel initramfs boot run test bench bench-energy \
	bench-hook bench-select bench-partition clean
.DELETE_ON_ERROR:

all: kernel initramfs

# $(call apt_install,PACKAGES): install those that are missing.
define apt_install
	@missing=""; for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q \
			-o DPkg::Lock::Timeout=600 --no-install-recommends \
			$$missing; \
	fi
endef

deps:
ifeq ($(ARCH),arm64)
	@dpkg --print-foreign-architectures | grep -qx arm64 || { \
		echo "deps: adding the arm64 architecture to dpkg"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo dpkg --add-architecture arm64 && $$sudo apt-get update -q; }
endif
	$(call apt_install,$(DEPS) $(if $(ASUFFIX),$(ARM64_DEPS)))

# Unpack Debian's linux-source once; a newer tarball starts over.
$(BUILD)/.unpacked: $(KTAR)
	rm -rf $(KSRC) $(BUILD)/.patched $(BUILD)/patches-applied
	mkdir -p $(BUILD)
	tar -C $(BUILD) -xf $(KTAR)
	mv $(BUILD)/linux-source-6.12 $(KSRC)
	touch $@

# Apply patches/*.patch in order.  When they change, the previously applied
# set is reverted first, so only the files they touch are rebuilt.
$(BUILD)/.patched: $(BUILD)/.unpacked $(PATCHES) $(BUILD)/patch-list
	@if [ -d $(BUILD)/patches-applied ]; then \
		for p in $$(ls $(BUILD)/patches-applied | sort -r); do \
			echo "  REVERT  $$p"; \
			patch -s -R -p1 -d $(KSRC) < $(BUILD)/patches-applied/$$p || exit 1; \
		done; \
	fi
	rm -rf $(BUILD)/patches-applied
	mkdir -p $(BUILD)/patches-applied
	@for p in $(PATCHES); do \
		echo "  PATCH   $$p"; \
		patch -s -p1 -N -d $(KSRC) < $$p || exit 1; \
		cp $$p $(BUILD)/patches-applied/; \
	done
	touch $@

# The list of patches, rewritten only when it changes, so that removing or
# renaming a patch also re-patches the tree.
$(BUILD)/patch-list: FORCE
	@mkdir -p $(BUILD)
	@echo "$(PATCHES)" > $@.new
	@cmp -s $@.new $@ && rm $@.new || mv $@.new $@
.PHONY: FORCE

# Copy only what differs, so kbuild rebuilds only what changed.
overlay: $(BUILD)/.patched
	@for d in $(OVERLAY); do \
		[ -d $$d ] && rsync -rc $$d/ $(KSRC)/$$d/ || true; \
	done
.PHONY: overlay

# $(call kconfig,OBJDIR,FRAGMENTS): tinyconfig + fragments, checked: every
# option the fragments leave at =y (a later fragment may unset an earlier
# one's) must be =y in the result.
define kconfig
	mkdir -p $(1)
	$(call kmake,$(1)) tinyconfig >/dev/null
	cd $(1) && ARCH=$(ARCH) $(KSRC)/scripts/kconfig/merge_config.sh \
		-m -O $(1) $(1)/.config $(abspath $(2)) \
		> $(CURDIR)/$(BUILD)/merge_config.log
	$(call kmake,$(1)) olddefconfig >/dev/null
	@missing=$$(awk '/^CONFIG_[A-Za-z0-9_]+=/ { split($$0, kv, "="); \
			v[kv[1]] = $$0 } \
		/^# CONFIG_[A-Za-z0-9_]+ is not set/ { v[$$2] = "" } \
		END { for (k in v) if (v[k] ~ /=y$$/) print v[k] }' $(2) | \
		while read l; do grep -qx "$$l" $(1)/.config || echo "$$l"; done); \
	if [ -n "$$missing" ]; then \
		echo "Kconfig fragment options not in the final .config:"; \
		echo "$$missing"; rm -f $(1)/.config; exit 1; \
	fi
endef

$(KOBJ)/.config: $(FRAGMENTS) $(BUILD)/.patched
	$(call kconfig,$(KOBJ),$(FRAGMENTS))

kernel: overlay $(KOBJ)/.config
	$(KMAKE) $(notdir $(KIMAGE)) modules
	$(KMAKE) headers >/dev/null
	@echo "kernel: $$($(MAKE) -s -C $(KSRC) O=$(KOBJ) kernelrelease) ($(IMAGE))"

# arm64 busybox and rt-tests: Debian's packages, downloaded and unpacked
# (installing them would replace the host's own).
$(ARM64_ROOT)/.unpacked:
	rm -rf $(BUILD)/debs-arm64
	mkdir -p $(ARM64_ROOT)
	cd $(BUILD)/debs-arm64 && apt-get download -q \
		$(addsuffix :arm64,$(ARM64_DEBS))
	for d in $(BUILD)/debs-arm64/*.deb; do dpkg-deb -x $$d $(ARM64_ROOT); done
	touch $@

# Test module, selftests, busybox and rt-tests in one cpio archive.  The
# test module is left out where cpuidle-psci is the idle driver.
USERLAND	:= $(if $(ASUFFIX),$(ARM64_ROOT))
WITH_TESTMOD	:= $(if $(DTB),,1)
# $(call testmod,OBJDIR): build the test module for the kernel in OBJDIR,
# into OBJDIR/dlqos-test-module/test_cpuidle.ko.  A copy of its source per
# kernel object tree: kbuild's command lines do not name the tree, so one
# build directory shared by the plain, DEBUG, RT and profiling kernels
# would keep a module with another kernel's vermagic.
testmod		= rsync -rc $(TESTMOD)/ $(1)/dlqos-test-module/ && \
		  $(call kmake,$(1)) M=$(1)/dlqos-test-module modules
initramfs: kernel $(if $(ASUFFIX),$(ARM64_ROOT)/.unpacked)
	$(if $(WITH_TESTMOD),$(call testmod,$(KOBJ)))
	rm -rf $(ROOTFS)
	mkdir -p $(ROOTFS)/bin $(ROOTFS)/sbin $(ROOTFS)/usr/bin \
		$(ROOTFS)/usr/sbin $(ROOTFS)/proc $(ROOTFS)/sys $(ROOTFS)/dev \
		$(ROOTFS)/tmp $(ROOTFS)/root
	$(MAKE) -C $(KSRC)/tools/testing/selftests O=$(KOBJ) TARGETS=dlqos \
		$(if $(CROSS_COMPILE),ARCH=$(ARCH) CROSS_COMPILE=$(CROSS_COMPILE)) \
		KSFT_INSTALL_PATH=$(ROOTFS)/kselftest install >/dev/null
	$(if $(WITH_TESTMOD),cp $(KOBJ)/dlqos-test-module/test_cpuidle.ko $(ROOTFS)/kselftest/dlqos/)
	cp $(USERLAND)/bin/busybox $(ROOTFS)/bin/busybox
	ln -s busybox $(ROOTFS)/bin/sh
	cp $(USERLAND)/usr/bin/cyclicdeadline $(ROOTFS)/usr/bin/
	$(RIG)/copy-libs.sh $(ROOTFS) $(if $(CROSS_COMPILE),$(CROSS_COMPILE:-=))
	cp $(RIG)/init $(ROOTFS)/init
	chmod 755 $(ROOTFS)/init
	cd $(ROOTFS) && find . | cpio -o -H newc --quiet > $(abspath $(INITRAMFS))
	@echo "initramfs: $(INITRAMFS) ($$(du -h $(INITRAMFS) | cut -f1))"

# arm64: QEMU's own device tree for this -smp, plus the PSCI idle states.
# Made anew for every boot (it takes a fraction of a second), so that it
# always matches the QEMU installed.
dtb: deps
ifneq ($(DTB),)
	@mkdir -p $(BUILD)
	$(RIG)/virt-dtb.sh $(DTB) qemu-system-aarch64 -cpu $(VIRT_CPU) \
		-smp $(SMP) -m $(MEM)
endif
.PHONY: dtb

boot: MODE := shell
boot: deps all dtb
	$(QEMU) -append "$(QEMU_APPEND)"

run: MODE := run
run: deps all dtb
	@timeout $(TIMEOUT) $(QEMU) -append "$(QEMU_APPEND)" \
		< /dev/null | tee $(RUN_LOG)

# The verdict: rig/check-log.py against the manifest rig/expected, which
# lists every test that must run and, per variant (the tags below), every
# test allowed to skip and why.
MANIFEST	:= $(RIG)/expected
# arm64 boots with the device tree's PSCI idle states (psci_idle), unless
# ARM64_IDLE=test.
VARIANT		:= $(ARCH) kver-$(KVER) $(if $(DTB),psci) \
		   $(if $(call on,DEBUG),debug) \
		   $(if $(call on,RT),rt) $(if $(filter 0,$(ICOUNT)),icount0) \
		   $(if $(filter 1,$(SMP)),smp1) table-$(IDLE_TABLE) \
		   gov-$(or $(GOVERNOR),none)
CHECK_LOG	= python3 $(RIG)/check-log.py --manifest $(MANIFEST) \
		   --variant "$(strip $(VARIANT))" --tests "$(strip $(TESTS))"

# TESTS names kselftest programs of the manifest; anything else is an
# error before anything is built.
check-tests: deps
	@python3 $(RIG)/check-log.py --manifest $(MANIFEST) \
		--check-tests "$(strip $(TESTS))"
.PHONY: check-tests

test: MODE := test
test: check-tests all dtb
	@echo "test: booting $(SMP) $(ARCH) CPUs$(if $(filter 1,$(ICOUNT)), with -icount), console log in $(TEST_LOG)"
	@$(RIG)/qemu-run.sh $(TIMEOUT) $(KOBJ)/System.map \
		$(QEMU) -append "$(QEMU_APPEND)" \
		< /dev/null > $(TEST_LOG) 2>&1; \
	echo "qemu exit status $$?" >> $(TEST_LOG)
	@$(CHECK_LOG) $(TEST_LOG)

# Enqueue hook and admission cost: the same deadline wakeup loop
# (dl_pingpong) and sched_setattr() loops (dl_admit), one CPU, -icount so
# that guest time counts instructions, on this kernel and on one built
# without CONFIG_DL_IDLE_QOS.
KOBJ_OFF	:= $(abspath $(BUILD)/obj-nodlqos)
BENCH_QEMU	= qemu-system-x86_64 -nographic -no-reboot -nic none -cpu max \
		   -smp 1 -m $(MEM) -initrd $(INITRAMFS) \
		   -icount shift=$(ICOUNT_SHIFT),sleep=off \
		   -append "console=ttyS0 panic=-1 loglevel=5 rig.mode=bench"

$(KOBJ_OFF)/.config: Kconfig.fragment $(BUILD)/.patched
	mkdir -p $(BUILD)
	sed -e 's/^CONFIG_DL_IDLE_QOS=y/# CONFIG_DL_IDLE_QOS is not set/' \
	    -e '/DL_IDLE_QOS_KUNIT_TEST/d' Kconfig.fragment \
		> $(BUILD)/Kconfig.fragment.nodlqos
	$(call kconfig,$(KOBJ_OFF),$(BUILD)/Kconfig.fragment.nodlqos)
	! grep -q '^CONFIG_DL_IDLE_QOS=y' $@

ifneq ($(ARCH)$(filter bench%,$(MAKECMDGOALS)),$(ARCH))
ifeq ($(ARCH),arm64)
$(error make bench is x86_64 only)
endif
endif

bench-hook: deps all $(KOBJ_OFF)/.config
	$(call kmake,$(KOBJ_OFF)) bzImage
	mkdir -p $(BUILD)/bench
	timeout $(TIMEOUT) $(BENCH_QEMU) -kernel $(IMAGE) \
		< /dev/null > $(BUILD)/bench/hook-on.log 2>&1
	timeout $(TIMEOUT) $(BENCH_QEMU) \
		-kernel $(KOBJ_OFF)/arch/x86/boot/bzImage \
		< /dev/null > $(BUILD)/bench/hook-off.log 2>&1
	@awk '/^BENCH/ { v = $$NF + 0; if (FILENAME ~ /on/) on += v; else off += v; \
		n[FILENAME]++ } \
	END { printf "| kernel | ns per round (guest, icount) |\n|---|---|\n"; \
		printf "| CONFIG_DL_IDLE_QOS=n | %.1f |\n", off / n[ARGV[2]]; \
		printf "| CONFIG_DL_IDLE_QOS=y | %.1f |\n", on / n[ARGV[1]]; \
		printf "\nenqueue path overhead: %+.2f%%\n", \
			100 * (on / n[ARGV[1]]) / (off / n[ARGV[2]]) - 100 }' \
		$(BUILD)/bench/hook-on.log $(BUILD)/bench/hook-off.log \
		| tee $(BUILD)/bench/hook.md
	@awk '/^ADMIT tasks/ { k = (FILENAME ~ /on/) ? "y" : "n"; \
		n[$$3] = 1; a[k, $$3] = $$5; c[k, $$3] = $$7 } \
	END { printf "| admitted tasks | admit ns (=n) | admit ns (=y) | change ns (=n) | change ns (=y) |\n|---|---|---|---|---|\n"; \
		for (t = 1; t <= 1000; t *= 10) if (t in n) \
			printf "| %d | %s | %s | %s | %s |\n", t, a["n", t], a["y", t], c["n", t], c["y", t] }' \
		$(BUILD)/bench/hook-on.log $(BUILD)/bench/hook-off.log \
		| tee $(BUILD)/bench/admission.md

# Energy and deadline misses: one guest (one CPU, -icount) per idle table,
# all of them at once, each running every (workload, policy) cell
# (tools/testing/selftests/dlqos/bench_energy.sh); the host computes the
# metrics, the oracle and the table (rig/bench-energy.py) and the plot.
BENCH_SELECT	= $(if $(BENCH_WORKLOADS),rig.bench_workloads=$(subst $(space),$(,),$(strip $(BENCH_WORKLOADS)))) \
		  $(if $(BENCH_POLICIES),rig.bench_policies=$(subst $(space),$(,),$(strip $(BENCH_POLICIES))))
ENERGY_QEMU	= qemu-system-x86_64 -nographic -no-reboot -nic none -cpu max \
		   -smp 1 -m $(MEM) -kernel $(IMAGE) -initrd $(INITRAMFS) \
		   -icount shift=$(ICOUNT_SHIFT),sleep=off

bench-energy: deps all
	mkdir -p $(BUILD)/bench
	@start=$$(date +%s); \
	for t in $(BENCH_TABLES); do \
		echo "bench: energy, idle table $$t: $(BUILD)/bench/energy-$$t.log"; \
		timeout $$((3 * $(TIMEOUT))) $(ENERGY_QEMU) -append \
			"console=ttyS0 panic=-1 loglevel=5 rig.mode=energy rig.icount=1 rig.idle_table=$$t rig.bench_seconds=$(BENCH_SECONDS) $(BENCH_SELECT)" \
			< /dev/null > $(BUILD)/bench/energy-$$t.log 2>&1 & \
	done; wait; \
	echo "bench: energy guests ran $$(( $$(date +%s) - start )) s"
	@for t in $(BENCH_TABLES); do \
		grep -q '^DLQOS-RIG-DONE' $(BUILD)/bench/energy-$$t.log || \
		{ echo "bench: the $$t guest did not finish: $(BUILD)/bench/energy-$$t.log"; exit 1; }; \
	done
	python3 $(RIG)/bench-energy.py $(BUILD)/bench \
		$(foreach t,$(BENCH_TABLES),$(BUILD)/bench/energy-$(t).log)
	gnuplot $(BUILD)/bench/energy.gp
	@echo "bench: $(BUILD)/bench/energy.md, $(BUILD)/bench/energy.png"

# Governor select() cost: a third kernel, with the function profiler, runs
# the mixed workload under each governor and reports the profiler's time
# per call of each governor's select function, with the test driver built
# for that kernel.
KOBJ_PROF	:= $(abspath $(BUILD)/obj-prof)
PROF_MOD	:= $(abspath $(BUILD)/bench/prof-module)

$(KOBJ_PROF)/.config: Kconfig.fragment $(BUILD)/.patched
	mkdir -p $(BUILD)
	{ sed -e '/ENABLE_DEFAULT_TRACERS/d' -e '/KUNIT/d' Kconfig.fragment; \
		printf '%s\n' CONFIG_FUNCTION_TRACER=y \
		CONFIG_FUNCTION_GRAPH_TRACER=y CONFIG_DYNAMIC_FTRACE=y \
		CONFIG_FUNCTION_PROFILER=y; } > $(BUILD)/Kconfig.fragment.prof
	$(call kconfig,$(KOBJ_PROF),$(BUILD)/Kconfig.fragment.prof)

bench-select: deps all $(KOBJ_PROF)/.config
	$(call kmake,$(KOBJ_PROF)) bzImage modules
	mkdir -p $(PROF_MOD)/root/kselftest/dlqos
	$(call testmod,$(KOBJ_PROF))
	cp $(KOBJ_PROF)/dlqos-test-module/test_cpuidle.ko $(PROF_MOD)/root/kselftest/dlqos/
	cd $(PROF_MOD)/root && find . | cpio -o -H newc --quiet > ../extra.cpio
	cat $(INITRAMFS) $(PROF_MOD)/extra.cpio > $(PROF_MOD)/initramfs.cpio
	timeout $(TIMEOUT) qemu-system-x86_64 -nographic -no-reboot -nic none \
		-cpu max -smp 1 -m $(MEM) -kernel $(KOBJ_PROF)/arch/x86/boot/bzImage \
		-initrd $(PROF_MOD)/initramfs.cpio -icount shift=$(ICOUNT_SHIFT),sleep=off \
		-append "console=ttyS0 panic=-1 loglevel=5 rig.mode=select rig.icount=1 rig.idle_table=spr" \
		< /dev/null > $(BUILD)/bench/select.log 2>&1
	@grep -q '^DLQOS-RIG-DONE' $(BUILD)/bench/select.log || \
		{ echo "bench: the select guest did not finish: $(BUILD)/bench/select.log"; exit 1; }
	@awk '/^SELECT/ { printf "| %s | %s | %d | %.0f |\n", $$2, $$3, $$4, $$5 * 1000 }' \
		$(BUILD)/bench/select.log | \
	{ printf "| governor | function | calls | ns per call (guest time, profiler included) |\n|---|---|---|---|\n"; cat; } \
		| tee $(BUILD)/bench/select.md

# Two root domains: a cpuset partition on CPU 1 with the light workload,
# CPU 0 with the tight one, two CPUs under -icount; per CPU its limit, idle
# residency, idle power, misses and slips under menu (publication off and on)
# and dlqos; and the heavy workload on each CPU under dlqos, teo-pub and
# rt-static (rig/bench-partition.py).
bench-partition: deps all
	mkdir -p $(BUILD)/bench
	timeout $(TIMEOUT) qemu-system-x86_64 -nographic -no-reboot -nic none \
		-cpu max -smp 2 -m $(MEM) -kernel $(IMAGE) -initrd $(INITRAMFS) \
		-icount shift=$(ICOUNT_SHIFT),sleep=off \
		-append "console=ttyS0 panic=-1 loglevel=5 rig.mode=partition rig.icount=1 rig.idle_table=spr rig.bench_seconds=$(BENCH_SECONDS) $(BENCH_SELECT)" \
		< /dev/null > $(BUILD)/bench/partition.log 2>&1
	@grep -q '^DLQOS-RIG-DONE' $(BUILD)/bench/partition.log || \
		{ echo "bench: the partition guest did not finish: $(BUILD)/bench/partition.log"; exit 1; }
	python3 $(RIG)/bench-partition.py $(BUILD)/bench/partition.log \
		$(BUILD)/bench/partition.md

bench: bench-energy bench-hook bench-select bench-partition

# The patch series for upstream review: git format-patch output with a
# cover letter in build/series, checked (checkpatch --strict, kernel-doc);
# series-check builds the kernel after each patch on a pristine tree;
# patch applies it to a 6.12.y tree of yours (make patch KDIR=...).
SERIES		:= $(abspath $(BUILD)/series)
SERIES_SH	:= $(RIG)/series.sh
SERIES_DEPS	:= python3-sphinx patch sparse

series: deps
	$(SERIES_SH) format $(KTAR) $(SERIES)

series-check: series
	$(call apt_install,$(SERIES_DEPS))
	$(SERIES_SH) check $(KTAR) $(SERIES) $(abspath $(BUILD)/series-linux) \
		$(abspath $(BUILD)/obj-series) $(abspath Kconfig.fragment) $(JOBS)

patch: series
	@[ -n "$(KDIR)" ] || { echo "usage: make patch KDIR=/path/to/linux-6.12.y"; exit 1; }
	$(SERIES_SH) apply $(SERIES) $(abspath $(KDIR))

.PHONY: series series-check patch

clean:
	rm -rf $(BUILD)
