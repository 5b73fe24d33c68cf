#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tap-times.sh - the slowest steps of a test log written with
# NSLOG_TAP_TIMES=1 (tests/lib/tap.sh): each result with the time taken
# since the result before it, and the scenario it is in.
#
#   NSLOG_TAP_TIMES=1 make test-vm ... >vm.log
#   scripts/tap-times.sh [-n COUNT] vm.log     (default: the 30 slowest)
set -eu

n=30
if [ "${1:-}" = -n ]; then
	n=$2
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: tap-times.sh [-n COUNT] LOG" >&2; exit 2; }

# The console may carry carriage returns and kernel lines between ours.
tr -d '\r' <"$1" | awk '
	/=== scenario [a-z0-9_-]+$/ { scen = $3 }
	/^# \+[0-9]+ ms$/ { ms = substr($2, 2); next }
	/^(not )?ok / && ms != "" {
		line = $0
		sub(/^(not )?ok - /, "", line)
		printf "%8d ms  %-10s %s\n", ms, scen, substr(line, 1, 90)
		ms = ""
	}' | sort -rn | head -n "$n"
