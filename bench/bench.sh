#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - `make bench`: build the benchmark, run it in one guest boot,
# keep the CSV files in bench/results/ and draw the plots.
#
#   bench/bench.sh [--ko PATH/TO/nslogger.ko] [--kver KVER]
#
# Environment: NSLOG_BENCH_QUICK=1 runs a short version (fewer cases and
# repetitions; results in build/bench/quick/, not bench/results/).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
ko=$project/nslogger.ko
kver=

while [ $# -gt 0 ]; do
	case "$1" in
	--ko)	ko=$2; shift ;;
	--kver)	kver=$2; shift ;;
	*)	echo "usage: bench/bench.sh [--ko PATH] [--kver KVER]" >&2; exit 2 ;;
	esac
	shift
done
# The kernel the guest boots exists once deps.sh installed it.
"$project/scripts/deps.sh" vm bench
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")
results=$here/results
[ "${NSLOG_BENCH_QUICK:-0}" = 1 ] && results=$build/quick

mkdir -p "$build" "$results"

# The user-space harness.
make -s -C "$project" bench-progs

# The in-kernel benchmark: its sources and the ring's, built out of tree.
kb=$build/kbench
rm -rf "$kb"
mkdir -p "$kb/src"
cp "$here/kbench/Kbuild" "$here/kbench/kbench.c" "$kb/"
cp "$project/src/ring.c" "$project/src/ring.h" "$kb/src/"
cp -r "$project/include" "$kb/include"
make -s -C "/lib/modules/$kver/build" M="$kb" modules

# The ring's append path on the host's own CPU (ring.c built as user space
# against bench/kbench/shim/), and the writers the host has without the
# module: what the emulated numbers stand for on real hardware.
${CC:-gcc} -std=gnu11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE \
	-I"$here/kbench/shim" -I"$project/src" -o "$build/uring" \
	"$here/kbench/uring.c" "$project/src/ring.c"
"$build/uring" >"$build/uring.csv"
"$build/writebench" -r 9 -t 30 -l host w=null w=pipe w=unix w=null,p=4076 \
	w=pipe,p=4076 w=unix,p=4076 >"$build/host-writers.csv"

# A copy of the module, so that a rebuild meanwhile does not change it.
cp "$ko" "$build/nslogger.ko"

load() {
	echo "$(date -u +%FT%TZ),$1,\"$(cut -d' ' -f1-3 /proc/loadavg)\",$(nproc)"
}
{
	echo "when,what,loadavg_1_5_15,host_cpus"
	load before
	echo "$(date -u +%FT%TZ),tree,$(git -C "$project" describe --always --dirty 2>/dev/null || echo unknown),$(nproc)"
} >"$build/host.csv"

start=$(date +%s)
rc=0
NSLOG_BENCH_QUICK=${NSLOG_BENCH_QUICK:-0} \
"$project/tests/containers/vm.sh" --kver "$kver" --ko "$build/nslogger.ko" \
	--params "max_namespaces=16384" --mem 2G --timeout 2400 \
	--log "$build/console.log" --out "$build/out" -- \
	"$here/run.sh" "$build/writebench" "$kb/nslog_kbench.ko" || rc=$?
end=$(date +%s)
load after >>"$build/host.csv"
echo "$(date -u +%FT%TZ),duration_s,$((end - start)),$(nproc)" >>"$build/host.csv"
top -bn1 | sed -n '7,12p' >"$build/host-top.txt" || true

cp "$build"/out/*.csv "$results/"
cp "$build/host.csv" "$build/uring.csv" "$results/"
{ sed -n 1p "$build/out/writers.csv"; cat "$build/host-writers.csv"; } >"$results/host-writers.csv"
"$here/plot.sh" "$results"
echo "bench: results in ${results#"$project"/}, $((end - start)) s (guest rc=$rc)"
exit $rc
