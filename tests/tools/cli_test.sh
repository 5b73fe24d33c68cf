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

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

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
expect_bytes "$dev/main" '\004log\000hello world\000' \
	"nslog: arguments joined into one record, tag log (Android's), priority I"

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

# Usage errors exit with 1, as Android's log and util-linux logger do.
run $vg "$bin/nslog" -b events hi
expect_fail 1 "needs a numeric event tag" "nslog: -b events without -t"
run $vg "$bin/nslog" -b events -t abc hi
expect_fail 1 "event tag 'abc' is not a 32-bit number" \
	"nslog: -b events with a non-numeric tag"
run $vg "$bin/nslog" -b events -t 4294967296 hi
expect_fail 1 "is not a 32-bit number" "nslog: event tag out of range"
run $vg "$bin/nslog" -p 9 hi
expect_fail 1 "bad priority '9'" "nslog: -p 9 is refused"
run $vg "$bin/nslog" -p 1 hi
expect_fail 1 "bad priority '1'" "nslog: -p 1 (DEFAULT) is refused"
run $vg "$bin/nslog" -p none hi
expect_fail 1 "bad priority 'none'" "nslog: -p none is refused"
run $vg "$bin/nslog" -p user.verbose hi
expect_fail 1 "bad priority 'user.verbose'" \
	"nslog: only syslog's level names follow a facility"
run $vg "$bin/nslog" -p foo.err hi
expect_fail 1 "unknown facility in 'foo.err'" "nslog: unknown facility"
run $vg "$bin/nslog" -b foo hi
expect_fail 1 "unknown buffer 'foo'" "nslog: unknown buffer"

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

# Every -p form: the priority byte it writes (prioname_test has the table).
for pair in v:2 d:3 i:4 w:5 e:6 f:7 a:7 s:10 V:2 S:10 2:2 8:10 \
	verbose:2 debug:3 info:4 notice:4 warn:5 warning:5 err:6 error:6 \
	crit:7 alert:7 emerg:7 panic:7 fatal:7 assert:7 silent:10 \
	ERR:6 Warning:5 user.err:6 local0.notice:4 daemon.crit:7 \
	local7.debug:3 auth.warning:5 user.3:6 user.0:7 USER.INFO:4; do
	fresh
	run $vg "$bin/nslog" -p "${pair%%:*}" -t T x
	expect_bytes "$dev/main" "\\0${pair#*:}T\\000x\\000" \
		"nslog: -p ${pair%%:*} writes priority byte 0${pair#*:} (octal)"
done

fresh
run $vg "$bin/nslog" --priority warning --tag T --buffer main a b
expect_bytes "$dev/main" '\005T\000a b\000' \
	"nslog: --priority, --tag and --buffer"

fresh
run $vg "$bin/nslog" --priority=err --tag=T x
expect_bytes "$dev/main" '\006T\000x\000' "nslog: --priority=PRIO --tag=TAG"

fresh
run $vg "$bin/nslog" -t T -- -p e
expect_bytes "$dev/main" '\004T\000-p e\000' \
	"nslog: words after -- are the message"

fresh
printf 'l1\n\nl2\n' >"$tmp/in"
run $vg "$bin/nslog" <"$tmp/in"
expect_bytes "$dev/main" '\004log\000l1\000\004log\000\000\004log\000l2\000' \
	"nslog: stdin lines with the default tag log"

fresh
printf 'a\n\n\nb\n\n' >"$tmp/in"
run $vg "$bin/nslog" -t T --skip-empty <"$tmp/in"
expect_bytes "$dev/main" '\004T\000a\000\004T\000b\000' \
	"nslog: --skip-empty writes no record for empty stdin lines"

fresh
printf 'a\n\n \n' >"$tmp/in"
run $vg "$bin/nslog" -t T -e <"$tmp/in"
expect_bytes "$dev/main" '\004T\000a\000\004T\000 \000' \
	"nslog: -e keeps a line of a space: only empty lines are skipped"

fresh
run $vg "$bin/nslog" -t T -e ""
expect_bytes "$dev/main" '\004T\000\000' \
	"nslog: -e does not skip an empty MESSAGE argument"

fresh
printf 'f1\nf2' >"$tmp/file"
run $vg "$bin/nslog" -t T -p d --file "$tmp/file" </dev/null
expect_bytes "$dev/main" '\003T\000f1\000\003T\000f2\000' \
	"nslog: --file FILE writes one record per line of FILE"

fresh
printf 'f1\n\nf2\n' >"$tmp/file"
run $vg "$bin/nslog" -t T -e -f "$tmp/file"
expect_bytes "$dev/main" '\004T\000f1\000\004T\000f2\000' \
	"nslog: -f with -e"

