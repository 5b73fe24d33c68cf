# SPDX-License-Identifier: GPL-2.0
#
# nslogger: build, test and install.  `make help` lists the targets.

KVER	?= $(shell scripts/kver.sh 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
BUILD	:= $(CURDIR)/build

.PHONY: all module tools deps help clean

all: module tools

help:
	@echo "make            build nslogger.ko (KVER=$(KVER)) and the tools"
	@echo "make demo       boot a VM and show records written and read back"
	@echo "make test       every suite: KUnit on UML, then the VM suite"
	@echo "make test-kunit KUnit suites only (kunit.py on UML)"
	@echo "make test-vm    VM suite only (Debian's kernel under QEMU)"
	@echo "make check      checkpatch --strict and sparse (C=2) on the module"
	@echo "make install    install the module (and the udev rule) on this host"
	@echo "make KVER=...   build against another installed kernel's headers"

deps:
	scripts/deps.sh build tools

module:
	@test -n "$(KVER)" || { echo "no packaged kernel found: run scripts/deps.sh build" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m modules

tools:
	$(MAKE) -C tools O=$(BUILD)/tools

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)/tools $(BUILD)/vm
