#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools.sh - nslog, nslogcat and libnslog against the real module, in the
# guest.
#
#   tests/containers/vm.sh --ko $PWD/nslogger.ko -- tests/containers/suite.sh tools
#
# tests/tools/ checks the tools on regular files and FIFOs standing in for
# the devices; this checks them on the devices themselves: what nslog and
# libnslog store, byte for byte (read back with nslogcat -B), every -v
# layout with exact expected text (pids from the writers, times from the
# records), merging, -t, -c, -g, --v2, the follow mode, device path
# resolution, Android code built unchanged against liblog
# (tests/tools/android/) and a process that logs before the module is
# loaded and after, logcat's options (-m, -e, --pid, -D, -t TIME, -T,
# -f -r -n, -S, -G, the event tag map), a program on Android's read API
# (tests/android/read_list.c), and nslogcat --ns reading containers' logs:
#
#   A: unshare --ipc                 (a writer is the container's shell)
#   B: unshare --ipc --pid --fork    (its shell is pid 1 inside)
#   C: uid 1234, unshare --user --map-root-user --ipc   (rootless)
#
#   /dev/log_main ... : open() reaches the opener's IPC namespace's set
#        |
#        +--> host's set    A's set    B's set    C's set
#                             ^          ^          ^
#   host: nslogcat --ns ------+----------+----------+   (NSLOG_IOC_OPEN_NS)
#
# Loads the module with distinct ring sizes, and last reloads it with
# android_nodes=1; on exit it is loaded again as the harness had it
# ($NSLOG_PARAMS), for the harness's own rmmod check.
set -euo pipefail

# shellcheck source=tests/containers/lib.sh
. "$(dirname "$0")/lib.sh"
# The bash -c scripts below take their arguments as $1...: single quotes wanted.
# shellcheck disable=SC2016

top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/tools
ko=${NSLOG_KO:?NSLOG_KO is not set}
nslog=$bin/nslog
nslogcat=$bin/nslogcat
calls=$bin/tests/liblog_calls
android=$bin/tests/android
read_list=$bin/tests/read_list
tmp=$(mktemp -d "/tmp/nslog-tools.$$.XXXXXX")
restored=0

unset ANDROID_LOG_TAGS ANDROID_PRINTF_LOG NSLOG_DEV_DIR
# liblog's filter: none of the host's log.tag settings.
export NSLOG_LOG_TAG_FILE=$tmp/no-log.tag

# Ring sizes this scenario loads the module with; -g must report them.
declare -A size_k=([main]=128 [radio]=32 [events]=64 [system]=256)
ns_k=16
sized_params="main_size=${size_k[main]}K radio_size=${size_k[radio]}K"
sized_params+=" events_size=${size_k[events]}K system_size=${size_k[system]}K"
sized_params+=" ns_size=${ns_k}K"

cleanup() {
	local rc=$?

	trap - EXIT
	stop_bg
	# Leave the module as the harness loaded it, after a failure too.
	if [ "$restored" = 0 ]; then
		unload 2>/dev/null || true
		# shellcheck disable=SC2086 # word splitting is wanted
		insmod "$ko" ${NSLOG_PARAMS:-} ||
			echo "tools.sh: cannot reload $ko" >&2
	fi
	rm -rf "$tmp"
	rm -f "${c_ready:-}"
	exit "$rc"
}
trap cleanup EXIT

# diag RC: why the last expect failed, as TAP comments.
diag() {
	echo "#   exit status $1"
	diff -u "$tmp/want" "$tmp/out" | sed 's/^/#   /' || true
	sed 's/^/#   stderr: /' "$tmp/err"
}

# expect_fail DESCRIPTION STATUS STDERR-TEXT COMMAND...
expect_fail() {
	local what=$1 status=$2 text=$3 rc=0

	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$status" ] && grep -qF -- "$text" "$tmp/err"; then
		ok "$what"
	else
		not_ok "$what"
		echo "#   exit status $rc, wanted $status and '$text' on stderr"
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}

# run_pid COMMAND...: run it (it must succeed) and print its pid, which
# is the writer's pid and tid for a single-threaded tool.
run_pid() {
	local p

	"$@" >/dev/null &
	p=$!
	wait "$p"
	echo "$p"
}

clear_all() { "$nslogcat" -c -b all; }

# hex STRING: the bytes of printf STRING, as lower-case hex.
hex() {
	# shellcheck disable=SC2059 # the format is the point
	printf "$1" | od -An -v -tx1 | tr -d ' \n'
}