fresh
printf 'a\000b\n' >"$tmp/in"
run $vg "$bin/nslog" -t T <"$tmp/in"
expect_bytes "$dev/main" '\004T\000a\000' \
	"nslog: a text message ends at a NUL in its line"

run $vg "$bin/nslog" -f "$tmp/file" x
expect_fail 1 "--file and a MESSAGE cannot both be given" \
	"nslog: --file with a MESSAGE is refused"
run $vg "$bin/nslog" -f "$tmp/nonexistent"
expect_fail 1 "nslog: cannot open $tmp/nonexistent: No such file or directory" \
	"nslog: --file names the file it cannot open"
run $vg "$bin/nslog" -f "$tmp"
expect_fail 1 "nslog: cannot read $tmp: Is a directory" \
	"nslog: --file names the file it cannot read"

fresh
run $vg "$bin/nslog" -t T --size 3 abcdef
expect_bytes "$dev/main" '\004T\000abc\000' "nslog: --size cuts the message"
[ ! -s "$tmp/err" ]
result $? "nslog: a cut asked for with --size is not warned"

fresh
printf 'abcdef\nab\n' >"$tmp/in"
run $vg "$bin/nslog" -t T -S 4 <"$tmp/in"
expect_bytes "$dev/main" '\004T\000abcd\000\004T\000ab\000' \
	"nslog: -S cuts each line, one record per line"

fresh
run $vg "$bin/nslog" -t T -S 0 abc
expect_bytes "$dev/main" '\004T\000\000' "nslog: --size 0 leaves an empty message"

run $vg "$bin/nslog" --size -1 x
expect_fail 1 "bad size '-1'" "nslog: negative --size is refused"
run $vg "$bin/nslog" --size 1k x
expect_fail 1 "bad size '1k'" "nslog: --size takes a plain number of bytes"

# The cut at the kernel's 4076-byte payload, [prio][tag\0][msg\0]: with
# tag log, a message of N bytes is a payload of N + 6.
a4070=$(head -c 4070 /dev/zero | tr '\0' a)
for len in 4069 4070; do
	fresh
	msg=$(printf '%s' "$a4070" | head -c "$len")
	run $vg "$bin/nslog" "$msg"
	{ printf '\004log\000'; printf '%s\000' "$msg"; } >"$tmp/want"
	[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$dev/main" && [ ! -s "$tmp/err" ]
	result $? "nslog: a payload of $((len + 6)) bytes is written whole, unwarned"
done

fresh
run $vg "$bin/nslog" "${a4070}bc"
{ printf '\004log\000'; printf '%s\000' "$a4070"; } >"$tmp/want"
[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$dev/main"
result $? "nslog: a payload of 4078 bytes is cut to 4076, ending in NUL"
grep -qxF "nslog: warning: message cut from 4072 to 4070 bytes, to fit a record's 4076-byte payload" "$tmp/err"
result $? "nslog: a cut at the payload's limit is warned, exit status 0"

fresh
run $vg "$bin/nslog" "${a4070}b"
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/main")" -eq 4076 ] &&
	grep -qF "message cut from 4071 to 4070 bytes" "$tmp/err"
result $? "nslog: a payload of 4077 bytes is warned and cut to 4076"

fresh
run $vg "$bin/nslog" -t TTTT "$a4070"
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/main")" -eq 4076 ] &&
	grep -qF "message cut from 4070 to 4069 bytes" "$tmp/err"
result $? "nslog: the limit counts the tag: 4069 bytes of message with tag TTTT"

fresh
printf 'ok\n%sxyz\n' "$a4070" >"$tmp/in"
run $vg "$bin/nslog" <"$tmp/in"
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/main")" -eq $((8 + 4076)) ] &&
	grep -qF "nslog: warning: line 2: message cut from 4073 to 4070" "$tmp/err"
result $? "nslog: the warning of a cut line names the line"

# A two-byte UTF-8 character across the limit goes whole.
fresh
a4069=$(printf '%s' "$a4070" | head -c 4069)
run $vg "$bin/nslog" "$a4069$(printf '\303\251')"
{ printf '\004log\000'; printf '%s\000' "$a4069"; } >"$tmp/want"
[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$dev/main" &&
	grep -qF "message cut from 4071 to 4069 bytes" "$tmp/err"
result $? "nslog: a cut does not split a UTF-8 character"

fresh
a4067=$(printf '%s' "$a4070" | head -c 4067)
run $vg "$bin/nslog" -b events -t 1 "${a4067}"
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/events")" -eq 4076 ] && [ ! -s "$tmp/err" ]
result $? "nslog: -b events: a STRING of 4067 bytes is whole, unwarned"

