# SPDX-License-Identifier: GPL-2.0
#
# nslogger: build, test and install.  `make help` lists the targets.

# KVER, the kernel to build against, is scripts/kver.sh's answer unless
# given: Debian's default kernel, which only exists once scripts/deps.sh has
# installed it. So it is never computed when the Makefile is read (?= makes
# it recursive), and as make expands a whole recipe before running its first
# line, `module` installs the packages first and builds in a sub-make
# (module-build), where KVER is computed afresh. Targets that depend on
# `module` may use $(KVER) in their own recipes: those expand afterwards.
KVER	?= $(shell scripts/kver.sh 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
BUILD	:= $(CURDIR)/build
TESTBIN	:= $(BUILD)/tests
VM	:= tests/containers/vm.sh
# The whole VM suite under TCG: the churn scenario alone takes about 5 min.
VM_SUITE_TIMEOUT := 2400
# make test-vm VM_SCENARIOS="abi tools": only these scenarios of
# tests/containers/suite.sh (make test-fresh runs abi and lxc); all by default.
VM_SCENARIOS ?=
# The collector scenario's consumers (journald, rsyslog, jq: deps.sh
# collector), installed only when it runs: all scenarios, or a list with it.
VM_DEPS = build tools vm containers \
	  $(if $(VM_SCENARIOS),$(filter collector,$(VM_SCENARIOS)),collector)

TEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	       -I$(CURDIR)/include/uapi -pthread
TEST_PROGS := $(TESTBIN)/abi_test $(TESTBIN)/ns_test $(TESTBIN)/rl_flood
TEST_PROGS += $(TESTBIN)/tenant_test $(TESTBIN)/nslogfs_test $(TESTBIN)/relay_test
TEST_PROGS += $(TESTBIN)/logd_test $(TESTBIN)/syslog_test
TEST_PROGS += $(TESTBIN)/stress $(TESTBIN)/badmem $(TESTBIN)/faultinj

.PHONY: all module module-build tools test-progs deps help clean clean-cache demo demo-run test \
	test-kunit test-fresh test-vm test-vm-run test-vm-6.12 test-vm-sid test-host test-debug test-debug-quick debug-kernel check install dkms-install bench bench-progs \
	fuzz-tools

all: module tools

help:
	@echo "make            build nslogger.ko (KVER=$(or $(KVER),the default kernel once installed)) and the tools"
	@echo "make demo       boot a VM and show records written and read back"
	@echo "make test       every suite (fresh, host, check, KUnit, VM on 6.1 and sid, debug) and one summary line"
	@echo "make test-fresh the README's commands in a clean debootstrap'd Debian 12 root"
	@echo "make test-host  user-space tests on the host (uapi header, tools, the fuzz corpus)"
	@echo "make fuzz-tools fuzz the tools' parsers with libFuzzer (FUZZ_RUNS=N and/or FUZZ_SECONDS=N each;"
	@echo "                FUZZERS=\"a b\"; tests/fuzz/README.md)"
	@echo "make test-kunit KUnit suites (kunit.py on UML, linux-source-6.1)"
	@echo "make test-vm    VM suite (Debian's kernel under QEMU; VM_SCENARIOS=... for some)"
	@echo "make test-vm-6.12  the VM suite on Debian's 6.12 kernel (build/ko-6.12)"
	@echo "make test-vm-sid   the VM suite on Debian sid's newest kernel (built in a chroot)"
	@echo "make test-debug KUnit, VM suite and stress on a KASAN/lockdep 6.1 kernel with mainline's exports"
	@echo "make test-debug-quick  a reduced debug run (about 6 min on the cached kernel)"
	@echo "make debug-kernel      build (or check) the cached debug kernel of make test-debug"
	@echo "make check      checkpatch --strict; sparse (C=2) and W=1 against 6.1, 6.12 and sid"
	@echo "make clean-cache  remove the builds kept outside the clone (scripts/cache-dir.sh)"
	@echo "make bench      benchmarks in one VM boot: bench/results, docs/benchmarks.md"
	@echo "make install    install the module (for uname -r) and the tools on this host"
	@echo "                (PREFIX=/usr/local, DESTDIR; make uninstall; make dkms-install)"
	@echo "make deb        Debian packages in build/deb/ (make test-deb: installed in a fresh root)"
	@echo "make test-reboot   the packages installed in a Debian 12 guest, checked after a reboot (not in make test)"
	@echo "make KVER=...   build against another installed kernel's headers"

deps:
	scripts/deps.sh build tools

module:
	@scripts/deps.sh build
	@$(MAKE) --no-print-directory module-build

# Only after deps.sh: $(KVER) is computed here (see KVER above).
module-build:
	@test -n "$(KVER)" || { scripts/kver.sh >/dev/null; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m W=1 modules

tools:
	@scripts/deps.sh tools
	$(MAKE) -C tools O=$(BUILD)/tools

test-progs: $(TEST_PROGS)

# The test programs: each one's sources, and one rule for them all.
abi_test_SRCS	:= tests/abi/abi_test.c tests/lib/tap.c
ns_test_SRCS	:= tests/containers/ns_test.c
relay_test_SRCS	:= tests/containers/relay_test.c
logd_test_SRCS	:= tests/containers/logd_test.c
syslog_test_SRCS := tests/containers/syslog_test.c
rl_flood_SRCS	:= tests/containers/rl_flood.c
tenant_test_SRCS := tests/containers/tenant_test.c
nslogfs_test_SRCS := tests/containers/nslogfs_test.c tests/lib/tap.c
stress_SRCS	:= tests/stress/stress.c
badmem_SRCS	:= tests/stress/badmem.c tests/lib/tap.c
faultinj_SRCS	:= tests/stress/faultinj.c
TEST_HDRS	:= tests/lib/tap.h include/uapi/linux/nslogger.h

.SECONDEXPANSION:
$(TEST_PROGS): $(TESTBIN)/%: $$(%_SRCS) $(TEST_HDRS)
	@mkdir -p $(TESTBIN)
	$(CC) $(TEST_CFLAGS) -o $@ $($*_SRCS)

# The benchmarks' user-space harness (bench/bench.sh, bench/ab.sh,
# bench/relay.sh, bench/nslogd.sh and bench/syslog.sh).
bench-progs: $(BUILD)/bench/writebench $(BUILD)/bench/uring \
	     $(BUILD)/bench/logdbench $(BUILD)/bench/syslogbench

# src/ring.c built as user space (bench/kbench/shim/); make test-host builds
# it too, so that a ring change that breaks the benchmark is seen at once.
$(BUILD)/bench/uring: bench/kbench/uring.c src/ring.c src/ring.h \
		$(wildcard bench/kbench/shim/*.h bench/kbench/shim/linux/*.h)
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE \
		-Ibench/kbench/shim -Isrc -o $@ bench/kbench/uring.c src/ring.c

$(BUILD)/bench/syslogbench: bench/syslogbench.c
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ bench/syslogbench.c

$(BUILD)/bench/writebench: bench/writebench.c include/uapi/linux/nslogger.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ bench/writebench.c

$(BUILD)/bench/logdbench: bench/logdbench.c include/uapi/linux/nslogger.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ bench/logdbench.c

# The libFuzzer harnesses of tests/fuzz, and the tools' objects they link,
# built by clang with ASan and UBSan in a directory of their own.
FUZZ_MAKE = $(MAKE) --no-print-directory -C tools O=$(BUILD)/fuzz FUZZ=1

test-host: tools bench-progs test-progs
	$(MAKE) -C tools O=$(BUILD)/tools check
	$(FUZZ_MAKE) fuzz-replay

# Not part of make test: hours, not a verdict a run can wait for
# (docs/reliability.md has the runs); make test-host replays the corpus.
fuzz-tools:
	@scripts/deps.sh tools
	$(FUZZ_MAKE) fuzz-run

test-kunit:
	tests/kunit/run.sh

# Each VM target first checks that the module needs no symbol only
# Debian's kernels export (scripts/debian-only-exports.txt).
# test-vm and demo install every package they need in one apt-get run, then
# do their work in a sub-make (see KVER above): on a machine without Debian's
# kernel that is one initramfs-tools run less (some 30 s).
test-vm:
	@scripts/deps.sh $(VM_DEPS)
	@$(MAKE) --no-print-directory test-vm-run

test-vm-run: module tools test-progs
	scripts/check-exports.sh nslogger.ko
	$(VM) --timeout $(VM_SUITE_TIMEOUT) $(if $(KVER),--kver $(KVER)) --ko $(CURDIR)/nslogger.ko -- \
		tests/containers/suite.sh $(VM_SCENARIOS)

# The module for 6.12 goes to build/ko-6.12/; nslogger.ko is rebuilt for
# the default kernel afterwards, all under the lock other builds take. The
# 6.12 release is whichever one deps.sh found or installed: Debian keeps only
# the last few in the archive, so none is pinned here.
test-vm-6.12: tools test-progs
	@scripts/deps.sh build vm containers collector kernel-6.12
	mkdir -p $(BUILD)/ko-6.12
	kver=$$(scripts/kver.sh 6.12) && \
	flock $(BUILD)/.module.lock sh -c "$(MAKE) module KVER=$$kver && \
		cp nslogger.ko $(BUILD)/ko-6.12/ && $(MAKE) module" && \
	scripts/check-exports.sh $(BUILD)/ko-6.12/nslogger.ko && \
	$(VM) --timeout $(VM_SUITE_TIMEOUT) --kver $$kver \
		--ko $(BUILD)/ko-6.12/nslogger.ko -- tests/containers/suite.sh

# The newest kernel Debian ships (sid), its headers and its gcc in a
# debootstrap'd chroot under build/sid/ (scripts/sid.sh, made once); the
# module is built there and the kernel boots under QEMU like the others.
test-vm-sid: tools test-progs
	@scripts/deps.sh sid vm containers collector
	ko=$$(scripts/sid.sh module) && scripts/check-exports.sh $$ko && \
	$(VM) --timeout $(VM_SUITE_TIMEOUT) $$(scripts/sid.sh vm-args) \
		--ko $$ko -- tests/containers/suite.sh

# The debug kernel is built once and cached; docs/reliability.md says how
# long it all takes.
test-debug: tools test-progs
	@scripts/deps.sh debug vm containers collector
	tests/debug/run.sh

# A short check on the debug kernel: KUnit, abi, lifecycle and a short
# stress (tests/debug/run.sh --quick); `make test` runs the whole one.
test-debug-quick: tools test-progs
	@scripts/deps.sh debug vm containers
	tests/debug/run.sh --quick

# In make test, the long repetitions of the scenarios (churn counts, load
# cycles, flood durations) run in full on Debian's 6.1 only; sid's run, like
# the debug kernel's, goes through every scenario once (tests/containers/
# lib.sh's repeat). make test-vm-sid alone runs it all at full size.
SID_IN_TEST := NSLOG_REPEAT=once

# The README's commands on a fresh machine: make demo, make test-host and two
# scenarios of make test-vm in a clean Debian 12 root (tests/fresh/run.sh).
test-fresh:
	@scripts/deps.sh fresh
	tests/fresh/run.sh

# The debug kernel of make test-debug, built if the cache lacks it (else its
# checksums checked): make test does it in its first phase, beside the
# host suites, rather than in front of the debug run.
debug-kernel:
	@scripts/deps.sh debug
	@scripts/debug-kernel.sh kernel >/dev/null

# The fresh-machine check (mostly apt-get: network and disk) runs in the
# background beside host, check and KUnit (which compile), and so does the
# debug kernel's build on a cold cache (a preparation, counted only if it
# fails: scripts/run-tests.sh's NAME@=); the VM suites
# then run one at a time: two TCG guests on two CPUs slow each other about
# as much as they overlap (the 6.1 suite took 25 min beside the debug
# kernel's run instead of 12.6; docs/reliability.md). The host suite builds
# every program the VM suites use first.
# The builds a cold cache needs (the debug kernel, KUnit's UML tree) run
# in the background under nice, beside the host suites and the first two VM
# suites, whose TCG guests leave a CPU idle much of the time; only the debug
# run waits for them (docs/reliability.md, "The test budget").
test:
	scripts/run-tests.sh \
		"fresh&=$(MAKE) --no-print-directory test-fresh" \
		"kernel@=$(MAKE) --no-print-directory debug-kernel" \
		"kunit&=nice -n 10 $(MAKE) --no-print-directory test-kunit" \
		"host=$(MAKE) --no-print-directory test-host" \
		"check=$(MAKE) --no-print-directory check" \
		"vm=$(MAKE) --no-print-directory test-vm" \
		"vm-sid=$(SID_IN_TEST) $(MAKE) --no-print-directory test-vm-sid" \
		wait \
		"debug=$(MAKE) --no-print-directory test-debug"

demo:
	@scripts/deps.sh build tools vm containers
	@$(MAKE) --no-print-directory demo-run

# --quiet: the story only; the console is in build/vm/last-console.log, and
# its end is printed if anything fails.
demo-run: module tools $(TESTBIN)/rl_flood
	$(VM) --quiet $(if $(KVER),--kver $(KVER)) --ko $(CURDIR)/nslogger.ko -- tests/containers/demo.sh

check:
	scripts/check.sh

# Not part of `make test`: numbers, not verdicts (docs/benchmarks.md).
bench: module
	bench/bench.sh --kver $(KVER)

# make install, uninstall, dkms-install, deb, test-deb, test-reboot.
include install.mk

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)/tools $(BUILD)/tests $(BUILD)/vm $(BUILD)/results $(BUILD)/fuzz

# The builds kept outside the clone (scripts/cache-dir.sh): the debug
# kernel, the KUnit UML tree, sid's chroot, the fresh Debian 12 base.
clean-cache:
	@dir=$$(scripts/cache-dir.sh) && echo "removing $$dir" && rm -rf --one-file-system "$$dir"
