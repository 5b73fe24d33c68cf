#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nslogd.sh - records per second through nslogd into the ring, against a
# bare datagram receiver and against writes straight to the node, and
# nslogd's memory at two ring sizes, in one guest boot.
#
#   bench/nslogd.sh [--kver KVER] [--ko PATH] [--rounds N] [--count N]
#                   [--qlen N] [--perf LINES] [--out DIR] [--icount]
#
# The guest (bench/nslogd-run.sh) runs, in an IPC namespace of its own, the
# static nslogd (build/tools/nslogd) and a bare receiver (logdbench recv:
# recvmmsg() in nslogd's batches, counting only); in each of N rounds
# (default 5), for 1, 2 and 4 writer threads, COUNT records (default
# 20000) of liblog's shape go through each of them and straight to
# /dev/log_main with writev() (bench/logdbench.c).  A record has landed
# when the ring's head_seq (nslogd, direct) or the receiver's count says
# so; the rate is records landed over the time from the writers' start to
# the last landing.  Then nslogd's VmRSS and VmHWM with its main ring at
# 64 KiB and at 16 MiB (ns_max_size raised to 16M for that), at start,
# with the ring wrapped twice, and after getStatistics.
#
# Writes DIR/nslogd.csv (logdbench's columns, labels r1..rN), rss.csv,
# statistics.csv, fill.csv, env.csv, host.csv, and prints per thread count
# the median over rounds (min-max) of records per second of each target,
# of the datagrams each receiver took a wake-up, and of the ratios
# nslogd/bare and direct/bare; with --icount also instructions per record;
# then the memory.  Not part of `make bench`.
#
# --icount boots one vCPU under QEMU's -icount shift=0, as bench/relay.sh
# does: the guest's nanosecond is one instruction, so rates become
# instructions per record, the same whatever else the machine does; the
# memory part is left out there (NSLOG_LOGDB_RSS=0), its figures being
# the same.  Without it: two vCPUs on the wall clock.
# --qlen sets net.unix.max_dgram_qlen in the guest (default 600, as
# Android's init.rc does).  --perf LINES: also a system-wide perf profile
# of 4 threads through nslogd and through the bare receiver, the top LINES
# by command and symbol in DIR/perf-nslogd.txt and perf-bare.txt (under
# --icount, cpu-clock samples count instructions).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
kver=
ko=$project/nslogger.ko
rounds=5
count=20000
qlen=600
perf=
out=
icount=0

while [ $# -gt 0 ]; do
	case "$1" in
	--kver)		kver=$2; shift ;;
	--ko)		ko=$2; shift ;;
	--rounds)	rounds=$2; shift ;;
	--count)	count=$2; shift ;;
	--qlen)		qlen=$2; shift ;;
	--perf)		perf=$2; shift ;;
	--out)		out=$2; shift ;;
	--icount)	icount=1 ;;
	*)		echo "usage: bench/nslogd.sh [--kver K] [--ko PATH] [--rounds N] [--count N] [--qlen N] [--perf LINES] [--out DIR] [--icount]" >&2
			exit 2 ;;
	esac
	shift
done
# The kernel the guest boots exists once deps.sh installed it.
"$project/scripts/deps.sh" vm
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")
if [ -z "$out" ]; then
	out=$build/nslogd-wall
	[ "$icount" = 1 ] && out=$build/nslogd-icount
fi

mkdir -p "$build" "$out"
make -s -C "$project" bench-progs tools "$project/build/tests/logd_test"
# Copies, so that a rebuild meanwhile changes none of them.
cp "$ko" "$out/nslogger.ko"
cp "$build/logdbench" "$project/build/tools/nslogd" \
	"$project/build/tests/logd_test" "$out/"

vmopts=(--smp 2 --mem 2G)
rss=1
if [ "$icount" = 1 ]; then
	# -icount needs single-threaded TCG.
	export NSLOG_VM_ACCEL=tcg
	export NSLOG_VM_QEMU_ARGS="${NSLOG_VM_QEMU_ARGS:-} -icount shift=0"
	vmopts=(--smp 1 --mem 1G)
	rss=0