fresh
run $vg "$bin/nslog" -b events -t 1 "${a4067}b"
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/events")" -eq 4076 ] &&
	grep -qF "message cut from 4068 to 4067 bytes" "$tmp/err"
result $? "nslog: -b events: a STRING of 4068 bytes is cut to 4067, warned"

tag4073=$(head -c 4073 /dev/zero | tr '\0' t)
fresh
run $vg "$bin/nslog" -t "$tag4073" x
[ "$rc" -eq 0 ] && [ "$(wc -c <"$dev/main")" -eq 4076 ]
result $? "nslog: a tag of 4073 bytes leaves room for an empty message"
run $vg "$bin/nslog" -t "${tag4073}t" x
expect_fail 1 "the tag is longer than 4073 bytes" "nslog: a longer tag is refused"

fresh
run $vg "$bin/nslog" -t T --stderr "a b"
printf '\004T\000a b\000' >"$tmp/want"
[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$dev/main" &&
	[ "$(cat "$tmp/err")" = "a b" ]
result $? "nslog: --stderr writes the message to stderr and the record"

fresh
printf 'xy\nz\n' >"$tmp/in"
run $vg "$bin/nslog" -s -t T -S 1 <"$tmp/in"
printf '\004T\000x\000\004T\000z\000' >"$tmp/want"
[ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$dev/main" &&
	printf 'x\nz\n' | cmp -s - "$tmp/err"
result $? "nslog: -s writes each line's message, as cut, to stderr"

fresh
run $vg "$bin/nslog" -t T -i x
expect_bytes "$dev/main" '\004T\000x\000' \
	"nslog: -i is accepted: the kernel records the pid anyway"
fresh
run $vg "$bin/nslog" -t T --id x
expect_bytes "$dev/main" '\004T\000x\000' "nslog: --id is accepted"
run $vg "$bin/nslog" --id=123 x
expect_fail 1 "--id=123: the kernel stamps a record with its writer's pid" \
	"nslog: --id=PID is refused, saying why"

run $vg "$bin/nslog" -q x
expect_fail 1 "nslog: unknown option '-q'" "nslog: unknown short option"
run $vg "$bin/nslog" --nope x
expect_fail 1 "nslog: unknown option '--nope'" "nslog: unknown long option"
run $vg "$bin/nslog" -p
expect_fail 1 "nslog: option '-p' needs an argument" \
	"nslog: -p without its argument"
run $vg "$bin/nslog" --tag
expect_fail 1 "nslog: option '--tag' needs an argument" \
	"nslog: --tag without its argument"
grep -qF "Try 'nslog --help' for more information." "$tmp/err"
result $? "nslog: a usage error points to --help"

run $vg "$bin/nslog" --version
[ "$rc" -eq 0 ] && grep -qx "nslog from nslogger $(cat "$(dirname "$0")/../../VERSION")" "$tmp/out"
result $? "nslog: --version prints the project's version"
run $vg "$bin/nslog" -V
[ "$rc" -eq 0 ] && grep -q "^nslog from nslogger " "$tmp/out"
result $? "nslog: -V"

# Under the name log, as Android's: the same, in its own name.
ln -s "$(cd "$bin" && pwd)/nslog" "$tmp/log"
fresh
run $vg "$tmp/log" -p w hi
expect_bytes "$dev/main" '\005log\000hi\000' "log: nslog run as log writes the same"
run $vg "$tmp/log" -p x hi
expect_fail 1 "log: bad priority 'x'" "log: errors in the name log"
run $vg "$tmp/log" --help
[ "$rc" -eq 0 ] && grep -q "^Usage: log " "$tmp/out"
result $? "log: --help in the name log"

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

# The exact list, with version nodes, is android_test.sh's; here, that no
# helper of the library or the tools leaks out of either name of it.
for lib in liblog.so.0 libnslog.so.0; do
	[ -f "$bin/$lib" ] || continue
	nm -D --defined-only "$bin/$lib" | awk '{ print $3 }' |
		grep -Ev '^(__android_log_|android_log_|android_name_to_log_id(@|$)|create_android_log|LIBLOG|NSLOG(@|$)|android_logger_|android_(openEventTagMap|closeEventTagMap|lookupEvent)|nslog_logger_)' \
		>"$tmp/syms"
	[ ! -s "$tmp/syms" ]
	ret=$?
	[ "$ret" -eq 0 ] || echo "#   also exported: $(tr '\n' ' ' <"$tmp/syms")"
	rc=0
	result "$ret" "$lib exports only liblog's API, the read API's nslog_logger_* and its version nodes"
done

tap_done
