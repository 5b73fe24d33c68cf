# SPDX-License-Identifier: GPL-2.0
#
# install.mk: make install, uninstall and dkms-install, and the Debian
# packages (make deb, make test-deb, make test-reboot); the Makefile
# includes it. README.md's
# "Install on a real host" tells how to use them. None of the install
# targets installs a package: what they need (headers, libcgroup's, dkms)
# is named when it is missing.
#
#   make install          the module (for `uname -r`, or KVER) in
#                         /lib/modules/KVER/extra, and install-tools
#   make dkms-install     the module's sources in /usr/src/nslogger-VERSION,
#                         built by DKMS for KVER and every later kernel,
#                         and install-tools
#   make install-tools    the tools (nslogd in PREFIX/lib/nslogger), liblog,
#                         headers, liblog.pc, man pages, the udev rule, sysusers.d, modules-load.d,
#                         the limits, collector and syslog listener units,
#                         /etc/nslogger/limits.d, the commented
#                         /etc/modprobe.d/nslogger.conf and the commented
#                         drop-in of the collector's output
#   make uninstall        all of it (any make install's module, any
#                         dkms-install's registration); not the log group,
#                         not a changed modprobe.d file or limits.d rules
#
# PREFIX (default /usr/local), BINDIR, SBINDIR, ANDROIDBINDIR (nslogd, for
# a bind mount over an Android container's /system/bin/logd), LIBDIR,
# INCLUDEDIR, MANDIR,
# UDEVRULESDIR, SYSUSERSDIR, MODULESLOADDIR, SYSTEMDUNITDIR (under
# PREFIX/lib: udev, systemd and kmod read /usr/local/lib/... as they read
# /usr/lib/...), SYSCONFDIR (/etc whatever the PREFIX) and DESTDIR. With
# DESTDIR, nothing is done to the running system (no depmod, ldconfig,
# group, udev or systemd calls).

VERSION := $(shell cat $(CURDIR)/VERSION)

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
SBINDIR		?= $(PREFIX)/sbin
ANDROIDBINDIR	?= $(PREFIX)/lib/nslogger
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
UDEVRULESDIR	?= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR	?= $(PREFIX)/lib/sysusers.d
MODULESLOADDIR	?= $(PREFIX)/lib/modules-load.d
SYSTEMDUNITDIR	?= $(PREFIX)/lib/systemd/system
SYSCONFDIR	?= /etc
DESTDIR		?=

# The module is built and installed for the running kernel, not for
# scripts/kver.sh's: KVER on the command line overrides it.
INSTALL_KVER := $(shell uname -r)
INSTALL_GOALS := install install-module dkms-install uninstall uninstall-module
$(INSTALL_GOALS): KVER = $(INSTALL_KVER)
$(INSTALL_GOALS): KDIR = /lib/modules/$(KVER)/build

TOOLS_INSTALL = $(MAKE) -C tools O=$(BUILD)/tools PREFIX=$(PREFIX) \
	BINDIR=$(BINDIR) SBINDIR=$(SBINDIR) ANDROIDBINDIR=$(ANDROIDBINDIR) \
	LIBDIR=$(LIBDIR) \
	INCLUDEDIR=$(INCLUDEDIR) SYSCONFDIR=$(SYSCONFDIR) DESTDIR=$(DESTDIR)

# What install-tools puts in place besides tools/Makefile's files.
SYSTEM_FILES := $(MANDIR)/man1/nslogcat.1 $(MANDIR)/man1/nslog.1 \
	$(MANDIR)/man8/nslogctl.8 $(MANDIR)/man8/nslog-collector.8 \
	$(MANDIR)/man8/nslogd.8 $(MANDIR)/man8/nslog-syslogd.8 \
	$(MANDIR)/man4/nslogger.4 $(MANDIR)/man3/liblog.3 \
	$(UDEVRULESDIR)/60-nslogger.rules $(SYSUSERSDIR)/nslogger.conf \
	$(MODULESLOADDIR)/nslogger.conf $(SYSTEMDUNITDIR)/nslogger-limits.service \
	$(SYSTEMDUNITDIR)/nslog-collector.service \
	$(SYSTEMDUNITDIR)/nslog-syslogd.service
