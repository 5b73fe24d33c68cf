# SPDX-License-Identifier: GPL-2.0
#
# nslog-syslogd/: README.md, beside this file, says what it is and may use.

SBIN_PROGS += nslog-syslogd
SYSLOGD_A := $(OBJ)/nslog-syslogd.a

$(SYSLOGD_A): $(filter-out %/syslogd.o, \
	       $(patsubst %.c,$(OBJ)/%.o,$(wildcard nslog-syslogd/*.c)))

$(OBJ)/nslog-syslogd/syslogd.o: OBJ_CFLAGS += -DNSLOG_VERSION='"$(VERSION)"'

$(O)/nslog-syslogd: $(OBJ)/nslog-syslogd/syslogd.o $(SYSLOGD_A) $(SHARED_A)
	$(CC) $(LDFLAGS) -o $@ $^
