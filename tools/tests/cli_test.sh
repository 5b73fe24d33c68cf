#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli_test.sh: nslog and nslogcat from the outside, against regular files
# standing in for the devices.  Regular files take writes, so the bytes
# nslog writes are checked exactly; they take no ioctls and do not return
# one record per read(), so nslogcat is checked for its error paths here
# and for its output in logformat_test.c.
#
# Needs $NSLOG_BIN, the directory holding nslog and nslogcat.
set -u

bin=${NSLOG_BIN:?set NSLOG_BIN to the directory of nslog and nslogcat}
vg=${VALGRIND:-}
tmp=$(mktemp -d /tmp/nslog_cli.XXXXXX)
dev=$tmp/dev
trap 'rm -rf "$tmp"' EXIT
mkdir "$dev"
export NSLOG_DEV_DIR="$dev"
unset ANDROID_LOG_TAGS ANDROID_PRINTF_LOG

. "$(dirname "$0")/tap.sh"

# expect_bytes FILE PRINTF-FORMAT DESCRIPTION (after a run that must succeed)
expect_bytes() {
	printf "$2" >"$tmp/want"
	[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$1"
	result $? "$3"
}

# expect_fail STATUS STDERR-TEXT DESCRIPTION (after run)
expect_fail() {
	[ "$rc" -eq "$1" ] && grep -qF -- "$2" "$tmp/err"
	result $? "$3"
}

fresh() {
	rm -f "$dev"/*
	: >"$dev/main"
	: >"$dev/events"
}

fresh
run $vg "$bin/nslog" hello world
expect_bytes "$dev/main" '\004nslog\000hello world\000' \
	"nslog: arguments joined into one record, tag nslog, priority I"

fresh
run $vg "$bin/nslog" -p e -t T a b
expect_bytes "$dev/main" '\006T\000a b\000' "nslog: -p e -t T"

fresh
run $vg "$bin/nslog" -p 7 -t T x
expect_bytes "$dev/main" '\007T\000x\000' "nslog: numeric priority"

fresh
printf 'l1\n\nl2' >"$tmp/in"
run $vg "$bin/nslog" -t S -p D <"$tmp/in"
expect_bytes "$dev/main" '\003S\000l1\000\003S\000\000\003S\000l2\000' \
	"nslog: one record per stdin line, empty line and last line kept"

fresh
run $vg "$bin/nslog" -b system -t s x
expect_bytes "$dev/main" '\004s\000x\000' \
	"nslog: -b system falls back to main when system is missing"

fresh
: >"$dev/log_system"
run $vg "$bin/nslog" -b system -t s x
expect_bytes "$dev/log_system" '\004s\000x\000' \
	"nslog: DIR/log_system is used when DIR/system does not exist"

fresh
run $vg "$bin/nslog" -b events -t 42 hi
expect_bytes "$dev/events" '\052\000\000\000\002\002\000\000\000hi' \
	"nslog: -b events writes [tag][STRING][length][bytes]"

fresh
run $vg "$bin/nslog" -b events -t -2 "a b"
expect_bytes "$dev/events" '\376\377\377\377\002\003\000\000\000a b' \
	"nslog: -b events with a negative tag"

run $vg "$bin/nslog" -b events hi
expect_fail 2 "needs a numeric event tag" "nslog: -b events without -t"
run $vg "$bin/nslog" -b events -t abc hi
expect_fail 2 "event tag 'abc' is not a 32-bit number" \
	"nslog: -b events with a non-numeric tag"
run $vg "$bin/nslog" -b events -t 4294967296 hi
expect_fail 2 "is not a 32-bit number" "nslog: event tag out of range"
run $vg "$bin/nslog" -p s hi
expect_fail 2 "bad priority 's'" "nslog: -p s is refused"
run $vg "$bin/nslog" -p 8 hi
expect_fail 2 "bad priority '8'" "nslog: -p 8 is refused"
run $vg "$bin/nslog" -b foo hi
expect_fail 2 "unknown buffer 'foo'" "nslog: unknown buffer"

run $vg "$bin/nslog" -b radio hi
expect_fail 1 "nslog: cannot write to $dev/radio: No such file or directory" \
	"nslog: missing device names its path and errno"

run env NSLOG_DEV_DIR=/nonexistent $vg "$bin/nslog" hi
expect_fail 1 "cannot write to /nonexistent/main: No such file or directory" \
	"nslog: missing device directory"

run $vg "$bin/nslog" --help
[ "$rc" -eq 0 ] && grep -q "^Usage: nslog " "$tmp/out" &&
	grep -q "events" "$tmp/out"
result $? "nslog: --help documents the events mode"

fresh
run $vg "$bin/nslogcat" -b foo
expect_fail 2 "unknown buffer 'foo'" "nslogcat: unknown buffer"
run $vg "$bin/nslogcat" -v foo
expect_fail 2 "unknown format 'foo'" "nslogcat: unknown format"
run $vg "$bin/nslogcat" -t x
expect_fail 2 "-t needs a count of records, not 'x'" "nslogcat: bad -t"
run $vg "$bin/nslogcat" -t -1
expect_fail 2 "-t needs a count of records" "nslogcat: negative -t"
run $vg "$bin/nslogcat" -d 'tag:x'
expect_fail 2 "bad filterspec 'tag:x'" "nslogcat: bad filterspec"

run $vg "$bin/nslogcat" --dev-dir /nonexistent -d
expect_fail 1 "nslogcat: cannot open /nonexistent/main: No such file or directory" \
	"nslogcat: open failure names the path and errno"
grep -q system "$tmp/err"
[ $? -ne 0 ]
result $? "nslogcat: default buffers skip a missing system"

run $vg "$bin/nslogcat" -d -b all
expect_fail 1 "cannot open $dev/radio: No such file or directory" \
	"nslogcat: -b all opens radio too"

run $vg "$bin/nslogcat" -d
expect_fail 1 "cannot read $dev/main: unexpected end of file" \
	"nslogcat: read() of 0 from a non-device is an error"

"$bin/nslog" -t x hello
run $vg "$bin/nslogcat" -d -b main
expect_fail 1 "cannot read $dev/main: record size does not match its header" \
	"nslogcat: a non-record read is an error"

run $vg "$bin/nslogcat" -g
expect_fail 1 "$dev/main: LOGGER_GET_LOG_BUF_SIZE: Inappropriate ioctl for device" \
	"nslogcat: -g on a non-device reports the ioctl"

run $vg "$bin/nslogcat" -c -b events
expect_fail 1 "cannot clear $dev/events: Inappropriate ioctl for device" \
	"nslogcat: -c on a non-device reports the ioctl"

run $vg "$bin/nslogcat" --v2 -d
expect_fail 1 "$dev/main: cannot set header version 2: Inappropriate ioctl for device" \
	"nslogcat: --v2 on a non-device reports the ioctl"

run $vg "$bin/nslogcat" --help
[ "$rc" -eq 0 ] && grep -q "^Usage: nslogcat " "$tmp/out"
result $? "nslogcat: --help"

if [ -f "$bin/libnslog.so" ]; then
	nm -D --defined-only "$bin/libnslog.so" | awk '{ print $3 }' |
		grep -v '^__android_log_' |
		grep -Ev '^(android_logger_|android_(open|close|lookup)EventTag|nslog_logger_)' \
		>"$tmp/syms"
	[ ! -s "$tmp/syms" ]
	ret=$?
	[ "$ret" -eq 0 ] || echo "#   also exported: $(tr '\n' ' ' <"$tmp/syms")"
	rc=0
	result "$ret" "libnslog.so exports only the liblog API and nslog_logger_* extensions"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