# le HEX BYTE-OFFSET SIZE: the little-endian unsigned integer there, in $LE.
le() {
	local h=$1 off=$2 n=$3 i out=

	for ((i = n - 1; i >= 0; i--)); do
		out+=${h:$(((off + i) * 2)):2}
	done
	LE=$((16#$out))
}

# parse FILE: split what nslogcat -B wrote into records. Sets R_LINE[i] to
# "len hdr_size pid tid euid payload-hex" (euid "-" in a version 1 header;
# nslogcat -B writes version 4 headers, hdr_size 28, the uid as euid),
# R_SEC[i] and R_NSEC[i] to the record's time.
parse() {
	local h off=0 len hs hl pid tid euid

	h=$(od -An -v -tx1 "$1" | tr -d ' \n')
	R_LINE=()
	R_SEC=()
	R_NSEC=()
	while [ $((off * 2)) -lt ${#h} ]; do
		le "$h" "$off" 2; len=$LE
		le "$h" $((off + 2)) 2; hs=$LE
		le "$h" $((off + 4)) 4; pid=$LE
		le "$h" $((off + 8)) 4; tid=$LE
		le "$h" $((off + 12)) 4; R_SEC+=("$LE")
		le "$h" $((off + 16)) 4; R_NSEC+=("$LE")
		euid=-
		hl=20
		if [ "$hs" = 24 ]; then
			le "$h" $((off + 20)) 4; euid=$LE
			hl=24
		elif [ "$hs" = 28 ]; then
			# Android's version 4 (liblog's reader): lid, then uid
			le "$h" $((off + 24)) 4; euid=$LE
			hl=28
		fi
		R_LINE+=("$len $hs $pid $tid $euid ${h:$(((off + hl) * 2)):$((len * 2))}")
		off=$((off + hl + len))
	done
}

# expect_records DESCRIPTION FILE T0 T1 WANT-LINE...: FILE (from -B) holds
# exactly these records, each stamped between the seconds T0 and T1.
expect_records() {
	local what=$1 file=$2 t0=$3 t1=$4 s good=1

	shift 4
	parse "$file"
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" >"$tmp/want"
	else
		: >"$tmp/want"
	fi
	if [ ${#R_LINE[@]} -gt 0 ]; then
		printf '%s\n' "${R_LINE[@]}" >"$tmp/out"
	else
		: >"$tmp/out"
	fi
	cmp -s "$tmp/want" "$tmp/out" || good=0
	for s in "${R_SEC[@]}"; do
		[ "$s" -ge "$t0" ] && [ "$s" -le "$t1" ] || good=0
	done
	if [ $good = 1 ]; then
		ok "$what"
	else
		not_ok "$what"
		diff -u "$tmp/want" "$tmp/out" | sed 's/^/#   /' || true
		echo "#   times ${R_SEC[*]}, wanted $t0..$t1"
	fi
}

# rec HDR_SIZE PID TID EUID PRINTF-STRING: a line as parse() makes it, for
# a record whose payload is the bytes of printf PRINTF-STRING.
rec() {
	local h

	h=$(hex "$5")
	echo "$((${#h} / 2)) $1 $2 $3 $4 $h"
}

# when SEC NSEC: the time as nslogcat prints it, in $WHEN.
when() {
	WHEN="$(date -d "@$1" '+%m-%d %H:%M:%S').$(printf '%03d' $(($2 / 1000000)))"
}

# ---------------------------------------------------------------------------
echo "# module loaded with $sized_params"
unload
# shellcheck disable=SC2086
insmod "$ko" $sized_params
udevadm settle 2>/dev/null || true

# --- -g -----------------------------------------------------------------------
# gline BUFFER KIB: logcat 9's -g line for an empty ring of KIB KiB.
gline() {
	echo "$1: ring buffer is $2 KiB (0 B consumed), max entry is 5120 B, max payload is 4076 B"
}
want=
for b in main radio events system; do
	want+="$(gline "$b" "${size_k[$b]}")"$'\n'
done
expect "-g -b all shows the sizes the module was loaded with" "${want%$'\n'}" \
	"$nslogcat" -g -b all
sysfs_ok() {
	local b

	for b in main radio events system; do
		[ "$(cat "/sys/module/nslogger/parameters/${b}_size")" = $((size_k[$b] * 1024)) ] ||
			return 1
	done
}
check "-g agrees with /sys/module/nslogger/parameters/*_size" sysfs_ok
expect "-g without -b: main and system" \
	"$(gline main "${size_k[main]}")
$(gline system "${size_k[system]}")" \
	"$nslogcat" -g

# --- nslog: argv, stdin, priorities, buffers --------------------------------------
clear_all
"$nslog" hello world
"$nslog" -t argv one "two  three"
expect "nslog: arguments joined by spaces, default tag log and priority I" \
	"I/log     : hello world
I/argv    : one two  three" "$nslogcat" -d -b main -v tag

clear_all
printf 'line one\n\nline three\nno newline' | "$nslog" -t stdin -p w
expect "nslog: one record per stdin line, empty and unterminated lines kept" \
	"W/stdin   : line one
W/stdin   : 
W/stdin   : line three
W/stdin   : no newline" "$nslogcat" -d -b main -v tag

clear_all
for p in v d i w e f 2 3 4 5 6 7; do
	"$nslog" -p "$p" -t prio "priority $p"
done
expect "nslog: -p v d i w e f and 2 to 7" \
	"V/prio    : priority v
D/prio    : priority d
I/prio    : priority i
W/prio    : priority w
E/prio    : priority e
F/prio    : priority f
V/prio    : priority 2
D/prio    : priority 3
I/prio    : priority 4
W/prio    : priority 5
E/prio    : priority 6
F/prio    : priority 7" "$nslogcat" -d -b main -v tag
expect "filterspecs: prio:W shows W and above only" \
	"W/prio    : priority w
E/prio    : priority e
F/prio    : priority f
W/prio    : priority 5
E/prio    : priority 6
F/prio    : priority 7" "$nslogcat" -d -b main -v tag -s prio:W

# --- nslog: logger's priority names, its stdin options, the payload's cut -----
clear_all
printf 'one\n\ntwo\n' | "$nslog" --tag lines --priority user.warning --skip-empty
for p in err notice crit local0.debug s; do
	"$nslog" -t names -p "$p" "as $p"
done
expect "nslog: syslog names, facility.level, -p s, stdin lines with -e" \
	"W/lines   : one
W/lines   : two
E/names   : as err
I/names   : as notice
F/names   : as crit
D/names   : as local0.debug
S/names   : as s" "$nslogcat" -d -b main -v tag

# [prio][cut\0][msg\0]: 4070 bytes of message fill the 4076-byte payload.
cut_ok() {
	local want=$1 got

	"$nslogcat" -d -B -b main >"$tmp/cut.bin"
	parse "$tmp/cut.bin"
	got=${R_LINE[0]#* }
	[ "${#R_LINE[@]}" = 1 ] && [ "${R_LINE[0]%% *}" = 4076 ] &&
		[ "${got##* }" = "$want" ]
}
long=$(head -c 5000 /dev/zero | tr '\0' x)
clear_all
expect "nslog: a 4076-byte payload, whole and unwarned" "" \
	"$nslog" -t cut "${long:0:4070}"
check "... stored whole: 4076 bytes ending in NUL" \
	cut_ok "$(hex "\\004cut\\000${long:0:4070}\\000")"
clear_all
expect "nslog: a 5000-byte message is written, exit status 0" "" \
	"$nslog" -t cut "$long"
check "... with a warning on stderr" grep -qxF \
	"nslog: warning: message cut from 5000 to 4070 bytes, to fit a record's 4076-byte payload" \
	"$tmp/err"
check "... cut by nslog to 4076 bytes, still ending in NUL" \
	cut_ok "$(hex "\\004cut\\000${long:0:4070}\\000")"

for b in main system radio; do
	clear_all
	"$nslog" -b "$b" -t buf "to $b"
	expect "nslog -b $b: the record is in $b and nowhere else" \
		"--------- beginning of $b
I/buf     : to $b" "$nslogcat" -d -b all -v tag
done

clear_all
t0=$(date +%s)
e1=$(run_pid "$nslog" -b events -t 1234 "event text")
e2=$(run_pid "$nslog" -b events -t -5 "negative")
t1=$(date +%s)
expect "nslog -b events -t N: STRING events, shown as [N]" \
	"--------- beginning of events
I/[1234]  : event text
I/[-5]    : negative" "$nslogcat" -d -b all -v tag
"$nslogcat" -d -B -b events >"$tmp/ev.bin"
expect_records "nslog -b events: [tag][2][length][bytes] on the device" \
	"$tmp/ev.bin" "$t0" "$t1" \
	"$(rec 28 "$e1" "$e1" 0 '\322\004\000\000\002\012\000\000\000event text')" \
	"$(rec 28 "$e2" "$e2" 0 '\373\377\377\377\002\010\000\000\000negative')"

# --- every -v layout, exact ---------------------------------------------------------
clear_all
t0=$(date +%s)
p=$(run_pid "$nslog" -p w -t fmt "format test")
t1=$(date +%s)
"$nslogcat" -d -B -b main >"$tmp/fmt.bin"
expect_records "-B: the record nslog stored, pid and tid of the writer, version 4" \
	"$tmp/fmt.bin" "$t0" "$t1" "$(rec 28 "$p" "$p" 0 '\005fmt\000format test\000')"
when "${R_SEC[0]}" "${R_NSEC[0]}"
pp=$(printf '%5d' "$p")
declare -A layout=(
	[brief]="W/fmt     ($pp): format test"
	[process]="W($pp) format test  (fmt)"
	[tag]="W/fmt     : format test"
	[thread]="W($pp:$pp) format test"
	[raw]="format test"
	[time]="$WHEN W/fmt     ($pp): format test"
	[threadtime]="$WHEN $pp $pp W fmt     : format test"
	[long]="[ $WHEN $pp:$pp W/fmt      ]
format test
"
)
for f in brief process tag thread raw time threadtime long; do
	expect "-v $f, exact" "${layout[$f]}" "$nslogcat" -d -b main -v "$f"
done
expect "no -v: threadtime, as logcat" "${layout[threadtime]}" \
	"$nslogcat" -d -b main
expect "ANDROID_PRINTF_LOG=brief" "${layout[brief]}" \
	env ANDROID_PRINTF_LOG=brief "$nslogcat" -d -b main

clear_all
"$nslog" -t ml $'first\nsecond'
expect "a message with a newline prints as two lines" \
	"I/ml      : first
I/ml      : second" "$nslogcat" -d -b main -v tag

# --- merge, -t, -c ------------------------------------------------------------------
clear_all
"$nslog" -b main -t m 1
"$nslog" -b system -t s 2
"$nslog" -b main -t m 3
"$nslog" -b main -t m 4
"$nslog" -b system -t s 5
"$nslog" -b events -t 6 six
"$nslog" -b radio -t r 7
"$nslog" -b main -t m 8
merged="--------- beginning of main
I/m       : 1
--------- beginning of system
I/s       : 2
I/m       : 3
I/m       : 4
I/s       : 5
I/m       : 8"
expect "-b main -b system: interleaved writes merged in time order" "$merged" \
	"$nslogcat" -d -b main -b system -v tag
expect "-b system -b main: the same order" "$merged" \
	"$nslogcat" -d -b system -b main -v tag
expect "no -b: main and system, merged" "$merged" "$nslogcat" -d -v tag
expect "-b all: four buffers merged" \
	"--------- beginning of main
I/m       : 1
--------- beginning of system
I/s       : 2
I/m       : 3
I/m       : 4
I/s       : 5
--------- beginning of events
I/[6]     : six
--------- beginning of radio
I/r       : 7
I/m       : 8" "$nslogcat" -d -b all -v tag
expect "-t 3 over two buffers: the last three records" \
	"--------- beginning of main
4
--------- beginning of system
5
8" "$nslogcat" -t 3 -b main -b system -v raw
expect "-t 2 -b main" "4
8" "$nslogcat" -t 2 -b main -v raw
expect "-t 100: fewer stored, all printed" "1
3
4
8" "$nslogcat" -t 100 -b main -v raw
"$nslogcat" -d -B -b all >"$tmp/all.bin"
parse "$tmp/all.bin"
check "-B -b all: eight raw records, no headers" test ${#R_LINE[@]} = 8

expect "-c -b all succeeds quietly" "" "$nslogcat" -c -b all
expect "after -c, -d -b all prints nothing" "" "$nslogcat" -d -b all -v tag
expect "after -c, -g shows nothing consumed" \
	"$(gline main "${size_k[main]}")" \
	"$nslogcat" -g -b main
"$nslog" -t after "after clear"
expect "records written after -c are read" "I/after   : after clear" \
	"$nslogcat" -d -b main -v tag

as_user=(setpriv --reuid 1234 --regid 1234 --clear-groups)
expect_fail "-c as an unprivileged user: EPERM, exit 1" 1 \
	"failed to clear the 'main' log: /dev/log_main: Operation not permitted" \
	"${as_user[@]}" "$nslogcat" -c -b main
expect_fail "reading as an unprivileged user: the node is not readable" 1 \
	"cannot open /dev/log_main: Permission denied" \
	"${as_user[@]}" "$nslogcat" -d -b main

# --- --v2 and the euid ----------------------------------------------------------------
clear_all
t0=$(date +%s)
pu=$(run_pid "${as_user[@]}" "$nslog" -t v2 "as 1234")
pr=$(run_pid "$nslog" -t v2 "as root")
t1=$(date +%s)
"$nslogcat" -d -B --v2 -b main >"$tmp/v2.bin"
expect_records "--v2 -B: version 4 headers carrying the writers' euids" \
	"$tmp/v2.bin" "$t0" "$t1" \
	"$(rec 28 "$pu" "$pu" 1234 '\004v2\000as 1234\000')" \
	"$(rec 28 "$pr" "$pr" 0 '\004v2\000as root\000')"
when "${R_SEC[0]}" "${R_NSEC[0]}"
w1=$WHEN
when "${R_SEC[1]}" "${R_NSEC[1]}"
w2=$WHEN
expect "--v2 -v long: [ TIME  EUID:  PID:  TID P/TAG ]" \
	"[ $w1  1234:$(printf '%5d:%5d' "$pu" "$pu") I/v2       ]
as 1234

[ $w2     0:$(printf '%5d:%5d' "$pr" "$pr") I/v2       ]
as root
" "$nslogcat" -d --v2 -b main -v long
expect "-v long without --v2: no euid" \
	"[ $w1 $(printf '%5d:%5d' "$pu" "$pu") I/v2       ]
as 1234

[ $w2 $(printf '%5d:%5d' "$pr" "$pr") I/v2       ]
as root
" "$nslogcat" -d -b main -v long
expect "--v2 in a user namespace: an unmapped euid shows as 65534" \
	"[ $w1 65534:$(printf '%5d:%5d' "$pu" "$pu") I/v2       ]
as 1234

[ $w2     0:$(printf '%5d:%5d' "$pr" "$pr") I/v2       ]
as root
" unshare --user --map-root-user "$nslogcat" -d --v2 -b main -v long

# --- a program linked with libnslog ---------------------------------------------------
clear_all
t0=$(date +%s)
# No process substitution: the guest's devtmpfs has no /dev/fd.
ids=$("$calls" ltag)
read -r lp lt <<<"$ids"
t1=$(date +%s)
check "liblog_calls ran and printed its pid and tid" test -n "$lt"
for b in main system radio events; do
	"$nslogcat" -d -B -b "$b" >"$tmp/lib-$b.bin"
done
l_print=$(rec 28 "$lp" "$lt" 0 '\004ltag\000__android_log_print: 42 args\000')
l_write=$(rec 28 "$lp" "$lt" 0 '\003ltag\000__android_log_write\000')
l_system=$(rec 28 "$lp" "$lt" 0 '\005ltag\000__android_log_buf_write to system\000')
l_radio=$(rec 28 "$lp" "$lt" 0 '\006ltag\000__android_log_buf_write to radio\000')
l_bwrite=$(rec 28 "$lp" "$lt" 0 '\351\003\000\000\000\007\000\000\000')
l_btwrite=$(rec 28 "$lp" "$lt" 0 '\352\003\000\000\002\005\000\000\000hello')
expect_records "__android_log_print and __android_log_write: exact records in main" \
	"$tmp/lib-main.bin" "$t0" "$t1" "$l_print" "$l_write"
expect_records "__android_log_buf_write(LOG_ID_SYSTEM): exact record in system" \
	"$tmp/lib-system.bin" "$t0" "$t1" "$l_system"
expect_records "__android_log_buf_write(LOG_ID_RADIO): exact record in radio" \
	"$tmp/lib-radio.bin" "$t0" "$t1" "$l_radio"
expect_records "__android_log_bwrite and __android_log_btwrite: exact records in events" \
	"$tmp/lib-events.bin" "$t0" "$t1" "$l_bwrite" "$l_btwrite"
expect "libnslog records through nslogcat -b all -v tag" \
	"--------- beginning of main
I/ltag    : __android_log_print: 42 args
D/ltag    : __android_log_write
--------- beginning of system
W/ltag    : __android_log_buf_write to system
--------- beginning of radio
E/ltag    : __android_log_buf_write to radio
--------- beginning of events
I/[1001]  : 7
I/[1002]  : hello" "$nslogcat" -d -b all -v tag
"$nslogcat" -d -B -b all >"$tmp/lib-all.bin"
expect_records "-B -b all: the six records merged in the order they were written" \
	"$tmp/lib-all.bin" "$t0" "$t1" "$l_print" "$l_write" "$l_system" \
	"$l_radio" "$l_bwrite" "$l_btwrite"

# --- Android sources (tests/tools/android/), linked with -llog ----------------------------
# Built from Android code unchanged; tests/tools/android_test.sh has the
# same records byte for byte on the host.
clear_all
expect "Android code: log_macros runs" "" "$android/log_macros"
expect "Android code: ALOGV (LOG_NDEBUG 0) .. ALOGE, _IF, IF_ALOGD, ALOG, LOG_PRI in main" \
	"V/AndroidMacros: verbose 1
D/AndroidMacros: debug s
I/AndroidMacros: info
W/AndroidMacros: warn if
E/AndroidMacros: error 2
D/AndroidMacros: in IF_ALOGD
I/OtherTag: alog
W/AndroidMacros: log_pri 3" "$nslogcat" -d -b main -v tag
expect "Android code: SLOGI and SLOGE_IF in system" \
	"I/AndroidMacros: system info
E/AndroidMacros: system error if" "$nslogcat" -d -b system -v tag
expect "Android code: RLOGW in radio" "W/AndroidMacros: radio warn" \
	"$nslogcat" -d -b radio -v tag
clear_all
rc=0
# In braces: bash's "Aborted" report goes to /dev/null too.
{ "$android/log_macros" fatal; } 2>/dev/null || rc=$?
check "Android code: LOG_ALWAYS_FATAL aborts (SIGABRT)" test "$rc" -eq 134
expect "Android code: LOG_ALWAYS_FATAL's record is the last in main" \
	"F/AndroidMacros: fatal 3" bash -c '"$1" -d -b main -v tag | tail -n 1' \
	_ "$nslogcat"
clear_all
expect "Android code: NDEBUG compiles ALOGV .. ALOG_ASSERT out" \
	"I/AndroidNdebug: evaluated 0" \
	bash -c '"$1" && "$2" -d -b main -v tag' _ "$android/log_ndebug" "$nslogcat"
clear_all
echo 'log.tag.Filed=ERROR' >"$tmp/log.tag"
expect "Android code: is_loggable under ANDROID_LOG_TAGS and a log.tag file" \
	"W/Loggable: warn
E/Filed   : file error
E/Loggable: is_loggable(INFO) 0, (WARN) 1
E/Unset   : min error" \
	bash -c 'ANDROID_LOG_TAGS=Loggable:W NSLOG_LOG_TAG_FILE=$3 "$1" &&
		 "$2" -d -b main -v tag' _ "$android/is_loggable" "$nslogcat" "$tmp/log.tag"
clear_all
t0=$(date +%s)
check "Android code: event_list runs" "$android/event_list"
t1=$(date +%s)
"$nslogcat" -d -B -b events >"$tmp/android-events.bin"
# The payloads, whatever the writer's pid: tag, then the typed value.
parse "$tmp/android-events.bin"
got=
for l in "${R_LINE[@]}"; do
	got+="${l##* } "
done
want=$(hex '\021\244\000\000\000\007\000\000\000')' '
want+=$(hex '\022\244\000\000\001\000\000\000\000\000\001\000\000')' '
want+=$(hex '\023\244\000\000\004\000\000\300\077')' '
want+=$(hex '\024\244\000\000\002\003\000\000\000str')' '
want+=$(hex '\025\244\000\000\003\004\000\001\000\000\000\002\003\000\000\000two\003\001\001\003\000\000\000\000\000\000\000\004\000\000\200\076')' '
want+=$(hex '\026\244\000\000\000\011\000\000\000')' '
want+=$(hex 'TENS\003\003\002\006\000\000\000123456\000\377\377\377\377\002\000\000\000\000')' '
if [ "$got" = "$want" ]; then
	ok "Android code: LOG_EVENT_*, the event list builder and android_errorWriteLog, exact payloads"
else
	not_ok "Android code: LOG_EVENT_*, the event list builder and android_errorWriteLog, exact payloads"
	echo "#   got:  $got"
	echo "#   want: $want"
fi
good=1
for s in "${R_SEC[@]}"; do
	[ "$s" -ge "$t0" ] && [ "$s" -le "$t1" ] || good=0
done
check "Android code: the events records are stamped while it ran" test "$good" = 1
expect "Android code: events through -v tag (without the float values)" \
	"I/[42001] : 7
I/[42002] : 1099511627776
I/[42004] : str
I/[42006] : 9" bash -c '"$1" -d -b events -v tag | grep -v -e "^I/\[42003\]" -e "^I/\[42005\]" -e "^I/\[1397638484\]"' \
	_ "$nslogcat"
# --- logcat's options: -m, -e, --pid, -D, -t TIME, -T, -f -r -n, -S, -G, tags ----
clear_all
"$nslog" -t opt "first one"
"$nslog" -b system -t opt "second two"
o3=$(run_pid "$nslog" -t opt "third three")
expect "-m 2: the first two records, then exit" \
	"--------- beginning of main
first one
--------- beginning of system
second two" "$nslogcat" -d -m 2 -v raw
expect "-e: the records whose message matches a POSIX ERE" \
	"--------- beginning of system
second two
--------- beginning of main
third three" "$nslogcat" -d -v raw -e '(two|three)$'
expect "--pid: one writer's records" "third three" \
	"$nslogcat" -d -b main -v raw --pid "$o3"
expect "-D: a divider at every switch of buffer" \
	"--------- beginning of main
first one
--------- beginning of system
second two
--------- switch to main
third three" "$nslogcat" -d -D -v raw
"$nslogcat" -d -B -b main,system >"$tmp/opt.bin"
parse "$tmp/opt.bin"
since="${R_SEC[1]}.$(printf '%09d' "${R_NSEC[1]}")"
expect "-t TIME (sssss.fffffffff): the records since then" \
	"--------- beginning of system
second two
--------- beginning of main
third three" "$nslogcat" -v raw -t "$since"
expect "-t TIME (YYYY-MM-DD hh:mm:ss.fff): the records since then" \
	"--------- beginning of system
second two
--------- beginning of main
third three" "$nslogcat" -v raw \
	-t "$(date -d "@${R_SEC[1]}" '+%Y-%m-%d %H:%M:%S').$(printf '%09d' "${R_NSEC[1]}")"
"$nslogcat" -T 1 -b main -v raw >"$tmp/T.out" 2>"$tmp/T.err" &
bg+=("$!")
check "-T 1: the last record" wait_for grep -q "third three" "$tmp/T.out"
"$nslog" -t opt "fourth"
check "-T 1: then follows" wait_for grep -q fourth "$tmp/T.out"
stop_bg
printf 'third three\nfourth\n' >"$tmp/want"
check "-T 1: exact output" cmp -s "$tmp/want" "$tmp/T.out"

clear_all
for i in $(seq 1 60); do
	echo "rotation record number $i"
done | "$nslog" -t rot
"$nslogcat" -d -b main -f "$tmp/rot" -r 1 -n 2
# FILE.2, FILE.1 and FILE (empty if the last record rotated it) hold the
# newest records in order, each rotated file 1 KiB or more; the oldest
# went with the rotations -n 2 does not keep.
rotated() {
	local first

	[ -e "$tmp/rot" ] && [ "$(stat -c %s "$tmp/rot.1")" -ge 1024 ] &&
		[ "$(stat -c %s "$tmp/rot.2")" -ge 1024 ] &&
		[ ! -e "$tmp/rot.3" ] || return 1
	cat "$tmp/rot.2" "$tmp/rot.1" "$tmp/rot" | sed 's/.* number //' >"$tmp/rot.n"
	first=$(head -n 1 "$tmp/rot.n")
	[ "$first" -gt 1 ] && seq "$first" 60 | cmp -s - "$tmp/rot.n"
}
check "-f -r 1 -n 2: FILE, FILE.1, FILE.2 of 1 KiB or more, the oldest dropped" rotated

ns_self=$(stat -L -c %i /proc/self/ns/ipc)
"$nslogcat" -S -b main >"$tmp/S.out" 2>"$tmp/S.err"
stats_ok() {
	head -n 1 "$tmp/S.out" | grep -q "^statistics of ipc:\[$ns_self\] (set [0-9]*, live, " &&
		grep -Eq "^main +$((size_k[main] * 1024)) +[0-9]+ +[0-9]+ +60\$" "$tmp/S.out"
}
check "-S: the module's counts of main: its ring, the 60 records it holds" stats_ok

if "$nslogcat" -G 64K -b radio 2>"$tmp/G.err"; then
	expect "-G 64K: -g then shows the new size" "$(gline radio 64)" \
		"$nslogcat" -g -b radio
	"$nslogcat" -G "${size_k[radio]}K" -b radio
elif grep -q "Inappropriate ioctl" "$tmp/G.err"; then
	skip "-G 64K: the radio ring resized" \
		"this module has no NSLOG_IOC_SET_SIZE (ENOTTY)"
else
	not_ok "-G 64K: $(cat "$tmp/G.err")"
fi

clear_all
printf '# tags\n1234 my_event (text|3)\n' >"$tmp/tags"
"$nslog" -b events -t 1234 "event text"
"$nslog" -b events -t 99 "other"
expect "--event-tags: events tags by name; filterspecs by name" \
	"I/my_event: event text" \
	"$nslogcat" -d -b events -v tag --event-tags "$tmp/tags" -s my_event

# --- a program on Android's read API (tests/android/read_list.c) --------------------
clear_all
r1=$(run_pid "$nslog" -t rl -p w "to main")
r2=$(run_pid "$nslog" -b system -t rl -p e "to system")
r3=$(run_pid "$nslog" -t rl "main again")
expect "read_list: android_logger_list_open/read, merged, version 4 headers" \
	"lid 0 pid $r1 tid $r1 uid 0 prio 5 tag rl msg to main
lid 3 pid $r2 tid $r2 uid 0 prio 6 tag rl msg to system
lid 0 pid $r3 tid $r3 uid 0 prio 4 tag rl msg main again" "$read_list"
expect "read_list 2: the tail" \
	"lid 3 pid $r2 tid $r2 uid 0 prio 6 tag rl msg to system
lid 0 pid $r3 tid $r3 uid 0 prio 4 tag rl msg main again" "$read_list" 2
expect "read_list 0 PID: one writer's records" \
	"lid 3 pid $r2 tid $r2 uid 0 prio 6 tag rl msg to system" \
	"$read_list" 0 "$r2"

# --- follow mode --------------------------------------------------------------------------
clear_all
"$nslog" -t f before
"$nslogcat" -b main -b system -v tag >"$tmp/follow.out" 2>"$tmp/follow.err" &
fpid=$!
bg+=("$fpid")
check "follow: prints what is stored" wait_for grep -q before "$tmp/follow.out"
"$nslog" -b system -t f after
check "follow: prints a record written later" wait_for grep -q after "$tmp/follow.out"
check "follow: still running" kill -0 "$fpid"
stop_bg
printf '%s\n' "--------- beginning of main" "I/f       : before" \
	"--------- beginning of system" "I/f       : after" >"$tmp/want"
check "follow: exact output" cmp -s "$tmp/want" "$tmp/follow.out"

# --- device paths: NSLOG_DEV_DIR, --dev-dir --------------------------------------------
clear_all
d=$tmp/devdir
mkdir -p "$d" "$tmp/devroot/log" "$tmp/flat" "$tmp/empty"
for b in main system; do
	ln -s "/dev/log_$b" "$d/$b"
	ln -s "/dev/log_$b" "$tmp/devroot/log/$b"
done
for b in main system radio events; do
	ln -s "/dev/log_$b" "$tmp/flat/log_$b"
done
NSLOG_DEV_DIR=$d "$nslog" -t dd "via DIR/main"
NSLOG_DEV_DIR=$d "$nslog" -b system -t dd "via DIR/system"
expect "NSLOG_DEV_DIR=DIR: DIR/main and DIR/system, for both tools" \
	"--------- beginning of main
I/dd      : via DIR/main
--------- beginning of system
I/dd      : via DIR/system" env NSLOG_DEV_DIR="$d" "$nslogcat" -d -v tag
expect "--dev-dir ROOT: ROOT/log/main" \
	"--------- beginning of main
I/dd      : via DIR/main
--------- beginning of system
I/dd      : via DIR/system" "$nslogcat" --dev-dir "$tmp/devroot" -d -v tag
expect "--dev-dir wins over NSLOG_DEV_DIR; /dev gives /dev/log_main" \
	"--------- beginning of main
I/dd      : via DIR/main
--------- beginning of system
I/dd      : via DIR/system" env NSLOG_DEV_DIR="$d" "$nslogcat" --dev-dir /dev -d -v tag
clear_all
NSLOG_DEV_DIR=$tmp/flat "$calls" flat >/dev/null
expect "libnslog with NSLOG_DEV_DIR=DIR: DIR/log_main ... for all four buffers" \
	"--------- beginning of main
I/flat    : __android_log_print: 42 args
D/flat    : __android_log_write
--------- beginning of system
W/flat    : __android_log_buf_write to system
--------- beginning of radio
E/flat    : __android_log_buf_write to radio
--------- beginning of events
I/[1001]  : 7
I/[1002]  : hello" env NSLOG_DEV_DIR="$tmp/flat" "$nslogcat" -d -b all -v tag
expect_fail "NSLOG_DEV_DIR without nodes: nslog names DIR/main" 1 \
	"cannot write to $tmp/empty/main: No such file or directory" \
	env NSLOG_DEV_DIR="$tmp/empty" "$nslog" x
expect_fail "NSLOG_DEV_DIR without nodes: nslogcat names DIR/main" 1 \
	"cannot open $tmp/empty/main: No such file or directory" \
	env NSLOG_DEV_DIR="$tmp/empty" "$nslogcat" -d

# --- --ns: a host collector reads containers' logs ---------------------------------------
clear_all
"$nslog" -t host "host only"
# Container A: its own IPC namespace. bash's printf is a builtin, so the
# writer is the container's shell itself, pid $apid.
unshare --ipc bash -c 'printf "\4ctr\0in container a\0" >/dev/log_main
	: >"$1"; exec sleep 1000' a "$tmp/a.ready" &
apid=$!
bg+=("$apid")
# Container B: its own IPC and pid namespaces; its shell is pid 1 inside.
unshare --ipc --pid --fork --mount-proc --kill-child bash -c '
	printf "\4ctr\0in container b\0" >/dev/log_main
	"$1" -d -b main -v process >"$2.inside"
	: >"$2"; exec sleep 1000' b "$nslogcat" "$tmp/b.ready" &
bpid=$!
bg+=("$bpid")
# Container C: rootless, uid 1234 on the host and root in its own user
# namespace, which owns its IPC namespace.
c_ready=/tmp/nslog-tools.$$.c.ready
"${as_user[@]}" unshare --user --map-root-user --ipc bash -c '
	printf "\4rootless\0in container c\0" >/dev/log_main
	: >"$1"; exec sleep 1000' c "$c_ready" &
cpid=$!
bg+=("$cpid")
if ! wait_for test -e "$tmp/a.ready" || ! wait_for test -e "$tmp/b.ready" ||
   ! wait_for test -e "$c_ready"; then
	not_ok "containers A, B and C started"
	exit 1
fi
# The file has no newline at the end: read fails, but sets binner.
read -r binner _ <"/proc/$bpid/task/$bpid/children" || [ -n "$binner" ]
aid=$(stat -L -c %i "/proc/$apid/ns/ipc")
bid=$(stat -L -c %i "/proc/$bpid/ns/ipc")
cid=$(stat -L -c %i "/proc/$cpid/ns/ipc")
cuser=$(stat -L -c %i "/proc/$cpid/ns/user")
echo "# container A: pid $apid, ipc:[$aid]; B: pid $binner, ipc:[$bid];" \
	"C: pid $cpid, ipc:[$cid], user:[$cuser]"

expect "the host reads only its own records" "I/host    : host only" \
	"$nslogcat" -d -b main -v tag
expect "container A reads only its own records" "I/ctr     : in container a" \
	nsenter --ipc="/proc/$apid/ns/ipc" "$nslogcat" -d -b main -v tag
printf 'I(    1) in container b  (ctr)\n' >"$tmp/want"
check "container B reads only its own records, its shell as pid 1" \
	cmp -s "$tmp/want" "$tmp/b.ready.inside"
expect "--ns PID: A's record, with A's pid as the host sees it" \
	"I($(printf '%5d' "$apid")) in container a  (ctr)" \
	"$nslogcat" --ns "$apid" -d -b main -v process
expect "--ns /proc/PID/ns/ipc" "I/ctr     : in container a" \
	"$nslogcat" --ns "/proc/$apid/ns/ipc" -d -b main -v tag
expect "--ns ID" "I/ctr     : in container a" \
	"$nslogcat" --ns "$aid" -d -b main -v tag
expect "--ns ipc:[ID]" "I/ctr     : in container a" \
	"$nslogcat" --ns "ipc:[$aid]" -d -b main -v tag
expect "--ns B: B's record, pid as the host sees it (not 1)" \
	"I($(printf '%5d' "$binner")) in container b  (ctr)" \
	"$nslogcat" --ns "$binner" -d -b main -v process
expect "--ns with two buffers: dividers name the buffer, as logcat" \
	"--------- beginning of main
I/ctr     : in container a" "$nslogcat" --ns "$apid" -d -v tag
want=
for b in main radio events system; do
	want+="$(gline "$b" "$ns_k")"$'\n'
done
# A's main holds its record: what it takes is the module's business.
want=${want/main: ring buffer is $ns_k KiB (0 B consumed)/main: ring buffer is $ns_k KiB (N B consumed)}
expect "--ns -g: a container's rings are ns_size" "${want%$'\n'}" \
	bash -c '"$1" --ns "$2" -g -b all | sed -E "1s/\(([1-9][0-9]*) B consumed\)/(N B consumed)/"' \
	_ "$nslogcat" "$apid"
expect "--ns --v2: the container's root writer has euid 0" \
	"$(printf '[ %s     0:%5d:%5d I/ctr      ]' X "$apid" "$apid")" \
	bash -c '"$1" --ns "$2" -d --v2 -b main -v long | sed -n "1s/^\[ [^ ]* [^ ]* /[ X /p"' \
	_ "$nslogcat" "$apid"
ns_listed() {
	grep -Eq "^$aid [0-9]+ live [0-9]+ main $((ns_k * 1024)) [0-9]+ 1 1 [0-9]+\$" \
		/proc/nslogger/namespaces &&
		grep -Eq "^$bid [0-9]+ live [0-9]+ main " /proc/nslogger/namespaces
}
check "/proc/nslogger/namespaces lists A and B" ns_listed
expect "--ns C: the rootless container's record, euid 1234 as the host sees it" \
	"$(printf '[ X  1234:%5d:%5d I/rootless ]' "$cpid" "$cpid")
in container c
" bash -c '"$1" --ns "$2" -d --v2 -b main -v long | sed "1s/^\[ [^ ]* [^ ]* /[ X /"' \
	_ "$nslogcat" "$cpid"
check "/proc/nslogger/namespaces: C's set is owned by C's user namespace" \
	grep -Eq "^$cid $cuser live [0-9]+ main $((ns_k * 1024)) [0-9]+ 1 1 [0-9]+\$" \
	/proc/nslogger/namespaces

"$nslogcat" --ns "$apid" -b main -v tag >"$tmp/nsf.out" 2>"$tmp/nsf.err" &
nsf=$!
bg+=("$nsf")
check "--ns follow: prints what is stored" wait_for grep -q "container a" "$tmp/nsf.out"
nsenter --ipc="/proc/$apid/ns/ipc" "$nslog" -t ctr "later in a"
check "--ns follow: prints a record the container writes later" \
	wait_for grep -q "later in a" "$tmp/nsf.out"
check "--ns follow: still running" kill -0 "$nsf"
kill "$nsf"
wait "$nsf" 2>/dev/null || true
check "the host still sees none of it" \
	bash -c '! "$1" -d -b main -v raw | grep -q container' _ "$nslogcat"

expect_fail "--ns with -c: a usage error, 1 as logcat's" 1 "cannot clear another namespace" \
	"$nslogcat" --ns "$apid" -c
expect_fail "--ns junk: a usage error" 1 "--ns wants a pid, a path or a namespace id" \
	"$nslogcat" --ns junk -d
expect_fail "--ns a net namespace: EINVAL, exit 1" 1 "is not an IPC namespace" \
	"$nslogcat" --ns /proc/self/ns/net -d -b main
expect_fail "--ns an id without a log set: ENOENT, exit 1" 1 \
	"NSLOG_IOC_OPEN_NS: No such file or directory" \
	"$nslogcat" --ns 4294967295 -d -b main
expect_fail "--ns as an unprivileged user: EPERM" 1 \
	"NSLOG_IOC_OPEN_NS: Operation not permitted" \
	"${as_user[@]}" "$nslogcat" --ns "$aid" -d -b main
expect_fail "--ns as root of a user namespace: EPERM" 1 \
	"NSLOG_IOC_OPEN_NS: Operation not permitted" \
	unshare --user --map-root-user "$nslogcat" --ns "$aid" -d -b main

# A dead container's last records stay readable by id for ns_grace_ms.
# That is made long (runtime-tunable; the module is loaded again below)
# so that the read after the kill is within it however slow the guest.
echo 60000 >/sys/module/nslogger/parameters/ns_grace_ms
kill "$apid"
wait "$apid" 2>/dev/null || true
expect "--ns ID of a dead container, within the grace period" \
	"I/ctr     : in container a
I/ctr     : later in a" "$nslogcat" --ns "$aid" -d -b main -v tag
stop_bg

# --- android_nodes=1 ----------------------------------------------------------------------
rmmod nslogger
insmod "$ko" android_nodes=1
udevadm settle 2>/dev/null || true
nodes_ok() {
	local b

	for b in main events radio system; do
		[ "$(stat -c '%F %a' "/dev/log/$b")" = "character special file 622" ] ||
			return 1
	done
}
check "android_nodes=1: /dev/log/main ... mode 0622" nodes_ok
"$nslog" -t an "android node"
"$calls" an >/dev/null
expect "android_nodes=1: both tools and libnslog use /dev/log/" \
	"--------- beginning of main
I/an      : android node
I/an      : __android_log_print: 42 args
D/an      : __android_log_write
--------- beginning of system
W/an      : __android_log_buf_write to system" "$nslogcat" -d -v tag
expect "android_nodes=1: NSLOG_DEV_DIR=/dev finds /dev/log/main ..." \
	"--------- beginning of main
I/an      : android node
I/an      : __android_log_print: 42 args
D/an      : __android_log_write
--------- beginning of radio
E/an      : __android_log_buf_write to radio" \
	env NSLOG_DEV_DIR=/dev "$nslogcat" -d -b main -b radio -v tag
expect "android_nodes=1: NSLOG_DEV_DIR=/dev/log finds /dev/log/main" \
	"I/an      : android node
I/an      : __android_log_print: 42 args
D/an      : __android_log_write" \
	env NSLOG_DEV_DIR=/dev/log "$nslogcat" -d -b main -v tag
rmmod nslogger
check "rmmod takes /dev/log away again" test ! -e /dev/log
# A process that logs before the module is loaded logs once it is: the
# library opens the node again, at most once a second. No process
# substitution (no /dev/fd in the guest): a FIFO holds it between writes.
mkfifo "$tmp/retry.go"
"$bin/tests/liblog_retry" <"$tmp/retry.go" >"$tmp/retry.out" &
rpid=$!
bg+=("$rpid")
exec 9>"$tmp/retry.go"
check "liblog: a write with no module loaded fails" \
	wait_for grep -qx -e '-[0-9]*' "$tmp/retry.out"
# shellcheck disable=SC2086
insmod "$ko" ${NSLOG_PARAMS:-}
restored=1
udevadm settle 2>/dev/null || true
sleep 1.2
echo go >&9
exec 9>&-
wait "$rpid" || true
check "liblog: the same process writes once the module is there (retried open)" \
	test "$(tail -n 1 "$tmp/retry.out")" = 24
expect "liblog: only the record written after the load is stored" \
	"I/retry   : after the module" "$nslogcat" -d -b main -v tag
clear_all
expect "the default load: /dev/log_main again" "I/back    : back" \
	bash -c '"$1" -t back back && "$2" -d -b main -v tag' _ "$nslog" "$nslogcat"

echo "tools.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
