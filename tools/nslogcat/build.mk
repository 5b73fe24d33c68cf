# SPDX-License-Identifier: GPL-2.0
#
# nslogcat/: README.md, beside this file, says what it is and may use.

BIN_PROGS += nslogcat
NSLOGCAT_A := $(OBJ)/nslogcat.a

$(NSLOGCAT_A): $(filter-out %/nslogcat.o, \
		$(patsubst %.c,$(OBJ)/%.o,$(wildcard nslogcat/*.c)))

$(O)/nslogcat: $(OBJ)/nslogcat/nslogcat.o $(NSLOGCAT_A) $(SHARED_A) \
	       $(O)/libnslog.a
	$(CC) $(LDFLAGS) -o $@ $^

# nslogcat --version.
$(OBJ)/nslogcat/catopts.o: OBJ_CFLAGS += -DNSLOG_VERSION='"$(VERSION)"'
