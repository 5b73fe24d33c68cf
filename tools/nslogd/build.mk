# SPDX-License-Identifier: GPL-2.0
#
# nslogd/: README.md, beside this file, says what it is and may use.
#
# nslogd runs inside an Android root file system, which has no glibc: it
# is linked statically against musl (musl-gcc, Debian's musl-tools;
# scripts/deps.sh tools installs it). Its objects are built twice: with
# musl for the program, in $(OBJ)/static/, and with $(CC) like every other
# folder's for the archive the tests link. Without musl-gcc the build
# fails, naming the package: it never skips nslogd.

STATIC_PROGS += nslogd
NSLOGD_A := $(OBJ)/nslogd.a
NSLOGD_SRCS := $(wildcard nslogd/*.c)

$(NSLOGD_A): $(filter-out %/nslogd.o,$(patsubst %.c,$(OBJ)/%.o,$(NSLOGD_SRCS)))

MUSL_CC ?= musl-gcc
# musl's include path has no kernel headers; the uapi ones of
# linux-libc-dev are libc-neutral, so the build links them in.
MUSL_KHDRS := $(OBJ)/static/include
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
NSLOGD_STATIC_OBJS := $(patsubst %.c,$(OBJ)/static/%.o,$(NSLOGD_SRCS) \
			lib/devpath.c)
NSLOGD_STATIC_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -I$(UAPI) -Ilib \
		       -isystem $(MUSL_KHDRS) $(CPPFLAGS) $(CFLAGS) \
		       -DNSLOG_VERSION='"$(VERSION)"'

.PHONY: nslogd-toolchain
nslogd-toolchain:
	@command -v $(MUSL_CC) >/dev/null 2>&1 || { \
		echo "nslogd: $(MUSL_CC) not found: nslogd is linked statically with musl;" \
		     "install musl-tools (scripts/deps.sh tools)" >&2; exit 1; }

$(MUSL_KHDRS)/.stamp: | nslogd-toolchain
	@mkdir -p $(@D)
	ln -sfn /usr/include/linux $(@D)/linux
	ln -sfn /usr/include/asm-generic $(@D)/asm-generic
	ln -sfn /usr/include/$(MULTIARCH)/asm $(@D)/asm
	test -e $(@D)/linux/types.h && test -e $(@D)/asm/ioctl.h || { \
		echo "nslogd: no kernel headers in /usr/include (linux-libc-dev)" >&2; \
		exit 1; }
	touch $@

$(OBJ)/static/%.o: %.c $(MUSL_KHDRS)/.stamp | nslogd-toolchain
	@mkdir -p $(@D)
	$(MUSL_CC) $(NSLOGD_STATIC_CFLAGS) -MMD -MP -c -o $@ $<

# Static, and checked to be: no interpreter, nothing NEEDED.
$(O)/nslogd: $(NSLOGD_STATIC_OBJS) | nslogd-toolchain
	$(MUSL_CC) -static $(LDFLAGS) -o $@ $^
	@if readelf -lW $@ | grep -q 'INTERP' || \
	    readelf -dW $@ | grep -q '(NEEDED)'; then \
		echo "nslogd: $@ is not a static executable" >&2; \
		rm -f $@; exit 1; fi

# check-cycles reads the host objects of every folder.
check-cycles: $(NSLOGD_A) $(OBJ)/nslogd/nslogd.o

-include $(wildcard $(OBJ)/static/*/*.d)
