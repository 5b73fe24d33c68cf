#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# android_test.sh: Android source compatibility.  The library is installed
# (make install DESTDIR=...), nslogd with it in /usr/lib/nslogger; the
# programs of android/, written as
# Android platform code is, are built from that install alone with
# "cc $(pkg-config --cflags --libs liblog)", run against regular files
# standing in for the devices, and the records they wrote are checked
# byte for byte.  Also: liblog.so.0's exports and their version nodes,
# exactly, and the NEEDED entry of a program linked with -llog.
#
# Needs $NSLOG_BIN (the build directory), cc, pkg-config, nm and readelf;
# run from tools/ (make check does).
set -u

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

bin=${NSLOG_BIN:?set NSLOG_BIN to the build directory}
# Absolute, for make -C; and checked, as make with an empty O= would
# build into /.
bin=$(cd "$bin" 2>/dev/null && pwd -P)
if [ -z "$bin" ] || [ ! -f "$bin/liblog.so.0" ]; then
	not_ok "no liblog.so.0 in NSLOG_BIN ($NSLOG_BIN)"
	tap_done
	exit
fi
tmp=$(mktemp -d /tmp/nslog_android.XXXXXX)
root=$tmp/root
dev=$tmp/dev
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/err"
rc=0

for tool in cc pkg-config nm readelf; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		skip "Android sources" "no $tool"
		tap_done
		exit
	fi
done

# expect_bytes FILE PRINTF-FORMAT DESCRIPTION
expect_bytes() {
	printf "$2" >"$tmp/want"
	cmp -s "$tmp/want" "$1"
	ret=$?
	if [ "$ret" -ne 0 ]; then
		echo "#   got:  $(od -An -c "$1" | tr -s ' ' | tr -d '\n')"
		echo "#   want: $(od -An -c "$tmp/want" | tr -s ' ' | tr -d '\n')"
	fi
	result "$ret" "$3"
}

fresh() {
	rm -rf "$dev"
	mkdir "$dev"
	for b in main radio events system; do
		: >"$dev/$b"
	done
}

# --- the install ------------------------------------------------------------
make -s -C "$(dirname "$0")/../../tools" O="$bin" install DESTDIR="$root" \
	PREFIX=/usr LIBDIR=/usr/lib >"$tmp/out" 2>"$tmp/err"
rc=$?
result "$rc" "make install DESTDIR=... PREFIX=/usr"
lib=$root/usr/lib

# nslogd: not in the host's PATH, static, for a bind mount into Android
nslogd=$root/usr/lib/nslogger/nslogd
[ -x "$nslogd" ] && [ ! -e "$root/usr/bin/nslogd" ] &&
	[ ! -e "$root/usr/sbin/nslogd" ] &&
	! readelf -lW "$nslogd" | grep -q INTERP &&
	! readelf -dW "$nslogd" | grep -q '(NEEDED)' &&
	"$nslogd" --version | grep -q '^nslogd '
result $? "nslogd installed in /usr/lib/nslogger, static, and runs"

# pkg-config reads the installed liblog.pc, its paths moved under $root.
export PKG_CONFIG_SYSROOT_DIR="$root"
export PKG_CONFIG_LIBDIR="$lib/pkgconfig"
unset PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs liblog 2>"$tmp/err")
rc=$?
# shellcheck disable=SC2086 # pkg-config ends its output in a blank
flags=$(echo $flags)
[ "$rc" -eq 0 ] &&
	[ "$flags" = "-I$root/usr/include/nslog -L$lib -llog" ]
result $? "pkg-config --cflags --libs liblog: the installed headers and -llog"

