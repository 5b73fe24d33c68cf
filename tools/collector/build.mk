# SPDX-License-Identifier: GPL-2.0
#
# collector/: nslog-collector, every log set of the host to journald, JSON
# lines, RFC 5424 syslog or logcat's layouts; libsystemd for journald and
# sd_notify(). Its own: the program (collector, collscan, collstate), one
# followed set (logset, logdev, resume), the listing (nslist), the state
# file (cstate, journalpos), containers (nsident), the outputs (output over
# journalrec, rfc5424 with syslogdest, sbuf). Uses lib/, not liblog.

SBIN_PROGS += nslog-collector
COLLECTOR_A := $(OBJ)/collector.a
SYSTEMD_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)

$(COLLECTOR_A): $(filter-out %/collector.o, \
		 $(patsubst %.c,$(OBJ)/%.o,$(wildcard collector/*.c)))

$(O)/nslog-collector: $(OBJ)/collector/collector.o $(COLLECTOR_A) \
		      $(SHARED_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(SYSTEMD_LIBS)
