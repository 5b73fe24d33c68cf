#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# collector_test.sh: nslog-collector from the outside, without the module:
# its usage errors, and each thing it needs before the first record,
# failing with a message that says what is wrong (a syslog socket, the
# state file's lock, the devices, /proc/nslogger).  Against the module:
# ../containers/collector.sh.
#
# Needs $NSLOG_BIN, the directory holding nslog-collector.
set -u

bin=${NSLOG_BIN:?set NSLOG_BIN to the directory of nslog-collector}
vg=${VALGRIND:-}
coll=$bin/nslog-collector
tmp=$(mktemp -d /tmp/nslog_coll.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
unset NSLOG_DEV_DIR NSLOG_PROC_DIR

# shellcheck source=tests/lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

# expect_fail STATUS STDERR-TEXT DESCRIPTION (after run)
expect_fail() {
	[ "$rc" -eq "$1" ] && grep -qF -- "$2" "$tmp/err"
	result $? "$3"
}

run $vg "$coll" --help
[ "$rc" -eq 0 ] && grep -q "^Usage: nslog-collector " "$tmp/out" &&
	grep -q "rfc5424" "$tmp/out"
result $? "--help"

run $vg "$coll" -o syslog
expect_fail 2 "unknown output 'syslog'" "an unknown output"
run $vg "$coll" -o json,UTC
expect_fail 2 "unknown output 'json,UTC'" "json takes no modifiers (--utc)"
run $vg "$coll" -o brief,color
expect_fail 2 "unknown output 'brief,color'" "an unknown modifier"
run $vg "$coll" -o json -t udp:h:514
expect_fail 2 "--target and --facility are rfc5424's" "--target without rfc5424"
run $vg "$coll" -o rfc5424 -t file:/x
expect_fail 2 "bad target 'file:/x'" "a bad target"
run $vg "$coll" -o rfc5424 --facility mail2
expect_fail 2 "unknown facility 'mail2'" "an unknown facility"
run $vg "$coll" -b kernel
expect_fail 2 "unknown buffer 'kernel'" "an unknown buffer"
run $vg "$coll" --state-interval 1s
expect_fail 2 "--state-interval needs milliseconds" "a bad interval"
run $vg "$coll" --state ''
expect_fail 2 "--state needs a file" "an empty state path"
run $vg "$coll" extra
expect_fail 2 "unexpected argument 'extra'" "an argument"

run $vg "$coll" -o rfc5424 -t "unix:$tmp/nosock" --no-state
expect_fail 1 "cannot connect to $tmp/nosock: No such file or directory" \
	"a syslog socket that is not there"

mkdir "$tmp/dev"
run env NSLOG_DEV_DIR="$tmp/dev" $vg "$coll" --state "$tmp/new/collector.state"
expect_fail 1 "cannot open $tmp/dev/main: No such file or directory" \
	"the devices missing"
[ -d "$tmp/new" ] && [ -e "$tmp/new/collector.state.lock" ]
result $? "the state file's directory is made, and its lock"

if command -v flock >/dev/null 2>&1; then
	# this shell holds the lock, as a running collector would
	exec 9>>"$tmp/new/collector.state.lock"
	flock -n 9
	run env NSLOG_DEV_DIR="$tmp/dev" $vg "$coll" --state "$tmp/new/collector.state"
	expect_fail 1 "another nslog-collector uses this state file" \
		"two collectors on one state file: the second refuses"
	exec 9>&-
else
	skip "two collectors on one state file" "no flock(1)"
fi

printf 'not a state\n' >"$tmp/new/collector.state"
run env NSLOG_DEV_DIR="$tmp/dev" $vg "$coll" --state "$tmp/new/collector.state"
expect_fail 1 "collector.state:1: not a state file nslog-collector wrote; ignored" \
	"a state file that does not parse is ignored, with its line"

for d in main events radio system; do : >"$tmp/dev/$d"; done
run env NSLOG_DEV_DIR="$tmp/dev" NSLOG_PROC_DIR="$tmp/proc" $vg "$coll" --no-state
expect_fail 1 "cannot open $tmp/proc/namespaces: No such file or directory (is the nslogger module loaded?)" \
	"no /proc/nslogger: the module is not loaded"

run env NSLOG_DEV_DIR="$tmp/dev" $vg "$coll" --no-state -b main -b sytem
expect_fail 2 "unknown buffer 'sytem'" "-b is checked before anything opens"

tap_done
