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
# nslogcat's usage errors exit with 1, as logcat's do.
run $vg "$bin/nslogcat" -b foo
expect_fail 1 "unknown buffer foo" "nslogcat: unknown buffer"
run $vg "$bin/nslogcat" -b main,crash
expect_fail 1 "nslogcat: -b crash: nslogger has no crash buffer" \
	"nslogcat: -b crash is refused: no such buffer"
run $vg "$bin/nslogcat" -v foo
expect_fail 1 'Invalid parameter "foo" to -v' "nslogcat: unknown format"
run $vg "$bin/nslogcat" -v help
[ "$rc" -eq 0 ] && grep -q "^  threadtime " "$tmp/out"
result $? "nslogcat: -v help lists the formats, status 0"
run $vg "$bin/nslogcat" -t x
expect_fail 1 '-t "x" not in time format' "nslogcat: bad -t"
run $vg "$bin/nslogcat" -t -1
expect_fail 1 '-t "-1" not in time format' "nslogcat: negative -t"
run $vg "$bin/nslogcat" -T '13-45 99:00:00.000'
expect_fail 1 '-T "13-45 99:00:00.000" not in time format' \
	"nslogcat: a date that is none"
run $vg "$bin/nslogcat" -d 'tag:x'
expect_fail 1 "Invalid filter expression 'tag:x'" "nslogcat: bad filterspec"
run $vg "$bin/nslogcat" -m x
expect_fail 1 "-m \"x\" isn't an integer greater than zero" "nslogcat: bad -m"
run $vg "$bin/nslogcat" -m 2 -t 3
expect_fail 1 "Cannot use -m (--max-count) and -t together" \
	"nslogcat: -m with -t"
run $vg "$bin/nslogcat" -r 4
expect_fail 1 "-r requires -f as well" "nslogcat: -r without -f"
run $vg "$bin/nslogcat" -f "$tmp/o" -r 0
expect_fail 1 'Invalid parameter "0" to -r' "nslogcat: -r 0"
run $vg "$bin/nslogcat" -f "$tmp/o" -n x
expect_fail 1 'Invalid parameter "x" to -n' "nslogcat: bad -n"
run $vg "$bin/nslogcat" --pid=0
expect_fail 1 "pid 0 out of range" "nslogcat: --pid 0"
run $vg "$bin/nslogcat" --uid=1000,x
expect_fail 1 "--uid: 'x' is not a uid" "nslogcat: bad --uid"
run $vg "$bin/nslogcat" -e '('
expect_fail 1 'nslogcat: -e "(":' "nslogcat: bad -e"
run $vg "$bin/nslogcat" -G 12Q
expect_fail 1 "ERROR: -G <num><multiplier>" "nslogcat: bad -G"
run $vg "$bin/nslogcat" --buffer-size=0
expect_fail 1 "ERROR: -G <num><multiplier>" "nslogcat: --buffer-size=0"
run $vg "$bin/nslogcat" -L
expect_fail 1 "nslogcat: -L: not supported: nslogger keeps no pstore copy" \
	"nslogcat: -L is refused, saying why"
run $vg "$bin/nslogcat" --prune
expect_fail 1 "nslogcat: -p: not supported: nslogger has no prune lists" \
	"nslogcat: --prune is refused, saying why"
run $vg "$bin/nslogcat" -P '~1000'
expect_fail 1 "nslogcat: -P: not supported" "nslogcat: -P is refused"
run $vg "$bin/nslogcat" --wrap
expect_fail 1 "nslogcat: --wrap: not supported: the devices do not wake" \
	"nslogcat: --wrap is refused, saying why"
run $vg "$bin/nslogcat" --nonsense
expect_fail 1 "Unrecognized Option --nonsense" "nslogcat: unknown option"
run $vg "$bin/nslogcat" -f
expect_fail 1 "Option -f needs an argument" "nslogcat: missing argument"
run $vg "$bin/nslogcat" --ns 'ipc:[x]' -d
expect_fail 1 "--ns wants a pid, a path or a namespace id, not 'ipc:[x]'" \
	"nslogcat: --ns: a malformed id"
run $vg "$bin/nslogcat" --ns 0 -d
expect_fail 1 "--ns wants a pid, a path or a namespace id, not '0'" \
	"nslogcat: --ns 0"
