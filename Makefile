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
#   make bench      enqueue hook cost: CONFIG_DL_IDLE_QOS=y vs =n
#   make deps       install what is missing with apt
#   make clean      remove build/
#
# Variables (make test SMP=4 ICOUNT=0 ...):
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
#   MEM          guest memory (default 512M)
#   TIMEOUT      seconds before a guest run is declared hung (default 1500,
#                5000 with DEBUG=1)
#   JOBS         parallel build jobs (default: number of host CPUs)

SMP		?= 2
DEBUG		?= 0
RT		?= 0
ICOUNT		?= 1
ICOUNT_SHIFT	?= 1
IDLE_TABLE	?= spr
GOVERNOR	?= dlqos
MEM		?= 512M
TIMEOUT		?= $(if $(filter 1,$(DEBUG)),5000,1500)
JOBS		?= $(shell nproc)

BUILD		:= build
KTAR		:= /usr/src/linux-source-6.12.tar.xz
KSRC		:= $(abspath $(BUILD)/linux)
# DEBUG=1 and RT=1 build other kernels, each in its own tree.
on		= $(filter 1,$($(1)))
KOBJ		:= $(abspath $(BUILD)/obj$(if $(call on,DEBUG),-debug)$(if $(call on,RT),-rt))
FRAGMENTS	:= Kconfig.fragment $(if $(call on,DEBUG),Kconfig.debug.fragment) \
		   $(if $(call on,RT),Kconfig.rt.fragment)
IMAGE		:= $(KOBJ)/arch/x86/boot/bzImage
INITRAMFS	:= $(BUILD)/initramfs.cpio
ROOTFS		:= $(abspath $(BUILD)/rootfs)
SELFTESTS	:= tools/testing/selftests/dlqos
RIG		:= $(SELFTESTS)/rig
TESTMOD		:= $(SELFTESTS)/test_cpuidle

# The project's own files, laid over the unpacked kernel tree.
OVERLAY		:= kernel drivers include Documentation tools
PATCHES		:= $(sort $(wildcard patches/*.patch))

# Paths relative to the checkout, so a fresh clone elsewhere hits ccache.
export CCACHE_BASEDIR := $(CURDIR)

# $(call kmake,OBJDIR): kbuild in one output tree.
kmake		= $(MAKE) -C $(KSRC) O=$(1) ARCH=x86_64 \
		   CC="ccache gcc" HOSTCC="ccache gcc" -j$(JOBS)
KMAKE		:= $(call kmake,$(KOBJ))

DEPS		:= linux-source-6.12 qemu-system-x86 busybox-static rt-tests \
		   ccache bc flex bison libelf-dev libssl-dev cpio kmod rsync \
		   xz-utils gcc make libgmp-dev dwarves python3

QEMU_APPEND	= console=ttyS0 panic=-1 loglevel=5 \
		   rig.mode=$(MODE) rig.idle_table=$(IDLE_TABLE) rig.icount=$(ICOUNT) \
		   rig.debug=$(DEBUG) rig.rt=$(RT) \
		   $(if $(GOVERNOR),cpuidle.governor=$(GOVERNOR))
, := ,
QEMU		:= qemu-system-x86_64 -nographic -no-reboot -nic none -cpu max \
		   -smp $(SMP) -m $(MEM) -kernel $(IMAGE) -initrd $(INITRAMFS) \
		   $(if $(filter 1,$(ICOUNT)),-icount shift=$(ICOUNT_SHIFT)$(,)sleep=off)

.PHONY: all deps kernel initramfs boot run test bench clean
.DELETE_ON_ERROR:

all: kernel initramfs

deps:
	@missing=""; for p in $(DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
		$$sudo apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q \
			--no-install-recommends $$missing; \
	fi

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
	cd $(1) && ARCH=x86_64 $(KSRC)/scripts/kconfig/merge_config.sh \
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
	$(KMAKE) bzImage modules
	$(KMAKE) headers >/dev/null
	@echo "kernel: $$($(MAKE) -s -C $(KSRC) O=$(KOBJ) kernelrelease) ($(IMAGE))"

# Test module, selftests, busybox and rt-tests in one cpio archive.
initramfs: kernel
	$(KMAKE) M=$(KSRC)/$(TESTMOD) modules
	rm -rf $(ROOTFS)
	mkdir -p $(ROOTFS)/bin $(ROOTFS)/sbin $(ROOTFS)/usr/bin \
		$(ROOTFS)/usr/sbin $(ROOTFS)/proc $(ROOTFS)/sys $(ROOTFS)/dev \
		$(ROOTFS)/tmp $(ROOTFS)/root
	$(MAKE) -C $(KSRC)/tools/testing/selftests O=$(KOBJ) TARGETS=dlqos \
		KSFT_INSTALL_PATH=$(ROOTFS)/kselftest install >/dev/null
	cp $(KSRC)/$(TESTMOD)/test_cpuidle.ko $(ROOTFS)/kselftest/dlqos/
	cp /bin/busybox $(ROOTFS)/bin/busybox
	ln -s busybox $(ROOTFS)/bin/sh
	cp /usr/bin/cyclicdeadline $(ROOTFS)/usr/bin/
	$(RIG)/copy-libs.sh $(ROOTFS)
	cp $(RIG)/init $(ROOTFS)/init
	chmod 755 $(ROOTFS)/init
	cd $(ROOTFS) && find . | cpio -o -H newc --quiet > $(abspath $(INITRAMFS))
	@echo "initramfs: $(INITRAMFS) ($$(du -h $(INITRAMFS) | cut -f1))"

boot: MODE := shell
boot: deps all
	$(QEMU) -append "$(QEMU_APPEND)"

run: MODE := run
run: deps all
	@timeout $(TIMEOUT) $(QEMU) -append "$(QEMU_APPEND)" \
		< /dev/null | tee $(BUILD)/run.log

test: MODE := test
test: deps all
	@echo "test: booting $(SMP) CPUs$(if $(filter 1,$(ICOUNT)), with -icount), console log in $(BUILD)/test.log"
	@timeout $(TIMEOUT) $(QEMU) -append "$(QEMU_APPEND)" \
		< /dev/null > $(BUILD)/test.log 2>&1; \
	echo "qemu exit status $$?" >> $(BUILD)/test.log
	@$(RIG)/check-log.sh $(BUILD)/test.log

# Enqueue hook cost: the same deadline wakeup loop (dl_pingpong, one CPU,
# -icount so that guest time counts instructions) on this kernel and on
# one built without CONFIG_DL_IDLE_QOS.
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

bench: deps all $(KOBJ_OFF)/.config
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

clean:
	rm -rf $(BUILD)
