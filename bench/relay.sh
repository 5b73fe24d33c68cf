#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# relay.sh - a relayed record (NSLOG_IOC_RELAY) against a plain write(), and
# a logd-style receiver with and without the relay, in one guest boot.
#
#   bench/relay.sh [--kver KVER] [--ko PATH] [--rounds N] [--out DIR] [--icount]
#
# The guest (bench/relay-run.sh) runs N rounds (default 3) of one
# interleaved writebench: at 32, 128 and 1024 bytes, /dev/null, write() to
# /dev/log_main, NSLOG_IOC_RELAY into the same log naming a live process,
# a bare AF_UNIX datagram receiver fed by a sender process, and that
# receiver relaying each datagram.  Writes DIR/relay.csv (writebench's
# columns, one label per round) and DIR/env.csv, and prints, per payload,
# the median over rounds (and the range) of records per second and of the
# ratios relayed/plain and receiver+relay/bare receiver.  Not part of
# `make bench`.
#
# --icount boots one vCPU under QEMU's -icount shift=0, as bench/ab.sh does:
# the guest clock counts instructions, so the figures repeat whatever else
# the machine does.  Without it: two vCPUs on the wall clock, as `make bench`.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
kver=
ko=$project/nslogger.ko
rounds=3
out=
icount=0

while [ $# -gt 0 ]; do
	case "$1" in
	--kver)		kver=$2; shift ;;
	--ko)		ko=$2; shift ;;
	--rounds)	rounds=$2; shift ;;
	--out)		out=$2; shift ;;
	--icount)	icount=1 ;;
	*)		echo "usage: bench/relay.sh [--kver K] [--ko PATH] [--rounds N] [--out DIR] [--icount]" >&2
			exit 2 ;;
	esac
	shift
done
# The kernel the guest boots exists once deps.sh installed it.
"$project/scripts/deps.sh" vm
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")
if [ -z "$out" ]; then
	out=$build/relay-wall
	[ "$icount" = 1 ] && out=$build/relay-icount
fi

mkdir -p "$build" "$out"
make -s -C "$project" bench-progs
# Copies, so that a rebuild meanwhile changes neither.
cp "$ko" "$out/nslogger.ko"
cp "$build/writebench" "$out/writebench"

vmopts=(--smp 2 --mem 2G)
if [ "$icount" = 1 ]; then
	# -icount needs single-threaded TCG.
	export NSLOG_VM_ACCEL=tcg
	export NSLOG_VM_QEMU_ARGS="${NSLOG_VM_QEMU_ARGS:-} -icount shift=0"
	vmopts=(--smp 1 --mem 1G)
fi
load0=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s)
NSLOG_RELAY_ROUNDS=$rounds "$project/tests/containers/vm.sh" --kver "$kver" \
	--ko "$out/nslogger.ko" "${vmopts[@]}" --timeout 1200 \
	--log "$out/console.log" --out "$out/guest" -- \
	"$here/relay-run.sh" "$out/writebench"
end=$(date +%s)
cp "$out/guest/relay.csv" "$out/guest/env.csv" "$out/"
{
	echo "what,value"
	echo "tree,$(git -C "$project" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "duration_s,$((end - start))"
	echo "loadavg_before,\"$load0\""
	echo "loadavg_after,\"$(cut -d' ' -f1-3 /proc/loadavg)\""
} >"$out/host.csv"

# Records per second per round, by the batch median (bns_med: the cost
# while the vCPU runs) and by the wall time (wps_med: all records over all
# the time, the sender's included for a receiver); then per payload the
# median over rounds and the range.
python3 - "$out/relay.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rate = {}
for r in rows:
    if r["bns_med"] == "NA":
        continue
    # The case's name without its payload: nslog, relay, recv1cpu, ...
    key = (r["label"], int(r["payload"]), r["name"].rsplit("-", 1)[0])
    rate[key] = (1e9 / float(r["bns_med"]), float(r["wps_med"]))
labels = sorted({k[0] for k in rate})
names = ["null", "nslog", "relay", "recv", "recvrelay", "recv1cpu",
         "recvrelay1cpu"]
pairs = [("relay", "nslog", "relayed/plain"),
         ("recvrelay", "recv", "receiver+relay/bare"),
         ("recvrelay1cpu", "recv1cpu", "same, one vCPU")]
def cell(vals, fmt):
    return (fmt % statistics.median(vals)) + " (" + (fmt % min(vals)) + \
        "-" + (fmt % max(vals)) + ")"
print("median over %d rounds (min-max)" % len(labels))
for p in sorted({k[1] for k in rate}):
    print("payload %d%28s %28s" % (p, "records/s, batch", "records/s, wall"))
    for n in names:
        v = [rate[(l, p, n)] for l in labels if (l, p, n) in rate]
        if v:
            print("  %-20s %28s %28s" % (n, cell([x[0] for x in v], "%.0f"),
                                         cell([x[1] for x in v], "%.0f")))
    for a, b, what in pairs:
        v = [(rate[(l, p, a)], rate[(l, p, b)]) for l in labels
             if (l, p, a) in rate and (l, p, b) in rate]
        if v:
            print("  %-20s %28s %28s" % (what,
                  cell([x[0] / y[0] for x, y in v], "%.3f"),
                  cell([x[1] / y[1] for x, y in v], "%.3f")))
PY
echo "relay: guest $((end - start)) s; results in $out"