# --- the exports ------------------------------------------------------------
cat >"$tmp/want" <<'SYMS'
LIBLOG
LIBLOG_M
LIBLOG_O
LIBLOG_PRIVATE
LIBLOG_Q
LIBLOG_R
__android_log_assert@@LIBLOG
__android_log_bswrite@@LIBLOG_Q
__android_log_btwrite@@LIBLOG_Q
__android_log_buf_print@@LIBLOG
__android_log_buf_write@@LIBLOG
__android_log_bwrite@@LIBLOG_Q
__android_log_call_aborter@@LIBLOG_R
__android_log_close@@LIBLOG_Q
__android_log_default_aborter@@LIBLOG_R
__android_log_error_write@@LIBLOG_PRIVATE
__android_log_get_minimum_priority@@LIBLOG_R
__android_log_is_debuggable@@LIBLOG_O
__android_log_is_loggable@@LIBLOG_M
__android_log_is_loggable_len@@LIBLOG_O
__android_log_logd_logger@@LIBLOG_R
__android_log_print@@LIBLOG
__android_log_set_aborter@@LIBLOG_R
__android_log_set_default_tag@@LIBLOG_R
__android_log_set_logger@@LIBLOG_R
__android_log_set_minimum_priority@@LIBLOG_R
__android_log_stderr_logger@@LIBLOG_R
__android_log_vprint@@LIBLOG
__android_log_write@@LIBLOG
__android_log_write_log_message@@LIBLOG_R
android_log_destroy@@LIBLOG_PRIVATE
android_log_id_to_name@@LIBLOG
android_log_parser_reset@@LIBLOG_Q
android_log_peek_next@@LIBLOG_PRIVATE
android_log_read_next@@LIBLOG_PRIVATE
android_log_reset@@LIBLOG_Q
android_log_write_float32@@LIBLOG_PRIVATE
android_log_write_int32@@LIBLOG_PRIVATE
android_log_write_int64@@LIBLOG_PRIVATE
android_log_write_list@@LIBLOG_PRIVATE
android_log_write_list_begin@@LIBLOG_PRIVATE
android_log_write_list_buffer@@LIBLOG_PRIVATE
android_log_write_list_end@@LIBLOG_PRIVATE
android_log_write_string8@@LIBLOG_PRIVATE
android_log_write_string8_len@@LIBLOG_PRIVATE
android_name_to_log_id@@LIBLOG
create_android_log_parser@@LIBLOG_PRIVATE
create_android_logger@@LIBLOG_PRIVATE
LIBLOG_L
NSLOG
android_closeEventTagMap@@LIBLOG_PRIVATE
android_logger_clear@@LIBLOG_L
android_logger_get_id@@LIBLOG_L
android_logger_get_log_readable_size@@LIBLOG_L
android_logger_get_log_size@@LIBLOG_L
android_logger_get_log_version@@LIBLOG_L
android_logger_list_alloc@@LIBLOG_L
android_logger_list_alloc_time@@LIBLOG_L
android_logger_list_free@@LIBLOG_L
android_logger_list_open@@LIBLOG_L
android_logger_list_read@@LIBLOG_L
android_logger_open@@LIBLOG_L
android_logger_set_log_size@@LIBLOG_L
android_lookupEventFormat_len@@LIBLOG_PRIVATE
android_lookupEventTagNum@@LIBLOG_PRIVATE
android_lookupEventTag_len@@LIBLOG_PRIVATE
android_openEventTagMap@@LIBLOG_PRIVATE
nslog_logger_fd@@NSLOG
nslog_logger_list_error@@NSLOG
nslog_logger_list_set_dev_dir@@NSLOG
nslog_logger_list_set_header@@NSLOG
nslog_logger_list_set_ns@@NSLOG
nslog_logger_path@@NSLOG
SYMS
nm -D --defined-only "$lib/liblog.so.0" | awk '{ print $3 }' | LC_ALL=C sort \
	>"$tmp/syms"
LC_ALL=C sort "$tmp/want" | cmp -s - "$tmp/syms"
ret=$?
[ "$ret" -eq 0 ] || LC_ALL=C sort "$tmp/want" | diff - "$tmp/syms" | sed 's/^/#   /'
result "$ret" "liblog.so.0 exports exactly the public API, in AOSP's version nodes"

readelf -d "$lib/liblog.so.0" | grep -q 'SONAME.*\[liblog\.so\.0\]'
result $? "liblog.so.0's SONAME is liblog.so.0"
test -L "$lib/liblog.so" && [ "$(readlink "$lib/liblog.so")" = liblog.so.0 ]
result $? "liblog.so, the development link, points to liblog.so.0"
readelf -d "$lib/libnslog.so.0" | grep -q 'SONAME.*\[libnslog\.so\.0\]'
result $? "libnslog.so.0 is still installed, with its own SONAME"

