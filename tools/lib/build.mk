# SPDX-License-Identifier: GPL-2.0
#
# lib/: what two or more of the programs use, as one archive each links.
# Record decoding and logcat's layouts (logformat), JSON lines (jsonrec over
# jsonw, utf8, timefmt, severity) and a record's labels (recmeta, with the
# container table of cgparse), buffer names and device paths (devpath,
# which liblog builds in too), usage lines. It uses nothing of tools/ but
# itself: no program's header, no liblog.

SHARED_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lib/*.c))
SHARED_A := $(OBJ)/lib.a

$(SHARED_OBJS): OBJ_CFLAGS = $(SHARED_CFLAGS)
$(SHARED_A): $(SHARED_OBJS)
