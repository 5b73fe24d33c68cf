#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prof.sh - where a write's time goes: perf in the guest, system-wide.
#
#   make module && scripts/deps.sh vm && cc ... (bench/bench.sh builds
#   build/bench/writebench), then:
#   tests/containers/vm.sh --ko nslogger.ko -- bench/prof.sh [PAYLOAD [LINES]]
#
# Prints a short interleaved run of /dev/null, nslogger and trace_marker,
# then the top LINES symbols of `perf record -a -e cpu-clock` while
# nslogger is written with PAYLOAD-byte records.  Not part of make bench.

set -euo pipefail

wb=${NSLOG_PROJECT:-.}/build/bench/writebench
p=${1:-100}
lines=${2:-50}
cd /tmp
"$wb" -r 3 -t 20 w=null,p="$p" w=nslog,p="$p" w=marker,p="$p"
perf record -q -a -e cpu-clock -o /tmp/perf.data -- \
	"$wb" -r 20 -t 50 w=nslog,p="$p" >/dev/null 2>&1
perf report -i /tmp/perf.data --stdio --no-children --sort sym -g none 2>/dev/null |
	grep -v -e '^$' -e '^#' | sed -n "1,${lines}p"