MODPROBE_CONF := $(SYSCONFDIR)/modprobe.d/nslogger.conf
LIMITS_DIR := $(SYSCONFDIR)/nslogger/limits.d
# The collector's output: a drop-in, all comments, for the administrator.
COLLECTOR_DROPIN_DIR := $(SYSCONFDIR)/systemd/system/nslog-collector.service.d
COLLECTOR_DROPIN := $(COLLECTOR_DROPIN_DIR)/output.conf

HOOKS = scripts/install-hooks.sh

.PHONY: install install-module install-tools dkms-install dkms-src \
	uninstall uninstall-module uninstall-tools deb test-deb test-reboot

install: install-module install-tools

# Stripped; signed only if the kernel's build tree has its signing key
# (Debian's headers do not: see README.md for Secure Boot).
install-module:
	@test -r $(KDIR)/Makefile || { echo "install: no kernel headers for $(KVER) in $(KDIR) (on Debian: apt-get install linux-headers-$(KVER)); KVER=... for another kernel" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_NSLOG=m INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=extra INSTALL_MOD_STRIP=1 DEPMOD=true \
		$(if $(wildcard $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=) \
		modules_install
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

install-tools:
	@test -e /usr/include/libcgroup.h || { echo "install: libcgroup's headers are missing (on Debian: apt-get install libcgroup-dev)" >&2; exit 1; }
	@test -e /usr/include/systemd/sd-journal.h || { echo "install: libsystemd's headers are missing (on Debian: apt-get install libsystemd-dev)" >&2; exit 1; }
	@command -v musl-gcc >/dev/null || { echo "install: musl-gcc is missing: nslogd is linked statically with musl (on Debian: apt-get install musl-tools)" >&2; exit 1; }
	$(TOOLS_INSTALL) install
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man4 \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(MODULESLOADDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(LIMITS_DIR) \
		$(DESTDIR)$(dir $(MODPROBE_CONF)) $(DESTDIR)$(COLLECTOR_DROPIN_DIR)
	install -m 0644 man/nslogcat.1 man/nslog.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 man/liblog.3 $(DESTDIR)$(MANDIR)/man3/
	install -m 0644 man/nslogger.4 $(DESTDIR)$(MANDIR)/man4/
	install -m 0644 man/nslogctl.8 man/nslog-collector.8 man/nslogd.8 \
		man/nslog-syslogd.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 system/60-nslogger.rules $(DESTDIR)$(UDEVRULESDIR)/
	install -m 0644 system/sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/nslogger.conf
	install -m 0644 system/modules-load.conf \
		$(DESTDIR)$(MODULESLOADDIR)/nslogger.conf
	sed 's|@SBINDIR@|$(SBINDIR)|g' system/nslogger-limits.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/nslogger-limits.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/nslogger-limits.service
	sed 's|@SBINDIR@|$(SBINDIR)|g' system/nslog-collector.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/nslog-collector.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/nslog-collector.service
	sed 's|@SBINDIR@|$(SBINDIR)|g' system/nslog-syslogd.service.in \
		>$(DESTDIR)$(SYSTEMDUNITDIR)/nslog-syslogd.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/nslog-syslogd.service
	@# Samples, all comments: never over the administrator's own file.
	[ -e $(DESTDIR)$(MODPROBE_CONF) ] || \
		install -m 0644 system/modprobe.conf $(DESTDIR)$(MODPROBE_CONF)
	[ -e $(DESTDIR)$(COLLECTOR_DROPIN) ] || \
		install -m 0644 system/nslog-collector-output.conf \
		$(DESTDIR)$(COLLECTOR_DROPIN)
	if [ -z "$(DESTDIR)" ]; then $(HOOKS) install $(SYSUSERSDIR)/nslogger.conf; fi

# The module's sources as DKMS takes them, with dkms.conf's version filled
# in; PREFIX does not apply (DKMS reads /usr/src). The nslogger-dkms
# package is made with this too.
DKMS_SRC = $(DESTDIR)/usr/src/nslogger-$(VERSION)
DKMS_FILES = Kbuild Kconfig VERSION $(shell find src include -name '*.[ch]' | sort)

dkms-src:
	rm -rf $(DKMS_SRC)
	for f in $(DKMS_FILES); do install -D -m 0644 $$f $(DKMS_SRC)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf >$(DKMS_SRC)/dkms.conf

# Every version registered before is removed first (and its sources, but
# for this version's, which dkms-src replaces), so that the module built
# now replaces the old one even when the version did not change.
dkms-install:
	@command -v dkms >/dev/null || { echo "dkms-install: dkms is not installed (on Debian: apt-get install dkms)" >&2; exit 1; }
	@! $(HOOKS) package-installed nslogger-dkms || { echo "dkms-install: the nslogger-dkms package is installed: upgrade it, or remove it first" >&2; exit 1; }
	@! ls /lib/modules/$(KVER)/extra/nslogger.ko* >/dev/null 2>&1 || { echo "dkms-install: make install's module is in /lib/modules/$(KVER)/extra: make uninstall-module first" >&2; exit 1; }
	@test -r $(KDIR)/Makefile || { echo "dkms-install: no kernel headers for $(KVER) in $(KDIR) (on Debian: apt-get install linux-headers-$(KVER))" >&2; exit 1; }
	$(HOOKS) dkms-remove $(VERSION)
	$(MAKE) dkms-src DESTDIR=
	dkms add -m nslogger -v $(VERSION)
	dkms install -m nslogger -v $(VERSION) -k $(KVER)
	$(MAKE) install-tools

uninstall: uninstall-module uninstall-tools

uninstall-module:
	for ko in $(DESTDIR)/lib/modules/*/extra/nslogger.ko*; do \
		[ -e "$$ko" ] || continue; \
		rm -f "$$ko"; \
		k=$${ko#$(DESTDIR)/lib/modules/}; \
		if [ -z "$(DESTDIR)" ]; then depmod -a "$${k%%/*}"; fi; \
	done
	if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
	   ! $(HOOKS) package-installed nslogger-dkms; then \
		$(HOOKS) dkms-remove; \
	fi

uninstall-tools:
	if [ -z "$(DESTDIR)" ]; then $(HOOKS) uninstall; fi
	$(TOOLS_INSTALL) uninstall
	rm -f $(addprefix $(DESTDIR),$(SYSTEM_FILES))
	if cmp -s system/modprobe.conf $(DESTDIR)$(MODPROBE_CONF); then \
		rm -f $(DESTDIR)$(MODPROBE_CONF); fi
	if cmp -s system/nslog-collector-output.conf $(DESTDIR)$(COLLECTOR_DROPIN); then \
		rm -f $(DESTDIR)$(COLLECTOR_DROPIN); fi
	rmdir $(DESTDIR)$(COLLECTOR_DROPIN_DIR) 2>/dev/null || true
	rmdir $(DESTDIR)$(LIMITS_DIR) $(DESTDIR)$(SYSCONFDIR)/nslogger 2>/dev/null || true
	if [ -z "$(DESTDIR)" ]; then $(HOOKS) reload; fi

# The Debian packages, built in build/deb/ from a copy of the tree; and
# installed in a fresh Debian 12 root with the checks of
# scripts/deb-check.sh (about 3 min with warm caches, 8 cold).
deb:
	@scripts/deps.sh deb
	scripts/deb-build.sh

test-deb: deb
	scripts/deb-check.sh

# The packages across a reboot: installed offline in a debootstrap'd Debian
# 12 guest disk that boots its own kernel and systemd under QEMU, then
# checked after a reboot (tests/install/reboot.sh). Not in make test: it
# takes about 13 min with the cached base and 28 without (README.md), and
# without it downloads a Debian kernel and some 180 MB of packages.
test-reboot: deb
	@scripts/deps.sh reboot
	tests/install/reboot.sh
