# SPDX-License-Identifier: GPL-2.0
#
# lib/: README.md, beside this file, says what it is and may use.

SHARED_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard lib/*.c))
SHARED_A := $(OBJ)/lib.a

$(SHARED_OBJS): OBJ_CFLAGS = $(SHARED_CFLAGS)
$(SHARED_A): $(SHARED_OBJS)
