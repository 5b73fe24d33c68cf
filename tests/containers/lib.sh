# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - what every VM scenario shares; sourced, never run:
#
#   . "$(dirname "$0")/lib.sh"
#
# TAP results (ok, not_ok, skip, check and the counts $pass, $fail and
# $skipped: tests/lib/tap.sh, which suite.sh's counting relies on), the
# module's load state, waiting for a condition, memory readings that
# compare like with like, and kmemleak.  tests/debug/guest.sh,
# tests/stress/run.sh and tests/stress/faults.sh use it too.  A scenario
# keeps its own cleanup trap and its own $tmp, which expect() uses for its
# scratch files.

# shellcheck source=tests/lib/tap.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"

# repeat FULL ONCE: a count of repetitions (loop cycles, churned objects,
# seconds of flooding): FULL, or ONCE when NSLOG_REPEAT=once.  `make test`
# runs the long repetitions in full on Debian's 6.1 kernel only and every
# scenario once through, with the same assertions, on sid's and the debug
# kernel (README.md, "The test suite's budget").
repeat() {
	case "${NSLOG_REPEAT:-full}" in
	full) echo "$1" ;;
	once) echo "$2" ;;
	*) echo "lib.sh: NSLOG_REPEAT is '$NSLOG_REPEAT', not full or once" >&2; return 1 ;;
	esac
}

# need GROUP TOOL...: each TOOL is a command here, or the scenario fails
# (a missing helper is an install bug, never a reason to skip the
# scenario's core: scripts/deps.sh GROUP installs it).
need() {
	local group=$1 t missing=

	shift
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 || missing+=" $t"
	done
	[ -z "$missing" ] && return 0
	not_ok "$(basename "$0"): missing${missing} (scripts/deps.sh $group installs it)"
	exit 1
}

# expect DESCRIPTION WANT COMMAND...: COMMAND exits 0 and prints exactly
# WANT (lines; empty WANT: nothing).  On a mismatch the difference and
# COMMAND's stderr are shown as TAP comments.
expect() {
	local what=$1 want=$2 rc=0

	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ -n "$want" ]; then printf '%s\n' "$want" >"$tmp/want"; else : >"$tmp/want"; fi
	if [ "$rc" -eq 0 ] && cmp -s "$tmp/want" "$tmp/out"; then
		ok "$what"
	else
		not_ok "$what"
		echo "#   exit status $rc"
		diff -u "$tmp/want" "$tmp/out" | sed 's/^/#   /' || true
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}

# Processes a scenario leaves running: bg+=($!).  stop_bg kills and reaps
# them.  SIGKILL: unshare --fork ignores SIGTERM while it waits for its
# child, and --kill-child then kills the container's pid 1.
bg=()
stop_bg() {
	local p

	for p in "${bg[@]}"; do
		kill -KILL "$p" 2>/dev/null || true
		wait "$p" 2>/dev/null || true
	done
	bg=()
}

# wait_for COMMAND...: until it succeeds, at most $wait_for_s seconds
# (default 10), polling every 50 ms.
wait_for() {
	local i

	for ((i = 0; i < ${wait_for_s:-10} * 20; i++)); do
		"$@" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

loaded() { grep -q '^nslogger ' /proc/modules; }

# unload: rmmod nslogger if it is loaded.  The last file of a process just
# reaped may still be on its way out, so a refusal is retried for 5 s.
unload() {
	local i

	loaded || return 0
	for i in {1..50}; do
		rmmod nslogger 2>/dev/null && return 0
		sleep 0.1
	done
	rmmod nslogger
}

# Log sets besides the initial one: one "main" line a set in the listing
# (nslogfs streams have lines of their own).
sets() { local n; n=$(awk '$5 == "main"' /proc/nslogger/namespaces | wc -l); echo $((n - 1)); }
drained() { [ "$(sets)" = 0 ]; }

meminfo() {	# FIELD: its value in /proc/meminfo, in kB
	local k v _

	while read -r k v _; do
		[ "$k" = "$1:" ] && { echo "$v"; return; }
	done </proc/meminfo
	echo 0
}

# drop_caches: free what the kernel can give back on request.  Shrinking
# every slab cache also empties KASAN's quarantine of freed objects, which
# on the debug kernel would otherwise read as megabytes of slab.
drop_caches() {
	local f

	echo 3 >/proc/sys/vm/drop_caches
	for f in /sys/kernel/slab/*/shrink; do
		[ -w "$f" ] && echo 1 >"$f" 2>/dev/null
	done
	echo 3 >/proc/sys/vm/drop_caches
}

# kmemleak_scan FILE: have kmemleak scan twice and write its suspects to
# FILE (empty: none).  Returns 2, FILE untouched, on a kernel without it.
kmemleak_scan() {
	local k=/sys/kernel/debug/kmemleak

	[ -w "$k" ] || return 2
	# An object is reported once it has gone unreferenced through a scan
	# and is older than kmemleak's minimum age (5 s).
	sleep 6
	echo scan >"$k"
	echo scan >"$k"
	cat "$k" >"$1"
}

# settle_memory: drop caches, and let objects freed after an RCU grace
# period (files, namespaces' leftovers) and kworkers catch up, so that two
# readings compare like with like.
settle_memory() {
	sync
	drop_caches
	sleep 1
	drop_caches
}
