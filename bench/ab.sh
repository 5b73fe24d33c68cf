#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh - before and after: two builds of the module in one guest boot.
#
#   bench/ab.sh [--kver KVER] [--rounds N] [--out DIR] A.ko B.ko
#
# The guest (bench/ab-run.sh) loads A, runs one interleaved writebench of
# /dev/null, nslogger and trace_marker at every payload, unloads it, loads B,
# runs the same, and so on for N rounds each (default 6), alternating, so a
# slow spell of the machine falls on both builds alike.  Every ratio is
# nslogger against the /dev/null case of the same writebench run.  Writes
# DIR/ab.csv (writebench's columns, labelled A-1, B-1, ...) and prints the
# median ratio per build and payload.  Not part of `make bench`.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
project=$(cd "$here/.." && pwd)
build=$project/build/bench
kver=
rounds=6
out=$build/ab

while [ $# -gt 2 ]; do
	case "$1" in
	--kver)		kver=$2; shift ;;
	--rounds)	rounds=$2; shift ;;
	--out)		out=$2; shift ;;
	*)		break ;;
	esac
	shift
done
[ $# = 2 ] || { echo "usage: bench/ab.sh [--kver K] [--rounds N] [--out DIR] A.ko B.ko" >&2; exit 2; }
[ -n "$kver" ] || kver=$("$project/scripts/kver.sh")

"$project/scripts/deps.sh" vm
mkdir -p "$build" "$out"
make -s -C "$project" bench-progs
# Copies, so that a rebuild meanwhile changes neither.
cp "$1" "$out/A.ko"
cp "$2" "$out/B.ko"

NSLOG_AB_ROUNDS=$rounds "$project/tests/containers/vm.sh" --kver "$kver" \
	--mem 1G --timeout 1800 --log "$out/console.log" --out "$out/guest" -- \
	"$here/ab-run.sh" "$build/writebench" "$out/A.ko" "$out/B.ko"
cp "$out/guest/ab.csv" "$out/ab.csv"

# Median over rounds of the batch ns/write (column bns_med) against
# /dev/null, per build and payload.
python3 - "$out/ab.csv" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
null = {(r["label"], r["payload"]): float(r["bns_med"])
        for r in rows if r["writer"] == "null"}
ratio = {}
for r in rows:
    if r["writer"] == "null":
        continue
    build = r["label"].split("-")[0]
    key = (build, int(r["payload"]), r["writer"])
    ratio.setdefault(key, []).append(
        float(r["bns_med"]) / null[(r["label"], r["payload"])])
writers = ["nslog", "nslogv", "marker"]
print("build payload " + " ".join("%9s" % w for w in writers) +
      "   (median over rounds of ns/write over /dev/null's, same run)")
for build in sorted({k[0] for k in ratio}):
    for p in sorted({k[1] for k in ratio}):
        cells = ["%8.2fx" % statistics.median(ratio[(build, p, w)])
                 if (build, p, w) in ratio else "%9s" % "-" for w in writers]
        print("%-5s %7d %s" % (build, p, " ".join(cells)))
PY
