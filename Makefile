# SPDX-License-Identifier: GPL-2.0
#
# nslogger: build, test and install.  `make help` lists the targets.

KVER	?= $(shell scripts/kver.sh 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
BUILD	:= $(CURDIR)/build
TESTBIN	:= $(BUILD)/tests
VM	:= tests/containers/vm.sh
# The whole VM suite under TCG: the churn scenario alone takes about 5 min.
VM_SUITE_TIMEOUT := 2400

TEST_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	       -I$(CURDIR)/include/uapi -pthread
TEST_PROGS := $(TESTBIN)/abi_test $(TESTBIN)/ns_test $(TESTBIN)/rl_flood
TEST_PROGS += $(TESTBIN)/stress $(TESTBIN)/badmem $(TESTBIN)/faultinj

.PHONY: all module tools test-progs deps help clean demo test test-kunit \
	test-vm test-vm-6.12 test-host test-debug test-debug-quick check install dkms-install bench bench-progs

all: module tools

help:
	@echo "make            build nslogger.ko (KVER=$(KVER)) and the tools"
	@echo "make demo       boot a VM and show records written and read back"
	@echo "make test       every suite (host, KUnit, VM, quick debug) and one summary line"
	@echo "make test-host  user-space tests on the host (uapi header, tools)"
	@echo "make test-kunit KUnit suites (kunit.py on UML, linux-source-6.1)"
	@echo "make test-vm    VM suite (Debian's kernel under QEMU)"
	@echo "make test-vm-6.12  the VM suite on Debian's 6.12 kernel (build/ko-6.12)"
	@echo "make test-debug KUnit, VM suite and stress on a KASAN/lockdep kernel"
	@echo "make test-debug-quick  a reduced debug run (about 6 min on the cached kernel)"
	@echo "make check      checkpatch --strict and sparse (C=2) on the module"
	@echo "make bench      benchmarks in one VM boot: bench/results, docs/benchmarks.md"
	@echo "make install    install the module and the udev rule on this host"
	@echo "make KVER=...   build against another installed kernel's headers"

deps:
	scripts/deps.sh build tools

module:
	@scripts/deps.sh build
	@test -n "$(KVER)" || { echo "no packaged kernel found" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m W=1 modules

tools:
	@scripts/deps.sh tools
	$(MAKE) -C tools O=$(BUILD)/tools

test-progs: $(TEST_PROGS)

# The test programs: each one's sources, and one rule for them all.
abi_test_SRCS	:= tests/abi/abi_test.c tests/lib/tap.c
ns_test_SRCS	:= tests/containers/ns_test.c
rl_flood_SRCS	:= tests/containers/rl_flood.c
stress_SRCS	:= tests/stress/stress.c
badmem_SRCS	:= tests/stress/badmem.c tests/lib/tap.c
faultinj_SRCS	:= tests/stress/faultinj.c
TEST_HDRS	:= tests/lib/tap.h include/uapi/linux/nslogger.h

.SECONDEXPANSION:
$(TEST_PROGS): $(TESTBIN)/%: $$(%_SRCS) $(TEST_HDRS)
	@mkdir -p $(TESTBIN)
	$(CC) $(TEST_CFLAGS) -o $@ $($*_SRCS)

# The benchmarks' user-space harness (bench/bench.sh and bench/ab.sh).
bench-progs: $(BUILD)/bench/writebench

$(BUILD)/bench/writebench: bench/writebench.c include/uapi/linux/nslogger.h
	@mkdir -p $(@D)
	$(CC) $(TEST_CFLAGS) -o $@ bench/writebench.c

test-host: tools
	$(MAKE) -C tools O=$(BUILD)/tools check

test-kunit:
	tests/kunit/run.sh

test-vm: module tools test-progs
	@scripts/deps.sh vm containers
	$(VM) --timeout $(VM_SUITE_TIMEOUT) --ko $(CURDIR)/nslogger.ko -- \
		tests/containers/suite.sh

# The module for 6.12 goes to build/ko-6.12/; nslogger.ko is rebuilt for
# the default kernel afterwards, all under the lock other builds take. The
# 6.12 release is whichever one deps.sh found or installed: Debian keeps only
# the last few in the archive, so none is pinned here.
test-vm-6.12: tools test-progs
	@scripts/deps.sh build vm containers kernel-6.12
	mkdir -p $(BUILD)/ko-6.12
	kver=$$(scripts/kver.sh 6.12) && \
	flock $(BUILD)/.module.lock sh -c "$(MAKE) module KVER=$$kver && \
		cp nslogger.ko $(BUILD)/ko-6.12/ && $(MAKE) module" && \
	$(VM) --timeout $(VM_SUITE_TIMEOUT) --kver $$kver \
		--ko $(BUILD)/ko-6.12/nslogger.ko -- tests/containers/suite.sh

# The debug kernel is built once and cached; docs/reliability.md says how
# long it all takes.
test-debug: tools test-progs
	@scripts/deps.sh debug vm
	tests/debug/run.sh

# A short check on the debug kernel: KUnit, abi, lifecycle and a short
# stress (tests/debug/run.sh --quick); `make test` runs the whole one.
test-debug-quick: tools test-progs
	@scripts/deps.sh debug vm
	tests/debug/run.sh --quick

test:
	scripts/run-tests.sh \
		"host=$(MAKE) --no-print-directory test-host" \
		"kunit=$(MAKE) --no-print-directory test-kunit" \
		"vm=$(MAKE) --no-print-directory test-vm" \
		"debug=$(MAKE) --no-print-directory test-debug"

demo: module tools $(TESTBIN)/rl_flood
	@scripts/deps.sh vm containers
	$(VM) --ko $(CURDIR)/nslogger.ko -- tests/containers/demo.sh

check:
	scripts/check.sh $(KVER)

# Not part of `make test`: numbers, not verdicts (docs/benchmarks.md).
bench: module
	bench/bench.sh --kver $(KVER)

# On a real host (not this build machine): the module, DKMS-free.
install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m modules_install
	install -D -m 0644 scripts/60-nslogger.rules /etc/udev/rules.d/60-nslogger.rules
	depmod -a $(KVER)

# DKMS: the module sources under /usr/src/nslogger-VERSION, rebuilt for
# every kernel installed later.
DKMS_VER := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := /usr/src/nslogger-$(DKMS_VER)

dkms-install:
	@scripts/deps.sh dkms
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r Kbuild Kconfig dkms.conf src include $(DKMS_SRC)/
	dkms add -m nslogger -v $(DKMS_VER) 2>/dev/null || true
	dkms build -m nslogger -v $(DKMS_VER) -k $(KVER)
	dkms install -m nslogger -v $(DKMS_VER) -k $(KVER)
	install -D -m 0644 scripts/60-nslogger.rules /etc/udev/rules.d/60-nslogger.rules

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)/tools $(BUILD)/tests $(BUILD)/vm $(BUILD)/results
