# SPDX-License-Identifier: GPL-2.0
#
# nslog/: README.md, beside this file, says what it is and may use.

BIN_PROGS += nslog
NSLOG_A := $(OBJ)/nslog.a

$(NSLOG_A): $(filter-out %/nslog.o,$(patsubst %.c,$(OBJ)/%.o,$(wildcard nslog/*.c)))

$(O)/nslog: $(OBJ)/nslog/nslog.o $(NSLOG_A) $(SHARED_A) $(O)/libnslog.a
	$(CC) $(LDFLAGS) -pthread -o $@ $^

# What nslog --version prints.
$(OBJ)/nslog/nslog.o: OBJ_CFLAGS += -DNSLOG_VERSION='"$(VERSION)"'
