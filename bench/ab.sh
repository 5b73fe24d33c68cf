#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh - before and after: two builds of the module in one guest boot.
#
#   bench/ab.sh [--kver KVER] [--rounds N] [--out DIR] [--icount] A.ko B.ko
#
# The guest (bench/ab-run.sh) loads A, runs one interleaved writebench of
# /dev/null, nslogger and trace_marker at every payload and a reader's drain
# of a full ring, unloads it, loads B,
# runs the same, and so on for N rounds each (default 6), alternating, so a
# slow spell of the machine falls on both builds alike.  Every ratio is
# nslogger against the /dev/null case of the same writebench run.  Writes
# DIR/ab.csv (writebench's columns, labelled A-1, B-1, ...) and prints the
# median ratio per build and payload, and the drain's ns per record.  Not
# part of `make bench`.
#
# --icount boots the guest with one vCPU under QEMU's -icount shift=0: its
# clock then counts executed instructions (one per nanosecond), so the
# figures repeat to about 0.1% whatever else the machine does.  They
# under-weight serialising instructions and over-weight rep-string copies:
# report them beside the wall-clock ratios, not instead of them.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
kver=
rounds=6
out=$build/ab
icount=0

while [ $# -gt 2 ]; do
	case "$1" in
	--kver)		kver=$2; shift ;;
	--rounds)	rounds=$2; shift ;;
	--out)		out=$2; shift ;;
	--icount)	icount=1 ;;
	*)		break ;;
	esac
	shift
done
[ $# = 2 ] || { echo "usage: bench/ab.sh [--kver K] [--rounds N] [--out DIR] [--icount] A.ko B.ko" >&2; exit 2; }
# The kernel the guest boots exists once deps.sh installed it.
"$project/scripts/deps.sh" vm
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")

mkdir -p "$build" "$out"
make -s -C "$project" bench-progs
# Copies, so that a rebuild meanwhile changes neither.
cp "$1" "$out/A.ko"
cp "$2" "$out/B.ko"

vmopts=(--smp 2)
if [ "$icount" = 1 ]; then
	# -icount needs single-threaded TCG.
	export NSLOG_VM_ACCEL=tcg
	export NSLOG_VM_QEMU_ARGS="${NSLOG_VM_QEMU_ARGS:-} -icount shift=0"
	vmopts=(--smp 1)
fi
NSLOG_AB_ROUNDS=$rounds "$project/tests/containers/vm.sh" --kver "$kver" \
	"${vmopts[@]}" --mem 1G --timeout 3600 --log "$out/console.log" \
	--out "$out/guest" -- \
	"$here/ab-run.sh" "$build/writebench" "$out/A.ko" "$out/B.ko"
cp "$out/guest/ab.csv" "$out/ab.csv"

# Median over rounds of the batch ns/write (column bns_med) against
# /dev/null, per build and payload; nslogl is the limited writer.  Then
# the drain: median over rounds of ns per record read, and B against A.
python3 - "$out/ab.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
null = {(r["label"], r["payload"]): float(r["bns_med"])
        for r in rows if r["writer"] == "null"}
ratio = {}
drain = {}
for r in rows:
    if r["writer"] == "drain":
        drain.setdefault((r["label"].split("-")[0], int(r["payload"])),
                         []).append(float(r["bns_med"]))
    if r["writer"] in ("null", "drain"):
        continue
    build = r["label"].split("-")[0]
    # The case's name without its payload: nslog, nslogv, marker, nslogl.
    key = (build, int(r["payload"]), r["name"].rsplit("-", 1)[0])
    ratio.setdefault(key, []).append(
        float(r["bns_med"]) / null[(r["label"], r["payload"])])
writers = ["nslog", "nslogv", "marker", "nslogl"]
print("build payload " + " ".join("%9s" % w for w in writers) +
      "   (median over rounds of ns/write over /dev/null's, same run)")
for build in sorted({k[0] for k in ratio}):
    for p in sorted({k[1] for k in ratio}):
        cells = ["%8.2fx" % statistics.median(ratio[(build, p, w)])
                 if (build, p, w) in ratio else "%9s" % "-" for w in writers]
        print("%-5s %7d %s" % (build, p, " ".join(cells)))
if drain:
    print("drain, a version 1 reader: median over rounds of ns per record read")
    for p in sorted({k[1] for k in drain}):
        med = {b: statistics.median(drain[(b, p)])
               for b in ("A", "B") if (b, p) in drain}
        line = "  ".join("%s %8.1f ns" % (b, v) for b, v in sorted(med.items()))
        if len(med) == 2:
            line += "   B/A %.3f" % (med["B"] / med["A"])
        print("%7d  %s" % (p, line))
PY
