# SPDX-License-Identifier: GPL-2.0
#
# nslogctl/: README.md, beside this file, says what it is and may use.

SBIN_PROGS += nslogctl
NSLOGCTL_A := $(OBJ)/nslogctl.a

$(NSLOGCTL_A): $(filter-out %/nslogctl.o, \
		$(patsubst %.c,$(OBJ)/%.o,$(wildcard nslogctl/*.c)))

$(O)/nslogctl: $(OBJ)/nslogctl/nslogctl.o $(NSLOGCTL_A) $(SHARED_A)
	$(CC) $(LDFLAGS) -o $@ $^ -lcgroup

# Where "nslogctl apply" reads its rules by default.
$(OBJ)/nslogctl/nslogctl.o: OBJ_CFLAGS += \
	-DNSLOGCTL_LIMITS_DIR='"$(SYSCONFDIR)/nslogger/limits.d"'