fi
load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
NSLOG_LOGDB_ROUNDS=$rounds NSLOG_LOGDB_COUNT=$count NSLOG_LOGDB_QLEN=$qlen \
NSLOG_LOGDB_RSS=$rss NSLOG_LOGDB_PERF=$perf "$project/tests/containers/vm.sh" --kver "$kver" \
	--ko "$out/nslogger.ko" "${vmopts[@]}" --timeout 3600 \
	--log "$out/console.log" --out "$out/guest" -- \
	"$here/nslogd-run.sh" "$out/logdbench" "$out/nslogd" "$out/logd_test"
end=$(date +%s)
cp "$out"/guest/*.csv "$out/"
cp "$out/guest/nslogd.err" "$out"/guest/*.txt "$out/" 2>/dev/null || true
{
	echo "what,value"
	echo "tree,$(git -C "$project" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "duration_s,$((end - start))"
	echo "icount,$icount"
	echo "loadavg_before,\"$load0\""
	echo "loadavg_after,\"$(cut -d' ' -f1-3 /proc/loadavg)\""
} >"$out/host.csv"

# Per thread count: the median over rounds (min-max) of records landed per
# second, of the ratios to the bare receiver in the same round, and with
# -icount of instructions per record (the guest's ns per record).
python3 - "$out" "$icount" <<'PY'
import csv, os, statistics, sys
out, icount = sys.argv[1], sys.argv[2] == "1"
rows = [r for r in csv.DictReader(open(os.path.join(out, "nslogd.csv")))]
rate = {}
batch = {}
for r in rows:
    key = (r["label"], int(r["threads"]), r["name"])
    rate[key] = (float(r["landed_per_s"]), int(r["landed"]) == int(r["sent"]))
    if int(r["rx_waits"]):
        batch[key] = int(r["landed"]) / int(r["rx_waits"])
labels = sorted({k[0] for k in rate})
names = ["nslogd", "bare", "dev"]
def cell(vals, fmt):
    return (fmt % statistics.median(vals)) + " (" + (fmt % min(vals)) + \
        "-" + (fmt % max(vals)) + ")"
print("median over %d rounds (min-max); records landed per second%s" %
      (len(labels), ", guest ns = instructions" if icount else ""))
short = sum(1 for v in rate.values() if not v[1])
if short:
    print("  %d runs had fewer records land than were sent" % short)
for th in sorted({k[1] for k in rate}):
    print("threads %d" % th)
    for n in names:
        v = [rate[(l, th, n)][0] for l in labels if (l, th, n) in rate]
        if not v:
            continue
        line = "  %-16s %34s" % (n, cell(v, "%.0f"))
        if icount:
            line += "   instructions/record %s" % cell([1e9 / x for x in v], "%.0f")
        b = [batch[(l, th, n)] for l in labels if (l, th, n) in batch]
        if b:
            line += "   records/receiver wait %s" % cell(b, "%.1f")
        print(line)
    for a, what in (("nslogd", "nslogd/bare"), ("dev", "direct/bare")):
        v = [rate[(l, th, a)][0] / rate[(l, th, "bare")][0] for l in labels
             if (l, th, a) in rate and (l, th, "bare") in rate]
        if v:
            print("  %-16s %34s" % (what, cell(v, "%.3f")))
path = os.path.join(out, "rss.csv")
if os.path.exists(path):
    print("memory (kB)      ring bytes     VmRSS     VmHWM")
    for r in csv.DictReader(open(path)):
        print("  %-18s %10s %9s %9s" % (r["what"], r["ring_bytes"],
                                       r["vmrss_kb"], r["vmhwm_kb"]))
path = os.path.join(out, "statistics.csv")
if os.path.exists(path):
    for r in csv.DictReader(open(path)):
        print("getStatistics 0 at %s bytes: %s ms, %s bytes of reply" %
              (r["ring_bytes"], r["statistics_ms"], r["statistics_bytes"]))
PY
echo "nslogd: guest $((end - start)) s; results in $out"