# --- the programs -------------------------------------------------------------
# Built with -Werror: the headers must not warn in Android code.
for src in "$(dirname "$0")"/android/*.c; do
	prog=$(basename "$src" .c)
	# shellcheck disable=SC2086 # $flags is a list of words
	cc -std=gnu11 -Wall -Wextra -Werror -o "$tmp/$prog" "$src" $flags \
		2>"$tmp/err"
	rc=$?
	result "$rc" "$prog.c builds unchanged against the install and -llog"
done
# C++ code includes them too (AOSP's are extern "C" and C++-clean).
if command -v c++ >/dev/null 2>&1; then
	printf '#define LOG_TAG "cxx"\n#include <log/log.h>\nint main() { ALOGI("c++ %%d", 1); android_log_context c = create_android_logger(1); android_log_destroy(&c); return 0; }\n' \
		>"$tmp/cxx.cc"
	# shellcheck disable=SC2086 # $flags is a list of words
	c++ -std=c++11 -Wall -Wextra -Werror -o "$tmp/cxx" "$tmp/cxx.cc" $flags \
		2>"$tmp/err"
	rc=$?
	result "$rc" "<log/log.h> builds as C++11 and links with -llog"
fi
readelf -d "$tmp/log_macros" 2>/dev/null | grep -q 'NEEDED.*\[liblog\.so\.0\]'
result $? "a program linked with -llog needs liblog.so.0"

run_prog() {
	LD_LIBRARY_PATH=$lib NSLOG_DEV_DIR=$dev ${VALGRIND:-} "$tmp/$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
}

unset ANDROID_LOG_TAGS
export NSLOG_LOG_TAG_FILE="$tmp/no-such-file"

fresh
run_prog log_macros
result "$rc" "log_macros: exit status 0"
M='\002AndroidMacros\000verbose 1\000\003AndroidMacros\000debug s\000'
M=$M'\004AndroidMacros\000info\000\005AndroidMacros\000warn if\000'
M=$M'\006AndroidMacros\000error 2\000\003AndroidMacros\000in IF_ALOGD\000'
M=$M'\004OtherTag\000alog\000\005AndroidMacros\000log_pri 3\000'
expect_bytes "$dev/main" "$M" \
	"log_macros: ALOGV (LOG_NDEBUG 0) .. ALOGE, _IF, IF_ALOGD, ALOG, LOG_PRI in main"
expect_bytes "$dev/system" \
	'\004AndroidMacros\000system info\000\006AndroidMacros\000system error if\000' \
	"log_macros: SLOGI and SLOGE_IF in system"
expect_bytes "$dev/radio" '\005AndroidMacros\000radio warn\000' \
	"log_macros: RLOGW in radio"

fresh
run_prog log_macros fatal
[ "$rc" -eq 134 ]
result $? "log_macros fatal: LOG_ALWAYS_FATAL aborts (SIGABRT)"
expect_bytes "$dev/main" "$M"'\007AndroidMacros\000fatal 3\000' \
	"log_macros fatal: a FATAL record, formatted, before the abort"

fresh
run_prog log_ndebug
result "$rc" "log_ndebug: exit status 0"
expect_bytes "$dev/main" '\004AndroidNdebug\000evaluated 0\000' \
	"log_ndebug: NDEBUG compiles ALOGV, _IF, SLOGV, RLOGV, LOG_FATAL_IF, ALOG_ASSERT out"

fresh
run_prog event_list
result "$rc" "event_list: exit status 0"
E='\021\244\000\000\000\007\000\000\000'
E=$E'\022\244\000\000\001\000\000\000\000\000\001\000\000'
E=$E'\023\244\000\000\004\000\000\300\077'
E=$E'\024\244\000\000\002\003\000\000\000str'
E=$E'\025\244\000\000\003\004\000\001\000\000\000\002\003\000\000\000two'
E=$E'\003\001\001\003\000\000\000\000\000\000\000\004\000\000\200\076'
E=$E'\026\244\000\000\000\011\000\000\000'
E=$E'TENS\003\003\002\006\000\000\000123456\000\377\377\377\377\002\000\000\000\000'
expect_bytes "$dev/events" "$E" \
	"event_list: LOG_EVENT_INT/LONG/FLOAT/STRING, the builder, android_errorWriteLog"

fresh
echo 'log.tag.Filed=ERROR' >"$tmp/log.tag"
ANDROID_LOG_TAGS='Loggable:W' NSLOG_LOG_TAG_FILE=$tmp/log.tag run_prog is_loggable
result "$rc" "is_loggable: what the filter drops returns -EPERM"
L='\005Loggable\000warn\000\006Filed\000file error\000'
L=$L'\006Loggable\000is_loggable(INFO) 0, (WARN) 1\000'
L=$L'\006Unset\000min error\000'
expect_bytes "$dev/main" "$L" \
	"is_loggable: ANDROID_LOG_TAGS, log.tag.TAG and the minimum priority"

tap_done
