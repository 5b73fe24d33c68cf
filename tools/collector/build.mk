# SPDX-License-Identifier: GPL-2.0
#
# collector/: README.md, beside this file, says what it is and may use.

SBIN_PROGS += nslog-collector
COLLECTOR_A := $(OBJ)/collector.a
SYSTEMD_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)

$(COLLECTOR_A): $(filter-out %/collector.o, \
		 $(patsubst %.c,$(OBJ)/%.o,$(wildcard collector/*.c)))

$(O)/nslog-collector: $(OBJ)/collector/collector.o $(COLLECTOR_A) \
		      $(SHARED_A)
	$(CC) $(LDFLAGS) -o $@ $^ $(SYSTEMD_LIBS)
