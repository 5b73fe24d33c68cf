# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# tap.sh - the TAP helper of every shell test, as tap.c is of every C test;
# sourced, never run.  The VM's scenarios get it through
# tests/containers/lib.sh, the host's tests of the tools (tests/tools/*.sh)
# source it themselves:
#
#   . "$(dirname "$0")/../lib/tap.sh"
#
# One line a result, "ok - what", "not ok - what" or "ok - what # SKIP why",
# counted in $pass, $fail and $skipped (a caller may add to them, as
# tests/debug/guest.sh adds the lines of the logs it reads); tap_done ends
# with "N passed, N failed" (", N skipped" when some were).  The lines are
# not numbered, which TAP allows: a scenario's output goes in one stream
# with that of the programs it runs, each numbering its own.  Whoever
# reads them counts "^ok ", "^not ok " and "# SKIP" (tests/containers/
# suite.sh, tests/tools/run.sh): keep those forms.
#
# POSIX sh and `local` (dash, bash, busybox): tests/tools/run.sh runs the
# host's tests with sh, the VM's scenarios are bash.
# shellcheck disable=SC3043

pass=0
fail=0
skipped=0
rc=0

ok() { tap_time; pass=$((pass + 1)); echo "ok - $*"; }
not_ok() { tap_time; fail=$((fail + 1)); echo "not ok - $*"; }
# skip DESCRIPTION REASON
skip() { tap_time; skipped=$((skipped + 1)); echo "ok - $1 # SKIP $2"; }

# NSLOG_TAP_TIMES=1 (bash only: it reads $EPOCHREALTIME, no process per
# line): before each result, "# +N ms", the time since the last one, so a
# suite's slow steps can be found (scripts/tap-times.sh lists them).
tap_time() {
	[ -n "${NSLOG_TAP_TIMES:-}" ] && [ -n "${EPOCHREALTIME:-}" ] || return 0
	# shellcheck disable=SC3060 # bash only, as said above
	tap_now=${EPOCHREALTIME/./}
	echo "# +$(((tap_now - ${tap_then:-$tap_now}) / 1000)) ms"
	tap_then=$tap_now
}

# check DESCRIPTION COMMAND...: ok if COMMAND succeeds.
check() {
	local what="$1"

	shift
	if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# run COMMAND...: COMMAND's exit status in $rc, its output in $tmp/out and
# $tmp/err ($tmp: the caller's directory), for result to show on a failure.
# shellcheck disable=SC2154
run() {
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# result STATUS DESCRIPTION: ok if STATUS is 0; else not ok, with the exit
# status and stderr of what run ran last.
result() {
	if [ "$1" -eq 0 ]; then
		ok "$2"
	else
		not_ok "$2"
		echo "#   exit $rc; stderr: $(cat "$tmp/err")"
	fi
}

# tap_done: the summary line; returns 1 if anything failed.
tap_done() {
	if [ "$skipped" -eq 0 ]; then
		echo "$pass passed, $fail failed"
	else
		echo "$pass passed, $fail failed, $skipped skipped"
	fi
	[ "$fail" -eq 0 ]
}