run $vg "$bin/nslogcat" --ns /nonexistent/ipc -d
expect_fail 1 "nslogcat: --ns /nonexistent/ipc: No such file or directory" \
	"nslogcat: --ns: a file that cannot be opened"
run $vg "$bin/nslogcat" --version
[ "$rc" -eq 0 ] && grep -qx "nslogcat (nslogger) $(cat "$(dirname "$0")/../../VERSION")" \
	"$tmp/out"
result $? "nslogcat: --version"

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
expect_fail 1 "failed to clear the 'events' log: $dev/events: Inappropriate ioctl for device" \
	"nslogcat: -c on a non-device reports the ioctl"

run $vg "$bin/nslogcat" -G 256K -b main
expect_fail 1 "failed to set the 'main' log size: $dev/main: Inappropriate ioctl for device (not a logger device, or a module without NSLOG_IOC_SET_SIZE)" \
	"nslogcat: -G on a non-device reports the ioctl"

: >"$tmp/o"
: >"$tmp/o.1"
: >"$tmp/o.4"
: >"$tmp/o.5"
run $vg "$bin/nslogcat" -c -f "$tmp/o"
[ "$rc" -eq 0 ] && [ ! -e "$tmp/o" ] && [ ! -e "$tmp/o.1" ] &&
	[ ! -e "$tmp/o.4" ] && [ -e "$tmp/o.5" ] && [ -s "$dev/main" ]
result $? "nslogcat: -c -f removes the file and its 4 rotated files, not the log"
rm -f "$tmp/o.5"

ns=$(readlink /proc/self/ns/ipc | tr -dc 0-9)
mkdir "$tmp/proc"
cat >"$tmp/proc/namespaces" <<EOT
# ns_id user_ns_id state files log allocated used written stored set_id
1 2 live 1 main 4096 1 1 1 9
$ns 2 live 3 main 262144 1234 30 20 77
$ns 2 live 3 events 65536 100 5 5 77
$ns 2 live 3 radio 0 0 0 0 77
$ns 2 live 3 system 262144 200 4 4 77
EOT
run env NSLOG_PROC_DIR="$tmp/proc" $vg "$bin/nslogcat" -S -b main,system
printf '%s\n' "statistics of ipc:[$ns] (set 77, live, 3 open files)" \
	"buffer         ring       used    written     stored" \
	"main         262144       1234         30         20" \
	"system       262144        200          4          4" \
	"total        524288       1434         34         24" >"$tmp/want"
[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$tmp/out"
result $? "nslogcat: -S prints the module's counts of the selected buffers"
run env NSLOG_PROC_DIR="$tmp/proc" $vg "$bin/nslogcat" -S --ns "ipc:[5]"
expect_fail 1 "nslogcat: -S: $tmp/proc/namespaces lists no log set of ipc:[5]" \
	"nslogcat: -S of a namespace without a set"
run env NSLOG_PROC_DIR="$tmp/nonexistent" $vg "$bin/nslogcat" -S
expect_fail 1 "nslogcat: -S: cannot read $tmp/nonexistent/namespaces: No such file" \
	"nslogcat: -S without the module's listing"

run $vg "$bin/nslogcat" --v2 -d
expect_fail 1 "$dev/main: cannot set header version 2: Inappropriate ioctl for device" \
	"nslogcat: --v2 on a non-device reports the ioctl"

run $vg "$bin/nslogcat" --help
[ "$rc" -eq 0 ] && grep -q "^Usage: nslogcat " "$tmp/out"
result $? "nslogcat: --help"

if [ -f "$bin/libnslog.so" ]; then
	nm -D --defined-only "$bin/libnslog.so" | awk '{ print $3 }' |
		grep -v '^__android_log_' |
		grep -Ev '^(android_logger_|android_(openEventTagMap|closeEventTagMap|lookupEvent)|nslog_logger_)' \
		>"$tmp/syms"
	[ ! -s "$tmp/syms" ]
	ret=$?
	[ "$ret" -eq 0 ] || echo "#   also exported: $(tr '\n' ' ' <"$tmp/syms")"
	rc=0
	result "$ret" "libnslog.so exports only the liblog API and nslog_logger_* extensions"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
