# SPDX-License-Identifier: GPL-2.0
#
# liblog/: README.md, beside this file, says what it is and may use.

LIBLOG_OBJS := $(patsubst %.c,$(OBJ)/%.o,$(wildcard liblog/*.c)) \
	       $(OBJ)/lib/devpath.o
LIB_MAP := liblog/liblog.map
# The headers Android code includes, installed under INCLUDEDIR/nslog.
PUB_H := liblog/include/android/log.h $(wildcard liblog/include/log/*.h)
# The read API's headers, each compiled alone by read-headers.
READ_HEADERS := log_read.h event_tag_map.h nslog_read.h
READ_H := $(addprefix liblog/include/log/,$(READ_HEADERS))

# The shared library is liblog.so.0 (its SONAME); liblog.so, the name -llog
# finds, is a symbolic link to it, here and where it is installed.
# libnslog.so.0 (and libnslog.so, libnslog.a) as before, for one release.
LIBS := $(O)/liblog.a $(O)/$(SONAME) $(O)/liblog.so \
	$(O)/libnslog.a $(O)/$(NSLOG_SONAME) $(O)/libnslog.so

$(OBJ)/liblog/%.o: OBJ_CFLAGS = $(LIB_CFLAGS)

$(O)/liblog.a $(O)/libnslog.a: $(LIBLOG_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(O)/$(SONAME) $(O)/$(NSLOG_SONAME): $(LIBLOG_OBJS) $(LIB_MAP)
	$(CC) $(LDFLAGS) -shared -pthread -Wl,-soname,$(@F) -Wl,-z,defs \
		-Wl,--version-script,$(LIB_MAP) -o $@ $(LIBLOG_OBJS)

$(O)/liblog.so: $(O)/$(SONAME)
	ln -sf $(SONAME) $@

$(O)/libnslog.so: $(O)/$(NSLOG_SONAME)
	ln -sf $(NSLOG_SONAME) $@
